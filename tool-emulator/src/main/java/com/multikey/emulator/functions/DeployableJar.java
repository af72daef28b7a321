package com.multikey.emulator.functions;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.serialization.PojoSerializer;
import com.amazonaws.services.lambda.runtime.serialization.events.LambdaEventSerializers;
import com.multikey.emulator.template.SamTemplate;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;

/**
 * A function's deployable jar, where its {@code CodeUri} in {@code template.yaml} points, run as Lambda runs
 * it: in its own class loader whose parent sees only the JDK and the runtime's core interfaces
 * ({@code com.amazonaws.services.lambda.runtime}, e.g. {@link Context}), so nothing comes from the test's class
 * path; events read with aws-lambda-java-serialization against that loader, as the Java runtime reads them.
 */
public final class DeployableJar implements AutoCloseable {

    private static final String RUNTIME_PACKAGE = Context.class.getPackageName();

    private final String function;
    private final Path path;
    private final String handlerClass;
    private final Set<String> entries;
    private final URLClassLoader loader;

    private DeployableJar(String function, Path path, String handlerClass, Set<String> entries) throws IOException {
        this.function = function;
        this.path = path;
        this.handlerClass = handlerClass;
        this.entries = entries;
        this.loader = new URLClassLoader("deployable-" + function, new URL[] {path.toUri().toURL()}, new RuntimeInterfacesOnly());
    }

    /**
     * The jar and handler class {@code template.yaml} names for that function, as a deploy with the template's parameter
     * values creates it (a handler chosen by a Condition); the jar must have been packaged.
     */
    public static DeployableJar of(SamTemplate template, String functionLogicalId) {
        Map<String, Object> properties = template.deployed().properties(functionLogicalId);
        Path path = template.path().getParent().resolve((String) properties.get("CodeUri"));
        if (!Files.isRegularFile(path)) {
            throw new MissingFunctionJarException(functionLogicalId, path);
        }
        String handler = (String) properties.get("Handler");
        try (JarFile jar = new JarFile(path.toFile())) {
            Set<String> entries = new HashSet<>();
            jar.stream().map(ZipEntry::getName).forEach(entries::add);
            return new DeployableJar(functionLogicalId, path, handler.substring(0, handler.indexOf("::")), entries);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + path, e);
        }
    }

    public Path path() {
        return path;
    }

    public long sizeBytes() {
        try {
            return Files.size(path);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public String handlerClassName() {
        return handlerClass;
    }

    /** Entry names (e.g. {@code com/multikey/router/RouterHandler.class}). */
    public Set<String> entries() {
        return Set.copyOf(entries);
    }

    public boolean hasClass(String binaryName) {
        return entries.contains(binaryName.replace('.', '/') + ".class");
    }

    public ClassLoader loader() {
        return loader;
    }

    /** The handler class, loaded from the jar. */
    public Class<?> handlerClass() throws ClassNotFoundException {
        return Class.forName(handlerClass, false, loader);
    }

    /** A handler built by its environment constructor, as a local runner does, with the jar as context class loader. */
    public Object newHandler(Map<String, String> environment) throws Throwable {
        Constructor<?> constructor = handlerClass().getConstructor(Map.class);
        return inJar(() -> constructor.newInstance(environment));
    }

    /** The event type of the handler's {@code handleRequest}, loaded from the jar, as the runtime finds it. */
    public Class<?> eventType() throws ClassNotFoundException {
        return handleRequest().getParameterTypes()[0];
    }

    /** Reads the event JSON as the Lambda Java runtime does and calls {@code handleRequest}. */
    public Object invoke(Object handler, Path eventJson, Context context) throws Throwable {
        Method handleRequest = handleRequest();
        return inJar(() -> {
            PojoSerializer<?> serializer = LambdaEventSerializers.serializerFor(handleRequest.getParameterTypes()[0], loader);
            Object event;
            try (InputStream in = Files.newInputStream(eventJson)) {
                event = serializer.fromJson(in);
            }
            return handleRequest.invoke(handler, event, context);
        });
    }

    private Method handleRequest() throws ClassNotFoundException {
        for (Method method : handlerClass().getMethods()) {
            if (method.getName().equals("handleRequest") && method.getParameterCount() == 2 && !method.isBridge()
                    && method.getParameterTypes()[1] == Context.class) {
                return method;
            }
        }
        throw new IllegalStateException(handlerClass + " has no handleRequest(event, Context)");
    }

    private interface JarCall {
        Object call() throws Exception;
    }

    private Object inJar(JarCall call) throws Throwable {
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(loader);
        try {
            return call.call();
        } catch (InvocationTargetException e) {
            throw e.getCause();
        } finally {
            thread.setContextClassLoader(previous);
        }
    }

    /**
     * Classes that code in the jar can reach but that are not in it, among the packages a build leaves out in part:
     * see {@link JarClassFiles#missingReachableClasses}.
     *
     * @return missing class by a class that names it
     */
    public Map<String, String> missingReachableClasses(List<String> trimmed, Predicate<String> keptIfReached,
                                                       Predicate<String> loadedOnly, Set<String> cut) {
        return JarClassFiles.of(path).missingReachableClasses(trimmed, keptIfReached, loadedOnly, cut);
    }

    /** Classes whose class file version is above the given one (Java 21 is 65), outside META-INF/versions. */
    public Map<String, Integer> classesNewerThan(int classFileMajorVersion) {
        return JarClassFiles.of(path).classesNewerThan(classFileMajorVersion);
    }

    @Override
    public void close() throws IOException {
        loader.close();
    }

    @Override
    public String toString() {
        return function + " " + path;
    }

    /** The JDK, and the runtime's core interfaces from the caller's class path: what a function's jar sees besides itself. */
    private static final class RuntimeInterfacesOnly extends ClassLoader {

        RuntimeInterfacesOnly() {
            super("jdk-and-lambda-runtime-interfaces", ClassLoader.getPlatformClassLoader());
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            int dot = name.lastIndexOf('.');
            if (dot > 0 && name.substring(0, dot).equals(RUNTIME_PACKAGE)) {
                return Context.class.getClassLoader().loadClass(name);
            }
            return super.loadClass(name, resolve);
        }
    }
}

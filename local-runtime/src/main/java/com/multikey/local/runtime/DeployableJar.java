package com.multikey.local.runtime;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.serialization.PojoSerializer;
import com.amazonaws.services.lambda.runtime.serialization.events.LambdaEventSerializers;

import java.io.DataInputStream;
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
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;

/**
 * A function's deployable jar, where its {@code CodeUri} in {@code template.yaml} points, run as Lambda runs
 * it: in its own class loader whose parent sees only the JDK and the runtime's core interfaces
 * ({@code com.amazonaws.services.lambda.runtime}, e.g. {@link Context}), so nothing comes from the test's class
 * path; events read with aws-lambda-java-serialization against that loader, as the Java runtime reads them.
 */
public final class DeployableJar implements AutoCloseable {

    private static final String RUNTIME_PACKAGE = Context.class.getPackageName();
    private static final Pattern TYPE_IN_DESCRIPTOR = Pattern.compile("L([\\w/$]+);");

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

    /** The jar and handler class {@code template.yaml} names for that function; the jar must have been packaged. */
    public static DeployableJar of(SamTemplate template, String functionLogicalId) {
        Map<String, Object> properties = template.properties(functionLogicalId);
        Path path = template.path().getParent().resolve((String) properties.get("CodeUri"));
        if (!Files.isRegularFile(path)) {
            throw new IllegalStateException(functionLogicalId + ": no jar at its CodeUri " + path + " (run 'mvn verify' or 'mvn package')");
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
     * Classes that code in the jar can reach but that are not in it, among the packages a build leaves out
     * in part ({@code trimmed}, e.g. an SDK service package). Reach is followed through every class the jar
     * holds, starting from all of them but those {@code keptIfReached} selects (classes kept only because
     * something reaches them, e.g. a service's model), by the classes each one names in its constant pool,
     * field and method types included. It is not followed out of a {@code cut} class: an SDK client, whose
     * methods for the operations the function never calls are the only code naming what was left out (the
     * JVM loads, without linking, the classes it must check them against: the invocation proves those are
     * in). Nor is it followed out of a class {@code loadedOnly} selects when code of a trimmed package names
     * it: e.g. the request of an operation never called, which the SDK only checks a request's type against
     * (code outside the trimmed packages, which could build one, is followed through it).
     *
     * @return missing class by a class that names it
     */
    public Map<String, String> missingReachableClasses(List<String> trimmed, Predicate<String> keptIfReached,
                                                       Predicate<String> loadedOnly, Set<String> cut) {
        Map<String, Set<String>> references = new HashMap<>();
        try (JarFile jar = new JarFile(path.toFile())) {
            for (ZipEntry entry : jar.stream().toList()) {
                String name = entry.getName();
                if (name.endsWith(".class") && !name.startsWith("META-INF/")) {
                    try (InputStream in = jar.getInputStream(entry)) {
                        references.put(name.substring(0, name.length() - ".class".length()), classesNamedBy(in.readAllBytes()));
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + path, e);
        }
        Predicate<String> inTrimmed = name -> trimmed.stream().anyMatch(name::startsWith);
        Map<String, String> missing = new TreeMap<>();
        Set<String> followed = new HashSet<>();
        Deque<String> pending = new ArrayDeque<>();
        references.keySet().stream().filter(keptIfReached.negate()).forEach(pending::add);
        while (!pending.isEmpty()) {
            String type = pending.pop();
            if (!followed.add(type) || cut.contains(type)) {
                continue;
            }
            boolean trimmedCode = inTrimmed.test(type);
            for (String named : references.get(type)) {
                if (!references.containsKey(named)) {
                    if (inTrimmed.test(named)) {
                        missing.putIfAbsent(named, type);
                    }
                } else if (!(trimmedCode && loadedOnly.test(named))) {
                    pending.add(named);
                }
            }
        }
        return missing;
    }

    /** Classes whose class file version is above the given one (Java 21 is 65), outside META-INF/versions. */
    public Map<String, Integer> classesNewerThan(int classFileMajorVersion) {
        Map<String, Integer> newer = new TreeMap<>();
        try (JarFile jar = new JarFile(path.toFile())) {
            for (ZipEntry entry : jar.stream().toList()) {
                if (entry.getName().endsWith(".class") && !entry.getName().startsWith("META-INF/")) {
                    try (DataInputStream in = new DataInputStream(jar.getInputStream(entry))) {
                        in.readInt();
                        in.readUnsignedShort();
                        int major = in.readUnsignedShort();
                        if (major > classFileMajorVersion) {
                            newer.put(entry.getName(), major);
                        }
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + path, e);
        }
        return newer;
    }

    /** Internal names of the classes a class file names: class constants and the types in its descriptors. */
    static Set<String> classesNamedBy(byte[] classFile) throws IOException {
        DataInputStream in = new DataInputStream(new java.io.ByteArrayInputStream(classFile));
        in.skipBytes(8);
        int count = in.readUnsignedShort();
        Map<Integer, String> utf8 = new HashMap<>();
        Set<Integer> classNames = new HashSet<>();
        Set<Integer> descriptors = new HashSet<>();
        for (int i = 1; i < count; i++) {
            int tag = in.readUnsignedByte();
            switch (tag) {
                case 1 -> utf8.put(i, in.readUTF());
                case 3, 4 -> in.skipBytes(4);
                case 5, 6 -> {
                    in.skipBytes(8);
                    i++;
                }
                case 7 -> classNames.add(in.readUnsignedShort());
                case 16 -> descriptors.add(in.readUnsignedShort());
                case 8, 19, 20 -> in.skipBytes(2);
                case 12 -> {
                    in.skipBytes(2);
                    descriptors.add(in.readUnsignedShort());
                }
                case 9, 10, 11, 17, 18 -> in.skipBytes(4);
                case 15 -> in.skipBytes(3);
                default -> throw new IOException("unknown constant pool tag " + tag);
            }
        }
        Set<String> named = new HashSet<>();
        for (int index : classNames) {
            String name = utf8.get(index);
            if (name.startsWith("[")) {
                addTypes(name, named);
            } else {
                named.add(name);
            }
        }
        descriptors.forEach(index -> addTypes(utf8.get(index), named));
        // the class's own field and method descriptors are UTF-8 constants named by no other constant
        utf8.values().stream()
                .filter(s -> s.startsWith("(") || s.startsWith("[") || (s.startsWith("L") && s.endsWith(";")))
                .forEach(s -> addTypes(s, named));
        return named;
    }

    private static void addTypes(String descriptor, Set<String> into) {
        Matcher matcher = TYPE_IN_DESCRIPTOR.matcher(descriptor);
        while (matcher.find()) {
            into.add(matcher.group(1));
        }
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

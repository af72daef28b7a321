package com.multikey.emulator.functions;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.serialization.PojoSerializer;
import com.amazonaws.services.lambda.runtime.serialization.events.LambdaEventSerializers;
import com.multikey.emulator.template.SamTemplate;
import com.multikey.emulator.template.TemplateException;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * One {@code AWS::Serverless::Function} of the template, run as Lambda runs it: the handler class its
 * {@code Handler} names, loaded from the deployable jar its {@code CodeUri} points to in a class loader of its
 * own (a class the packaging left out fails here as it would in Lambda), built with the function's
 * environment; events go in and answers come out as JSON, read and written with aws-lambda-java-serialization
 * against the jar's classes, as the Lambda Java runtime does.
 */
public final class LocalFunction {

    private final String logicalId;
    private final DeployableJar jar;
    private final Object handler;
    private final Method handleRequest;
    private final Serialization serialization;
    private final int timeoutSeconds;
    private final int memoryMb;

    private LocalFunction(String logicalId, DeployableJar jar, Object handler, Method handleRequest, int timeoutSeconds,
                          int memoryMb) {
        this.logicalId = logicalId;
        this.jar = jar;
        this.handler = handler;
        this.handleRequest = handleRequest;
        this.serialization = serialization(logicalId, jar.loader());
        this.timeoutSeconds = timeoutSeconds;
        this.memoryMb = memoryMb;
    }

    private static Serialization serialization(String logicalId, ClassLoader functionLoader) {
        try {
            return new Serialization(logicalId, functionLoader);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("aws-lambda-java-serialization cannot be loaded for " + logicalId, e);
        }
    }

    public static LocalFunction create(SamTemplate template, String logicalId, Map<String, String> environment) {
        Map<String, Object> properties = template.properties(logicalId);
        String handlerName = (String) properties.get("Handler");
        if (handlerName == null || !handlerName.matches("[\\w.$]+::\\w+")) {
            throw new TemplateException(logicalId + ".Handler must look like package.Class::method, got " + handlerName);
        }
        String methodName = handlerName.substring(handlerName.indexOf("::") + 2);
        DeployableJar jar;
        try {
            jar = DeployableJar.of(template, logicalId);
        } catch (MissingFunctionJarException e) {
            // not the template's fault: the build has not made the jar yet
            throw e;
        } catch (IllegalStateException e) {
            throw new TemplateException(e.getMessage());
        }
        try {
            Class<?> type = jar.handlerClass();
            Method method = null;
            for (Method candidate : type.getMethods()) {
                if (candidate.getName().equals(methodName) && candidate.getParameterCount() == 2
                        && candidate.getParameterTypes()[1] == Context.class && !candidate.isBridge()
                        && candidate.getParameterTypes()[0] != Object.class) {
                    method = candidate;
                }
            }
            if (method == null) {
                throw new TemplateException(logicalId + ": " + type.getName() + " has no method " + methodName + "(Event, Context)");
            }
            Object handler = jar.newHandler(environment);
            return new LocalFunction(logicalId, jar, handler, method, setting(template, properties, "Timeout", 3),
                    setting(template, properties, "MemorySize", 128));
        } catch (ClassNotFoundException e) {
            throw new TemplateException(logicalId + ": handler class " + jar.handlerClassName() + " is not in " + jar.path());
        } catch (NoSuchMethodException e) {
            throw new TemplateException(logicalId + ": " + jar.handlerClassName() + " needs a public constructor taking the environment (Map)");
        } catch (TemplateException e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(logicalId + " could not start: " + e.getMessage(), e);
        }
    }

    private static int setting(SamTemplate template, Map<String, Object> properties, String name, int fallback) {
        Object own = properties.get(name);
        if (own instanceof Number number) {
            return number.intValue();
        }
        if (template.root().get("Globals") instanceof Map<?, ?> globals && globals.get("Function") instanceof Map<?, ?> function
                && function.get(name) instanceof Number number) {
            return number.intValue();
        }
        return fallback;
    }

    public String logicalId() {
        return logicalId;
    }

    /** The simple name of the handler's event type, e.g. {@code DynamodbEvent}. */
    public String eventTypeName() {
        return handleRequest.getParameterTypes()[0].getSimpleName();
    }

    /**
     * Reads the event from its JSON as the Lambda runtime would, invokes the handler and answers with the
     * handler's result as JSON ({@code null} when it returns nothing). What the handler throws comes out
     * unchanged.
     *
     * @throws IllegalArgumentException when the JSON is not an event of the handler's type
     */
    public String invoke(String eventJson) {
        return invoke(eventJson, newContext());
    }

    /** A context with the function's timeout and memory from the template, as each invocation gets. */
    public LocalContext newContext() {
        return new LocalContext(logicalId, memoryMb, timeoutSeconds * 1000L);
    }

    /** As {@link #invoke(String)}, with the given context (e.g. one whose remaining time a test controls). */
    public String invoke(String eventJson, LocalContext context) {
        Class<?> eventType = handleRequest.getParameterTypes()[0];
        ClassLoader loader = jar.loader();
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(loader);
        try {
            Object event;
            try {
                event = serialization.fromJson(eventType,
                        new ByteArrayInputStream(stripByteOrderMark(eventJson).getBytes(StandardCharsets.UTF_8)));
            } catch (InvocationTargetException e) {
                Throwable cause = e.getCause().getCause() != null ? e.getCause().getCause() : e.getCause();
                String detail = String.valueOf(cause.getMessage()).lines().findFirst().orElse("");
                throw new IllegalArgumentException("not a valid " + eventType.getSimpleName() + " event: " + detail, e.getCause());
            }
            Object result = handleRequest.invoke(handler, event, context);
            return result == null ? "null" : serialization.toJson(result);
        } catch (InvocationTargetException e) {
            if (e.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new IllegalStateException(logicalId + " failed: " + e.getCause(), e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(logicalId + " cannot be invoked", e);
        } finally {
            thread.setContextClassLoader(previous);
        }
    }

    /**
     * aws-lambda-java-serialization loaded for this function alone, above its jar's class loader: the library
     * keeps its readers by event class name, so one copy shared by functions whose jars each hold their own
     * event classes would read one function's events with another's classes (as a single Lambda runtime
     * never does).
     */
    private static final class Serialization {
        private final ClassLoader loader;
        private final ClassLoader functionLoader;
        private final Method serializerFor;
        private final Method fromJson;
        private final Method toJson;

        Serialization(String logicalId, ClassLoader functionLoader) throws ReflectiveOperationException {
            java.net.URL library = LambdaEventSerializers.class.getProtectionDomain().getCodeSource().getLocation();
            this.loader = new java.net.URLClassLoader("serialization-" + logicalId, new java.net.URL[] {library}, functionLoader);
            this.functionLoader = functionLoader;
            this.serializerFor = Class.forName(LambdaEventSerializers.class.getName(), true, loader)
                    .getMethod("serializerFor", Class.class, ClassLoader.class);
            Class<?> pojoSerializer = Class.forName(PojoSerializer.class.getName(), true, loader);
            this.fromJson = pojoSerializer.getMethod("fromJson", java.io.InputStream.class);
            this.toJson = pojoSerializer.getMethod("toJson", Object.class, java.io.OutputStream.class);
        }

        Object fromJson(Class<?> type, java.io.InputStream json) throws ReflectiveOperationException {
            return fromJson.invoke(serializerFor.invoke(null, type, functionLoader), json);
        }

        String toJson(Object value) throws ReflectiveOperationException {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            toJson.invoke(serializerFor.invoke(null, value.getClass(), functionLoader), value, out);
            return out.toString(StandardCharsets.UTF_8);
        }
    }

    /** An answer as a person reads it: a JSON string as its text, anything else as JSON. */
    public static String display(String answer) {
        if (answer.length() >= 2 && answer.startsWith("\"") && answer.endsWith("\"")) {
            try {
                return new com.fasterxml.jackson.databind.ObjectMapper().readTree(answer).asText();
            } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                return answer;
            }
        }
        return answer;
    }

    private static String stripByteOrderMark(String json) {
        return json.startsWith("\uFEFF") ? json.substring(1) : json;
    }
}

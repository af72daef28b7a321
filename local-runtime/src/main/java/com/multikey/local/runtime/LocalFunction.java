package com.multikey.local.runtime;

import com.amazonaws.services.lambda.runtime.Context;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Map;

/**
 * One {@code AWS::Serverless::Function} of the template, in this JVM: the class its {@code Handler} names,
 * built with the function's environment, invoked with events read the way the Lambda runtime reads them.
 */
public final class LocalFunction {

    private final String logicalId;
    private final Object handler;
    private final Method handleRequest;
    private final int timeoutSeconds;
    private final int memoryMb;

    private LocalFunction(String logicalId, Object handler, Method handleRequest, int timeoutSeconds, int memoryMb) {
        this.logicalId = logicalId;
        this.handler = handler;
        this.handleRequest = handleRequest;
        this.timeoutSeconds = timeoutSeconds;
        this.memoryMb = memoryMb;
    }

    public static LocalFunction create(SamTemplate template, String logicalId, Map<String, String> environment) {
        Map<String, Object> properties = template.properties(logicalId);
        String handlerName = (String) properties.get("Handler");
        if (handlerName == null || !handlerName.matches("[\\w.$]+::\\w+")) {
            throw new TemplateException(logicalId + ".Handler must look like package.Class::method, got " + handlerName);
        }
        String className = handlerName.substring(0, handlerName.indexOf("::"));
        String methodName = handlerName.substring(handlerName.indexOf("::") + 2);
        try {
            Class<?> type = Class.forName(className);
            Method method = null;
            for (Method candidate : type.getMethods()) {
                if (candidate.getName().equals(methodName) && candidate.getParameterCount() == 2
                        && candidate.getParameterTypes()[1] == Context.class && !candidate.isBridge()
                        && candidate.getParameterTypes()[0] != Object.class) {
                    method = candidate;
                }
            }
            if (method == null) {
                throw new TemplateException(logicalId + ": " + className + " has no method " + methodName + "(Event, Context)");
            }
            Object handler = type.getConstructor(Map.class).newInstance(environment);
            return new LocalFunction(logicalId, handler, method, setting(template, properties, "Timeout", 3),
                    setting(template, properties, "MemorySize", 128));
        } catch (ClassNotFoundException e) {
            throw new TemplateException(logicalId + ": handler class " + className + " is not on the class path");
        } catch (NoSuchMethodException e) {
            throw new TemplateException(logicalId + ": " + className + " needs a public constructor taking the environment (Map)");
        } catch (InvocationTargetException e) {
            throw new IllegalStateException(logicalId + " could not start: " + e.getCause().getMessage(), e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(logicalId + " could not be created: " + e.getMessage(), e);
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

    public Class<?> eventType() {
        return handleRequest.getParameterTypes()[0];
    }

    /** Reads an event for this function from its JSON, as the Lambda runtime would. */
    public Object readEvent(String json) {
        return LambdaEvents.read(json, eventType());
    }

    /** Invokes the handler; what it throws comes out unchanged. */
    public Object invoke(Object event) {
        try {
            return handleRequest.invoke(handler, event, new LocalContext(logicalId, memoryMb, timeoutSeconds * 1000L));
        } catch (InvocationTargetException e) {
            if (e.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new IllegalStateException(logicalId + " failed: " + e.getCause(), e.getCause());
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(logicalId + " cannot be invoked", e);
        }
    }
}

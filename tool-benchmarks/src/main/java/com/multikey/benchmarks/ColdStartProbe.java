package com.multikey.benchmarks;

import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.serialization.PojoSerializer;
import com.amazonaws.services.lambda.runtime.serialization.events.LambdaEventSerializers;
import com.multikey.emulator.functions.LocalContext;

import java.io.InputStream;
import java.lang.reflect.Field;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The child side of {@link ColdStart}: runs in a fresh JVM whose class path is one function's deployable jar
 * plus the Lambda runtime's own libraries (core interfaces, event serialization), with the function's
 * environment. It does what the Lambda Java runtime does for a cold start — loads the handler class, builds
 * the handler with its no-arg constructor, reads the event JSON as the runtime does, invokes — and prints
 * one line with the times. With {@code primed} it first runs the handler's SnapStart priming hook, as Lambda
 * does before taking a snapshot; that measures what priming moves out of the first batch in one JVM, not a
 * restore from a snapshot.
 *
 * <p>Arguments: handler class, event file, {@code plain} or {@code primed}.
 */
public final class ColdStartProbe {

    /** The prefix of the one line the probe prints for {@link ColdStart}. */
    static final String RESULT = "cold-start-probe:";

    private ColdStartProbe() {
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    public static void main(String[] args) throws Exception {
        long start = System.nanoTime();
        Class<?> handlerClass = Class.forName(args[0]);
        RequestHandler handler = (RequestHandler) handlerClass.getConstructor().newInstance();
        long built = System.nanoTime();

        long primed = built;
        if ("primed".equals(args[2])) {
            Field field = handlerClass.getDeclaredField("PRIMING");
            field.setAccessible(true);
            Object priming = field.get(null);
            priming.getClass().getMethod("beforeCheckpoint", Class.forName("org.crac.Context")).invoke(priming, (Object) null);
            primed = System.nanoTime();
        }

        Class<?> eventType = eventType(handlerClass);
        PojoSerializer<?> serializer = LambdaEventSerializers.serializerFor(eventType, handlerClass.getClassLoader());
        Object event;
        try (InputStream in = Files.newInputStream(Path.of(args[1]))) {
            event = serializer.fromJson(in);
        }
        Object answer = handler.handleRequest(event, LocalContext.of(handlerClass.getSimpleName()));
        long answered = System.nanoTime();

        System.out.println(RESULT + " init=" + millis(built - start) + " prime=" + millis(primed - built)
                + " firstBatch=" + millis(answered - primed) + " answer=" + String.valueOf(answer).replace('\n', ' '));
        System.out.flush();
        // The DynamoDB engine is not in this JVM, but the SDK's HTTP client may keep non-daemon threads: end like Lambda freezes
        System.exit(0);
    }

    private static Class<?> eventType(Class<?> handlerClass) {
        for (Type type : handlerClass.getGenericInterfaces()) {
            if (type instanceof ParameterizedType parameterized && parameterized.getRawType() == RequestHandler.class) {
                return (Class<?>) parameterized.getActualTypeArguments()[0];
            }
        }
        throw new IllegalArgumentException(handlerClass + " does not implement RequestHandler<I, O>");
    }

    private static String millis(long nanos) {
        return String.format(java.util.Locale.ROOT, "%.1f", nanos / 1e6);
    }

}

package com.multikey.emulator.services.lambda;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.multikey.emulator.functions.LocalContext;
import com.multikey.emulator.functions.LocalFunction;
import com.multikey.emulator.services.LoopbackServers;
import com.multikey.emulator.template.TemplateEnvironment;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Invoke operation of the local Lambda API: the functions registered under their names, a request checked as
 * the Invoke API reference documents it (function name, invocation type, payload size, JSON), then
 * {@code RequestResponse} run at once, {@code Event} queued on the function's own pool of its reserved concurrency
 * and retried as its {@link LocalLambdaApi.AsyncSettings} say, {@code DryRun} only checked.
 */
final class LambdaInvocations implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** FunctionName: a name, a partial ARN ({@code account:function:name}) or an ARN, with an optional qualifier. */
    private static final Pattern FUNCTION_NAME = Pattern.compile(
            "(?:arn:aws[a-zA-Z-]*:lambda:[a-z]{2}(?:-gov|-iso[a-z]?)?-[a-z]+-\\d:)?(?:\\d{12}:)?(?:function:)?([a-zA-Z0-9-_.]+)(?::(\\$LATEST|[a-zA-Z0-9-_]+))?");

    private final Map<String, Registered> functions = new ConcurrentHashMap<>();
    private final List<LocalLambdaApi.AsyncFailure> asyncFailures = new CopyOnWriteArrayList<>();
    private final AtomicInteger asyncPending = new AtomicInteger();
    private volatile boolean closed;

    private record Registered(LocalFunction function, ExecutorService pool, LocalLambdaApi.AsyncSettings settings,
                              List<Consumer<LocalContext>> contextHooks, String arn) {
    }

    /** Makes a function invocable under each of {@code names} (its logical id, its FunctionName). */
    void register(LocalFunction function, Set<String> names, LocalLambdaApi.AsyncSettings settings) {
        Registered registered = new Registered(function, Executors.newFixedThreadPool(settings.concurrency(),
                LoopbackServers.daemonThreads("local-async-" + function.logicalId())), settings, new CopyOnWriteArrayList<>(),
                names.stream().filter(name -> name.startsWith("arn:")).findFirst().orElse(function.logicalId()));
        for (String name : names) {
            functions.put(name, registered);
        }
    }

    /**
     * Runs {@code hook} on the context of each later invocation of that function before its handler starts, e.g.
     * to set its remaining time so that it "times out".
     */
    void onInvocation(String functionName, Consumer<LocalContext> hook) {
        Registered registered = functions.get(functionName);
        if (registered == null) {
            throw new IllegalArgumentException("no function registered as " + functionName);
        }
        registered.contextHooks().add(hook);
    }

    List<LocalLambdaApi.AsyncFailure> asyncFailures() {
        return List.copyOf(asyncFailures);
    }

    /** Waits until no asynchronous invocation is queued or running; false if {@code timeout} passed first. */
    boolean awaitIdle(Duration timeout) throws InterruptedException {
        Instant end = Instant.now().plus(timeout);
        while (asyncPending.get() > 0) {
            if (Instant.now().isAfter(end)) {
                return false;
            }
            Thread.sleep(20);
        }
        return true;
    }

    /** Answers an Invoke request for {@code functionName} (a name, partial ARN or ARN, with an optional qualifier). */
    LambdaApiResponse invoke(String functionName, String invocationType, byte[] payload) {
        Matcher name = FUNCTION_NAME.matcher(functionName);
        if (functionName.length() > 256 || !name.matches()) {
            return LambdaApiResponse.error(400, "ValidationException", "1 validation error detected: Value '" + functionName
                    + "' at 'functionName' failed to satisfy constraint: Member must satisfy regular expression pattern");
        }
        Registered registered = functions.get(name.group(1));
        if (registered == null || name.group(2) != null && !"$LATEST".equals(name.group(2))) {
            return LambdaApiResponse.error(404, "ResourceNotFoundException", "Function not found: arn:aws:lambda:us-east-1:"
                    + TemplateEnvironment.LOCAL_ACCOUNT + ":function:" + functionName);
        }
        String type = invocationType == null ? "RequestResponse" : invocationType;
        int limit = switch (type) {
            case "RequestResponse", "DryRun" -> LocalLambdaApi.MAX_SYNC_PAYLOAD_BYTES;
            case "Event" -> LocalLambdaApi.MAX_ASYNC_PAYLOAD_BYTES;
            default -> -1;
        };
        if (limit < 0) {
            return LambdaApiResponse.error(400, "InvalidParameterValueException", "Unsupported invocation type " + type);
        }
        if (payload.length > limit) {
            return LambdaApiResponse.error(413, "RequestTooLargeException", "Request must be smaller than " + limit + " bytes for the "
                    + type + " invocation type");
        }
        String json = payload.length == 0 ? "{}" : new String(payload, StandardCharsets.UTF_8);
        try {
            JSON.readTree(json);
        } catch (JsonProcessingException e) {
            return LambdaApiResponse.error(400, "InvalidRequestContentException", "Could not parse request body into json");
        }
        return switch (type) {
            case "DryRun" -> new LambdaApiResponse(204, Map.of(), "");
            case "Event" -> {
                if (closed) {
                    yield LambdaApiResponse.error(503, "ServiceException", "the local runtime is shutting down");
                }
                asyncPending.incrementAndGet();
                registered.pool().submit(() -> runAsync(registered, json));
                yield new LambdaApiResponse(202, Map.of(), "");
            }
            default -> runSync(registered, json);
        };
    }

    private LambdaApiResponse runSync(Registered registered, String json) {
        try {
            String answer = run(registered, json);
            if (answer.getBytes(StandardCharsets.UTF_8).length > LocalLambdaApi.MAX_SYNC_PAYLOAD_BYTES) {
                return functionError("Function.ResponseSizeTooLarge", "Response payload size exceeded maximum allowed payload size ("
                        + LocalLambdaApi.MAX_SYNC_PAYLOAD_BYTES + " bytes).");
            }
            return new LambdaApiResponse(200, Map.of("Content-Type", "application/json", "X-Amz-Executed-Version", "$LATEST"), answer);
        } catch (RuntimeException e) {
            return functionError(e.getClass().getSimpleName(), String.valueOf(e.getMessage()));
        }
    }

    /**
     * The record Lambda sends to an asynchronous invocation's on-failure destination ("Retaining records of
     * asynchronous invocations", Lambda developer guide): the request, why it was given up, and the last error.
     */
    static String invocationRecord(String functionArn, String payload, String error, int attempts) {
        com.fasterxml.jackson.databind.node.ObjectNode record = JSON.createObjectNode();
        record.put("version", "1.0");
        record.put("timestamp", Instant.now().toString());
        com.fasterxml.jackson.databind.node.ObjectNode request = record.putObject("requestContext");
        request.put("requestId", java.util.UUID.randomUUID().toString());
        request.put("functionArn", functionArn + ":$LATEST");
        request.put("condition", "RetriesExhausted");
        request.put("approximateInvokeCount", attempts);
        try {
            record.set("requestPayload", JSON.readTree(payload));
        } catch (JsonProcessingException e) {
            record.put("requestPayload", payload);
        }
        com.fasterxml.jackson.databind.node.ObjectNode response = record.putObject("responseContext");
        response.put("statusCode", 200);
        response.put("executedVersion", "$LATEST");
        response.put("functionError", "Unhandled");
        com.fasterxml.jackson.databind.node.ObjectNode responsePayload = record.putObject("responsePayload");
        responsePayload.put("errorMessage", error);
        return record.toString();
    }

    private static LambdaApiResponse functionError(String type, String message) {
        return new LambdaApiResponse(200, Map.of("Content-Type", "application/json", "X-Amz-Function-Error", "Unhandled",
                "X-Amz-Executed-Version", "$LATEST"), "{\"errorMessage\":" + LambdaApiResponse.quote(message) + ",\"errorType\":" + LambdaApiResponse.quote(type) + "}");
    }

    private void runAsync(Registered registered, String json) {
        try {
            String error = null;
            int attempts = 0;
            for (int attempt = 0; attempt <= registered.settings().maximumRetryAttempts() && !closed; attempt++) {
                if (attempt > 0) {
                    Thread.sleep(registered.settings().retryDelay().toMillis());
                }
                attempts++;
                try {
                    run(registered, json);
                    return;
                } catch (RuntimeException e) {
                    error = e.getClass().getSimpleName() + ": " + e.getMessage();
                }
            }
            if (!closed) {
                asyncFailures.add(new LocalLambdaApi.AsyncFailure(registered.function().logicalId(), json, error, attempts));
                registered.settings().onFailure().accept(invocationRecord(registered.arn(), json, error, attempts));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            asyncPending.decrementAndGet();
        }
    }

    private String run(Registered registered, String json) {
        LocalContext context = registered.function().newContext();
        registered.contextHooks().forEach(hook -> hook.accept(context));
        return registered.function().invoke(json, context);
    }

    /** Stops the queued and running asynchronous invocations. */
    @Override
    public void close() {
        closed = true;
        functions.values().stream().distinct().forEach(registered -> registered.pool().shutdownNow());
    }
}

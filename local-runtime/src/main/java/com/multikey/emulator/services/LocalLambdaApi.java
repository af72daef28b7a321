package com.multikey.emulator.services;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.multikey.emulator.functions.LocalContext;
import com.multikey.emulator.functions.LocalFunction;
import com.multikey.emulator.template.TemplateEnvironment;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
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
 * An HTTP endpoint on loopback for the Lambda API, recording every call with the region it was signed for:
 * <ul>
 *   <li>DeleteLayerVersion: versions already deleted answer 404 ResourceNotFoundException, as Lambda does; a
 *       test can make the next calls fail with 429 TooManyRequestsException;</li>
 *   <li>Invoke ({@code POST /2015-03-31/functions/{name}/invocations}) of any function {@link #register}ed
 *       (by logical id, name or ARN): {@code RequestResponse} runs it and answers its result (a function error
 *       as 200 with {@code X-Amz-Function-Error: Unhandled}), {@code Event} queues it and answers 202, run on
 *       the function's own pool of its reserved concurrency, retried as its {@code MaximumRetryAttempts} says
 *       and recorded as an on-failure delivery when it keeps failing; {@code DryRun} answers 204. Payload
 *       limits and error codes as the Invoke API reference documents them.</li>
 * </ul>
 */
public final class LocalLambdaApi implements AutoCloseable {

    /** One request as received. */
    public record Call(String method, String path, String region, int status) {
    }

    /** An asynchronous invocation that failed on every attempt (what Lambda sends to the on-failure destination). */
    public record AsyncFailure(String function, String payload, String error, int attempts) {
    }

    /**
     * How a registered function is invoked asynchronously; {@code onFailure} receives the invocation record of an
     * event whose every attempt failed, as Lambda sends it to an on-failure destination.
     */
    public record AsyncSettings(int concurrency, int maximumRetryAttempts, Duration retryDelay, Consumer<String> onFailure) {
        public AsyncSettings {
            if (concurrency < 1 || maximumRetryAttempts < 0 || maximumRetryAttempts > 2) {
                throw new IllegalArgumentException("concurrency >= 1 and 0..2 retries, got " + concurrency + ", " + maximumRetryAttempts);
            }
        }

        /** Without an on-failure destination (failures are only recorded, see {@link #asyncFailures()}). */
        public AsyncSettings(int concurrency, int maximumRetryAttempts, Duration retryDelay) {
            this(concurrency, maximumRetryAttempts, retryDelay, record -> { });
        }
    }

    /** Invoke: "For synchronous invocations, the maximum payload size is 6 MB" (API reference, Invoke). */
    public static final int MAX_SYNC_PAYLOAD_BYTES = 6 * 1024 * 1024;
    /** Invoke: "For asynchronous invocations, the maximum payload size is 1 MB" (API reference, Invoke). */
    public static final int MAX_ASYNC_PAYLOAD_BYTES = 1024 * 1024;

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern DELETE_LAYER_VERSION = Pattern.compile("/2018-10-31/layers/([^/]+)/versions/(\\d+)");
    private static final Pattern INVOKE = Pattern.compile("/2015-03-31/functions/([^/]+)/invocations");
    /** FunctionName: a name, a partial ARN ({@code account:function:name}) or an ARN, with an optional qualifier. */
    private static final Pattern FUNCTION_NAME = Pattern.compile(
            "(?:arn:aws[a-zA-Z-]*:lambda:[a-z]{2}(?:-gov|-iso[a-z]?)?-[a-z]+-\\d:)?(?:\\d{12}:)?(?:function:)?([a-zA-Z0-9-_.]+)(?::(\\$LATEST|[a-zA-Z0-9-_]+))?");
    private static final Pattern SIGNED_REGION = Pattern.compile("Credential=[^/]+/\\d{8}/([^/]+)/lambda/");

    private final HttpServer server;
    private final ExecutorService handlers = Executors.newCachedThreadPool(LoopbackServers.daemonThreads("local-lambda-api"));
    private final List<Call> calls = new CopyOnWriteArrayList<>();
    private final Set<String> deleted = ConcurrentHashMap.newKeySet();
    private final Map<String, Registered> functions = new ConcurrentHashMap<>();
    private final List<AsyncFailure> asyncFailures = new CopyOnWriteArrayList<>();
    private final AtomicInteger asyncPending = new AtomicInteger();
    private volatile int throttledCallsLeft;
    private volatile boolean closed;

    private record Registered(LocalFunction function, ExecutorService pool, AsyncSettings settings,
                              List<Consumer<LocalContext>> contextHooks, String arn) {
    }

    private LocalLambdaApi(HttpServer server) {
        this.server = server;
    }

    public static LocalLambdaApi start() {
        return start("127.0.0.1", 0);
    }

    /** On {@code host} (an address to bind, e.g. 0.0.0.0 to be reachable from containers) and {@code port} (0: any free one). */
    public static LocalLambdaApi start(String host, int port) {
        try {
            HttpServer server = LoopbackServers.create(host, port);
            LocalLambdaApi api = new LocalLambdaApi(server);
            server.createContext("/", api::handle);
            // a function invoked synchronously may itself call this endpoint: requests must not wait on each other
            server.setExecutor(api.handlers);
            server.start();
            return api;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the local Lambda API endpoint", e);
        }
    }

    public URI endpoint() {
        String host = server.getAddress().getAddress().isAnyLocalAddress() ? "127.0.0.1" : server.getAddress().getHostString();
        return URI.create("http://" + host + ":" + server.getAddress().getPort());
    }

    /** Makes a function invocable under each of {@code names} (its logical id, its FunctionName). */
    public void register(LocalFunction function, Set<String> names, AsyncSettings settings) {
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
    public void onInvocation(String functionName, Consumer<LocalContext> hook) {
        Registered registered = functions.get(functionName);
        if (registered == null) {
            throw new IllegalArgumentException("no function registered as " + functionName);
        }
        registered.contextHooks().add(hook);
    }

    public List<Call> calls() {
        return List.copyOf(calls);
    }

    /** Asynchronous invocations that failed on every attempt. */
    public List<AsyncFailure> asyncFailures() {
        return List.copyOf(asyncFailures);
    }

    /** Waits until no asynchronous invocation is queued or running; false if {@code timeout} passed first. */
    public boolean awaitAsyncIdle(Duration timeout) throws InterruptedException {
        Instant end = Instant.now().plus(timeout);
        while (asyncPending.get() > 0) {
            if (Instant.now().isAfter(end)) {
                return false;
            }
            Thread.sleep(20);
        }
        return true;
    }

    public void throttleCalls(int count) {
        this.throttledCallsLeft = count;
    }

    @Override
    public void close() {
        closed = true;
        server.stop(0);
        handlers.shutdownNow();
        functions.values().stream().distinct().forEach(registered -> registered.pool().shutdownNow());
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            byte[] request = exchange.getRequestBody().readAllBytes();
            String path = exchange.getRequestURI().getRawPath();
            String authorization = String.valueOf(exchange.getRequestHeaders().getFirst("Authorization"));
            Matcher region = SIGNED_REGION.matcher(authorization);
            String signedRegion = region.find() ? region.group(1) : "";
            Matcher invoke = INVOKE.matcher(path);
            Response response;
            if ("POST".equals(exchange.getRequestMethod()) && invoke.matches()) {
                response = invoke(java.net.URLDecoder.decode(invoke.group(1), StandardCharsets.UTF_8),
                        exchange.getRequestHeaders().getFirst("X-Amz-Invocation-Type"), request);
            } else {
                response = deleteLayerVersion(exchange.getRequestMethod(), path, signedRegion);
            }
            calls.add(new Call(exchange.getRequestMethod(), path, signedRegion, response.status()));
            response.headers().forEach((name, value) -> exchange.getResponseHeaders().add(name, value));
            byte[] bytes = response.body().getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(response.status(), bytes.length == 0 ? -1 : bytes.length);
            if (bytes.length > 0) {
                exchange.getResponseBody().write(bytes);
            }
        }
    }

    private record Response(int status, Map<String, String> headers, String body) {
        static Response error(int status, String type, String message) {
            String body = "{\"Type\":\"User\",\"message\":" + quote(message) + ",\"__type\":\"" + type + "\"}";
            return new Response(status, Map.of("Content-Type", "application/json", "x-amzn-ErrorType", type), body);
        }
    }

    private synchronized Response deleteLayerVersion(String method, String path, String signedRegion) {
        if (!"DELETE".equals(method) || !DELETE_LAYER_VERSION.matcher(path).matches()) {
            return Response.error(400, "InvalidRequestContentException", "only DeleteLayerVersion and Invoke are served here");
        }
        if (throttledCallsLeft > 0) {
            throttledCallsLeft--;
            return Response.error(429, "TooManyRequestsException", "Rate exceeded");
        }
        if (!deleted.add(signedRegion + path)) {
            return Response.error(404, "ResourceNotFoundException", "Layer version not found");
        }
        return new Response(204, Map.of(), "");
    }

    private Response invoke(String functionName, String invocationType, byte[] payload) {
        Matcher name = FUNCTION_NAME.matcher(functionName);
        if (functionName.length() > 256 || !name.matches()) {
            return Response.error(400, "ValidationException", "1 validation error detected: Value '" + functionName
                    + "' at 'functionName' failed to satisfy constraint: Member must satisfy regular expression pattern");
        }
        Registered registered = functions.get(name.group(1));
        if (registered == null || name.group(2) != null && !"$LATEST".equals(name.group(2))) {
            return Response.error(404, "ResourceNotFoundException", "Function not found: arn:aws:lambda:us-east-1:"
                    + TemplateEnvironment.LOCAL_ACCOUNT + ":function:" + functionName);
        }
        String type = invocationType == null ? "RequestResponse" : invocationType;
        int limit = switch (type) {
            case "RequestResponse", "DryRun" -> MAX_SYNC_PAYLOAD_BYTES;
            case "Event" -> MAX_ASYNC_PAYLOAD_BYTES;
            default -> -1;
        };
        if (limit < 0) {
            return Response.error(400, "InvalidParameterValueException", "Unsupported invocation type " + type);
        }
        if (payload.length > limit) {
            return Response.error(413, "RequestTooLargeException", "Request must be smaller than " + limit + " bytes for the "
                    + type + " invocation type");
        }
        String json = payload.length == 0 ? "{}" : new String(payload, StandardCharsets.UTF_8);
        try {
            JSON.readTree(json);
        } catch (JsonProcessingException e) {
            return Response.error(400, "InvalidRequestContentException", "Could not parse request body into json");
        }
        return switch (type) {
            case "DryRun" -> new Response(204, Map.of(), "");
            case "Event" -> {
                if (closed) {
                    yield Response.error(503, "ServiceException", "the local runtime is shutting down");
                }
                asyncPending.incrementAndGet();
                registered.pool().submit(() -> runAsync(registered, json));
                yield new Response(202, Map.of(), "");
            }
            default -> runSync(registered, json);
        };
    }

    private Response runSync(Registered registered, String json) {
        try {
            String answer = run(registered, json);
            if (answer.getBytes(StandardCharsets.UTF_8).length > MAX_SYNC_PAYLOAD_BYTES) {
                return functionError("Function.ResponseSizeTooLarge", "Response payload size exceeded maximum allowed payload size ("
                        + MAX_SYNC_PAYLOAD_BYTES + " bytes).");
            }
            return new Response(200, Map.of("Content-Type", "application/json", "X-Amz-Executed-Version", "$LATEST"), answer);
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

    private static Response functionError(String type, String message) {
        return new Response(200, Map.of("Content-Type", "application/json", "X-Amz-Function-Error", "Unhandled",
                "X-Amz-Executed-Version", "$LATEST"), "{\"errorMessage\":" + quote(message) + ",\"errorType\":" + quote(type) + "}");
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
                asyncFailures.add(new AsyncFailure(registered.function().logicalId(), json, error, attempts));
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

    private static String quote(String text) {
        try {
            return JSON.writeValueAsString(text);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

}

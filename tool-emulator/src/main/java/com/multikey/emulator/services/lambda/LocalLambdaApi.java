package com.multikey.emulator.services.lambda;

import com.multikey.emulator.functions.LocalContext;
import com.multikey.emulator.functions.LocalFunction;
import com.multikey.emulator.services.LoopbackServers;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The local Lambda API's HTTP endpoint: it reads each request, answers DeleteLayerVersion itself, hands Invoke to
 * {@link LambdaInvocations}, and records every call with the region it was signed for:
 * <ul>
 *   <li>DeleteLayerVersion: versions already deleted answer 404 ResourceNotFoundException, as Lambda does; a
 *       test can make the next calls fail with 429 TooManyRequestsException;</li>
 *   <li>Invoke ({@code POST /2015-03-31/functions/{name}/invocations}) of any function {@link #register}ed
 *       (by logical id, name or ARN): {@code RequestResponse} runs it and answers its result (a function error
 *       as 200 with {@code X-Amz-Function-Error: Unhandled}), {@code Event} queues it and answers 202, run on
 *       the function's own pool of its reserved concurrency, retried as its {@code MaximumRetryAttempts} says
 *       and recorded as an on-failure delivery when it keeps failing; {@code DryRun} answers 204. Payload
 *       limits and error codes as the Invoke API reference documents them;</li>
 *   <li>ListEventSourceMappings and CreateEventSourceMapping ({@code /2015-03-31/event-source-mappings/}): the template's
 *       stream readers, {@link #addEventSourceMapping added} as the stack deploys them, and any a caller creates (recorded,
 *       not polled: a reader the table had before the stack), as {@link EventSourceMappingRegistry} lists them.</li>
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

    private static final Pattern DELETE_LAYER_VERSION = Pattern.compile("/2018-10-31/layers/([^/]+)/versions/(\\d+)");
    private static final Pattern INVOKE = Pattern.compile("/2015-03-31/functions/([^/]+)/invocations");
    private static final Pattern EVENT_SOURCE_MAPPINGS = Pattern.compile("/2015-03-31/event-source-mappings/?");
    private static final Pattern SIGNED_REGION = Pattern.compile("Credential=[^/]+/\\d{8}/([^/]+)/lambda/");

    private final HttpServer server;
    private final ExecutorService handlers = Executors.newCachedThreadPool(LoopbackServers.daemonThreads("local-lambda-api"));
    private final List<Call> calls = new CopyOnWriteArrayList<>();
    private final Set<String> deleted = ConcurrentHashMap.newKeySet();
    private final LambdaInvocations invocations = new LambdaInvocations();
    private final EventSourceMappingRegistry mappings = new EventSourceMappingRegistry();
    private volatile int throttledCallsLeft;

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
        invocations.register(function, names, settings);
    }

    /**
     * Runs {@code hook} on the context of each later invocation of that function before its handler starts, e.g.
     * to set its remaining time so that it "times out".
     */
    public void onInvocation(String functionName, Consumer<LocalContext> hook) {
        invocations.onInvocation(functionName, hook);
    }

    /**
     * Lists an event source mapping (ListEventSourceMappings answers it) reading {@code eventSourceArn} for
     * {@code functionArn}; returns its UUID.
     */
    public String addEventSourceMapping(String eventSourceArn, String functionArn, String startingPosition, int batchSize) {
        return mappings.add(eventSourceArn, functionArn, startingPosition, batchSize).uuid();
    }

    public List<Call> calls() {
        return List.copyOf(calls);
    }

    /** Asynchronous invocations that failed on every attempt. */
    public List<AsyncFailure> asyncFailures() {
        return invocations.asyncFailures();
    }

    /** Waits until no asynchronous invocation is queued or running; false if {@code timeout} passed first. */
    public boolean awaitAsyncIdle(Duration timeout) throws InterruptedException {
        return invocations.awaitIdle(timeout);
    }

    public void throttleCalls(int count) {
        this.throttledCallsLeft = count;
    }

    @Override
    public void close() {
        server.stop(0);
        handlers.shutdownNow();
        invocations.close();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            byte[] request = exchange.getRequestBody().readAllBytes();
            String path = exchange.getRequestURI().getRawPath();
            String authorization = String.valueOf(exchange.getRequestHeaders().getFirst("Authorization"));
            Matcher region = SIGNED_REGION.matcher(authorization);
            String signedRegion = region.find() ? region.group(1) : "";
            Matcher invoke = INVOKE.matcher(path);
            LambdaApiResponse response;
            if ("POST".equals(exchange.getRequestMethod()) && invoke.matches()) {
                response = invocations.invoke(java.net.URLDecoder.decode(invoke.group(1), StandardCharsets.UTF_8),
                        exchange.getRequestHeaders().getFirst("X-Amz-Invocation-Type"), request);
            } else if (EVENT_SOURCE_MAPPINGS.matcher(path).matches() && "GET".equals(exchange.getRequestMethod())) {
                response = mappings.list(query(exchange.getRequestURI().getRawQuery()));
            } else if (EVENT_SOURCE_MAPPINGS.matcher(path).matches() && "POST".equals(exchange.getRequestMethod())) {
                response = mappings.create(request);
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

    private static Map<String, String> query(String raw) {
        Map<String, String> query = new java.util.HashMap<>();
        if (raw != null && !raw.isEmpty()) {
            for (String pair : raw.split("&")) {
                int equals = pair.indexOf('=');
                String name = java.net.URLDecoder.decode(equals < 0 ? pair : pair.substring(0, equals), StandardCharsets.UTF_8);
                query.put(name, equals < 0 ? "" : java.net.URLDecoder.decode(pair.substring(equals + 1), StandardCharsets.UTF_8));
            }
        }
        return query;
    }

    private synchronized LambdaApiResponse deleteLayerVersion(String method, String path, String signedRegion) {
        if (!"DELETE".equals(method) || !DELETE_LAYER_VERSION.matcher(path).matches()) {
            return LambdaApiResponse.error(400, "InvalidRequestContentException", "only DeleteLayerVersion, Invoke, ListEventSourceMappings and CreateEventSourceMapping are served here");
        }
        if (throttledCallsLeft > 0) {
            throttledCallsLeft--;
            return LambdaApiResponse.error(429, "TooManyRequestsException", "Rate exceeded");
        }
        if (!deleted.add(signedRegion + path)) {
            return LambdaApiResponse.error(404, "ResourceNotFoundException", "Layer version not found");
        }
        return new LambdaApiResponse(204, Map.of(), "");
    }

}

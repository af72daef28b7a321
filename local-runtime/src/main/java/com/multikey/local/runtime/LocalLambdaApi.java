package com.multikey.local.runtime;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An HTTP endpoint on loopback that answers the Lambda API's DeleteLayerVersion and records every call,
 * with the region it was signed for. Versions already deleted answer 404 ResourceNotFoundException, as
 * Lambda does; a test can make the next calls fail with 429 TooManyRequestsException.
 */
public final class LocalLambdaApi implements AutoCloseable {

    /** One request as received. */
    public record Call(String method, String path, String region, int status) {
    }

    private static final Pattern DELETE_LAYER_VERSION = Pattern.compile("/2018-10-31/layers/([^/]+)/versions/(\\d+)");
    private static final Pattern SIGNED_REGION = Pattern.compile("Credential=[^/]+/\\d{8}/([^/]+)/lambda/");

    private final HttpServer server;
    private final List<Call> calls = new CopyOnWriteArrayList<>();
    private final Set<String> deleted = ConcurrentHashMap.newKeySet();
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
            HttpServer server = HttpServer.create(new InetSocketAddress(host, port), 0);
            LocalLambdaApi api = new LocalLambdaApi(server);
            server.createContext("/", api::handle);
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

    public List<Call> calls() {
        return List.copyOf(calls);
    }

    public void throttleCalls(int count) {
        this.throttledCallsLeft = count;
    }

    @Override
    public void close() {
        server.stop(0);
    }

    private synchronized void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            exchange.getRequestBody().readAllBytes();
            String path = exchange.getRequestURI().getPath();
            String authorization = String.valueOf(exchange.getRequestHeaders().getFirst("Authorization"));
            Matcher region = SIGNED_REGION.matcher(authorization);
            String signedRegion = region.find() ? region.group(1) : "";
            Matcher operation = DELETE_LAYER_VERSION.matcher(path);
            int status;
            String body;
            if (!"DELETE".equals(exchange.getRequestMethod()) || !operation.matches()) {
                status = 400;
                body = error("InvalidRequestContentException", "only DeleteLayerVersion is served here");
            } else if (throttledCallsLeft > 0) {
                throttledCallsLeft--;
                status = 429;
                body = error("TooManyRequestsException", "Rate exceeded");
            } else if (!deleted.add(signedRegion + path)) {
                status = 404;
                body = error("ResourceNotFoundException", "Layer version not found");
            } else {
                status = 204;
                body = "";
            }
            calls.add(new Call(exchange.getRequestMethod(), path, signedRegion, status));
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            if (status >= 400) {
                exchange.getResponseHeaders().add("Content-Type", "application/json");
                exchange.getResponseHeaders().add("x-amzn-ErrorType", errorType(body));
            }
            exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
            if (bytes.length > 0) {
                exchange.getResponseBody().write(bytes);
            }
        }
    }

    private static String error(String type, String message) {
        return "{\"Type\":\"User\",\"message\":\"" + message + "\",\"__type\":\"" + type + "\"}";
    }

    private static String errorType(String body) {
        int start = body.indexOf("\"__type\":\"") + 10;
        return body.substring(start, body.indexOf('"', start));
    }
}

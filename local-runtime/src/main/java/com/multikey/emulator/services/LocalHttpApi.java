package com.multikey.emulator.services;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.multikey.emulator.auth.LocalJwtIssuer;
import com.multikey.emulator.auth.SigV4Verifier;
import com.multikey.emulator.functions.LocalFunction;
import com.multikey.emulator.template.HttpApiRoutes;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.UriCompliance;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.eclipse.jetty.util.thread.ScheduledExecutorScheduler;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * An HTTP API of the template ({@link HttpApiRoutes}) served on a port of this machine as API Gateway serves it: a
 * request matching a route is authorized as the route says ({@code AWS_IAM}: a SigV4 signature checked by
 * {@link SigV4Verifier} against the local credentials, else 403; {@code JWT}: a token checked by
 * {@link LocalJwtIssuer}, else 401), becomes a payload format 2.0 event for the route's function, and the function's
 * answer becomes the response; a request matching no route answers 404, a function that fails 500, with API
 * Gateway's bodies. Pages added with {@link #page} (e.g. a browser client of the API) are served as they are.
 *
 * <p>The request line reaches the routes as sent, as API Gateway passes it on: a query string that is not valid
 * percent-encoding ({@code ?equals=%zz}) or holds a character a URI may not ({@code |}) goes to the function in
 * {@code rawQueryString}, and the function answers it. The JDK's HTTP server refuses such a request line itself (an HTML
 * 400 before any handler runs), so this server is Jetty's, its URI checks relaxed to pass what API Gateway passes.
 */
public final class LocalHttpApi implements AutoCloseable {

    /** One request as answered: the route it matched (or none), its status and, when refused, why. */
    public record Call(String method, Optional<String> routeKey, int status, Optional<String> refusal) {
    }

    /** A page served outside the API's routes. */
    private record Page(String contentType, Supplier<byte[]> body) {
    }

    /** The account the local stack runs in (as in the functions' ARNs). */
    public static final String ACCOUNT = "123456789012";

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final DateTimeFormatter REQUEST_TIME = DateTimeFormatter.ofPattern("dd/MMM/yyyy:HH:mm:ss Z", Locale.ENGLISH)
            .withZone(ZoneOffset.UTC);

    private final HttpApiRoutes routes;
    private final Function<String, LocalFunction> functions;
    private final SigV4Verifier sigV4;
    private final Optional<LocalJwtIssuer> tokens;
    private final Clock clock;
    private final Consumer<String> out;
    private final Server server;
    private final ServerConnector connector;
    private final Map<String, Page> pages = new ConcurrentHashMap<>();
    private final List<Call> calls = new CopyOnWriteArrayList<>();

    private LocalHttpApi(HttpApiRoutes routes, Function<String, LocalFunction> functions, SigV4Verifier sigV4,
                         Optional<LocalJwtIssuer> tokens, Clock clock, Consumer<String> out, Server server, ServerConnector connector) {
        this.routes = routes;
        this.functions = functions;
        this.sigV4 = sigV4;
        this.tokens = tokens;
        this.clock = clock;
        this.out = out;
        this.server = server;
        this.connector = connector;
    }

    /**
     * Serves {@code routes} on {@code host}:{@code port} (0: any free port), invoking the functions {@code functions}
     * gives by logical id; {@code tokens} verifies the tokens of JWT routes (without it, they answer 401).
     * {@code out} receives one line per refused request, saying why (never a header or a parameter value).
     */
    public static LocalHttpApi start(HttpApiRoutes routes, Function<String, LocalFunction> functions, SigV4Verifier sigV4,
                                     Optional<LocalJwtIssuer> tokens, Clock clock, Consumer<String> out, String host, int port) {
        QueuedThreadPool threads = new QueuedThreadPool();
        threads.setName("local-http-api");
        threads.setDaemon(true);
        // daemons, as every local server's threads: they never keep the JVM alive
        Server server = new Server(threads, new ScheduledExecutorScheduler("local-http-api-scheduler", true), null);
        HttpConfiguration http = new HttpConfiguration();
        // what API Gateway passes on (encoded separators and dot segments in the path, bad escapes in the query) reaches the routes
        http.setUriCompliance(UriCompliance.UNSAFE);
        http.setSendServerVersion(false);
        http.setSendXPoweredBy(false);
        http.setRequestHeaderSize(1 << 20);
        ServerConnector connector = new ServerConnector(server, new HttpConnectionFactory(http));
        connector.setHost(host);
        connector.setPort(port);
        server.addConnector(connector);
        LocalHttpApi api = new LocalHttpApi(routes, functions, sigV4, tokens, clock, out, server, connector);
        server.setHandler(new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) {
                api.handle(request, response, callback);
                return true;
            }
        });
        try {
            server.start();
            return api;
        } catch (Exception e) {
            api.close();
            throw new UncheckedIOException("cannot start the local HTTP API on " + host + ":" + port,
                    e instanceof IOException io ? io : new IOException(e));
        }
    }

    /** Serves {@code body} at {@code path} (GET, no authorization), outside the API's routes. */
    public void page(String path, String contentType, Supplier<byte[]> body) {
        pages.put(path, new Page(contentType, body));
    }

    public URI endpoint() {
        String host = connector.getHost() == null || connector.getHost().equals("0.0.0.0") || connector.getHost().equals("::")
                ? "127.0.0.1" : connector.getHost();
        return URI.create("http://" + host + ":" + connector.getLocalPort());
    }

    public HttpApiRoutes routes() {
        return routes;
    }

    /** The requests answered so far. */
    public List<Call> calls() {
        return List.copyOf(calls);
    }

    /** One request as received: the request line's parts as sent (path and query still percent-encoded), and its response. */
    private record Exchange(String method, String rawPath, String rawQuery, String protocol, String sourceIp,
                            Map<String, List<String>> headers, byte[] body, Response response, Callback callback) {
    }

    private void handle(Request request, Response response, Callback callback) {
        Exchange exchange;
        try (InputStream in = Request.asInputStream(request)) {
            Map<String, List<String>> headers = new LinkedHashMap<>();
            for (HttpField field : request.getHeaders()) {
                headers.computeIfAbsent(field.getName().toLowerCase(Locale.ROOT), n -> new ArrayList<>()).add(field.getValue());
            }
            String path = request.getHttpURI().getPath();
            exchange = new Exchange(request.getMethod(), path == null || path.isEmpty() ? "/" : path, request.getHttpURI().getQuery(),
                    request.getConnectionMetaData().getProtocol(), Request.getRemoteAddr(request), headers, in.readAllBytes(),
                    response, callback);
        } catch (IOException | RuntimeException e) {
            callback.failed(e);
            return;
        }
        try {
            serve(exchange);
        } catch (IOException | RuntimeException e) {
            out.accept("HTTP API: cannot answer a request: " + e.getClass().getSimpleName());
            send(exchange, 500, Map.of("content-type", "application/json"), "{\"message\":\"Internal Server Error\"}".getBytes(StandardCharsets.UTF_8));
        }
    }

    private void serve(Exchange exchange) throws IOException {
        byte[] body = exchange.body();
        String method = exchange.method();
        Page page = pages.get(exchange.rawPath());
        if (page != null && method.equals("GET")) {
            send(exchange, 200, Map.of("content-type", page.contentType(), "cache-control", "no-store"), page.body().get());
            return;
        }
        Optional<HttpApiRoutes.Route> route = routes.route(method, exchange.rawPath());
        if (route.isEmpty()) {
            answer(exchange, method, Optional.empty(), 404, "{\"message\":\"Not Found\"}", Optional.empty());
            return;
        }
        Map<String, List<String>> headers = exchange.headers();
        HttpApiRoutes.Route matched = route.get();
        Optional<String> routeKey = Optional.of(matched.routeKey());
        ObjectNode authorizer = JSON.createObjectNode();
        switch (matched.authorization()) {
            case HttpApiRoutes.Open open -> {
            }
            case HttpApiRoutes.Iam iam -> {
                switch (sigV4.verify(method, exchange.rawPath(), exchange.rawQuery(), headers, body)) {
                    case SigV4Verifier.Refused refused -> {
                        answer(exchange, method, routeKey, 403, "{\"message\":\"Forbidden\"}", Optional.of(refused.reason()));
                        return;
                    }
                    case SigV4Verifier.Verified verified -> authorizer.putObject("iam").put("accessKey", verified.accessKey())
                            .put("accountId", ACCOUNT).put("callerId", verified.accessKey())
                            .put("userArn", "arn:aws:iam::" + ACCOUNT + ":user/local").put("userId", verified.accessKey());
                }
            }
            case HttpApiRoutes.Jwt jwt -> {
                LocalJwtIssuer.Outcome outcome = tokens.<LocalJwtIssuer.Outcome>map(issuer -> issuer.verify(
                        first(headers, "authorization"), jwt, clock.instant())).orElse(new LocalJwtIssuer.Refused("no local token key"));
                switch (outcome) {
                    case LocalJwtIssuer.Refused refused -> {
                        answer(exchange, method, routeKey, 401, "{\"message\":\"Unauthorized\"}", Optional.of(refused.reason()));
                        return;
                    }
                    case LocalJwtIssuer.Verified verified -> {
                        ObjectNode claims = authorizer.putObject("jwt").putObject("claims");
                        verified.claims().forEach(claims::put);
                    }
                }
            }
        }
        String event = event(exchange, matched, headers, body, authorizer);
        String answer;
        try {
            answer = functions.apply(matched.function()).invoke(event);
        } catch (RuntimeException failed) {
            out.accept("HTTP API: " + matched.function() + " failed on " + matched.routeKey() + ": " + failed.getClass().getSimpleName());
            answer(exchange, method, routeKey, 500, "{\"message\":\"Internal Server Error\"}", Optional.empty());
            return;
        }
        respond(exchange, method, routeKey, answer);
    }

    /** The payload format 2.0 event API Gateway sends the integration's function. */
    private String event(Exchange exchange, HttpApiRoutes.Route route, Map<String, List<String>> headers, byte[] body,
                         ObjectNode authorizer) {
        String rawPath = exchange.rawPath();
        String rawQuery = exchange.rawQuery();
        Instant now = clock.instant();
        ObjectNode event = JSON.createObjectNode();
        event.put("version", "2.0").put("routeKey", route.routeKey()).put("rawPath", rawPath)
                .put("rawQueryString", rawQuery == null ? "" : rawQuery);
        ObjectNode headerNode = event.putObject("headers");
        headers.forEach((name, values) -> {
            if (!name.equals("cookie")) {
                headerNode.put(name, String.join(",", values));
            }
        });
        if (headers.containsKey("cookie")) {
            var cookies = event.putArray("cookies");
            headers.get("cookie").forEach(line -> java.util.Arrays.stream(line.split(";\\s*")).forEach(cookies::add));
        }
        Map<String, List<String>> query = new LinkedHashMap<>();
        if (rawQuery != null) {
            for (String pair : rawQuery.split("&")) {
                if (!pair.isEmpty()) {
                    int equals = pair.indexOf('=');
                    String name = decode(equals < 0 ? pair : pair.substring(0, equals));
                    query.computeIfAbsent(name, n -> new ArrayList<>()).add(equals < 0 ? "" : decode(pair.substring(equals + 1)));
                }
            }
        }
        if (!query.isEmpty()) {
            ObjectNode parameters = event.putObject("queryStringParameters");
            query.forEach((name, values) -> parameters.put(name, String.join(",", values)));
        }
        Map<String, String> pathParameters = route.match(exchange.method(), rawPath).orElse(Map.of());
        if (!pathParameters.isEmpty()) {
            ObjectNode parameters = event.putObject("pathParameters");
            pathParameters.forEach((name, value) -> parameters.put(name, decode(value)));
        }
        ObjectNode context = event.putObject("requestContext");
        context.put("accountId", ACCOUNT).put("apiId", routes.api()).put("domainName", first(headers, "host"))
                .put("domainPrefix", routes.api()).put("requestId", UUID.randomUUID().toString()).put("routeKey", route.routeKey())
                .put("stage", "$default").put("time", REQUEST_TIME.format(now)).put("timeEpoch", now.toEpochMilli());
        context.putObject("http").put("method", exchange.method()).put("path", rawPath)
                .put("protocol", exchange.protocol()).put("sourceIp", exchange.sourceIp())
                .put("userAgent", first(headers, "user-agent"));
        if (!authorizer.isEmpty()) {
            context.set("authorizer", authorizer);
        }
        event.put("isBase64Encoded", body.length > 0);
        if (body.length > 0) {
            event.put("body", java.util.Base64.getEncoder().encodeToString(body));
        }
        return event.toString();
    }

    /** The function's answer as API Gateway turns it into a response (a bare JSON value is a 200 with that body). */
    private void respond(Exchange exchange, String method, Optional<String> routeKey, String answer) throws IOException {
        JsonNode response = JSON.readTree(answer);
        if (response == null || !response.isObject() || !response.has("statusCode")) {
            answer(exchange, method, routeKey, 200, answer, Optional.empty());
            return;
        }
        int status = response.path("statusCode").asInt(500);
        Map<String, String> headers = new LinkedHashMap<>();
        response.path("headers").properties().forEach(header -> headers.put(header.getKey().toLowerCase(Locale.ROOT), header.getValue().asText()));
        String text = response.path("body").isNull() ? "" : response.path("body").asText("");
        byte[] body = response.path("isBase64Encoded").asBoolean(false) ? java.util.Base64.getDecoder().decode(text)
                : text.getBytes(StandardCharsets.UTF_8);
        headers.putIfAbsent("content-type", "application/json");
        calls.add(new Call(method, routeKey, status, Optional.empty()));
        send(exchange, status, headers, body);
    }

    private void answer(Exchange exchange, String method, Optional<String> routeKey, int status, String body,
                        Optional<String> refusal) throws IOException {
        calls.add(new Call(method, routeKey, status, refusal));
        refusal.ifPresent(reason -> out.accept("HTTP API: " + method + " " + routeKey.orElse("(no route)") + " refused (" + status + "): " + reason));
        Map<String, String> headers = new LinkedHashMap<>(Map.of("content-type", "application/json"));
        if (status == 401) {
            headers.put("www-authenticate", "Bearer");
        }
        send(exchange, status, headers, body.getBytes(StandardCharsets.UTF_8));
    }

    /** Sends the whole response in one write (status, headers and body), which completes the request. */
    private static void send(Exchange exchange, int status, Map<String, String> headers, byte[] body) {
        Response response = exchange.response();
        response.setStatus(status);
        headers.forEach((name, value) -> response.getHeaders().add(name, value));
        response.getHeaders().put("content-length", body.length);
        response.write(true, ByteBuffer.wrap(body), exchange.callback());
    }

    private static String first(Map<String, List<String>> headers, String name) {
        List<String> values = headers.get(name);
        return values == null || values.isEmpty() ? null : values.get(0);
    }

    private static String decode(String text) {
        try {
            return java.net.URLDecoder.decode(text, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException malformed) {
            return text;
        }
    }


    @Override
    public void close() {
        try {
            server.stop();
        } catch (Exception e) {
            out.accept("HTTP API: did not stop cleanly: " + e.getClass().getSimpleName());
        }
    }
}

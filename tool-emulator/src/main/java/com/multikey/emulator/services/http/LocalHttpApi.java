package com.multikey.emulator.services.http;

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
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * An HTTP API of the template ({@link HttpApiRoutes}) served on a port of this machine as API Gateway serves it: the
 * server, which matches each request to a route, has it authorized as the route says ({@link HttpApiAuthorizer}: 403
 * or 401 when refused), invokes the route's function with a payload format 2.0 event and answers what the function
 * answered ({@link ProxyPayload}); a request matching no route answers 404, a function that fails 500, with API
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
    static final String ACCOUNT = "123456789012";


    private final HttpApiRoutes routes;
    private final Function<String, LocalFunction> functions;
    private final HttpApiAuthorizer authorizer;
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
        this.authorizer = new HttpApiAuthorizer(sigV4, tokens, clock);
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

    /** The requests answered so far. */
    public List<Call> calls() {
        return List.copyOf(calls);
    }

    /** One request as received, and where its response goes. */
    private record Exchange(HttpApiRequest request, Response response, Callback callback) {
    }

    private void handle(Request request, Response response, Callback callback) {
        Exchange exchange;
        try (InputStream in = Request.asInputStream(request)) {
            Map<String, List<String>> headers = new LinkedHashMap<>();
            for (HttpField field : request.getHeaders()) {
                headers.computeIfAbsent(field.getName().toLowerCase(Locale.ROOT), n -> new ArrayList<>()).add(field.getValue());
            }
            String path = request.getHttpURI().getPath();
            exchange = new Exchange(new HttpApiRequest(request.getMethod(), path == null || path.isEmpty() ? "/" : path,
                    request.getHttpURI().getQuery(), request.getConnectionMetaData().getProtocol(), Request.getRemoteAddr(request),
                    headers, in.readAllBytes()), response, callback);
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
        HttpApiRequest request = exchange.request();
        String method = request.method();
        Page page = pages.get(request.rawPath());
        if (page != null && method.equals("GET")) {
            send(exchange, 200, Map.of("content-type", page.contentType(), "cache-control", "no-store"), page.body().get());
            return;
        }
        Optional<HttpApiRoutes.Route> route = routes.route(method, request.rawPath());
        if (route.isEmpty()) {
            answer(exchange, method, Optional.empty(), 404, "{\"message\":\"Not Found\"}", Optional.empty());
            return;
        }
        HttpApiRoutes.Route matched = route.get();
        Optional<String> routeKey = Optional.of(matched.routeKey());
        ObjectNode caller;
        switch (authorizer.authorize(matched, request)) {
            case HttpApiAuthorizer.Refused refused -> {
                answer(exchange, method, routeKey, refused.status(), refused.body(), Optional.of(refused.reason()));
                return;
            }
            case HttpApiAuthorizer.Allowed allowed -> caller = allowed.authorizer();
        }
        String event = ProxyPayload.event(request, routes.api(), matched, caller, clock.instant());
        String answer;
        try {
            answer = functions.apply(matched.function()).invoke(event);
        } catch (RuntimeException failed) {
            out.accept("HTTP API: " + matched.function() + " failed on " + matched.routeKey() + ": " + failed.getClass().getSimpleName());
            answer(exchange, method, routeKey, 500, "{\"message\":\"Internal Server Error\"}", Optional.empty());
            return;
        }
        ProxyPayload.HttpResponse response = ProxyPayload.response(answer);
        calls.add(new Call(method, routeKey, response.status(), Optional.empty()));
        send(exchange, response.status(), response.headers(), response.body());
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




    @Override
    public void close() {
        try {
            server.stop();
        } catch (Exception e) {
            out.accept("HTTP API: did not stop cleanly: " + e.getClass().getSimpleName());
        }
    }
}

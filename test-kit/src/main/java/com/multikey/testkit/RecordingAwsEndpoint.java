package com.multikey.testkit;

import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A loopback HTTP endpoint that records every request made to it: pointed at as every AWS service's endpoint
 * ({@code AWS_ENDPOINT_URL}) it shows whether code called AWS; pointed at as the container credentials
 * endpoint ({@code aws.containerCredentialsFullUri}, what Lambda gives a SnapStart function) it answers with
 * credentials and shows whether, and when, the SDK resolved them. Any other request gets a 400.
 */
public final class RecordingAwsEndpoint implements AutoCloseable {

    /** The path that answers with container credentials. */
    public static final String CREDENTIALS_PATH = "/credentials";

    private final HttpServer server;
    private final List<String> requests = new CopyOnWriteArrayList<>();

    private RecordingAwsEndpoint(HttpServer server) {
        this.server = server;
    }

    public static RecordingAwsEndpoint start() {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            RecordingAwsEndpoint endpoint = new RecordingAwsEndpoint(server);
            server.createContext("/", exchange -> {
                String path = exchange.getRequestURI().getPath();
                endpoint.requests.add(exchange.getRequestMethod() + " " + path);
                exchange.getRequestBody().readAllBytes();
                byte[] body = (CREDENTIALS_PATH.equals(path)
                        ? "{\"AccessKeyId\":\"ASIARECORDED\",\"SecretAccessKey\":\"recorded\",\"Token\":\"recorded\","
                                + "\"Expiration\":\"2099-01-01T00:00:00Z\"}"
                        : "{\"__type\":\"UnrecognizedClientException\",\"message\":\"recording endpoint\"}")
                        .getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().set("Content-Type", "application/json");
                exchange.sendResponseHeaders(CREDENTIALS_PATH.equals(path) ? 200 : 400, body.length);
                exchange.getResponseBody().write(body);
                exchange.close();
            });
            server.start();
            return endpoint;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public URI endpoint() {
        return URI.create("http://" + server.getAddress().getAddress().getHostAddress() + ":" + server.getAddress().getPort());
    }

    public URI credentialsUri() {
        return endpoint().resolve(CREDENTIALS_PATH);
    }

    /** Every request so far, as {@code "METHOD /path"}, in order. */
    public List<String> requests() {
        return List.copyOf(requests);
    }

    @Override
    public void close() {
        server.stop(0);
    }
}

package com.multikey.dynamodb.server;

import com.multikey.dynamodb.DynamoDbEngine;
import com.multikey.dynamodb.EngineResponse;
import com.multikey.dynamodb.durable.DurableEngine;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The engine on an HTTP port of the loopback interface, as the SDKs and the AWS CLI call DynamoDB (POST, AWS
 * JSON 1.0, the operation in {@code X-Amz-Target}). Signatures are not checked: any credentials and region are
 * accepted. Its threads are daemons, and {@link #close()} stops them all.
 */
public final class EngineServer implements AutoCloseable {

    /** The largest request DynamoDB takes over the network (BatchWriteItem: "up to 16MB of data over the network"). */
    public static final int MAX_REQUEST_BYTES = 16 * 1024 * 1024;

    /** How often the server's engine expires TTL items unless told otherwise. */
    public static final Duration DEFAULT_TTL_INTERVAL = Duration.ofSeconds(1);

    private static final String NO_DELAY = "sun.net.httpserver.nodelay";

    private final DynamoDbEngine engine;
    private final AutoCloseable owner;
    private final HttpServer server;
    private final ExecutorService executor;
    private final URI endpoint;

    private EngineServer(DynamoDbEngine engine, AutoCloseable owner, HttpServer server, ExecutorService executor) {
        this.engine = engine;
        this.owner = owner;
        this.server = server;
        this.executor = executor;
        InetAddress bound = server.getAddress().getAddress();
        // a server on every interface is still reached on loopback by this machine's clients
        String host = bound.isAnyLocalAddress() ? InetAddress.getLoopbackAddress().getHostAddress() : bound.getHostAddress();
        this.endpoint = URI.create("http://" + host + ":" + server.getAddress().getPort());
    }

    /** A new engine on a free port, expiring TTL items every second. */
    public static EngineServer start() {
        return start(0);
    }

    /** A new engine on this port (0: a free one), expiring TTL items every second. */
    public static EngineServer start(int port) {
        return start(new DynamoDbEngine().startTimeToLiveSweeper(DEFAULT_TTL_INTERVAL), port);
    }

    /** Serves this engine on this port of the loopback interface (0: a free one); closing the server closes the engine. */
    public static EngineServer start(DynamoDbEngine engine, int port) {
        return start(engine, InetAddress.getLoopbackAddress().getHostAddress(), port);
    }

    /**
     * Serves this engine on this address (e.g. {@code 0.0.0.0} for containers on this machine to reach it) and
     * port (0: a free one); closing the server closes the engine.
     */
    public static EngineServer start(DynamoDbEngine engine, String host, int port) {
        return start(engine, engine, engine::handle, host, port);
    }

    /**
     * Serves this engine and its data directory on this address and port (0: a free one): a change is answered once
     * it is on the disk. Closing the server closes the engine and releases the directory.
     */
    public static EngineServer start(DurableEngine durable, String host, int port) {
        return start(durable.engine(), durable, durable::handle, host, port);
    }

    /** Answers one request: the X-Amz-Target header and the body. */
    private interface Handler {
        EngineResponse handle(String target, byte[] body);
    }

    private static EngineServer start(DynamoDbEngine engine, AutoCloseable owner, Handler handler, String host, int port) {
        // The JDK's server leaves Nagle's algorithm on unless told otherwise: a response written as headers then body
        // then waits for the client's delayed acknowledgement (about 40 ms on Linux) before the body leaves. The
        // setting is read once, when the process's first server starts, so it is set before creating one.
        if (System.getProperty(NO_DELAY) == null) {
            System.setProperty(NO_DELAY, "true");
        }
        HttpServer server;
        try {
            server = HttpServer.create(new InetSocketAddress(host, port), 128);
        } catch (IOException e) {
            throw new UncheckedIOException("the DynamoDB engine cannot listen on " + host + ":" + port, e);
        }
        AtomicInteger threads = new AtomicInteger();
        ExecutorService executor = Executors.newCachedThreadPool(r -> {
            Thread thread = new Thread(r, "dynamodb-engine-http-" + threads.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
        server.setExecutor(executor);
        server.createContext("/", exchange -> serve(handler, exchange));
        server.start();
        return new EngineServer(engine, owner, server, executor);
    }

    private static void serve(Handler engine, HttpExchange exchange) throws IOException {
        try (exchange; InputStream in = exchange.getRequestBody()) {
            byte[] body = in.readNBytes(MAX_REQUEST_BYTES + 1);
            EngineResponse response;
            if (body.length > MAX_REQUEST_BYTES) {
                in.transferTo(OutputStream.nullOutputStream());
                response = new EngineResponse(413, ("{\"__type\":\"com.amazonaws.dynamodb.v20120810#RequestEntityTooLargeException\","
                        + "\"message\":\"Request size exceeds the limit of " + MAX_REQUEST_BYTES + " bytes\"}").getBytes(StandardCharsets.UTF_8));
            } else if ("POST".equals(exchange.getRequestMethod())) {
                response = engine.handle(exchange.getRequestHeaders().getFirst("X-Amz-Target"), body);
            } else {
                response = new EngineResponse(400, "{\"__type\":\"com.amazon.coral.service#UnknownOperationException\"}".getBytes(StandardCharsets.UTF_8));
            }
            exchange.getResponseHeaders().set("Content-Type", EngineResponse.CONTENT_TYPE);
            exchange.getResponseHeaders().set("x-amzn-RequestId", UUID.randomUUID().toString());
            exchange.sendResponseHeaders(response.status(), response.body().length == 0 ? -1 : response.body().length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(response.body());
            }
        }
    }

    public DynamoDbEngine engine() {
        return engine;
    }

    public URI endpoint() {
        return endpoint;
    }

    public int port() {
        return server.getAddress().getPort();
    }

    /** Stops serving, waits for the handler threads to end, and closes the engine. */
    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
        try {
            executor.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            owner.close();
        } catch (Exception e) {
            throw new IllegalStateException("the engine did not close", e);
        }
    }
}

package com.multikey.emulator.services.dynamodb;


import com.multikey.dynamodb.DynamoDbEngine;
import com.multikey.dynamodb.server.EngineServer;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

import java.net.URI;

/**
 * The project's own DynamoDB engine ({@code tool-dynamodb-engine}) running in this JVM as an HTTP server on a
 * loopback port, in memory. Like one account, every client sees the same tables whatever its access key and
 * region. Its threads are daemons and {@link #close()} stops them all.
 *
 * <p>The engine's own TTL sweeper is not started: the local stack's {@code TtlSweeper}, on the stream polling thread,
 * is its TTL process (it prints what it expires and paces itself with the stream polling), and a test that wants
 * AWS's TTL process calls {@link DynamoDbEngine#expire} on {@link #engine()}.
 */
public final class LocalDynamoDb implements AutoCloseable {

    public static final Region REGION = Region.US_EAST_1;
    /** The local stack's credentials: every client of it signs with them, the local HTTP API accepts only them. */
    public static final String ACCESS_KEY = "local";
    public static final String SECRET_KEY = "local";

    private final EngineServer server;

    private LocalDynamoDb(EngineServer server) {
        this.server = server;
    }

    /** Starts the engine on a free port. */
    public static LocalDynamoDb start() {
        return start(0);
    }

    /** Starts the engine on this port (0: a free one) of the loopback interface. */
    public static LocalDynamoDb start(int port) {
        return new LocalDynamoDb(EngineServer.start(new DynamoDbEngine(), port));
    }

    /** Starts the engine on this address (e.g. {@code 0.0.0.0}, for containers) and port (0: a free one). */
    public static LocalDynamoDb start(String host, int port) {
        return new LocalDynamoDb(EngineServer.start(new DynamoDbEngine(), host, port));
    }

    public URI endpoint() {
        return server.endpoint();
    }

    /** The engine itself: its faults on demand and its TTL process, for tests. */
    public DynamoDbEngine engine() {
        return server.engine();
    }

    public DynamoDbClient client() {
        return DynamoDbClient.builder()
                .endpointOverride(endpoint())
                .region(REGION)
                .credentialsProvider(credentials())
                .httpClient(UrlConnectionHttpClient.create())
                .build();
    }

    public DynamoDbStreamsClient streamsClient() {
        return DynamoDbStreamsClient.builder()
                .endpointOverride(endpoint())
                .region(REGION)
                .credentialsProvider(credentials())
                .httpClient(UrlConnectionHttpClient.create())
                .build();
    }

    public static StaticCredentialsProvider credentials() {
        return StaticCredentialsProvider.create(AwsBasicCredentials.create(ACCESS_KEY, SECRET_KEY));
    }

    @Override
    public void close() {
        server.close();
    }
}

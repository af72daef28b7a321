package com.multikey.local.support;

import com.amazonaws.services.dynamodbv2.local.main.ServerRunner;
import com.amazonaws.services.dynamodbv2.local.server.DynamoDBProxyServer;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * DynamoDB Local running in this JVM as an HTTP server on a loopback port, in memory, with telemetry off.
 * It is started with {@code -sharedDb}, so it behaves like one account: every client sees the same
 * tables whatever its access key and region (without it DynamoDB Local keeps tables per key and region).
 *
 * <p>DynamoDB Local loads sqlite4java's native library from {@code sqlite4java.library.path}; when that
 * is not set, the build's copy under {@code target/native-libs} is looked for from the working directory
 * up. After {@link #close()} DynamoDB Local leaves non-daemon threads behind, so a command-line program
 * that uses it must end with {@code System.exit}.
 */
public final class LocalDynamoDb implements AutoCloseable {

    public static final Region REGION = Region.US_EAST_1;
    private static final String NATIVE_LIBRARY = "libsqlite4java-linux-amd64";

    private final DynamoDBProxyServer server;
    private final URI endpoint;

    private LocalDynamoDb(DynamoDBProxyServer server, URI endpoint) {
        this.server = server;
        this.endpoint = endpoint;
    }

    /** Starts DynamoDB Local on a free port. */
    public static LocalDynamoDb start() {
        return start(freePort());
    }

    public static LocalDynamoDb start(int port) {
        ensureNativeLibrary();
        try {
            DynamoDBProxyServer server = ServerRunner.createServerFromCommandLineArgs(new String[] {
                    "-inMemory", "-sharedDb", "-disableTelemetry", "-port", Integer.toString(port)});
            server.start();
            return new LocalDynamoDb(server, URI.create("http://127.0.0.1:" + port));
        } catch (Exception e) {
            throw new IllegalStateException("DynamoDB Local did not start on port " + port + ": " + e.getMessage(), e);
        }
    }

    public URI endpoint() {
        return endpoint;
    }

    public DynamoDbClient client() {
        return DynamoDbClient.builder()
                .endpointOverride(endpoint)
                .region(REGION)
                .credentialsProvider(credentials())
                .httpClient(UrlConnectionHttpClient.create())
                .build();
    }

    public DynamoDbStreamsClient streamsClient() {
        return DynamoDbStreamsClient.builder()
                .endpointOverride(endpoint)
                .region(REGION)
                .credentialsProvider(credentials())
                .httpClient(UrlConnectionHttpClient.create())
                .build();
    }

    public static StaticCredentialsProvider credentials() {
        return StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local"));
    }

    @Override
    public void close() {
        try {
            server.stop();
        } catch (Exception e) {
            throw new IllegalStateException("DynamoDB Local did not stop cleanly", e);
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free local port", e);
        }
    }

    private static void ensureNativeLibrary() {
        String configured = System.getProperty("sqlite4java.library.path");
        if (configured != null && hasNativeLibrary(Path.of(configured))) {
            return;
        }
        Optional<Path> found = besideThisJar().or(() -> findNativeLibraryDir(Path.of("").toAbsolutePath()));
        if (found.isEmpty()) {
            throw new IllegalStateException("DynamoDB Local needs sqlite4java's native library (" + NATIVE_LIBRARY
                    + "*.so): set -Dsqlite4java.library.path to a folder holding it, or run 'mvn package' which"
                    + " copies it to target/native-libs");
        }
        System.setProperty("sqlite4java.library.path", found.get().toString());
    }

    /** A runner's {@code lib/} folder holds this jar and, copied with it, the native library. */
    private static Optional<Path> besideThisJar() {
        try {
            Path source = Path.of(LocalDynamoDb.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            Path dir = Files.isDirectory(source) ? source : source.getParent();
            return hasNativeLibrary(dir) ? Optional.of(dir) : Optional.empty();
        } catch (Exception e) {
            return Optional.empty();
        }
    }

    private static Optional<Path> findNativeLibraryDir(Path from) {
        for (Path dir = from; dir != null; dir = dir.getParent()) {
            for (Path candidate : new Path[] {dir.resolve("target/native-libs"), dir.resolve("native-libs")}) {
                if (hasNativeLibrary(candidate)) {
                    return Optional.of(candidate);
                }
            }
        }
        return Optional.empty();
    }

    private static boolean hasNativeLibrary(Path dir) {
        if (!Files.isDirectory(dir)) {
            return false;
        }
        try (var files = Files.list(dir)) {
            return files.anyMatch(f -> f.getFileName().toString().startsWith(NATIVE_LIBRARY));
        } catch (IOException e) {
            return false;
        }
    }
}

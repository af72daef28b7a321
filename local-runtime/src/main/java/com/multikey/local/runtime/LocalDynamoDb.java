package com.multikey.local.runtime;

import com.amazonaws.services.dynamodbv2.local.main.ServerRunner;
import com.amazonaws.services.dynamodbv2.local.server.DynamoDBProxyServer;
import com.amazonaws.services.dynamodbv2.local.shared.access.sqlite.SQLiteLibraryLoader;
import com.amazonaws.services.dynamodbv2.local.shared.access.sqlite.SQLiteLibraryLoaderUtil;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * DynamoDB Local running in this JVM as an HTTP server on a loopback port, in memory, with telemetry off.
 * It is started with {@code -sharedDb}, so it behaves like one account: every client sees the same
 * tables whatever its access key and region (without it DynamoDB Local keeps tables per key and region).
 *
 * <p>DynamoDB Local loads sqlite4java's native library from {@code sqlite4java.library.path}; when that
 * is not set, the library for this platform is taken from DynamoDB Local's own jar. After {@link #close()} DynamoDB Local leaves non-daemon threads behind, so a command-line program
 * that uses it must end with {@code System.exit}.
 */
public final class LocalDynamoDb implements AutoCloseable {

    public static final Region REGION = Region.US_EAST_1;
    /** The local stack's credentials: every client of it signs with them, the local HTTP API accepts only them. */
    public static final String ACCESS_KEY = "local";
    public static final String SECRET_KEY = "local";
    private static final String LIBRARY_PATH = "sqlite4java.library.path";
    /** Where DynamoDB Local's {@link SQLiteLibraryLoader} looks first, for a file named as this platform's library. */
    static final String SQLITE_LIB_PATH = "org.sqlite.lib.path";

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
        return StaticCredentialsProvider.create(AwsBasicCredentials.create(ACCESS_KEY, SECRET_KEY));
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

    /**
     * Points sqlite4java at a native library for this platform: the configured folder when it holds one,
     * else the library DynamoDB Local ships inside its own jar for this OS and architecture (Linux x86,
     * x86_64 and aarch64, macOS x86_64 and aarch64, Windows x86 and x86_64), chosen by DynamoDB Local's
     * own platform rules and copied once to a temporary folder, which is deleted when the JVM exits. DynamoDB
     * Local's own loader is pointed at the same folder.
     */
    static synchronized void ensureNativeLibrary() {
        String configured = System.getProperty(LIBRARY_PATH);
        if (configured != null && hasNativeLibrary(Path.of(configured))) {
            loadFromLibraryPath(configured);
            return;
        }
        String name = SQLiteLibraryLoaderUtil.getNativeLibName();
        String resource = "/" + SQLiteLibraryLoader.class.getPackageName().replace('.', '/') + "/native/"
                + SQLiteLibraryLoaderUtil.getNativeLibFolderPathForCurrentOS() + "/" + name;
        try (InputStream library = SQLiteLibraryLoader.class.getResourceAsStream(resource)) {
            if (library == null) {
                throw new IllegalStateException("DynamoDB Local ships no sqlite4java native library for this platform ("
                        + System.getProperty("os.name") + ", " + System.getProperty("os.arch") + "): set -D"
                        + LIBRARY_PATH + " to a folder holding one");
            }
            Path dir = Files.createTempDirectory("multikey-sqlite4java");
            // deleteOnExit deletes in the reverse order of registration: the library first, then its folder
            dir.toFile().deleteOnExit();
            dir.resolve(name).toFile().deleteOnExit();
            Files.copy(library, dir.resolve(name));
            System.setProperty(LIBRARY_PATH, dir.toString());
            loadFromLibraryPath(dir.toString());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot copy DynamoDB Local's native library " + resource, e);
        }
    }

    /**
     * Has DynamoDB Local's own loader take the library from the same folder: by default it copies the library
     * once more, to a file of its own in the temporary directory.
     */
    private static void loadFromLibraryPath(String dir) {
        if (System.getProperty(SQLITE_LIB_PATH) == null) {
            System.setProperty(SQLITE_LIB_PATH, dir);
        }
    }

    private static boolean hasNativeLibrary(Path dir) {
        if (!Files.isDirectory(dir)) {
            return false;
        }
        try (var files = Files.list(dir)) {
            return files.anyMatch(f -> f.getFileName().toString().contains("sqlite4java"));
        } catch (IOException e) {
            return false;
        }
    }
}

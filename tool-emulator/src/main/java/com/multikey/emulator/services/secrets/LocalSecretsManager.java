package com.multikey.emulator.services.secrets;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.multikey.emulator.services.LoopbackServers;
import com.multikey.emulator.services.dynamodb.LocalDynamoDb;
import com.multikey.emulator.template.TemplateEnvironment;
import com.multikey.emulator.template.TemplateSecrets;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * An HTTP endpoint on loopback that answers {@code GetSecretValue} of the Secrets Manager API as the AWS SDK v2 calls
 * it (AWS JSON 1.1, {@code X-Amz-Target: secretsmanager.GetSecretValue}) for the secrets put in it, each kept in a
 * file ({@link TemplateSecrets} makes them from the template's {@code GenerateSecretString}). The file is read at each
 * call, so a rotation is an edit of the file. Any other operation, and a secret it does not hold, is answered with
 * Secrets Manager's error codes.
 */
public final class LocalSecretsManager implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TARGET_PREFIX = "secretsmanager.";

    private final HttpServer server;
    /** The file of each secret, by the name and by the ARN a caller may give as {@code SecretId}. */
    private final Map<String, Secret> secrets = new ConcurrentHashMap<>();

    private record Secret(String name, String arn, Path file) {
    }

    private LocalSecretsManager(HttpServer server) {
        this.server = server;
    }

    /** On loopback, any free port. */
    public static LocalSecretsManager start() {
        return start("127.0.0.1", 0);
    }

    /** On {@code host} and {@code port} (0: any free one). */
    public static LocalSecretsManager start(String host, int port) {
        try {
            HttpServer server = LoopbackServers.create(host, port);
            LocalSecretsManager endpoint = new LocalSecretsManager(server);
            server.createContext("/", endpoint::handle);
            server.start();
            return endpoint;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the local Secrets Manager endpoint", e);
        }
    }

    public URI endpoint() {
        String host = server.getAddress().getAddress().isAnyLocalAddress() ? "127.0.0.1" : server.getAddress().getHostString();
        return URI.create("http://" + host + ":" + server.getAddress().getPort());
    }

    /** The local ARN of a secret of this name. */
    public static String arn(String name) {
        return "arn:aws:secretsmanager:" + LocalDynamoDb.REGION.id() + ":" + TemplateEnvironment.LOCAL_ACCOUNT + ":secret:" + name;
    }

    /** Serves the secret {@code name} (also by its local ARN) from {@code file}, which holds its secret string. */
    public void put(String name, Path file) {
        Secret secret = new Secret(name, arn(name), file);
        secrets.put(name, secret);
        secrets.put(secret.arn(), secret);
    }

    @Override
    public void close() {
        server.stop(0);
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String target = String.valueOf(exchange.getRequestHeaders().getFirst("X-Amz-Target"));
            JsonNode request;
            try {
                request = JSON.readTree(exchange.getRequestBody());
            } catch (IOException e) {
                respond(exchange, 400, error("InvalidRequestException", "the request body is not JSON"));
                return;
            }
            if (!target.equals(TARGET_PREFIX + "GetSecretValue")) {
                respond(exchange, 400, error("UnknownOperationException", target + " is not served by the local Secrets Manager endpoint"));
                return;
            }
            String id = request == null ? "" : request.path("SecretId").asText("");
            Secret secret = secrets.get(id);
            if (secret == null || !Files.isRegularFile(secret.file())) {
                respond(exchange, 400, error("ResourceNotFoundException", "Secrets Manager can't find the specified secret."));
                return;
            }
            ObjectNode answer = JSON.createObjectNode().put("ARN", secret.arn()).put("Name", secret.name())
                    .put("VersionId", "local").put("SecretString", Files.readString(secret.file(), StandardCharsets.UTF_8))
                    .put("CreatedDate", Files.getLastModifiedTime(secret.file()).toMillis() / 1000.0);
            answer.putArray("VersionStages").add("AWSCURRENT");
            respond(exchange, 200, answer);
        }
    }

    private static ObjectNode error(String type, String message) {
        return JSON.createObjectNode().put("__type", type).put("Message", message);
    }

    private static void respond(HttpExchange exchange, int status, JsonNode body) throws IOException {
        byte[] bytes = body.toString().getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/x-amz-json-1.1");
        exchange.sendResponseHeaders(status, bytes.length);
        exchange.getResponseBody().write(bytes);
    }
}

package com.multikey.local;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.multikey.emulator.TemplateRuntime;
import com.multikey.emulator.auth.LocalJwtIssuer;
import com.multikey.emulator.services.bus.LocalEventBridge;
import com.multikey.emulator.services.dynamodb.LocalDynamoDb;
import com.multikey.emulator.services.http.LocalHttpApi;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The read API of the local stack ({@code QueryHttpApi} of template.yaml) with its grid page: how its authorization
 * is set ({@code IAM}: the local credentials sign; {@code JWT}: tokens of the local issuer), where the local
 * token key lives, and the pages served beside the API (the grid, and the recent events it shows).
 */
final class LocalReadApi {

    /** The template's HTTP API. */
    static final String API = "QueryHttpApi";
    /** The issuer and audience of tokens minted locally; the template's JWT authorizer is given these. */
    static final String ISSUER = "https://issuer.multikey.invalid/local";
    static final String AUDIENCE = "multikey-local";
    /** The claim the tokens list their projects in (the template's default QueryApiProjectsClaim). */
    static final String PROJECTS_CLAIM = "projects";
    /** How many of the latest events the grid page shows. */
    static final int RECENT_EVENTS = 20;

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Map<String, String> PAGES = Map.of("/", "index.html", "/grid.js", "grid.js", "/sigv4.js", "sigv4.js",
            "/grid.css", "grid.css");

    private LocalReadApi() {
    }

    /** Where the local token key is kept unless told otherwise. */
    static Path defaultKeyFile() {
        return Path.of(System.getProperty("user.home"), ".multikey", "local-token-key.json");
    }

    /** Where {@code start} keeps the template's secrets unless told otherwise: cursors stay valid across restarts. */
    static Path defaultSecretsDirectory() {
        return Path.of(System.getProperty("user.home"), ".multikey", "secrets");
    }

    /** The template parameters that set the API's authorization: {@code IAM} or {@code JWT} (with the local issuer). */
    static Map<String, String> parameters(String auth) {
        return switch (auth) {
            case "IAM" -> Map.of("QueryApiAuth", "IAM");
            case "JWT" -> Map.of("QueryApiAuth", "JWT", "QueryApiJwtIssuer", ISSUER, "QueryApiJwtAudience", AUDIENCE,
                    "QueryApiProjectsClaim", PROJECTS_CLAIM);
            default -> throw new IllegalArgumentException("--api-auth must be IAM or JWT, got " + auth);
        };
    }

    /** Serves the API on {@code host}:{@code port} with the grid page at {@code /}. */
    static LocalHttpApi serve(TemplateRuntime runtime, String auth, String host, int port, Optional<LocalJwtIssuer> tokens) {
        LocalHttpApi api = runtime.serveHttpApi(API, host, port, tokens);
        PAGES.forEach((path, resource) -> {
            byte[] body = resource(resource);
            api.page(path, contentType(resource), () -> body);
        });
        byte[] config = config(auth).getBytes(StandardCharsets.UTF_8);
        api.page("/local/config.json", "application/json", () -> config);
        api.page("/local/events", "application/json", () -> recentEvents(runtime.bus().received()).getBytes(StandardCharsets.UTF_8));
        return api;
    }

    /**
     * What the page needs to call the API: the authorization mode and, for IAM, the local stack's credentials and
     * region (the ones every local client signs with; they open nothing outside this machine).
     */
    static String config(String auth) {
        ObjectNode config = JSON.createObjectNode().put("auth", auth).put("region", LocalDynamoDb.REGION.id())
                .put("service", "execute-api");
        if (auth.equals("IAM")) {
            config.put("accessKeyId", LocalDynamoDb.ACCESS_KEY).put("secretAccessKey", LocalDynamoDb.SECRET_KEY);
        }
        return config.toString();
    }

    /** The latest events on the bus, newest first: type, time, the item's keys and the attributes that changed. */
    static String recentEvents(List<LocalEventBridge.Received> received) {
        ArrayNode events = JSON.createArrayNode();
        for (int i = received.size() - 1; i >= 0 && events.size() < RECENT_EVENTS; i--) {
            ObjectNode envelope = received.get(i).envelope();
            ObjectNode event = events.addObject();
            event.put("detailType", envelope.path("detail-type").asText());
            event.put("time", envelope.path("time").asText());
            event.set("keys", envelope.path("detail").path("keys"));
            event.set("changedAttributes", envelope.path("detail").path("changedAttributes"));
        }
        return events.toString();
    }

    private static byte[] resource(String name) {
        try (InputStream in = LocalReadApi.class.getResourceAsStream("/grid/" + name)) {
            if (in == null) {
                throw new IllegalStateException("grid/" + name + " is missing from local.jar");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String contentType(String resource) {
        if (resource.endsWith(".html")) {
            return "text/html; charset=utf-8";
        }
        return resource.endsWith(".css") ? "text/css; charset=utf-8" : "text/javascript; charset=utf-8";
    }
}

package com.multikey.emulator.services.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.multikey.emulator.template.HttpApiRoutes;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

/**
 * API Gateway's payload format 2.0 for an {@code AWS_PROXY} integration, both ways: the event a request becomes for
 * the route's function, and the response the function's answer becomes.
 */
final class ProxyPayload {

    /** A response as API Gateway sends it. */
    record HttpResponse(int status, Map<String, String> headers, byte[] body) {
    }

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final DateTimeFormatter REQUEST_TIME = DateTimeFormatter.ofPattern("dd/MMM/yyyy:HH:mm:ss Z", Locale.ENGLISH)
            .withZone(ZoneOffset.UTC);

    private ProxyPayload() {
    }

    /** The payload format 2.0 event API Gateway sends the function of {@code route} of the HTTP API {@code api}, received {@code now}. */
    static String event(HttpApiRequest request, String api, HttpApiRoutes.Route route, ObjectNode authorizer, Instant now) {
        String rawPath = request.rawPath();
        String rawQuery = request.rawQuery();
        Map<String, List<String>> headers = request.headers();
        byte[] body = request.body();
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
        Map<String, String> pathParameters = route.match(request.method(), rawPath).orElse(Map.of());
        if (!pathParameters.isEmpty()) {
            ObjectNode parameters = event.putObject("pathParameters");
            pathParameters.forEach((name, value) -> parameters.put(name, decode(value)));
        }
        ObjectNode context = event.putObject("requestContext");
        context.put("accountId", LocalHttpApi.ACCOUNT).put("apiId", api).put("domainName", request.header("host"))
                .put("domainPrefix", api).put("requestId", UUID.randomUUID().toString()).put("routeKey", route.routeKey())
                .put("stage", "$default").put("time", REQUEST_TIME.format(now)).put("timeEpoch", now.toEpochMilli());
        context.putObject("http").put("method", request.method()).put("path", rawPath)
                .put("protocol", request.protocol()).put("sourceIp", request.sourceIp())
                .put("userAgent", request.header("user-agent"));
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
    static HttpResponse response(String answer) throws IOException {
        JsonNode response = JSON.readTree(answer);
        if (response == null || !response.isObject() || !response.has("statusCode")) {
            return new HttpResponse(200, Map.of("content-type", "application/json"), answer.getBytes(StandardCharsets.UTF_8));
        }
        int status = response.path("statusCode").asInt(500);
        Map<String, String> headers = new LinkedHashMap<>();
        response.path("headers").properties().forEach(header -> headers.put(header.getKey().toLowerCase(Locale.ROOT), header.getValue().asText()));
        String text = response.path("body").isNull() ? "" : response.path("body").asText("");
        byte[] body = response.path("isBase64Encoded").asBoolean(false) ? java.util.Base64.getDecoder().decode(text)
                : text.getBytes(StandardCharsets.UTF_8);
        headers.putIfAbsent("content-type", "application/json");
        return new HttpResponse(status, headers, body);
    }

    private static String decode(String text) {
        try {
            return java.net.URLDecoder.decode(text, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException malformed) {
            return text;
        }
    }
}

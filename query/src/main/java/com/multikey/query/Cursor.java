package com.multikey.query;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Where the next page starts, as an opaque string: the part (issues with the field, then issues without
 * it), the last evaluated key there, and a digest of the query it belongs to.
 */
record Cursor(Part part, Map<String, AttributeValue> startKey) {

    enum Part { INDEX, MISSING }

    private static final ObjectMapper JSON = new ObjectMapper();

    String encode(PageRequest request) {
        ObjectNode node = JSON.createObjectNode();
        node.put("v", 1);
        node.put("q", digest(request));
        node.put("part", part.name());
        ObjectNode key = node.putObject("key");
        startKey.forEach((name, value) -> {
            if (value.s() != null) {
                key.putObject(name).put("S", value.s());
            } else if (value.n() != null) {
                key.putObject(name).put("N", value.n());
            } else {
                throw new IllegalStateException("key attribute " + name + " is neither S nor N");
            }
        });
        return Base64.getUrlEncoder().withoutPadding().encodeToString(node.toString().getBytes(StandardCharsets.UTF_8));
    }

    static Cursor decode(String text, PageRequest request) {
        JsonNode node;
        try {
            node = JSON.readTree(new String(Base64.getUrlDecoder().decode(text), StandardCharsets.UTF_8));
        } catch (IllegalArgumentException | java.io.IOException e) {
            throw new QueryException("malformed cursor");
        }
        if (node == null || node.path("v").asInt() != 1 || !node.path("key").isObject() || !node.has("part")) {
            throw new QueryException("malformed cursor");
        }
        if (!digest(request).equals(node.path("q").asText())) {
            throw new QueryException("the cursor belongs to another query (project, attribute, order, filter and "
                    + "includeMissing must stay the same across pages)");
        }
        Part part;
        try {
            part = Part.valueOf(node.get("part").asText());
        } catch (IllegalArgumentException e) {
            throw new QueryException("malformed cursor");
        }
        Map<String, AttributeValue> key = new LinkedHashMap<>();
        node.get("key").fields().forEachRemaining(field -> {
            JsonNode value = field.getValue();
            if (value.has("S")) {
                key.put(field.getKey(), AttributeValue.fromS(value.get("S").asText()));
            } else if (value.has("N")) {
                key.put(field.getKey(), AttributeValue.fromN(value.get("N").asText()));
            } else {
                throw new QueryException("malformed cursor");
            }
        });
        return new Cursor(part, key);
    }

    private static String digest(PageRequest request) {
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(request.identity().getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(hash, 0, 12);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every JVM", e);
        }
    }
}

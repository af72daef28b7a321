package com.multikey.redrive;

import software.amazon.awssdk.protocols.jsoncore.JsonNode;

import java.util.Optional;

/**
 * JSON through the AWS SDK's own json-utils (already in the jar for the SDK's JSON protocols), so the
 * deployable jar carries no second JSON library: Jackson databind alone would take it past 10 MB.
 */
final class Json {

    private Json() {
    }

    /** @throws IllegalArgumentException when the text is not JSON (the message quotes none of it: it may hold user data) */
    static JsonNode parse(String text) {
        JsonNode node;
        try {
            node = JsonNode.parser().parse(text);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("not JSON", e);
        }
        if (node == null) {
            // the parser answers null for a blank text (SQS accepts a body of whitespace)
            throw new IllegalArgumentException("not JSON: blank");
        }
        return node;
    }

    static Optional<JsonNode> field(JsonNode node, String name) {
        return node.isObject() ? node.field(name).filter(value -> !value.isNull()) : Optional.empty();
    }

    /** A field's text (a string's value, a number's digits), or null. */
    static String text(JsonNode node, String name) {
        return field(node, name).filter(value -> value.isString() || value.isNumber())
                .map(value -> value.isString() ? value.asString() : value.asNumber()).orElse(null);
    }
}

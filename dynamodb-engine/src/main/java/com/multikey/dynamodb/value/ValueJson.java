package com.multikey.dynamodb.value;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.Map;

/**
 * Values and items in the wire protocol's JSON ({@code {"S": "x"}}, {@code {"N": "1"}}, binary as base64):
 * read with DynamoDB's validation messages (a ValidationException for an empty set, duplicates in a set, a
 * bad number, a value with no or several types), written canonically.
 */
public final class ValueJson {

    private ValueJson() {
    }

    public static Value read(JsonNode json) {
        throw new UnsupportedOperationException("TODO");
    }

    /** An item (or a key): a JSON object of attribute name to value. */
    public static Map<String, Value> readItem(JsonNode json) {
        throw new UnsupportedOperationException("TODO");
    }

    public static ObjectNode write(Value value) {
        throw new UnsupportedOperationException("TODO");
    }

    public static ObjectNode writeItem(Map<String, Value> item) {
        throw new UnsupportedOperationException("TODO");
    }
}

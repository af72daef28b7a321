package com.multikey.queryapi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.math.BigDecimal;
import java.util.Base64;
import java.util.Map;
import java.util.TreeMap;

/**
 * DynamoDB values as the API's JSON: strings, booleans, null, sets and lists as arrays, maps as objects (names in
 * sorted order), binary as base64 strings, and numbers as JSON numbers only when a JSON reader that holds numbers in
 * doubles (JavaScript's, Python's {@code float}) reads back the same number: {@code 9007199254740993} or a 38-digit
 * number comes back as a string of its exact digits, as the event contract does for integers outside int64.
 */
final class ApiJson {

    static final JsonNodeFactory NODES = JsonNodeFactory.withExactBigDecimals(true);

    private ApiJson() {
    }

    static ObjectNode of(Map<String, AttributeValue> item) {
        ObjectNode node = NODES.objectNode();
        new TreeMap<>(item).forEach((name, value) -> node.set(name, of(value)));
        return node;
    }

    static JsonNode of(AttributeValue value) {
        return switch (value.type()) {
            case S -> NODES.textNode(value.s());
            case N -> number(value.n());
            case BOOL -> NODES.booleanNode(value.bool());
            case NUL -> NODES.nullNode();
            case B -> NODES.textNode(base64(value.b()));
            case SS -> {
                ArrayNode array = NODES.arrayNode();
                value.ss().forEach(array::add);
                yield array;
            }
            case NS -> {
                ArrayNode array = NODES.arrayNode();
                value.ns().forEach(n -> array.add(number(n)));
                yield array;
            }
            case BS -> {
                ArrayNode array = NODES.arrayNode();
                value.bs().forEach(b -> array.add(base64(b)));
                yield array;
            }
            case L -> {
                ArrayNode array = NODES.arrayNode();
                value.l().forEach(element -> array.add(of(element)));
                yield array;
            }
            case M -> of(value.m());
            default -> NODES.nullNode();
        };
    }

    /** A JSON number when a double holds it (its shortest form reads back equal), else a string of its digits. */
    static JsonNode number(String text) {
        BigDecimal exact = new BigDecimal(text);
        double asDouble = exact.doubleValue();
        if (Double.isFinite(asDouble) && new BigDecimal(Double.toString(asDouble)).compareTo(exact) == 0) {
            return NODES.numberNode(exact);
        }
        return NODES.textNode(exact.toString());
    }

    private static String base64(SdkBytes bytes) {
        return Base64.getEncoder().encodeToString(bytes.asByteArrayUnsafe());
    }
}

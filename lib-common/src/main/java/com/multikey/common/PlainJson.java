package com.multikey.common;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * DynamoDB attribute values as plain JSON: numbers exact, sets as arrays, binary as base64 strings, NULL as
 * null; map keys in sorted order so equal items give equal JSON.
 *
 * <p>A number is a JSON number with every digit, except an integer outside int64: DynamoDB numbers have up
 * to 38 digits, but EventBridge's PutEvents refuses a JSON integer outside
 * [-9,223,372,036,854,775,808, 9,223,372,036,854,775,807] (PutEvents API reference), so such an integer is
 * written as a JSON string holding its exact decimal digits. Every other number is written in
 * {@link BigDecimal#toString()} form, which keeps a fraction or an exponent ({@code 1.50}, {@code 1E+125}):
 * a JSON number with a fraction or an exponent is not an integer, so nothing becomes a huge integer.
 *
 * <p>And back: strings, numbers, booleans, null, arrays (as lists) and objects (as maps); sets and binary do
 * not survive the round trip, they come back as lists and strings, and so does an integer outside int64
 * (a string).
 */
public final class PlainJson {

    private static final JsonNodeFactory NODES = JsonNodeFactory.withExactBigDecimals(true);

    private PlainJson() {
    }

    public static ObjectNode of(Map<String, AttributeValue> item) {
        ObjectNode node = NODES.objectNode();
        new TreeMap<>(item).forEach((name, value) -> node.set(name, of(value)));
        return node;
    }

    public static JsonNode of(AttributeValue value) {
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
            default -> throw new MalformedRecordException("attribute value of a type this SDK does not know");
        };
    }

    /** A DynamoDB number as JSON: a number, or a string of its digits when it is an integer outside int64. */
    public static JsonNode number(String n) {
        BigDecimal number = decimal(n);
        return isIntegerOutsideInt64(number) ? NODES.textNode(number.toString()) : NODES.numberNode(number);
    }

    /** @throws MalformedRecordException when the text is not a number (DynamoDB never sends one) */
    public static BigDecimal decimal(String n) {
        try {
            return new BigDecimal(n);
        } catch (NumberFormatException e) {
            throw new MalformedRecordException("a number attribute value is not a number", e);
        }
    }

    /**
     * Whether the number would be written as a JSON integer that does not fit int64. {@link BigDecimal#toString()}
     * writes plain digits (a JSON integer) exactly when the scale is 0; any other scale gives a fraction or an
     * exponent.
     */
    public static boolean isIntegerOutsideInt64(BigDecimal number) {
        return number.scale() == 0 && (number.compareTo(INT64_MIN) < 0 || number.compareTo(INT64_MAX) > 0);
    }

    private static final BigDecimal INT64_MIN = BigDecimal.valueOf(Long.MIN_VALUE);
    private static final BigDecimal INT64_MAX = BigDecimal.valueOf(Long.MAX_VALUE);

    /** A JSON object as an item. */
    public static Map<String, AttributeValue> toItem(JsonNode object) {
        Map<String, AttributeValue> item = new LinkedHashMap<>();
        object.fields().forEachRemaining(field -> item.put(field.getKey(), toAttributeValue(field.getValue())));
        return item;
    }

    public static AttributeValue toAttributeValue(JsonNode node) {
        if (node.isObject()) {
            return AttributeValue.fromM(toItem(node));
        }
        if (node.isArray()) {
            List<AttributeValue> list = new ArrayList<>();
            node.forEach(element -> list.add(toAttributeValue(element)));
            return AttributeValue.fromL(list);
        }
        if (node.isNumber()) {
            return AttributeValue.fromN(node.decimalValue().toString());
        }
        if (node.isBoolean()) {
            return AttributeValue.fromBool(node.booleanValue());
        }
        if (node.isNull()) {
            return AttributeValue.fromNul(true);
        }
        return AttributeValue.fromS(node.asText());
    }

    private static String base64(SdkBytes bytes) {
        return Base64.getEncoder().encodeToString(bytes.asByteArray());
    }
}

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
 * DynamoDB attribute values as plain JSON, the one mapping the project's JSON of items goes through (the router's
 * events, the read API's pages, the command lines' output): strings, booleans, NULL as null, sets and lists as
 * arrays, maps as objects with their names in sorted order (equal items give equal JSON), binary as base64 strings.
 * A number is written by one of two policies, the constants of this type:
 * <ul>
 * <li>{@link #EXACT} (the event contract, the command lines): a JSON number with every digit, except an integer
 * outside int64. DynamoDB numbers have up to 38 digits, but EventBridge's PutEvents refuses a JSON integer outside
 * [-9,223,372,036,854,775,808, 9,223,372,036,854,775,807] (PutEvents API reference; decision 0006), so such an
 * integer is written as a JSON string holding its exact decimal digits. Every other number is written in
 * {@link BigDecimal#toString()} form, which keeps a fraction or an exponent ({@code 1.50}, {@code 1E+125}): a JSON
 * number with a fraction or an exponent is not an integer, so nothing becomes a huge integer.</li>
 * <li>{@link #DOUBLE_SAFE} (the read API's pages): a JSON number only when a JSON reader that holds numbers in
 * doubles (JavaScript's, Python's {@code float}) reads back the same number, else a string of its exact digits:
 * {@code 9007199254740993} and a 38-digit number come back as strings, {@code 0.1} and {@code 1E+125} as numbers.</li>
 * </ul>
 * Either policy writes the {@link BigDecimal#toString()} form ({@code 1E2} as {@code 1E+2}, {@code -0} as {@code 0}).
 * A value of a type this SDK does not know is refused by {@link #EXACT} ({@link MalformedRecordException}: an event
 * never carries what it cannot spell) and written as null by {@link #DOUBLE_SAFE} (a page still answers).
 *
 * <p>And back ({@link #toItem}): strings, numbers, booleans, null, arrays (as lists) and objects (as maps); sets and
 * binary do not survive the round trip, they come back as lists and strings, and so does a number written as a string.
 *
 * <p><b>Which JSON library each deployable jar carries, and why.</b> Every function jar holds the SDK's own JSON
 * library, json-utils (the SDK's JSON protocols need it; the index definitions are read with it). This class, the
 * structured logs and the EMF metrics are written with Jackson databind, which the jars of stream-indexer, router,
 * delete-layer, query-api and reindex-worker also carry. redrive's jar leaves Jackson out (a shade filter in its pom):
 * with it the jar would pass its 10 MB budget. So redrive never loads this class; it writes the stream's DynamoDB JSON
 * with {@link DynamoDbJson} and the rest of its JSON on json-utils too ({@code RedriveJarIT} proves no Jackson class is
 * inside). The budgets, each held by the function's {@code *JarIT}: 10 MB for router, stream-indexer, delete-layer,
 * redrive and query-api, 10.5 MB for reindex-worker (two SDK clients); docs/configuration.md lists the sizes as built. JSON that redrive writes, or that a function must write without growing its jar, goes on json-utils,
 * never on a second JSON library.
 */
public enum PlainJson {

    /** Every digit: a JSON number, or a string of its digits when it is an integer outside int64 (the events). */
    EXACT,
    /** A JSON number only when a double reads back the same number, else a string of its exact digits (the read API). */
    DOUBLE_SAFE;

    private static final JsonNodeFactory NODES = JsonNodeFactory.withExactBigDecimals(true);
    private static final BigDecimal INT64_MIN = BigDecimal.valueOf(Long.MIN_VALUE);
    private static final BigDecimal INT64_MAX = BigDecimal.valueOf(Long.MAX_VALUE);

    /** The item (or key, or image) as a JSON object, its attributes in sorted order. */
    public ObjectNode of(Map<String, AttributeValue> item) {
        ObjectNode node = NODES.objectNode();
        new TreeMap<>(item).forEach((name, value) -> node.set(name, of(value)));
        return node;
    }

    public JsonNode of(AttributeValue value) {
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
            case UNKNOWN_TO_SDK_VERSION -> switch (this) {
                case EXACT -> throw new MalformedRecordException("attribute value of a type this SDK does not know");
                case DOUBLE_SAFE -> NODES.nullNode();
            };
        };
    }

    /**
     * A DynamoDB number as this policy writes it: a JSON number, or a string of its exact digits.
     *
     * @throws MalformedRecordException when the text is not a number (DynamoDB never sends one)
     */
    public JsonNode number(String n) {
        BigDecimal number = decimal(n);
        return isJsonNumber(number) ? NODES.numberNode(number) : NODES.textNode(number.toString());
    }

    /** Whether this policy writes the number as a JSON number (else as a string of its exact digits). */
    public boolean isJsonNumber(BigDecimal number) {
        return switch (this) {
            case EXACT -> !isIntegerOutsideInt64(number);
            case DOUBLE_SAFE -> readsBackFromDouble(number);
        };
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

    /** Whether the double nearest the number, read back from its shortest form, is the same number. */
    private static boolean readsBackFromDouble(BigDecimal number) {
        double asDouble = number.doubleValue();
        return Double.isFinite(asDouble) && new BigDecimal(Double.toString(asDouble)).compareTo(number) == 0;
    }

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
        return Base64.getEncoder().encodeToString(bytes.asByteArrayUnsafe());
    }
}

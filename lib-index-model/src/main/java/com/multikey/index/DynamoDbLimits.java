package com.multikey.index;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * DynamoDB's documented limits that an index write must respect, checked before writing so that an item
 * DynamoDB would refuse never reaches a BatchWriteItem call (where it would fail its neighbours).
 *
 * <p>Source: Amazon DynamoDB Developer Guide, "Service, account, and table quotas" (partition key
 * 1 to 2,048 bytes, sort key 1 to 1,024 bytes, item 400 KB including attribute names) and the
 * BatchWriteItem API reference (at most 25 put or delete requests and 16 MB a call); item sizes as in
 * "Working with items: item sizes" (strings and names as UTF-8 bytes, numbers about one byte per two
 * significant digits plus one, booleans and nulls one byte, three bytes per list or map plus one per
 * element). The 16 MB of a BatchWriteItem call are counted on the request as sent.
 */
public final class DynamoDbLimits {

    public static final int MAX_PARTITION_KEY_BYTES = 2048;
    public static final int MAX_SORT_KEY_BYTES = 1024;
    public static final int MAX_ITEM_BYTES = 400 * 1024;
    public static final int MAX_BATCH_WRITE_REQUESTS = 25;
    public static final int MAX_BATCH_WRITE_BYTES = 16 * 1024 * 1024;

    private DynamoDbLimits() {
    }

    /**
     * The size DynamoDB counts for an item, rounded up where the guide gives an approximation (numbers),
     * so an item this method accepts is never refused as too large.
     */
    public static long itemBytes(Map<String, AttributeValue> item) {
        long bytes = 0;
        for (Map.Entry<String, AttributeValue> attribute : item.entrySet()) {
            bytes += utf8Bytes(attribute.getKey()) + valueBytes(attribute.getValue());
        }
        return bytes;
    }

    static long valueBytes(AttributeValue value) {
        return switch (value.type()) {
            case S -> utf8Bytes(value.s());
            case N -> numberBytes(value.n());
            case B -> value.b().asByteArrayUnsafe().length;
            case BOOL, NUL -> 1;
            case SS -> value.ss().stream().mapToLong(DynamoDbLimits::utf8Bytes).sum();
            case NS -> value.ns().stream().mapToLong(DynamoDbLimits::numberBytes).sum();
            case BS -> value.bs().stream().mapToLong(b -> b.asByteArrayUnsafe().length).sum();
            case L -> 3 + value.l().stream().mapToLong(element -> 1 + valueBytes(element)).sum();
            case M -> 3 + value.m().entrySet().stream()
                    .mapToLong(e -> 1 + utf8Bytes(e.getKey()) + valueBytes(e.getValue())).sum();
            case UNKNOWN_TO_SDK_VERSION -> throw new IllegalArgumentException("attribute value of an unknown type");
        };
    }

    /**
     * The size DynamoDB stores a number in: one byte for the exponent and one per base-100 digit of the
     * significand, the pairs aligned on the decimal point ({@code 12} is one pair, {@code 110} two:
     * {@code 01|10}), and one more for a negative number; zero is one byte. This is the encoding DynamoDB
     * Local measures items with, which the guide's "one byte per two significant digits" approximates.
     */
    static long numberBytes(String number) {
        BigDecimal stripped = new BigDecimal(number).stripTrailingZeros();
        if (stripped.signum() == 0) {
            return 1;
        }
        int digits = stripped.unscaledValue().abs().toString().length();
        int highestPower = digits - stripped.scale() - 1;
        int lowestPower = -stripped.scale();
        long pairs = Math.floorDiv(highestPower, 2) - Math.floorDiv(lowestPower, 2) + 1;
        return 1 + pairs + (stripped.signum() < 0 ? 1 : 0);
    }

    /**
     * An upper bound of an item's size as JSON in a request body, where DynamoDB's request limits apply:
     * control characters take six bytes (a backslash, {@code u} and four hex digits), quotes and backslashes two, and every attribute
     * its name and type wrapper.
     */
    public static long requestJsonBytes(Map<String, AttributeValue> item) {
        long bytes = 2;
        for (Map.Entry<String, AttributeValue> attribute : item.entrySet()) {
            bytes += jsonStringBytes(attribute.getKey()) + 1 + valueJsonBytes(attribute.getValue()) + 1;
        }
        return bytes;
    }

    private static long valueJsonBytes(AttributeValue value) {
        // {"S":...}: braces, the quoted type tag and a colon
        long wrapper = 8;
        return wrapper + switch (value.type()) {
            case S -> jsonStringBytes(value.s());
            case N -> value.n().length() + 2;
            case B -> (value.b().asByteArrayUnsafe().length + 2) / 3 * 4 + 2;
            // the 4-letter tag takes one byte more than the wrapper; false, or true for NULL, at most five
            case BOOL, NUL -> 6;
            case SS -> 2 + value.ss().stream().mapToLong(text -> jsonStringBytes(text) + 1).sum();
            case NS -> 2 + value.ns().stream().mapToLong(n -> n.length() + 3).sum();
            case BS -> 2 + value.bs().stream().mapToLong(b -> (b.asByteArrayUnsafe().length + 2) / 3 * 4 + 3).sum();
            case L -> 2 + value.l().stream().mapToLong(element -> valueJsonBytes(element) + 1).sum();
            case M -> 2 + value.m().entrySet().stream()
                    .mapToLong(e -> jsonStringBytes(e.getKey()) + 1 + valueJsonBytes(e.getValue()) + 1).sum();
            case UNKNOWN_TO_SDK_VERSION -> throw new IllegalArgumentException("attribute value of an unknown type");
        };
    }

    private static long jsonStringBytes(String text) {
        long bytes = 2;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < 0x20) {
                bytes += 6;
            } else if (c == '"' || c == '\\') {
                bytes += 2;
            } else if (c < 0x80) {
                bytes += 1;
            } else if (c < 0x800) {
                bytes += 2;
            } else if (Character.isSurrogate(c)) {
                bytes += 2;
            } else {
                bytes += 3;
            }
        }
        return bytes;
    }

    public static int utf8Bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8).length;
    }
}

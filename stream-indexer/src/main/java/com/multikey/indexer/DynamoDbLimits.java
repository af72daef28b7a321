package com.multikey.indexer;

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
 * element).
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

    /** One byte per two significant digits, rounded up, plus one (and one more for a sign). */
    static long numberBytes(String number) {
        BigDecimal stripped = new BigDecimal(number).stripTrailingZeros();
        int digits = stripped.signum() == 0 ? 1 : stripped.unscaledValue().abs().toString().length();
        return (digits + 1) / 2 + 1 + (stripped.signum() < 0 ? 1 : 0);
    }

    public static int utf8Bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8).length;
    }
}

package com.multikey.dynamodb.value;

import java.util.Map;

/** Order, size and validation of values as DynamoDB defines them. */
public final class Values {

    private Values() {
    }

    /**
     * Compares two values of one key type (S by UTF-8 bytes, N numerically, B by unsigned bytes), as DynamoDB
     * orders sort keys; an IllegalArgumentException for other types or mixed types.
     */
    public static int compareKeys(Value a, Value b) {
        throw new UnsupportedOperationException("TODO");
    }

    /** The item's size as DynamoDB counts it against the 400 KB limit (names' UTF-8 bytes plus values). */
    public static long itemSize(Map<String, Value> item) {
        throw new UnsupportedOperationException("TODO");
    }

    /** The size of one value as DynamoDB counts it (without the attribute name). */
    public static long size(Value value) {
        throw new UnsupportedOperationException("TODO");
    }
}

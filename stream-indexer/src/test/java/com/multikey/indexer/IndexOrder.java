package com.multikey.indexer;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Comparator;

/** The specified index order, written independently of the encoding, and the order DynamoDB applies to keys. */
final class IndexOrder {

    private IndexOrder() {
    }

    /** numbers < strings < booleans; numbers numerically, strings by code point, false < true. */
    static final Comparator<IndexValue> VALUE = (a, b) -> {
        int byType = Integer.compare(rank(a), rank(b));
        if (byType != 0) {
            return byType;
        }
        return switch (a) {
            case IndexValue.Num n -> n.value().compareTo(((IndexValue.Num) b).value());
            case IndexValue.Text t -> compareCodePoints(t.value(), ((IndexValue.Text) b).value());
            case IndexValue.Bool x -> Boolean.compare(x.value(), ((IndexValue.Bool) b).value());
        };
    };

    record Entry(IndexValue value, BigDecimal num, String issueId) {
    }

    static final Comparator<Entry> ENTRY = Comparator.comparing(Entry::value, VALUE)
            .thenComparing(Entry::num)
            .thenComparing(Entry::issueId, IndexOrder::compareCodePoints);

    /** DynamoDB's order of string keys: their UTF-8 bytes, unsigned. */
    static int compareKeys(String a, String b) {
        return Arrays.compareUnsigned(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
    }

    static int compareCodePoints(String a, String b) {
        return Arrays.compare(a.codePoints().toArray(), b.codePoints().toArray());
    }

    private static int rank(IndexValue value) {
        return switch (value) {
            case IndexValue.Num n -> 0;
            case IndexValue.Text t -> 1;
            case IndexValue.Bool b -> 2;
        };
    }
}

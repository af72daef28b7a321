package com.multikey.index;

import java.math.BigDecimal;
import java.util.Arrays;
import java.util.Comparator;

/** The specified index order, written independently of the encoding, and the order DynamoDB applies to keys. */
public final class IndexOrder {

    private IndexOrder() {
    }

    /** numbers < strings < booleans; numbers numerically, strings by code point, false < true. */
    public static final Comparator<IndexValue> VALUE = (a, b) -> {
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

    public record Entry(IndexValue value, BigDecimal num, String issueId) {
    }

    public static final Comparator<Entry> ENTRY = Comparator.comparing(Entry::value, VALUE)
            .thenComparing(Entry::num)
            .thenComparing(Entry::issueId, IndexOrder::compareCodePoints);

    /** DynamoDB's order of string keys: their UTF-8 bytes, unsigned. */
    public static int compareKeys(String a, String b) {
        return KeyOrder.compare(a, b);
    }

    public static int compareCodePoints(String a, String b) {
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

package com.multikey.dynamodb.table;

import com.multikey.dynamodb.value.Value;
import com.multikey.dynamodb.value.Values;

import java.util.Comparator;
import java.util.List;

/**
 * The order of stored entries. A position inside a partition is a list of key values (the sort key, then for
 * an index the table's key); a {@code null} element stands for "above every value", so that
 * {@code [x, null]} bounds every position starting with {@code x} from above, and a shorter list that is a
 * prefix of a longer one sorts first, so {@code [x]} bounds them from below.
 */
final class KeyOrder {

    static final Comparator<Value> VALUES = Values::compareKeys;

    static final Comparator<List<Value>> POSITIONS = (a, b) -> {
        int common = Math.min(a.size(), b.size());
        for (int i = 0; i < common; i++) {
            Value x = a.get(i);
            Value y = b.get(i);
            if (x == null || y == null) {
                if (x == y) {
                    continue;
                }
                return x == null ? 1 : -1;
            }
            int c = Values.compareKeys(x, y);
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(a.size(), b.size());
    };

    private KeyOrder() {
    }
}

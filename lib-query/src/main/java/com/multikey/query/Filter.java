package com.multikey.query;

import com.multikey.index.IndexValue;
import com.multikey.index.KeyOrder;
import com.multikey.index.SortKeyCodec;
import com.multikey.index.ValueBounds;

import java.util.Objects;

/**
 * A condition on a custom field's value, translated to a key condition on the index's {@code sortKey}
 * (never to a scan). Ranges stay within the bound's type: {@code > 5} matches numbers only.
 */
public sealed interface Filter {

    /**
     * The key condition over an index whose values are encoded within these bounds:
     * {@code begins_with(sortKey, prefix)} or {@code sortKey BETWEEN low AND high}.
     */
    KeyRange keyRange(ValueBounds bounds);

    /** The key condition over the grid (the field-partitioned layout). */
    default KeyRange keyRange() {
        return keyRange(ValueBounds.FIELD_PARTITIONED);
    }

    /** Whether a value satisfies the filter, decided on its sort key exactly as DynamoDB does. */
    default boolean matches(IndexValue value, ValueBounds bounds) {
        return keyRange(bounds).contains(bounds.sampleKey(value));
    }

    /** Whether a value satisfies the filter over the grid. */
    default boolean matches(IndexValue value) {
        return matches(value, ValueBounds.FIELD_PARTITIONED);
    }

    /** A key condition: a prefix, or an inclusive range. */
    record KeyRange(String prefix, String low, String high) {
        static KeyRange prefix(String prefix) {
            return new KeyRange(prefix, null, null);
        }

        static KeyRange between(String low, String high) {
            return new KeyRange(null, low, high);
        }

        /**
         * Whether no key can satisfy it: a range whose low end sorts above its high end, such as
         * {@code between(5, 1)} or {@code (5, 5)} with both ends exclusive (DynamoDB refuses such a
         * {@code BETWEEN}), or at its high end ({@code [5, 5)}): no stored key equals a bound, since every
         * bound stops where a key goes on (after a type tag, a value's separator, or in place of a num).
         */
        boolean isEmpty() {
            return prefix == null && compare(low, high) >= 0;
        }

        /** Whether a stored sort key satisfies the condition, compared as DynamoDB compares keys. */
        boolean contains(String sortKey) {
            return prefix != null ? sortKey.startsWith(prefix) : compare(sortKey, low) >= 0 && compare(sortKey, high) <= 0;
        }
    }

    /** value = v */
    record Equals(IndexValue value) implements Filter {
        public Equals {
            Objects.requireNonNull(value, "value");
        }

        @Override
        public KeyRange keyRange(ValueBounds bounds) {
            return KeyRange.prefix(bounds.valuePrefix(value));
        }
    }

    /**
     * text value starts with {@code prefix}. A prefix longer than the part of a value a sort key keeps is
     * asked of the index by its kept part and decided on the whole value, which every index item carries.
     */
    record BeginsWith(String prefix) implements Filter {
        public BeginsWith {
            Objects.requireNonNull(prefix, "prefix");
        }

        @Override
        public KeyRange keyRange(ValueBounds bounds) {
            return KeyRange.prefix(bounds.textPrefix(prefix));
        }

        @Override
        public boolean matches(IndexValue value, ValueBounds bounds) {
            return value instanceof IndexValue.Text text && text.value().startsWith(prefix);
        }
    }

    /**
     * A range of one type; a missing bound is open. {@code lowInclusive}/{@code highInclusive} say whether
     * the bound itself matches.
     */
    record Range(IndexValue low, boolean lowInclusive, IndexValue high, boolean highInclusive) implements Filter {
        public Range {
            if (low == null && high == null) {
                throw new IllegalArgumentException("a range needs at least one bound");
            }
            if (low != null && high != null && !SortKeyCodec.typeLow(low).equals(SortKeyCodec.typeLow(high))) {
                throw new IllegalArgumentException("range bounds must be of one type");
            }
        }

        public static Range between(IndexValue low, IndexValue high) {
            return new Range(low, true, high, true);
        }

        public static Range lessThan(IndexValue high) {
            return new Range(null, false, high, false);
        }

        public static Range atMost(IndexValue high) {
            return new Range(null, false, high, true);
        }

        public static Range greaterThan(IndexValue low) {
            return new Range(low, false, null, false);
        }

        public static Range atLeast(IndexValue low) {
            return new Range(low, true, null, false);
        }

        /**
         * A bound cut where a sort key cuts a long text widens to every value that shares its kept part (those sort by
         * digest, not by value): the range is asked of the index by it and decided on whole values ({@link #matches}).
         */
        @Override
        public KeyRange keyRange(ValueBounds bounds) {
            IndexValue any = low != null ? low : high;
            String from = low == null ? SortKeyCodec.typeLow(any) : bounds.lowerBoundCovering(low, lowInclusive);
            String to = high == null ? SortKeyCodec.typeHigh(any) : bounds.upperBoundCovering(high, highInclusive);
            return KeyRange.between(from, to);
        }

        /** Decided on the whole value: of the bounds' type, within them. */
        @Override
        public boolean matches(IndexValue value, ValueBounds bounds) {
            return new Predicate.Range("", low, lowInclusive, high, highInclusive).test(value);
        }
    }

    private static int compare(String a, String b) {
        return KeyOrder.compare(a, b);
    }
}

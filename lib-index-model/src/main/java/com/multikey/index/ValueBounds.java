package com.multikey.index;

import java.math.BigDecimal;

/**
 * Key-range bounds over the values of one index, for its queries' key conditions: the encoded value cut at the
 * index's value budget, as its items' sort keys are.
 *
 * @param valueBytes the bytes the index's sort keys give a value ({@link SortKeyCodec#MAX_VALUE_BYTES} for the
 *                   field-partitioned grid, {@link SortKeyCodec#valueBudget} for a grouped index)
 * @param grouped    whether keys are in the grouped layout, where anything (a tie-breaker, the item key) may follow
 *                   a value's separator; in the field-partitioned layout a number ({@code n}, {@code o} or {@code p}) does
 */
public record ValueBounds(int valueBytes, boolean grouped) {

    /** The field-partitioned grid's bounds, as {@link SortKeyCodec}'s own methods give them. */
    public static final ValueBounds FIELD_PARTITIONED = new ValueBounds(SortKeyCodec.MAX_VALUE_BYTES, false);

    public ValueBounds {
        if (valueBytes < SortKeyCodec.MIN_VALUE_BYTES || valueBytes > SortKeyCodec.MAX_KEY_BYTES) {
            throw new IllegalArgumentException("a value budget of " + valueBytes + " bytes");
        }
    }

    /** What every key of items with exactly this value starts with. */
    public String valuePrefix(IndexValue value) {
        return ValueEncoding.encode(value, valueBytes) + SortKeyCodec.SEPARATOR;
    }

    /** The low end of a range over values from {@code value} on (see {@link SortKeyCodec#lowerBound}). */
    public String lowerBound(IndexValue value, boolean inclusive) {
        // a greater value's encoding extends this one with a character >= U+0002, or differs earlier
        return inclusive ? valuePrefix(value) : ValueEncoding.encode(value, valueBytes) + TextEncoding.ESCAPE;
    }

    /**
     * The high end of a range over values up to {@code value}: inclusive, above every key of the value and below
     * every key of a greater value (whose encoding extends this one with a character from U+0002 on, or differs
     * earlier); exclusive, below every key of it.
     */
    public String upperBound(IndexValue value, boolean inclusive) {
        if (!grouped) {
            // after the value's separator comes a num, whose encoding starts with n, o or p, all below U+007F
            return inclusive ? valuePrefix(value) + ValueEncoding.NUM_CEILING : valuePrefix(value);
        }
        return inclusive ? ValueEncoding.encode(value, valueBytes) + TextEncoding.ESCAPE : valuePrefix(value);
    }

    /** What every key of a string value starting with {@code text} starts with (see {@link SortKeyCodec#textPrefix}). */
    public String textPrefix(String text) {
        return TextEncoding.prefix(text, valueBytes);
    }

    /**
     * Whether a value's keys hold it only in part: a text longer than the index's value budget, cut, with a digest of the
     * whole after the cut. Values that share the kept part sort by their digests, not by what follows the cut.
     */
    public boolean isCut(IndexValue value) {
        return value instanceof IndexValue.Text text && !ValueEncoding.encode(value, valueBytes).equals(textPrefix(text.value()));
    }

    /**
     * As {@link #lowerBound}, below every key of a value that may be within the range: for a cut value, every value that
     * shares its kept part (the range's test on whole values decides).
     */
    public String lowerBoundCovering(IndexValue value, boolean inclusive) {
        return isCut(value) ? textPrefix(((IndexValue.Text) value).value()) : lowerBound(value, inclusive);
    }

    /**
     * As {@link #upperBound}, above every key of a value that may be within the range: for a cut value, every value that
     * shares its kept part (after it comes the cut's mark and a hex digest, far below U+10FFFF).
     */
    public String upperBoundCovering(IndexValue value, boolean inclusive) {
        return isCut(value) ? textPrefix(((IndexValue.Text) value).value()) + "\uDBFF\uDFFF" : upperBound(value, inclusive);
    }

    /**
     * A key an item of this value can have: to test a value against a key range. In the field-partitioned layout, with
     * num 1 and an empty issue id.
     */
    public String sampleKey(IndexValue value) {
        return grouped ? valuePrefix(value) + SortKeyCodec.SEPARATOR
                : valuePrefix(value) + NumberEncoding.encode(BigDecimal.ONE) + SortKeyCodec.SEPARATOR;
    }
}

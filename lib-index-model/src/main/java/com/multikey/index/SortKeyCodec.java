package com.multikey.index;

import com.multikey.index.definition.IndexDefinition;
import com.multikey.index.definition.KeySchema;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

/**
 * The order-preserving index sort key, where DynamoDB's ascending order of the keys (by UTF-8 bytes) is the order of
 * their parts: the entry point for the keys, bounds and prefixes of both layouts of an index.
 *
 * <h2>Layout</h2>
 * <ul>
 *   <li>A grouped index's key is {@code value SEP tie-breaker SEP ... item key} ({@link #encodeGrouped}); the original
 *       issue grid's field-partitioned key is {@code value SEP num SEP issueId} ({@link #encode}).</li>
 *   <li>{@code SEP} is U+0001 and sorts below every character an encoded value or number contains.</li>
 *   <li>A value starts with a type tag, which gives the order across types: {@code N} number &lt;
 *       {@code S} string &lt; {@code T} boolean.</li>
 *   <li>String: {@code S} then the text, readable as it is; the characters U+0000, U+0001 and U+0002
 *       become the two-character escapes U+0002 U+0002, U+0002 U+0003 and U+0002 U+0004, which keep their
 *       order, sort above {@code SEP} and below every unescaped character. So an encoded value never
 *       contains {@code SEP} or U+0000, and a string sorts below its extensions.</li>
 *   <li>Number ({@code N}, and the bare {@code num} part): {@code n} negative &lt; {@code o} zero &lt;
 *       {@code p} positive. A positive number {@code 0.d1d2.. x 10^E} (d1 non-zero, no trailing zeros) is
 *       {@code p}, {@code E+130} in three digits, then the digits; a negative number is {@code n},
 *       {@code 999-(E+130)}, the nines' complement of each digit, then {@code ~}, so a longer magnitude
 *       sorts first. This covers DynamoDB's whole range (38 significant digits, 1E-130 to 9.99..E+125),
 *       and equal numbers in any spelling encode identically.</li>
 *   <li>Boolean: {@code Tfalse} or {@code Ttrue}.</li>
 *   <li>The grid's issue id comes last, unescaped: nothing follows it.</li>
 * </ul>
 *
 * <h2>Length</h2>
 * A key is at most {@value #MAX_KEY_BYTES} UTF-8 bytes. The encoded value gets a fixed number of them, whatever follows
 * it: in the grid's key {@value #MAX_VALUE_BYTES}, whatever the num and issue id (which get the rest: an issue id of at
 * most {@value #MAX_ISSUE_ID_BYTES} bytes), in a grouped index's its {@link #valueBudget}; so equal values always encode
 * alike and stay ordered by what follows them. A longer string is cut at a character boundary and ends with U+0002
 * {@code ~} and 32 hex digits of the SHA-256 of the whole string: order is kept between strings that differ before the
 * cut, distinct strings keep distinct keys, and the whole value stays in the item's {@code value} attribute.
 *
 * <h2>Owners</h2>
 * Numbers are written by {@link NumberEncoding}, texts (escapes, the cut and its digest) by {@link TextEncoding}, a
 * value of any type by {@link ValueEncoding}, whole keys by {@link KeyAssembly}; key-range bounds and prefixes over an
 * index's values are {@link ValueBounds}'.
 */
public final class SortKeyCodec {

    public static final char SEPARATOR = '\u0001';
    public static final int MAX_KEY_BYTES = DynamoDbLimits.MAX_SORT_KEY_BYTES;

    public static final int MAX_ISSUE_ID_BYTES = 256;
    public static final int MAX_VALUE_BYTES = MAX_KEY_BYTES - 2 - NumberEncoding.MAX_CHARS - MAX_ISSUE_ID_BYTES;

    /** The fewest bytes a grouped index leaves its values: a number's 44, or a cut string's digest and some text. */
    public static final int MIN_VALUE_BYTES = 64;

    private SortKeyCodec() {
    }

    /**
     * The bytes a grouped index's sort key gives its value: what is left of {@value #MAX_KEY_BYTES} after each
     * tie-breaker's {@code maxBytes} and the item key's {@code maxItemKeyBytes}, with a separator after the
     * value and after each tie-breaker. Fixed per index, so equal values always encode alike.
     */
    public static int valueBudget(IndexDefinition index, KeySchema table) {
        return KeyAssembly.valueBudget(index, table);
    }

    /**
     * The sort key of a grouped index item: {@code value SEP tie-breaker SEP ... item key}. A missing tie-breaker
     * is empty, so it sorts before every present one.
     *
     * @param valueBytes  the index's {@link #valueBudget}
     * @param tieBreakers each tie-breaker's value (null when missing) with its {@code maxBytes}
     * @param itemKey     the item key as {@link #encodeItemKey} gives it
     */
    public static String encodeGrouped(IndexValue value, int valueBytes, List<Map.Entry<IndexValue, Integer>> tieBreakers,
                                       String itemKey) {
        return KeyAssembly.grouped(value, valueBytes, tieBreakers, itemKey);
    }

    /**
     * An item's key as the end of a grouped sort key: each key attribute in order (partition key first), a string
     * escaped as values are (readable, never holding the separator), a number order-preserving as values are, binary
     * in lowercase hex, joined by the separator.
     *
     * @throws UnindexableValueException when a number is outside DynamoDB's range
     */
    public static String encodeItemKey(ItemKey key) {
        return KeyAssembly.itemKey(key);
    }

    /**
     * The sort key of one item of the issue grid's field-partitioned layout: {@code value SEP num SEP issueId}.
     *
     * @throws UnindexableValueException when a number is outside DynamoDB's range, or the issue id is
     *                                   longer than {@value #MAX_ISSUE_ID_BYTES} bytes
     */
    public static String encode(IndexValue value, BigDecimal num, String issueId) {
        return KeyAssembly.fieldPartitioned(value, num, issueId);
    }

    /** What every key of items with exactly this value starts with: the encoded value and the separator. */
    public static String valuePrefix(IndexValue value) {
        return ValueBounds.FIELD_PARTITIONED.valuePrefix(value);
    }

    /**
     * The low end of a key range over values from {@code value} on: every key of that value is at or
     * above it ({@code inclusive}), or every key of it is below and every key of a greater value above.
     */
    public static String lowerBound(IndexValue value, boolean inclusive) {
        return ValueBounds.FIELD_PARTITIONED.lowerBound(value, inclusive);
    }

    /**
     * The high end of a key range over values up to {@code value}: above every key of that value and below
     * every key of a greater value ({@code inclusive}), or below every key of it.
     */
    public static String upperBound(IndexValue value, boolean inclusive) {
        return ValueBounds.FIELD_PARTITIONED.upperBound(value, inclusive);
    }

    /** A key an index item of this value can have (num 1, an empty issue id): to test a value against a key range. */
    public static String sampleKey(IndexValue value) {
        return ValueBounds.FIELD_PARTITIONED.sampleKey(value);
    }

    /**
     * What every key of a string value starting with {@code text} starts with: the escaped text, cut where a
     * sort key cuts a long value. A text longer than the cut matches more keys than the values it starts:
     * whoever asks must check the whole value (the item holds it).
     */
    public static String textPrefix(String text) {
        return ValueBounds.FIELD_PARTITIONED.textPrefix(text);
    }

    /**
     * The most bytes a text cut to {@code valueBytes} keeps of its own (type tag and escaped text) before the mark and the
     * digest that end a cut value; it keeps at least three fewer (a character's bytes that did not fit).
     */
    public static int cutTextKeeps(int valueBytes) {
        return valueBytes - TextEncoding.TRUNCATION_MARK.length() - TextEncoding.DIGEST_HEX_CHARS;
    }

    /** The lowest string any key of a value of this value's type can start with. */
    public static String typeLow(IndexValue value) {
        return ValueEncoding.typeLow(value);
    }

    /** A string above every key of a value of this value's type, and below every key of the next type. */
    public static String typeHigh(IndexValue value) {
        return ValueEncoding.typeHigh(value);
    }

    /** The order-preserving form of a DynamoDB number (also used for {@code num}). */
    public static String encodeNumber(BigDecimal number) {
        return NumberEncoding.encode(number);
    }
}

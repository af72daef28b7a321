package com.multikey.index;

import com.multikey.index.definition.IndexDefinition;
import com.multikey.index.definition.KeySchema;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * The order-preserving index sort key: {@code value SEP num SEP issueId}, where DynamoDB's ascending
 * order of the keys (by UTF-8 bytes) is the order of (value, num, issueId).
 *
 * <h2>Layout</h2>
 * <ul>
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
 *   <li>The issue id comes last, unescaped: nothing follows it.</li>
 * </ul>
 *
 * <h2>Length</h2>
 * A key is at most {@value #MAX_KEY_BYTES} UTF-8 bytes. The encoded value gets a fixed
 * {@value #MAX_VALUE_BYTES} bytes of it, whatever the num and issue id (which get the rest: an issue id
 * of at most {@value #MAX_ISSUE_ID_BYTES} bytes), so equal values always encode alike and stay ordered by
 * num and issue id. A longer string is cut at a character boundary and ends with U+0002 {@code ~} and 32
 * hex digits of the SHA-256 of the whole string: order is kept between strings that differ before the
 * cut, distinct strings keep distinct keys, and the whole value stays in the item's {@code value}
 * attribute.
 */
public final class SortKeyCodec {

    public static final char SEPARATOR = '\u0001';
    public static final int MAX_KEY_BYTES = DynamoDbLimits.MAX_SORT_KEY_BYTES;

    static final char ESCAPE = '\u0002';
    /** Above the first character of every encoded number (n, o, p) and of every type tag's end. */
    private static final char NUM_CEILING = '\u007f';
    static final String TRUNCATION_MARK = "\u0002~";
    static final int DIGEST_HEX_CHARS = 32;

    public static final int MAX_ISSUE_ID_BYTES = 256;
    /** The longest encoded number: sign class, three exponent digits, 38 digits and the terminator. */
    private static final int MAX_NUMBER_CHARS = 1 + 3 + 38 + 1;
    public static final int MAX_VALUE_BYTES = MAX_KEY_BYTES - 2 - MAX_NUMBER_CHARS - MAX_ISSUE_ID_BYTES;

    private static final int EXPONENT_BIAS = 130;
    private static final int MIN_EXPONENT = -129;
    private static final int MAX_EXPONENT = 126;
    private static final int MAX_DIGITS = 38;

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
        int tieBreakers = index.orderBy().stream().mapToInt(tieBreaker -> tieBreaker.maxBytes() + 1).sum();
        return MAX_KEY_BYTES - 1 - tieBreakers - table.maxItemKeyBytes();
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
        StringBuilder key = new StringBuilder(encodeValue(value, valueBytes)).append(SEPARATOR);
        for (Map.Entry<IndexValue, Integer> tieBreaker : tieBreakers) {
            if (tieBreaker.getKey() != null) {
                key.append(encodeValue(tieBreaker.getKey(), tieBreaker.getValue()));
            }
            key.append(SEPARATOR);
        }
        return key.append(itemKey).toString();
    }

    /**
     * An item's key as the end of a grouped sort key: each key attribute in order (partition key first), a string
     * escaped as values are (readable, never holding the separator), a number order-preserving as values are, binary
     * in lowercase hex, joined by the separator.
     *
     * @throws UnindexableValueException when a number is outside DynamoDB's range
     */
    public static String encodeItemKey(ItemKey key) {
        StringBuilder out = new StringBuilder();
        for (AttributeValue part : key.attributes().values()) {
            if (!out.isEmpty()) {
                out.append(SEPARATOR);
            }
            switch (part.type()) {
                case S -> appendEscaped(out, part.s());
                case N -> out.append(encodeNumber(new BigDecimal(part.n())));
                case B -> out.append(HexFormat.of().formatHex(part.b().asByteArrayUnsafe()));
                default -> throw new IllegalArgumentException("a key attribute of type " + part.type());
            }
        }
        return out.toString();
    }

    private static void appendEscaped(StringBuilder out, String text) {
        for (int i = 0; i < text.length(); ) {
            int codePoint = text.codePointAt(i);
            i += Character.charCount(codePoint);
            if (codePoint <= ESCAPE) {
                out.append(ESCAPE).append((char) (codePoint + 2));
            } else {
                out.appendCodePoint(codePoint);
            }
        }
    }

    /**
     * The sort key of one index item.
     *
     * @throws UnindexableValueException when a number is outside DynamoDB's range, or the issue id is
     *                                   longer than {@value #MAX_ISSUE_ID_BYTES} bytes
     */
    public static String encode(IndexValue value, BigDecimal num, String issueId) {
        if (utf8Length(issueId) > MAX_ISSUE_ID_BYTES) {
            throw new UnindexableValueException("issue id longer than " + MAX_ISSUE_ID_BYTES + " bytes");
        }
        return encodeValue(value, MAX_VALUE_BYTES) + SEPARATOR + encodeNumber(num) + SEPARATOR + issueId;
    }

    /** What every key of items with exactly this value starts with: the encoded value and the separator. */
    public static String valuePrefix(IndexValue value) {
        return encodeValue(value, MAX_VALUE_BYTES) + SEPARATOR;
    }

    /**
     * The low end of a key range over values from {@code value} on: every key of that value is at or
     * above it ({@code inclusive}), or every key of it is below and every key of a greater value above.
     */
    public static String lowerBound(IndexValue value, boolean inclusive) {
        // a greater value's encoding extends this one with a character >= U+0002, or differs earlier
        return inclusive ? valuePrefix(value) : encodeValue(value, MAX_VALUE_BYTES) + ESCAPE;
    }

    /**
     * The high end of a key range over values up to {@code value}: above every key of that value and below
     * every key of a greater value ({@code inclusive}), or below every key of it.
     */
    public static String upperBound(IndexValue value, boolean inclusive) {
        // after the value's separator comes a num, whose encoding starts with n, o or p, all below U+007F
        return inclusive ? valuePrefix(value) + NUM_CEILING : valuePrefix(value);
    }

    /** A key an index item of this value can have (num 1, an empty issue id): to test a value against a key range. */
    public static String sampleKey(IndexValue value) {
        return valuePrefix(value) + encodeNumber(BigDecimal.ONE) + SEPARATOR;
    }

    /**
     * What every key of a string value starting with {@code text} starts with: the escaped text, cut where a
     * sort key cuts a long value. A text longer than the cut matches more keys than the values it starts:
     * whoever asks must check the whole value (the issue holds it).
     */
    public static String textPrefix(String text) {
        return textPrefix(text, MAX_VALUE_BYTES);
    }

    /** As {@link #textPrefix(String)}, for an index whose values get {@code valueBytes} of a sort key. */
    static String textPrefix(String text, int valueBytes) {
        int cutAt = valueBytes - TRUNCATION_MARK.length() - DIGEST_HEX_CHARS;
        StringBuilder out = new StringBuilder(text.length() + 1).append('S');
        int bytes = 1;
        for (int i = 0; i < text.length(); ) {
            int codePoint = text.codePointAt(i);
            i += Character.charCount(codePoint);
            int added = codePoint <= ESCAPE ? 2 : utf8Length(codePoint);
            if (bytes + added > cutAt) {
                break;
            }
            if (codePoint <= ESCAPE) {
                out.append(ESCAPE).append((char) (codePoint + 2));
            } else {
                out.appendCodePoint(codePoint);
            }
            bytes += added;
        }
        return out.toString();
    }

    /** The lowest string any key of a value of this value's type can start with. */
    public static String typeLow(IndexValue value) {
        return switch (value) {
            case IndexValue.Num n -> "N";
            case IndexValue.Text t -> "S";
            case IndexValue.Bool b -> "T";
        };
    }

    /** A string above every key of a value of this value's type, and below every key of the next type. */
    public static String typeHigh(IndexValue value) {
        return switch (value) {
            case IndexValue.Num n -> "N" + NUM_CEILING;
            case IndexValue.Text t -> "S" + "\uDBFF\uDFFF".repeat((MAX_KEY_BYTES - 1) / 4);
            case IndexValue.Bool b -> "T" + NUM_CEILING;
        };
    }

    static String encodeValue(IndexValue value, int maxBytes) {
        return switch (value) {
            case IndexValue.Num n -> "N" + encodeNumber(n.value());
            case IndexValue.Text t -> encodeText(t.value(), maxBytes);
            case IndexValue.Bool b -> b.value() ? "Ttrue" : "Tfalse";
        };
    }

    /** The order-preserving form of a DynamoDB number (also used for {@code num}). */
    public static String encodeNumber(BigDecimal number) {
        if (number.signum() == 0) {
            return "o";
        }
        BigDecimal stripped = number.stripTrailingZeros();
        String digits = stripped.unscaledValue().abs().toString();
        int exponent = digits.length() - stripped.scale();
        if (digits.length() > MAX_DIGITS) {
            throw new UnindexableValueException("number has more than " + MAX_DIGITS + " significant digits");
        }
        if (exponent < MIN_EXPONENT || exponent > MAX_EXPONENT) {
            throw new UnindexableValueException("number is outside DynamoDB's range");
        }
        int biased = exponent + EXPONENT_BIAS;
        if (number.signum() > 0) {
            return "p" + threeDigits(biased) + digits;
        }
        StringBuilder out = new StringBuilder(digits.length() + 5).append('n').append(threeDigits(999 - biased));
        for (int i = 0; i < digits.length(); i++) {
            out.append((char) ('9' - digits.charAt(i) + '0'));
        }
        return out.append('~').toString();
    }

    private static String threeDigits(int value) {
        return String.format("%03d", value);
    }

    private static String encodeText(String text, int maxBytes) {
        StringBuilder out = new StringBuilder(text.length() + 1).append('S');
        int bytes = 1;
        int cutAt = maxBytes - TRUNCATION_MARK.length() - DIGEST_HEX_CHARS;
        int lengthAtCut = -1;
        for (int i = 0; i < text.length(); ) {
            int codePoint = text.codePointAt(i);
            i += Character.charCount(codePoint);
            int before = out.length();
            if (codePoint <= ESCAPE) {
                out.append(ESCAPE).append((char) (codePoint + 2));
            } else {
                out.appendCodePoint(codePoint);
            }
            int added = codePoint <= ESCAPE ? 2 : utf8Length(codePoint);
            if (lengthAtCut < 0 && bytes + added > cutAt) {
                lengthAtCut = before;
            }
            bytes += added;
        }
        if (bytes <= maxBytes) {
            return out.toString();
        }
        out.setLength(lengthAtCut);
        return out.append(TRUNCATION_MARK).append(digest(text)).toString();
    }

    private static String digest(String text) {
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(hash, 0, DIGEST_HEX_CHARS / 2);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every JVM", e);
        }
    }

    private static int utf8Length(int codePoint) {
        if (codePoint < 0x80) {
            return 1;
        }
        if (codePoint < 0x800) {
            return 2;
        }
        return codePoint < 0x10000 ? 3 : 4;
    }

    static int utf8Length(String text) {
        int bytes = 0;
        for (int i = 0; i < text.length(); ) {
            int codePoint = text.codePointAt(i);
            bytes += utf8Length(codePoint);
            i += Character.charCount(codePoint);
        }
        return bytes;
    }
}

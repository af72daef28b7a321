package com.multikey.index;

/**
 * An index value in a sort key, by its type: a type tag, which gives the order across types ({@code N} number &lt;
 * {@code S} string &lt; {@code T} boolean), then the number as {@link NumberEncoding} writes it, the text as
 * {@link TextEncoding} writes it, or {@code false} / {@code true}.
 */
final class ValueEncoding {

    /** Above the first character of every encoded number (n, o, p) and of every type tag's end. */
    static final char NUM_CEILING = '\u007f';

    private ValueEncoding() {
    }

    /**
     * The value in at most {@code maxBytes} UTF-8 bytes (only a text is ever cut).
     *
     * @throws UnindexableValueException when a number is outside DynamoDB's range
     */
    static String encode(IndexValue value, int maxBytes) {
        return switch (value) {
            case IndexValue.Num n -> "N" + NumberEncoding.encode(n.value());
            case IndexValue.Text t -> TextEncoding.encode(t.value(), maxBytes);
            case IndexValue.Bool b -> b.value() ? "Ttrue" : "Tfalse";
        };
    }

    /** The lowest string any key of a value of this value's type can start with. */
    static String typeLow(IndexValue value) {
        return switch (value) {
            case IndexValue.Num n -> "N";
            case IndexValue.Text t -> "S";
            case IndexValue.Bool b -> "T";
        };
    }

    /** A string above every key of a value of this value's type, and below every key of the next type. */
    static String typeHigh(IndexValue value) {
        return switch (value) {
            case IndexValue.Num n -> "N" + NUM_CEILING;
            case IndexValue.Text t -> "S" + "\uDBFF\uDFFF".repeat((SortKeyCodec.MAX_KEY_BYTES - 1) / 4);
            case IndexValue.Bool b -> "T" + NUM_CEILING;
        };
    }
}

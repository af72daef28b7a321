package com.multikey.dynamodb.value;

import com.multikey.dynamodb.EngineException;

import java.math.BigDecimal;
import java.util.regex.Pattern;

/**
 * DynamoDB's numbers: at most 38 significant digits, magnitude 1E-130 to 9.99...E+125 (or zero, whatever exponent
 * it is written with), held normalized (no trailing zeros) and written canonically, as DynamoDB returns them.
 */
public final class Numbers {

    /** The most significant digits a Number may carry (AWS "Naming rules and data types", Number). */
    public static final int MAX_DIGITS = 38;
    /** The largest decimal exponent of a number's leading digit: 9.99..E+125. */
    static final int MAX_EXPONENT = 125;
    /** The smallest decimal exponent of a number's leading digit: 1E-130. */
    static final int MIN_EXPONENT = -130;

    /*
     * What DynamoDB takes as a number: an optional sign, digits with an optional decimal point (digits on
     * either side may be missing, not both), an optional exponent. No blanks, no "Infinity"/"NaN", no hex.
     * The pattern is checked before BigDecimal so that BigDecimal's own extensions never leak through.
     */
    private static final Pattern SYNTAX = Pattern.compile("[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?");

    private static final String OVERFLOW =
            "Number overflow. Attempting to store a number with magnitude larger than supported range";
    private static final String UNDERFLOW =
            "Number underflow. Attempting to store a number with magnitude smaller than supported range";

    private Numbers() {
    }

    /**
     * Parses a number as the wire protocol gives it; a {@link com.multikey.dynamodb.EngineException} of type
     * ValidationException with DynamoDB's message when it is not a number or out of range or precision.
     */
    public static BigDecimal parse(String text) {
        if (text == null || !SYNTAX.matcher(text).matches()) {
            throw notNumeric(text);
        }
        BigDecimal number;
        try {
            number = new BigDecimal(text);
        } catch (NumberFormatException | ArithmeticException e) {
            // Only an exponent beyond int's range gets here (the syntax was checked).
            return hugeExponent(text);
        }
        return check(number);
    }

    /** Whether the digits before the exponent are all zeros ("0", "-00.000", ".0"): the number is zero. */
    private static boolean zeroMantissa(String text) {
        int end = text.toLowerCase().indexOf('e');
        String mantissa = end < 0 ? text : text.substring(0, end);
        return mantissa.chars().noneMatch(c -> c >= '1' && c <= '9');
    }

    /**
     * Normalizes a computed number (a sum, a difference) and checks it against DynamoDB's precision and range,
     * with the same messages as {@link #parse}.
     */
    public static BigDecimal check(BigDecimal number) {
        if (number.signum() == 0) {
            // "-0", "0.000", "0E+500", "0E-200" are all zero: zero has no magnitude to be out of range.
            return BigDecimal.ZERO;
        }
        // The range first, on the exponent of the leading digit (the same before and after stripping zeros;
        // stripping an out-of-range number could overflow BigDecimal's scale).
        long exponent = (long) number.precision() - number.scale() - 1;
        if (exponent > MAX_EXPONENT) {
            throw EngineException.validation(OVERFLOW);
        }
        if (exponent < MIN_EXPONENT) {
            throw EngineException.validation(UNDERFLOW);
        }
        BigDecimal normalized = number.stripTrailingZeros();
        if (normalized.precision() > MAX_DIGITS) {
            throw EngineException.validation("Attempting to store more than 38 significant digits in a Number");
        }
        return normalized;
    }

    /** The canonical text: plain notation, no trailing zeros, "0" for zero (as DynamoDB returns numbers). */
    public static String format(BigDecimal number) {
        if (number.signum() == 0) {
            return "0";
        }
        return number.stripTrailingZeros().toPlainString();
    }

    private static EngineException notNumeric(String text) {
        return EngineException.validation("The parameter cannot be converted to a numeric value: " + text);
    }

    /**
     * A number whose exponent does not fit BigDecimal's scale: DynamoDB reads an exponent that fits 64 bits and
     * refuses the number as out of range by its sign, unless it is zero, which is zero whatever its exponent; a
     * longer exponent cannot be converted at all.
     */
    private static BigDecimal hugeExponent(String text) {
        String exponent = text.substring(text.toLowerCase().indexOf('e') + 1);
        try {
            Long.parseLong(exponent);
        } catch (NumberFormatException e) {
            throw notNumeric(text);
        }
        if (zeroMantissa(text)) {
            return BigDecimal.ZERO;
        }
        throw EngineException.validation(exponent.startsWith("-") ? UNDERFLOW : OVERFLOW);
    }
}

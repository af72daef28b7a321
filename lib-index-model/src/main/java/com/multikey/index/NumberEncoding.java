package com.multikey.index;

import java.math.BigDecimal;

/**
 * The order-preserving form of a DynamoDB number: {@code n} negative &lt; {@code o} zero &lt; {@code p} positive. A
 * positive number {@code 0.d1d2.. x 10^E} (d1 non-zero, no trailing zeros) is {@code p}, {@code E+130} in three digits,
 * then the digits; a negative number is {@code n}, {@code 999-(E+130)}, the nines' complement of each digit, then
 * {@code ~}, so a longer magnitude sorts first. This covers DynamoDB's whole range (38 significant digits, 1E-130 to
 * 9.99..E+125), and equal numbers in any spelling encode identically.
 */
final class NumberEncoding {

    /** The longest encoded number: sign class, three exponent digits, 38 digits and the terminator. */
    static final int MAX_CHARS = 1 + 3 + 38 + 1;

    private static final int EXPONENT_BIAS = 130;
    private static final int MIN_EXPONENT = -129;
    private static final int MAX_EXPONENT = 126;
    private static final int MAX_DIGITS = 38;

    private NumberEncoding() {
    }

    /** @throws UnindexableValueException when the number is outside DynamoDB's range */
    static String encode(BigDecimal number) {
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
}

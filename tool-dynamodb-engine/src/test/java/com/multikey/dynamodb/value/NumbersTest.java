package com.multikey.dynamodb.value;

import com.multikey.dynamodb.EngineException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.math.BigDecimal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Written from AWS "Supported data types and naming rules in Amazon DynamoDB" (Number: up to 38 digits of
 * precision, positive range 1E-130 to 9.9999999999999999999999999999999999999E+125, leading and trailing
 * zeros trimmed) and "Item sizes and formats".
 */
class NumbersTest {

    private static final String OVERFLOW =
            "Number overflow. Attempting to store a number with magnitude larger than supported range";
    private static final String UNDERFLOW =
            "Number underflow. Attempting to store a number with magnitude smaller than supported range";
    private static final String PRECISION = "Attempting to store more than 38 significant digits in a Number";

    @ParameterizedTest
    @ValueSource(strings = {"1", "1.0", "1e0", "10E-1", "1E+0", "+1", "1.", "0.1e1", "001", "1.000000000000000000000000000000000000000000000"})
    void parse_whenSpellingsOfOne_equalRecords(String text) {
        assertThat(new Value.N(Numbers.parse(text))).isEqualTo(new Value.N(Numbers.parse("1")));
        assertThat(Numbers.format(Numbers.parse(text))).isEqualTo("1");
    }

    @ParameterizedTest
    @CsvSource({
            "1E+2, 100",
            "1e2, 100",
            ".5, 0.5",
            "-0, 0",
            "0.000, 0",
            "-0.0e5, 0",
            "1E+45, 1000000000000000000000000000000000000000000000",
            "0.001, 0.001",
            "1.50, 1.5",
            "-12.3400, -12.34",
            "123456789012345678901234567890.12345678, 123456789012345678901234567890.12345678"})
    void format_whenParsed_plainCanonicalText(String text, String canonical) {
        assertThat(Numbers.format(Numbers.parse(text))).isEqualTo(canonical);
    }

    @ParameterizedTest
    @ValueSource(strings = {"abc", "", " 1", "1 ", "1e", "e1", ".", "-", "+", "1..2", "0x10", "Infinity", "NaN", "1,5", "1e1.5", "--1"})
    void parse_whenNotANumber_validationNamingTheText(String text) {
        assertThatThrownBy(() -> Numbers.parse(text))
                .isInstanceOfSatisfying(EngineException.class, e -> {
                    assertThat(e.type()).isEqualTo("ValidationException");
                    assertThat(e.status()).isEqualTo(400);
                })
                .hasMessage("The parameter cannot be converted to a numeric value: " + text);
    }

    @Test
    void parse_whenMagnitudeAtUpperBound_accepted() {
        String max = "9.9999999999999999999999999999999999999E+125";
        assertThat(Numbers.parse(max)).isEqualByComparingTo(new BigDecimal(max));
        assertThat(Numbers.parse("-" + max)).isEqualByComparingTo(new BigDecimal("-" + max));
    }

    @ParameterizedTest
    @ValueSource(strings = {"1E+126", "-1E+126", "10E+125"})
    void parse_whenMagnitudeOnePastUpperBound_overflow(String text) {
        assertThatThrownBy(() -> Numbers.parse(text)).hasMessage(OVERFLOW);
    }

    @Test
    void parse_whenMagnitudeAtLowerBound_accepted() {
        assertThat(Numbers.parse("1E-130")).isEqualByComparingTo("1E-130");
        assertThat(Numbers.parse("-1E-130")).isEqualByComparingTo("-1E-130");
    }

    @ParameterizedTest
    @ValueSource(strings = {"1E-131", "-9.9E-131", "0.1E-130"})
    void parse_whenMagnitudeOnePastLowerBound_underflow(String text) {
        assertThatThrownBy(() -> Numbers.parse(text)).hasMessage(UNDERFLOW);
    }

    // Exponents: DynamoDB reads an exponent that fits 64 bits and refuses a number past the range by its sign.
    // Zero has no magnitude: whatever exponent it is written with, it is zero, stored as 0 (the documented
    // range is that of positive and negative numbers; "0E+500" and "0e1000" are accepted as 0).

    @ParameterizedTest
    @ValueSource(strings = {"1e126", "1e2147483647", "1e2147483648", "-1e99999999999"})
    void parse_whenExponentPastTheRange_overflow(String text) {
        assertThatThrownBy(() -> Numbers.parse(text)).hasMessage(OVERFLOW);
    }

    @ParameterizedTest
    @ValueSource(strings = {"1e-131", "1e-2147483648", "1e-99999999999"})
    void parse_whenExponentBelowTheRange_underflow(String text) {
        assertThatThrownBy(() -> Numbers.parse(text)).hasMessage(UNDERFLOW);
    }

    @Test
    void parse_whenZeroWithExponentInRange_zero() {
        assertThat(Numbers.format(Numbers.parse("0e125"))).isEqualTo("0");
        assertThat(Numbers.format(Numbers.parse("0e-130"))).isEqualTo("0");
    }

    @ParameterizedTest
    @ValueSource(strings = {"0E+500", "0E-200", "0e126", "0e-131", "-0", "0.000E-999", "00E+130", "-0.0e+2147483647",
            "0e-2147483648", "0E+999999999999", "+0e-99999999999", ".0e9223372036854775807", "0.e-9223372036854775808"})
    void parse_whenZeroWithAnyExponent_zeroNeverOutOfRange(String text) {
        BigDecimal zero = Numbers.parse(text);
        assertThat(zero.signum()).isZero();
        assertThat(new Value.N(zero)).isEqualTo(new Value.N(Numbers.parse("0")));
        assertThat(Numbers.format(zero)).isEqualTo("0");
    }

    @Test
    void check_whenZeroOfAnyScale_zero() {
        assertThat(Numbers.check(new BigDecimal(java.math.BigInteger.ZERO, -500))).isEqualTo(BigDecimal.ZERO);
        assertThat(Numbers.check(new BigDecimal(java.math.BigInteger.ZERO, 200))).isEqualTo(BigDecimal.ZERO);
    }

    @Test
    void parse_whenExponentPast64Bits_notConvertible() {
        assertThatThrownBy(() -> Numbers.parse("1e9223372036854775808"))
                .hasMessage("The parameter cannot be converted to a numeric value: 1e9223372036854775808");
    }

    @Test
    void parse_when38SignificantDigits_accepted() {
        String digits = "12345678901234567890123456789012345678";
        assertThat(Numbers.format(Numbers.parse(digits))).isEqualTo(digits);
        assertThat(Numbers.format(Numbers.parse("0.000" + digits + "000"))).isEqualTo("0.000" + digits);
    }

    @Test
    void parse_when39SignificantDigits_precisionError() {
        assertThatThrownBy(() -> Numbers.parse("123456789012345678901234567890123456789")).hasMessage(PRECISION);
        assertThatThrownBy(() -> Numbers.parse("1.00000000000000000000000000000000000001")).hasMessage(PRECISION);
    }

    @Test
    void check_whenSumOverflows_overflow() {
        BigDecimal max = Numbers.parse("9.9999999999999999999999999999999999999E+125");
        assertThatThrownBy(() -> Numbers.check(max.add(max))).hasMessage(OVERFLOW);
    }

    @Test
    void check_whenSumNeedsMoreDigits_precisionError() {
        BigDecimal big = Numbers.parse("1E+30");
        BigDecimal small = Numbers.parse("1E-10");
        assertThatThrownBy(() -> Numbers.check(big.add(small))).hasMessage(PRECISION);
    }
}

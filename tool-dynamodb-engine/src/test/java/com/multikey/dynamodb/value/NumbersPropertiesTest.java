package com.multikey.dynamodb.value;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import java.math.BigDecimal;
import java.math.BigInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Properties of numbers, from AWS "Supported data types and naming rules in Amazon DynamoDB" (Number) and
 * "Core components" (sort keys of type Number are ordered numerically).
 */
class NumbersPropertiesTest {

    @Property
    void parse_whenFormatted_sameNumber(@ForAll("numbers") BigDecimal number) {
        BigDecimal parsed = Numbers.parse(number.toString());
        assertThat(Numbers.parse(Numbers.format(parsed))).isEqualTo(parsed);
        assertThat(new Value.N(Numbers.parse(Numbers.format(parsed)))).isEqualTo(new Value.N(parsed));
    }

    @Property
    void parse_whenTrailingZerosOrExponentShift_equalRecords(@ForAll("numbers") BigDecimal number) {
        BigDecimal shifted = new BigDecimal(number.unscaledValue().multiply(BigInteger.TEN), number.scale() + 1);
        assertThat(new Value.N(Numbers.parse(shifted.toString())))
                .isEqualTo(new Value.N(Numbers.parse(number.toPlainString())));
    }

    @Property
    void compareKeys_whenNumbers_agreesWithBigDecimal(@ForAll("numbers") BigDecimal a, @ForAll("numbers") BigDecimal b) {
        int expected = Integer.signum(a.compareTo(b));
        assertThat(Integer.signum(Values.compareKeys(new Value.N(Numbers.parse(a.toString())),
                new Value.N(Numbers.parse(b.toString()))))).isEqualTo(expected);
    }

    @Property
    void parse_whenZeroWrittenWithAnyExponent_zero(@ForAll("zeros") String zero) {
        assertThat(Numbers.format(Numbers.parse(zero))).isEqualTo("0");
        assertThat(new Value.N(Numbers.parse(zero))).isEqualTo(new Value.N(BigDecimal.ZERO));
    }

    @Property
    void parse_whenNonZeroLeadingDigitPastTheRange_overflowOrUnderflowBySide(
            @ForAll @net.jqwik.api.constraints.IntRange(min = 1, max = 9) int digit,
            @ForAll @net.jqwik.api.constraints.IntRange(min = -100_000, max = 100_000) int exponent,
            @ForAll boolean negative) {
        String text = (negative ? "-" : "") + digit + "E" + exponent;
        if (exponent > 125) {
            assertThatThrownBy(() -> Numbers.parse(text)).hasMessageStartingWith("Number overflow.");
        } else if (exponent < -130) {
            assertThatThrownBy(() -> Numbers.parse(text)).hasMessageStartingWith("Number underflow.");
        } else {
            assertThat(Numbers.parse(text)).isEqualByComparingTo(new BigDecimal(text));
        }
    }

    /** Zero as DynamoDB's syntax allows it: a sign, zeros on either side of a point, an exponent of any size in 64 bits. */
    @Provide
    Arbitrary<String> zeros() {
        Arbitrary<String> sign = Arbitraries.of("", "+", "-");
        Arbitrary<String> mantissa = Arbitraries.of("0", "00", "0.", ".0", "0.000", "000.0");
        Arbitrary<String> exponent = Arbitraries.oneOf(Arbitraries.longs().between(-1_000, 1_000),
                        Arbitraries.longs().between(Long.MIN_VALUE, Long.MAX_VALUE))
                .map(e -> (e >= 0 ? "e+" : "e") + e);
        return Combinators.combine(sign, mantissa, exponent.injectNull(0.2))
                .as((s, m, e) -> s + m + (e == null ? "" : e));
    }

    /** Numbers inside DynamoDB's range: up to 38 digits, leading digit exponents -130..125, and zero. */
    @Provide
    Arbitrary<BigDecimal> numbers() {
        Arbitrary<BigInteger> unscaled = Arbitraries.bigIntegers()
                .between(BigInteger.TEN.pow(38).negate().add(BigInteger.ONE), BigInteger.TEN.pow(38).subtract(BigInteger.ONE));
        return Combinators.combine(unscaled, Arbitraries.integers().between(-90, 160))
                // zero is range-checked by the exponent it is written with: keep it plain
                .as((u, scale) -> u.signum() == 0 ? BigDecimal.ZERO : new BigDecimal(u, scale))
                .filter(n -> n.signum() == 0 || (n.precision() - n.scale() - 1 <= 125 && n.precision() - n.scale() - 1 >= -130));
    }
}

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

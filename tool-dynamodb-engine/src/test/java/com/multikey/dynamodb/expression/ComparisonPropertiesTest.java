package com.multikey.dynamodb.expression;

import com.multikey.dynamodb.value.Value;
import com.multikey.dynamodb.value.Values;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import java.math.BigDecimal;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * AWS "Comparison operator and function reference": the comparators order strings and numbers as keys are
 * ordered, and BETWEEN is the pair of >= and <=; checked here as properties of the evaluator.
 */
class ComparisonPropertiesTest {

    private static boolean test(String expression, Value a, Value b, Value c) {
        return Expressions.condition("ConditionExpression", expression, null, Map.of(":b", b, ":c", c))
                .test(Map.of("a", a));
    }

    @Property(tries = 300)
    void comparators_whenNumbers_agreeWithKeyOrder(@ForAll("numbers") Value a, @ForAll("numbers") Value b) {
        int order = Integer.signum(Values.compareKeys(a, b));
        assertThat(test("a < :b", a, b, b)).isEqualTo(order < 0);
        assertThat(test("a <= :b", a, b, b)).isEqualTo(order <= 0);
        assertThat(test("a > :b", a, b, b)).isEqualTo(order > 0);
        assertThat(test("a >= :b", a, b, b)).isEqualTo(order >= 0);
        assertThat(test("a = :b", a, b, b)).isEqualTo(order == 0);
        assertThat(test("a <> :b", a, b, b)).isEqualTo(order != 0);
    }

    @Property(tries = 300)
    void between_whenStrings_isGeAndLe(@ForAll("strings") Value a, @ForAll("strings") Value low, @ForAll("strings") Value high) {
        if (Values.compareKeys(low, high) > 0) {
            return; // reversed literal bounds are refused before evaluation
        }
        boolean expected = Values.compareKeys(a, low) >= 0 && Values.compareKeys(a, high) <= 0;
        assertThat(test("a BETWEEN :b AND :c", a, low, high)).isEqualTo(expected);
    }

    @Property(tries = 100)
    void comparators_whenTypesDiffer_onlyNotEqualHolds(@ForAll("numbers") Value a, @ForAll("strings") Value b) {
        assertThat(test("a < :b OR a > :b OR a = :b", a, b, b)).isFalse();
        assertThat(test("a <> :b", a, b, b)).isTrue();
    }

    @Provide
    Arbitrary<Value> numbers() {
        return Arbitraries.bigDecimals().between(new BigDecimal("-1E20"), new BigDecimal("1E20")).ofScale(5)
                .map(Value.N::new);
    }

    @Provide
    Arbitrary<Value> strings() {
        return Arbitraries.strings().withCharRange('a', 'e').withChars('\uFFFD', '\u00e9').ofMaxLength(4)
                .map(s -> (Value) new Value.S(s));
    }
}

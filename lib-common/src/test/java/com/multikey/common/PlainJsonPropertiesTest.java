package com.multikey.common;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class PlainJsonPropertiesTest {

    private static final ObjectMapper READER = new ObjectMapper().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);
    /** A reader that holds every number in a double, as JavaScript's JSON.parse and Python's float do. */
    private static final ObjectMapper DOUBLE_READER = new ObjectMapper();

    @Property(tries = 2000)
    void numbers_surviveWithEveryDigit_asJsonNumbersOrAsStringsWhenIntegersOutsideInt64(
            @ForAll("dynamoDbNumbers") String number) throws Exception {
        String json = PlainJson.EXACT.of(Map.of("n", AttributeValue.fromN(number))).toString();

        var node = READER.readTree(json).get("n");
        BigDecimal read = node.isTextual() ? new BigDecimal(node.asText()) : node.decimalValue();
        // numerically identical to every one of up to 38 digits: no rounding through a double
        assertThat(read.compareTo(new BigDecimal(number))).as(json).isZero();
        assertThat(node.isTextual()).as(json).isEqualTo(PlainJson.isIntegerOutsideInt64(new BigDecimal(number)));
        if (node.isIntegralNumber()) {
            assertThat(node.canConvertToLong()).as(json).isTrue();
        }
    }

    @Property(tries = 2000)
    void doubleSafe_writesAJsonNumber_exactlyWhenADoubleReadsBackTheSameNumber(@ForAll("dynamoDbNumbers") String number)
            throws Exception {
        // given
        BigDecimal exact = new BigDecimal(number);

        // when
        String json = PlainJson.DOUBLE_SAFE.of(Map.of("n", AttributeValue.fromN(number))).toString();

        // then: a double reader (its number written back in shortest form) gets the number iff the JSON holds a number
        JsonNode asDouble = DOUBLE_READER.readTree(json).get("n");
        double read = asDouble.isTextual() ? Double.parseDouble(asDouble.asText()) : asDouble.doubleValue();
        boolean readsBack = Double.isFinite(read) && new BigDecimal(Double.toString(read)).compareTo(exact) == 0;
        assertThat(asDouble.isNumber()).as(json).isEqualTo(readsBack);
        assertThat(PlainJson.DOUBLE_SAFE.isJsonNumber(exact)).as(json).isEqualTo(readsBack);
        // and either way every digit is there for a reader that keeps them
        JsonNode asDecimal = READER.readTree(json).get("n");
        BigDecimal digits = asDecimal.isTextual() ? new BigDecimal(asDecimal.asText()) : asDecimal.decimalValue();
        assertThat(digits.compareTo(exact)).as(json).isZero();
    }

    @Property(tries = 2000)
    void doubleSafe_writesEveryDoubleInDynamoDbsRange_asAJsonNumberADoubleReaderReadsAsThatDouble(
            @ForAll("doublesInDynamoDbsRange") double value) throws Exception {
        // given: the number as a client that holds doubles would have written it
        String number = new BigDecimal(Double.toString(value)).toString();

        // when
        String json = PlainJson.DOUBLE_SAFE.of(Map.of("n", AttributeValue.fromN(number))).toString();

        // then
        JsonNode node = DOUBLE_READER.readTree(json).get("n");
        assertThat(node.isNumber()).as(json).isTrue();
        assertThat(node.doubleValue()).as(json).isEqualTo(value == 0 ? 0.0 : value);
    }

    @Provide
    Arbitrary<String> dynamoDbNumbers() {
        Arbitrary<BigInteger> digits = Arbitraries.strings().numeric().ofMinLength(1).ofMaxLength(38).map(BigInteger::new)
                .flatMap(n -> Arbitraries.of(n, n.negate()));
        return Combinators.combine(digits, Arbitraries.integers().between(-120, 120))
                .as((unscaled, scale) -> new BigDecimal(unscaled, scale).toString());
    }

    /** Doubles DynamoDB can hold: zero, or a magnitude from 1E-130 to below 1E+126. */
    @Provide
    Arbitrary<Double> doublesInDynamoDbsRange() {
        Arbitrary<Double> anyFinite = Arbitraries.longs().map(Double::longBitsToDouble).filter(Double::isFinite);
        return Arbitraries.oneOf(anyFinite.filter(d -> d == 0 || Math.abs(d) >= 1E-130 && Math.abs(d) < 1E126),
                Arbitraries.doubles().between(-1E6, 1E6), Arbitraries.of(0.1, 0.30000000000000004, 9007199254740992.0, -0.0));
    }
}

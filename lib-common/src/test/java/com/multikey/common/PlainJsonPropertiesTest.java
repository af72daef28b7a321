package com.multikey.common;

import com.fasterxml.jackson.databind.DeserializationFeature;
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

    @Property(tries = 2000)
    void numbers_surviveWithEveryDigit_asJsonNumbersOrAsStringsWhenIntegersOutsideInt64(
            @ForAll("dynamoDbNumbers") String number) throws Exception {
        String json = PlainJson.of(Map.of("n", AttributeValue.fromN(number))).toString();

        var node = READER.readTree(json).get("n");
        BigDecimal read = node.isTextual() ? new BigDecimal(node.asText()) : node.decimalValue();
        // numerically identical to every one of up to 38 digits: no rounding through a double
        assertThat(read.compareTo(new BigDecimal(number))).as(json).isZero();
        assertThat(node.isTextual()).as(json).isEqualTo(PlainJson.isIntegerOutsideInt64(new BigDecimal(number)));
        if (node.isIntegralNumber()) {
            assertThat(node.canConvertToLong()).as(json).isTrue();
        }
    }

    @Provide
    Arbitrary<String> dynamoDbNumbers() {
        Arbitrary<BigInteger> digits = Arbitraries.strings().numeric().ofMinLength(1).ofMaxLength(38).map(BigInteger::new)
                .flatMap(n -> Arbitraries.of(n, n.negate()));
        return Combinators.combine(digits, Arbitraries.integers().between(-120, 120))
                .as((unscaled, scale) -> new BigDecimal(unscaled, scale).toString());
    }
}

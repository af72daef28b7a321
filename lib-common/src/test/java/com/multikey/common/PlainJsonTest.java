package com.multikey.common;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class PlainJsonTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** The JSON token each number is written as, with its text. */
    private static List<String> tokens(String json) throws Exception {
        List<String> tokens = new ArrayList<>();
        try (JsonParser parser = JSON.getFactory().createParser(json)) {
            for (JsonToken token = parser.nextToken(); token != null; token = parser.nextToken()) {
                if (token.isScalarValue()) {
                    tokens.add(token + " " + parser.getText());
                }
            }
        }
        return tokens;
    }

    @Test
    void of_whenAnIntegerIsOutsideInt64_writesItsExactDigitsAsAString() throws Exception {
        var item = Map.of(
                "twenty", AttributeValue.fromN("12345678901234567890"),
                "max", AttributeValue.fromN("9223372036854775807"),
                "overMax", AttributeValue.fromN("9223372036854775808"),
                "min", AttributeValue.fromN("-9223372036854775808"),
                "underMin", AttributeValue.fromN("-9223372036854775809"),
                "thirtyEight", AttributeValue.fromN("-12345678901234567890123456789012345678"),
                "set", AttributeValue.fromNs(List.of("1", "99999999999999999999")));

        String json = PlainJson.of(item).toString();

        assertThat(tokens(json)).containsExactly(
                "VALUE_NUMBER_INT 9223372036854775807",
                "VALUE_NUMBER_INT -9223372036854775808",
                "VALUE_STRING 9223372036854775808",
                "VALUE_NUMBER_INT 1",
                "VALUE_STRING 99999999999999999999",
                "VALUE_STRING -12345678901234567890123456789012345678",
                "VALUE_STRING 12345678901234567890",
                "VALUE_STRING -9223372036854775809");
    }

    @Test
    void of_whenANumberHasAFractionOrAnExponent_writesAJsonNumberThatIsNoInteger() throws Exception {
        var item = Map.of(
                "big", AttributeValue.fromN("1E+125"),
                "largest", AttributeValue.fromN("9.9999999999999999999999999999999999999E+125"),
                "tiny", AttributeValue.fromN("-1E-130"),
                "fraction", AttributeValue.fromN("1.50"),
                "hundred", AttributeValue.fromN("1E2"));

        String json = PlainJson.of(item).toString();

        assertThat(tokens(json)).containsExactly(
                "VALUE_NUMBER_FLOAT 1E+125",
                "VALUE_NUMBER_FLOAT 1.50",
                "VALUE_NUMBER_FLOAT 1E+2",
                "VALUE_NUMBER_FLOAT 9.9999999999999999999999999999999999999E+125",
                "VALUE_NUMBER_FLOAT -1E-130");
    }

    @Test
    void toItem_readsNumbersBack_andAnIntegerOutsideInt64AsTheStringItWasWrittenAs() throws Exception {
        var item = Map.of("n", AttributeValue.fromN("42"), "f", AttributeValue.fromN("1.5"),
                "huge", AttributeValue.fromN("12345678901234567890"), "s", AttributeValue.fromS("x"));

        var back = PlainJson.toItem(JSON.readTree(PlainJson.of(item).toString()));

        assertThat(back).containsEntry("n", AttributeValue.fromN("42")).containsEntry("f", AttributeValue.fromN("1.5"))
                .containsEntry("huge", AttributeValue.fromS("12345678901234567890")).containsEntry("s", AttributeValue.fromS("x"));
    }
}

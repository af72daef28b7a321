package com.multikey.common;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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

    /** Every attribute type, nested maps and lists (empty ones too), written in an order that is not sorted. */
    private static Map<String, AttributeValue> everyType() {
        Map<String, AttributeValue> pair = new LinkedHashMap<>();
        pair.put("zz", AttributeValue.fromN("1"));
        pair.put("aa", AttributeValue.fromBool(false));
        Map<String, AttributeValue> nested = new LinkedHashMap<>();
        nested.put("z", AttributeValue.fromS("last"));
        nested.put("a", AttributeValue.fromN("1E+125"));
        nested.put("m", AttributeValue.fromM(Map.of("deep", AttributeValue.fromL(List.of(AttributeValue.fromN("2"),
                AttributeValue.fromSs(List.of("q")))))));
        Map<String, AttributeValue> item = new LinkedHashMap<>();
        item.put("s", AttributeValue.fromS("text"));
        item.put("n", AttributeValue.fromN("42"));
        item.put("big", AttributeValue.fromN("9007199254740993"));
        item.put("huge", AttributeValue.fromN("12345678901234567890123456789012345678"));
        item.put("b", AttributeValue.fromB(SdkBytes.fromByteArray(new byte[] {0, 1, 2, (byte) 255, 62, 63})));
        item.put("none", AttributeValue.fromB(SdkBytes.fromByteArray(new byte[0])));
        item.put("t", AttributeValue.fromBool(true));
        item.put("f", AttributeValue.fromBool(false));
        item.put("nul", AttributeValue.fromNul(true));
        item.put("ss", AttributeValue.fromSs(List.of("z", "a")));
        item.put("ns", AttributeValue.fromNs(List.of("1", "9007199254740993", "1.5", "-0", "99999999999999999999")));
        item.put("bs", AttributeValue.fromBs(List.of(SdkBytes.fromUtf8String("x"), SdkBytes.fromUtf8String("yz"))));
        item.put("l", AttributeValue.fromL(List.of(AttributeValue.fromS("a"), AttributeValue.fromN("9007199254740993"),
                AttributeValue.fromL(List.of()), AttributeValue.fromM(Map.of()), AttributeValue.fromM(pair), AttributeValue.fromNul(true))));
        item.put("m", AttributeValue.fromM(nested));
        item.put("Z", AttributeValue.fromS("capital"));
        return item;
    }

    @Test
    void of_exact_writesEveryTypeNamesSorted_setsAsArrays_binaryInBase64_numbersWithEveryDigit() {
        // given
        Map<String, AttributeValue> item = everyType();

        // when
        String json = PlainJson.EXACT.of(item).toString();

        // then
        assertThat(json).isEqualTo("""
                {"Z":"capital","b":"AAEC/z4/","big":9007199254740993,"bs":["eA==","eXo="],"f":false,\
                "huge":"12345678901234567890123456789012345678",\
                "l":["a",9007199254740993,[],{},{"aa":false,"zz":1},null],"m":{"a":1E+125,"m":{"deep":[2,["q"]]},"z":"last"},\
                "n":42,"none":"","ns":[1,9007199254740993,1.5,0,"99999999999999999999"],"nul":null,"s":"text","ss":["z","a"],\
                "t":true}""");
    }

    @Test
    void of_doubleSafe_writesTheSameJson_butANumberADoubleCannotHoldAsAStringOfItsDigits() {
        // given
        Map<String, AttributeValue> item = everyType();

        // when
        String json = PlainJson.DOUBLE_SAFE.of(item).toString();

        // then
        assertThat(json).isEqualTo("""
                {"Z":"capital","b":"AAEC/z4/","big":"9007199254740993","bs":["eA==","eXo="],"f":false,\
                "huge":"12345678901234567890123456789012345678",\
                "l":["a","9007199254740993",[],{},{"aa":false,"zz":1},null],"m":{"a":1E+125,"m":{"deep":[2,["q"]]},"z":"last"},\
                "n":42,"none":"","ns":[1,"9007199254740993",1.5,0,"99999999999999999999"],"nul":null,"s":"text","ss":["z","a"],\
                "t":true}""");
    }

    @Test
    void of_escapesAStringAsJacksonDoes_controlCharactersEscaped_otherCharactersAsTheyAre() {
        // given
        AttributeValue text = AttributeValue.fromS("h\u00e9llo \"q\" \\ / \u0001 \t\n \u2028 \uD83D\uDE00 <>&'");

        // when
        String exact = PlainJson.EXACT.of(text).toString();
        String doubleSafe = PlainJson.DOUBLE_SAFE.of(text).toString();

        // then
        assertThat(exact).isEqualTo("\"h\u00e9llo \\\"q\\\" \\\\ / \\u0001 \\t\\n \u2028 \uD83D\uDE00 <>&'\"").isEqualTo(doubleSafe);
    }

    @ParameterizedTest(name = "{0}: exact {1}, double-safe {2}")
    @CsvSource(delimiter = '|', textBlock = """
            0                                             | VALUE_NUMBER_INT 0                                             | VALUE_NUMBER_INT 0
            -0                                            | VALUE_NUMBER_INT 0                                             | VALUE_NUMBER_INT 0
            1.0                                           | VALUE_NUMBER_FLOAT 1.0                                         | VALUE_NUMBER_FLOAT 1.0
            1.50                                          | VALUE_NUMBER_FLOAT 1.50                                        | VALUE_NUMBER_FLOAT 1.50
            0.1                                           | VALUE_NUMBER_FLOAT 0.1                                         | VALUE_NUMBER_FLOAT 0.1
            0.30000000000000004                           | VALUE_NUMBER_FLOAT 0.30000000000000004                         | VALUE_NUMBER_FLOAT 0.30000000000000004
            1E2                                           | VALUE_NUMBER_FLOAT 1E+2                                        | VALUE_NUMBER_FLOAT 1E+2
            1E+125                                        | VALUE_NUMBER_FLOAT 1E+125                                      | VALUE_NUMBER_FLOAT 1E+125
            -1E-130                                       | VALUE_NUMBER_FLOAT -1E-130                                     | VALUE_NUMBER_FLOAT -1E-130
            9.9999999999999999999999999999999999999E+125  | VALUE_NUMBER_FLOAT 9.9999999999999999999999999999999999999E+125 | VALUE_STRING 9.9999999999999999999999999999999999999E+125
            9007199254740992                              | VALUE_NUMBER_INT 9007199254740992                              | VALUE_NUMBER_INT 9007199254740992
            9007199254740993                              | VALUE_NUMBER_INT 9007199254740993                              | VALUE_STRING 9007199254740993
            -9007199254740993                             | VALUE_NUMBER_INT -9007199254740993                             | VALUE_STRING -9007199254740993
            9223372036854775807                           | VALUE_NUMBER_INT 9223372036854775807                           | VALUE_STRING 9223372036854775807
            -9223372036854775808                          | VALUE_NUMBER_INT -9223372036854775808                          | VALUE_STRING -9223372036854775808
            9223372036854775808                           | VALUE_STRING 9223372036854775808                               | VALUE_STRING 9223372036854775808
            12345678901234567890123456789012345678        | VALUE_STRING 12345678901234567890123456789012345678            | VALUE_STRING 12345678901234567890123456789012345678
            -12345678901234567890123456789012345678       | VALUE_STRING -12345678901234567890123456789012345678           | VALUE_STRING -12345678901234567890123456789012345678
            1.2345678901234567890123456789012345678       | VALUE_NUMBER_FLOAT 1.2345678901234567890123456789012345678     | VALUE_STRING 1.2345678901234567890123456789012345678
            """)
    void number_atTheEdges_writesEachPolicysToken(String number, String exact, String doubleSafe) throws Exception {
        // when
        String exactJson = PlainJson.EXACT.of(AttributeValue.fromN(number)).toString();
        String doubleSafeJson = PlainJson.DOUBLE_SAFE.of(AttributeValue.fromNs(List.of(number))).toString();

        // then
        assertThat(tokens(exactJson)).containsExactly(exact);
        assertThat(tokens(doubleSafeJson)).containsExactly(doubleSafe);
    }

    @Test
    void of_whenATypeIsUnknownToTheSdk_exactRefusesIt_doubleSafeWritesNull() {
        // given
        AttributeValue unknown = AttributeValue.builder().build();

        // when, then
        assertThat(unknown.type()).isEqualTo(AttributeValue.Type.UNKNOWN_TO_SDK_VERSION);
        assertThatThrownBy(() -> PlainJson.EXACT.of(Map.of("x", unknown))).isInstanceOf(MalformedRecordException.class)
                .hasMessage("attribute value of a type this SDK does not know");
        assertThat(PlainJson.DOUBLE_SAFE.of(Map.of("x", unknown)).toString()).isEqualTo("{\"x\":null}");
    }

    @Test
    void number_whenTheTextIsNotANumber_isAMalformedRecordInEitherPolicy() {
        for (PlainJson policy : PlainJson.values()) {
            assertThatThrownBy(() -> policy.of(AttributeValue.fromN("twelve"))).as(policy.name())
                    .isInstanceOf(MalformedRecordException.class).hasMessage("a number attribute value is not a number");
        }
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

        String json = PlainJson.EXACT.of(item).toString();

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

        String json = PlainJson.EXACT.of(item).toString();

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

        var back = PlainJson.toItem(JSON.readTree(PlainJson.EXACT.of(item).toString()));

        assertThat(back).containsEntry("n", AttributeValue.fromN("42")).containsEntry("f", AttributeValue.fromN("1.5"))
                .containsEntry("huge", AttributeValue.fromS("12345678901234567890")).containsEntry("s", AttributeValue.fromS("x"));
    }

    @Test
    void toItem_readsEveryJsonTypeBack_setsAndBinaryAsListsAndStrings() throws Exception {
        // given
        String json = PlainJson.EXACT.of(everyType()).toString();

        // when: read by a reader that keeps every digit of a fraction or an exponent
        Map<String, AttributeValue> back = PlainJson.toItem(JSON.copy().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS).readTree(json));

        // then
        assertThat(back).containsEntry("t", AttributeValue.fromBool(true)).containsEntry("nul", AttributeValue.fromNul(true))
                .containsEntry("b", AttributeValue.fromS("AAEC/z4/"))
                .containsEntry("ss", AttributeValue.fromL(List.of(AttributeValue.fromS("z"), AttributeValue.fromS("a"))))
                .containsEntry("m", AttributeValue.fromM(Map.of("a", AttributeValue.fromN("1E+125"), "z", AttributeValue.fromS("last"),
                        "m", AttributeValue.fromM(Map.of("deep", AttributeValue.fromL(List.of(AttributeValue.fromN("2"),
                                AttributeValue.fromL(List.of(AttributeValue.fromS("q"))))))))));
        assertThat(PlainJson.EXACT.of(back).toString()).as("written again").isEqualTo(json);
    }
}

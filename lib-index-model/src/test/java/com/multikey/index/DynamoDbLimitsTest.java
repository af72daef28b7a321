package com.multikey.index;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class DynamoDbLimitsTest {

    @Test
    void itemBytes_countsNamesAndValuesAsTheDeveloperGuideDoes() {
        // given: "name" (4) + "héllo" (6 UTF-8 bytes); "n" (1) + 12345 (5 digits: 3 + 1); "b" (1) + true (1)
        Map<String, AttributeValue> item = Map.of(
                "name", AttributeValue.fromS("héllo"),
                "n", AttributeValue.fromN("12345"),
                "b", AttributeValue.fromBool(true));

        // then
        assertThat(DynamoDbLimits.itemBytes(item)).isEqualTo(4 + 6 + 1 + 4 + 1 + 1);
    }

    @Test
    void itemBytes_countsListAndMapOverheadPerElement() {
        // given: "l" (1) + list overhead 3 + two elements of 1 + 1 byte; "m" (1) + 3 + (1 + "k" 1 + "v" 1)
        Map<String, AttributeValue> item = Map.of(
                "l", AttributeValue.fromL(List.of(AttributeValue.fromS("a"), AttributeValue.fromNul(true))),
                "m", AttributeValue.fromM(Map.of("k", AttributeValue.fromS("v"))));

        // then
        assertThat(DynamoDbLimits.itemBytes(item)).isEqualTo(1 + 3 + 2 + 2 + 1 + 3 + 3);
    }

    @Test
    void itemBytes_countsBinaryAndSetsByContent() {
        Map<String, AttributeValue> item = Map.of(
                "bin", AttributeValue.fromB(SdkBytes.fromByteArray(new byte[10])),
                "ss", AttributeValue.fromSs(List.of("ab", "cde")));

        assertThat(DynamoDbLimits.itemBytes(item)).isEqualTo(3 + 10 + 2 + 5);
    }

    @Test
    void numberBytes_isOneBytePerBase100DigitAlignedOnTheDecimalPoint_plusOne() {
        assertThat(DynamoDbLimits.numberBytes("0")).isEqualTo(1);
        assertThat(DynamoDbLimits.numberBytes("1000")).isEqualTo(2);
        assertThat(DynamoDbLimits.numberBytes("12")).isEqualTo(2);
        assertThat(DynamoDbLimits.numberBytes("110")).isEqualTo(3);
        assertThat(DynamoDbLimits.numberBytes("123")).isEqualTo(3);
        assertThat(DynamoDbLimits.numberBytes("1.1")).isEqualTo(3);
        assertThat(DynamoDbLimits.numberBytes("0.12")).isEqualTo(2);
        assertThat(DynamoDbLimits.numberBytes("-123")).isEqualTo(4);
        assertThat(DynamoDbLimits.numberBytes("1" + "2".repeat(37))).isEqualTo(20);
    }

    @Test
    void requestJsonBytes_countsEscapesAsSent() {
        Map<String, AttributeValue> item = Map.of("k", AttributeValue.fromS("\u0001\"a"));

        // {"k":{"S":"\u0001\"a"}} is 25 bytes; the estimate never counts less
        assertThat(DynamoDbLimits.requestJsonBytes(item)).isGreaterThanOrEqualTo(25);
        assertThat(DynamoDbLimits.requestJsonBytes(Map.of("k", AttributeValue.fromS("\u0001".repeat(1000)))))
                .isGreaterThan(6000);
    }

    @Test
    void itemBytes_whenNumberAndBinarySets_countsEveryElement() {
        // given: "ns" (2) + 12 (2) + 110 (3); "bs" (2) + 3 bytes + 1 byte
        Map<String, AttributeValue> item = Map.of(
                "ns", AttributeValue.fromNs(List.of("12", "110")),
                "bs", AttributeValue.fromBs(List.of(SdkBytes.fromByteArray(new byte[3]), SdkBytes.fromByteArray(new byte[1]))));

        // then
        assertThat(DynamoDbLimits.itemBytes(item)).isEqualTo(2 + 2 + 3 + 2 + 3 + 1);
    }

    /** One attribute of each type, the JSON DynamoDB's API gets for it, and how much the estimate may count above it. */
    private record Sent(AttributeValue value, String json, int slack) {
    }

    // The estimate counts every type wrapper as 8 bytes ({"S": and } take 6, {"SS": and } 7) and a BOOL or NULL
    // as 14 ({"BOOL":false} takes 14, {"BOOL":true} 13), and a comma after every attribute, element and entry.
    private static final List<Sent> SENT = List.of(
            new Sent(AttributeValue.fromS("abc"), "{\"S\":\"abc\"}", 1 + 2),
            new Sent(AttributeValue.fromN("-1.5"), "{\"N\":\"-1.5\"}", 1 + 2),
            new Sent(AttributeValue.fromB(SdkBytes.fromByteArray(new byte[10])), "{\"B\":\"AAAAAAAAAAAAAA==\"}", 1 + 2),
            new Sent(AttributeValue.fromBool(true), "{\"BOOL\":true}", 1 + 1),
            new Sent(AttributeValue.fromBool(false), "{\"BOOL\":false}", 1),
            new Sent(AttributeValue.fromNul(true), "{\"NULL\":true}", 1 + 1),
            new Sent(AttributeValue.fromSs(List.of("ab", "cde")), "{\"SS\":[\"ab\",\"cde\"]}", 1 + 1 + 1),
            new Sent(AttributeValue.fromNs(List.of("1", "23")), "{\"NS\":[\"1\",\"23\"]}", 1 + 1 + 1),
            new Sent(AttributeValue.fromBs(List.of(SdkBytes.fromByteArray(new byte[1]), SdkBytes.fromByteArray(new byte[2]))),
                    "{\"BS\":[\"AA==\",\"AAA=\"]}", 1 + 1 + 1),
            new Sent(AttributeValue.fromL(List.of(AttributeValue.fromS("a"), AttributeValue.fromNul(true))),
                    "{\"L\":[{\"S\":\"a\"},{\"NULL\":true}]}", 1 + 2 + 1 + 2 + 1),
            new Sent(AttributeValue.fromM(Map.of("x", AttributeValue.fromN("1"))),
                    "{\"M\":{\"x\":{\"N\":\"1\"}}}", 1 + 2 + 1 + 2));

    @Test
    void requestJsonBytes_whenAnyType_isNeverBelowTheJsonAsSent() {
        for (Sent sent : SENT) {
            assertThat(DynamoDbLimits.requestJsonBytes(Map.of("k", sent.value())))
                    .as(sent.json()).isGreaterThanOrEqualTo(("{\"k\":" + sent.json() + "}").length());
        }
    }

    @Test
    void requestJsonBytes_whenAnyType_exceedsTheJsonAsSentOnlyByItsWrapperAndCommaRounding() {
        for (Sent sent : SENT) {
            assertThat(DynamoDbLimits.requestJsonBytes(Map.of("k", sent.value())))
                    .as(sent.json()).isEqualTo(("{\"k\":" + sent.json() + "}").length() + sent.slack());
        }
    }

    @Test
    void requestJsonBytes_whenManyFalseBooleans_isNeverBelowTheJsonAsSent() {
        // given: {"a":{"BOOL":false},"b":{"BOOL":false},"c":{"BOOL":false}}
        Map<String, AttributeValue> item = new LinkedHashMap<>();
        for (String name : List.of("a", "b", "c")) {
            item.put(name, AttributeValue.fromBool(false));
        }
        String json = "{\"a\":{\"BOOL\":false},\"b\":{\"BOOL\":false},\"c\":{\"BOOL\":false}}";

        // then
        assertThat(DynamoDbLimits.requestJsonBytes(item)).isGreaterThanOrEqualTo(json.length());
    }

    @Test
    void requestJsonBytes_whenOneCharacterIsAdded_countsWhatItTakesInTheRequestBody() {
        // control characters are sent as six-character escapes, quotes and backslashes escaped, the rest as UTF-8
        Map<String, Integer> bytesOf = new LinkedHashMap<>();
        bytesOf.put("\u0000", 6);
        bytesOf.put("\u001f", 6);
        bytesOf.put(" ", 1);
        bytesOf.put("\"", 2);
        bytesOf.put("\\", 2);
        bytesOf.put("!", 1);
        bytesOf.put("\u007f", 1);
        bytesOf.put("\u0080", 2);
        bytesOf.put("\u07ff", 2);
        bytesOf.put("\u0800", 3);
        bytesOf.put("\uffff", 3);
        bytesOf.put("\uD83D\uDE00", 4);
        long base = DynamoDbLimits.requestJsonBytes(Map.of("k", AttributeValue.fromS("a")));

        bytesOf.forEach((character, bytes) -> {
            // when
            long withIt = DynamoDbLimits.requestJsonBytes(Map.of("k", AttributeValue.fromS("a" + character)));
            long inTheName = DynamoDbLimits.requestJsonBytes(Map.of("k" + character, AttributeValue.fromS("a")));

            // then
            assertThat(withIt - base).as("U+%04X in a value", character.codePointAt(0)).isEqualTo(bytes.longValue());
            assertThat(inTheName - base).as("U+%04X in a name", character.codePointAt(0)).isEqualTo(bytes.longValue());
        });
    }
}

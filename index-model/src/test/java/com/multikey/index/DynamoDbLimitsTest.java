package com.multikey.index;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

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
}

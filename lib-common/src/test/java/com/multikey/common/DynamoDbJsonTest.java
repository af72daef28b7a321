package com.multikey.common;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DynamoDbJsonTest {

    @Test
    void image_writesEveryTypeTyped_namesInTheImagesOrder_numbersAsTheirText() {
        // given
        Map<String, AttributeValue> nested = new LinkedHashMap<>();
        nested.put("z", AttributeValue.fromS("last"));
        nested.put("a", AttributeValue.fromL(List.of(AttributeValue.fromN("2"), AttributeValue.fromSs(List.of("q")),
                AttributeValue.fromL(List.of()), AttributeValue.fromM(Map.of()))));
        Map<String, AttributeValue> image = new LinkedHashMap<>();
        image.put("s", AttributeValue.fromS("text"));
        image.put("n", AttributeValue.fromN("1.50"));
        image.put("huge", AttributeValue.fromN("-12345678901234567890123456789012345678"));
        image.put("exponent", AttributeValue.fromN("1e2"));
        image.put("b", AttributeValue.fromB(SdkBytes.fromByteArray(new byte[] {0, 1, 2, (byte) 255, 62, 63})));
        image.put("none", AttributeValue.fromB(SdkBytes.fromByteArray(new byte[0])));
        image.put("t", AttributeValue.fromBool(true));
        image.put("f", AttributeValue.fromBool(false));
        image.put("nul", AttributeValue.fromNul(true));
        image.put("ss", AttributeValue.fromSs(List.of("z", "a")));
        image.put("ns", AttributeValue.fromNs(List.of("1", "-0", "9007199254740993")));
        image.put("bs", AttributeValue.fromBs(List.of(SdkBytes.fromUtf8String("x"), SdkBytes.fromUtf8String("yz"))));
        image.put("m", AttributeValue.fromM(nested));
        image.put("A", AttributeValue.fromS("capital"));

        // when
        String json = DynamoDbJson.image(image);

        // then
        assertThat(json).isEqualTo("""
                {"s":{"S":"text"},"n":{"N":"1.50"},"huge":{"N":"-12345678901234567890123456789012345678"},"exponent":{"N":"1e2"},\
                "b":{"B":"AAEC/z4/"},"none":{"B":""},"t":{"BOOL":true},"f":{"BOOL":false},"nul":{"NULL":true},\
                "ss":{"SS":["z","a"]},"ns":{"NS":["1","-0","9007199254740993"]},"bs":{"BS":["eA==","eXo="]},\
                "m":{"M":{"z":{"S":"last"},"a":{"L":[{"N":"2"},{"SS":["q"]},{"L":[]},{"M":{}}]}}},"A":{"S":"capital"}}""");
    }

    @Test
    void image_escapesAStringAsTheSdksWriterDoes_controlCharactersAndCharactersOutsideTheBmpEscaped() {
        // given
        Map<String, AttributeValue> image = Map.of("s", AttributeValue.fromS("h\u00e9llo \"q\" \\ / \u0001 \t\n \u2028 \uD83D\uDE00 <>&'"));

        // when
        String json = DynamoDbJson.image(image);

        // then
        assertThat(json).isEqualTo("{\"s\":{\"S\":\"h\u00e9llo \\\"q\\\" \\\\ / \\u0001 \\t\\n \u2028 \\uD83D\\uDE00 <>&'\"}}");
    }

    @Test
    void image_ofNoAttributes_isAnEmptyObject() {
        assertThat(DynamoDbJson.image(Map.of())).isEqualTo("{}");
    }

    @Test
    void image_whenATypeIsUnknownToTheSdk_refusesIt() {
        assertThatThrownBy(() -> DynamoDbJson.image(Map.of("x", AttributeValue.builder().build())))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("attribute value of unknown type");
    }
}

package com.multikey.dynamodb.conformance;

import com.multikey.dynamodb.EngineResponse;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A binary value (B, or an element of BS) travels as base64 text; DynamoDB's parser refuses text that is not
 * canonical base64 while it reads the request, so the answer is a SerializationException wherever the value stands,
 * before any validation or table lookup (the table named here does not exist).
 */
@EngineOnly("in-process calls with a raw body (an SDK encodes binaries itself)")
class BinaryWireFormatTest extends EngineTestSupport {

    private static final String MISSING = "no-such-table";

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "23456|Base64 encoded length is expected a multiple of 4 bytes but found: 5",
            "=+/=|Invalid last non-pad Base64 character dectected",
            "+/+=|Invalid last non-pad Base64 character dectected",
            "AB==AB==|Invalid last non-pad Base64 character dectected",
            "ab!d|Invalid Base64 character",
    })
    void aBinaryThatIsNotBase64_isASerializationException(String text, String message) {
        // given: the text as B and as an element of BS, in every member that carries attribute values
        String b = "{\"B\":\"" + text + "\"}";
        String bs = "{\"BS\":[\"" + text + "\"]}";
        String[][] requests = {
                {"PutItem", "{\"TableName\":\"" + MISSING + "\",\"Item\":{\"a\":" + b + "}}"},
                {"PutItem", "{\"TableName\":\"" + MISSING + "\",\"Item\":{\"a\":{\"M\":{\"m\":{\"L\":[" + bs + "]}}}}}"},
                {"GetItem", "{\"TableName\":\"" + MISSING + "\",\"Key\":{\"a\":" + b + "}}"},
                {"DeleteItem", "{\"TableName\":\"" + MISSING + "\",\"Key\":{\"a\":{\"S\":\"x\"}},\"Expected\":{\"a\":{\"Value\":" + b + "}}}"},
                {"UpdateItem", "{\"TableName\":\"" + MISSING + "\",\"Key\":{\"a\":{\"S\":\"x\"}},\"AttributeUpdates\":{\"b\":{\"Value\":" + bs + "}}}"},
                {"Query", "{\"TableName\":\"" + MISSING + "\",\"KeyConditions\":{\"a\":{\"ComparisonOperator\":\"EQ\",\"AttributeValueList\":[" + b + "]}}}"},
                {"Scan", "{\"TableName\":\"" + MISSING + "\",\"ExclusiveStartKey\":{\"a\":" + b + "}}"},
                {"Scan", "{\"TableName\":\"" + MISSING + "\",\"FilterExpression\":\"a = :v\",\"ExpressionAttributeValues\":{\":v\":" + bs + "}}"},
                {"BatchGetItem", "{\"RequestItems\":{\"" + MISSING + "\":{\"Keys\":[{\"a\":" + b + "}]}}}"},
                {"BatchWriteItem", "{\"RequestItems\":{\"" + MISSING + "\":[{\"DeleteRequest\":{\"Key\":{\"a\":" + b + "}}}]}}"},
        };
        for (String[] request : requests) {
            // when
            EngineResponse response = engine.handle("DynamoDB_20120810." + request[0], request[1].getBytes(StandardCharsets.UTF_8));
            // then
            assertThat(response.status()).as(request[1]).isEqualTo(400);
            assertThat(response.bodyText()).as(request[1])
                    .contains("\"__type\":\"com.amazon.coral.service#SerializationException\"")
                    .contains(message);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "AA==", "AAA=", "AAAA", "+/8=", "3q2+7w=="})
    void aCanonicalBase64Binary_isRead(String text) {
        // given
        String table = hashTable();
        String body = "{\"TableName\":\"" + table + "\",\"Item\":{\"id\":{\"S\":\"k\"},\"b\":{\"BS\":[\"" + text + "\", \"AQID\"]}}}";
        // when
        EngineResponse response = engine.handle("DynamoDB_20120810.PutItem", body.getBytes(StandardCharsets.UTF_8));
        // then: past the parser (an empty binary is the value's own validation's to judge)
        assertThat(response.bodyText()).doesNotContain("SerializationException");
    }
}

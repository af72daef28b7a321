package com.multikey.dynamodb.conformance;

import com.multikey.dynamodb.EngineResponse;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * DynamoDB's parser reads a string where an attribute value's BOOL or NULL is expected when it spells a boolean
 * ({@code true}, {@code false}, {@code yes}, {@code no}, {@code 1}, {@code 0}, in any case): the value's validation
 * then judges it. Any other string is a SerializationException ("Unexpected token received from parser"), before any
 * validation or table lookup.
 */
@EngineOnly("in-process calls with a raw body (an SDK sends BOOL and NULL as JSON booleans)")
class BooleanWireFormatTest extends EngineTestSupport {

    @ParameterizedTest
    @ValueSource(strings = {"23", "", "maybe", "truthy"})
    void aStringThatSpellsNoBoolean_isASerializationException(String text) {
        for (String type : new String[] {"BOOL", "NULL"}) {
            String body = "{\"TableName\":\"no-such-table\",\"Key\":{\"a\":{\"L\":[{\"" + type + "\":\"" + text + "\"}]}}}";
            EngineResponse response = engine.handle("DynamoDB_20120810.GetItem", body.getBytes(StandardCharsets.UTF_8));
            assertThat(response.status()).isEqualTo(400);
            assertThat(response.bodyText()).as(body).contains("com.amazon.coral.service#SerializationException")
                    .contains("Unexpected token received from parser");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"true", "FALSE", "yes", "No", "1", "0"})
    void aStringThatSpellsABoolean_isLeftToTheValuesValidation(String text) {
        String body = "{\"TableName\":\"no-such-table\",\"Key\":{\"a\":{\"NULL\":\"" + text + "\"}}}";
        EngineResponse response = engine.handle("DynamoDB_20120810.GetItem", body.getBytes(StandardCharsets.UTF_8));
        assertThat(response.bodyText()).doesNotContain("SerializationException");
    }
}

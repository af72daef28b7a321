package com.multikey.dynamodb.expression;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Written from AWS "Reserved words in DynamoDB" (573 words, not case-sensitive). */
class ReservedWordsTest {

    @Test
    void count_whenLoaded_allOfAwsList() {
        assertThat(ReservedWords.count()).isEqualTo(573);
    }

    @ParameterizedTest
    @ValueSource(strings = {"ABORT", "status", "Name", "data", "FLATTERN", "INNTER", "LOGED", "ttl", "zone", "size", "key", "value"})
    void contains_whenOnAwsList_anyCase(String word) {
        assertThat(ReservedWords.contains(word)).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"pk", "sk", "attribute_exists", "flatten", "statuses", "my_status", "x"})
    void contains_whenNotOnAwsList_false(String word) {
        assertThat(ReservedWords.contains(word)).isFalse();
    }

    @Test
    void projection_whenReservedWordAfterDotOrInList_refusedWithItsSpelling() {
        assertThatThrownBy(() -> Expressions.projection("pk, a.Data", Map.of()))
                .hasMessage("Invalid ProjectionExpression: Attribute name is a reserved keyword; reserved keyword: Data");
        assertThat(Expressions.projection("#d", Map.of("#d", "data")).usedNames()).containsExactly("#d");
    }
}

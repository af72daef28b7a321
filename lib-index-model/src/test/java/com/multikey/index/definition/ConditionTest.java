package com.multikey.index.definition;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class ConditionTest {

    private static final AttributePath STATE = AttributePath.parse("details.state", "test");

    private static Map<String, AttributeValue> state(AttributeValue value) {
        return Map.of("details", AttributeValue.fromM(Map.of("state", value)));
    }

    @Test
    void equals_whenANumber_matchesByValue_notByItsDigits() {
        Condition equals = new Condition.Equals(STATE, AttributeValue.fromN("1"));

        assertThat(equals.test(state(AttributeValue.fromN("1.0")))).isTrue();
        assertThat(equals.test(state(AttributeValue.fromN("1E0")))).isTrue();
        assertThat(equals.test(state(AttributeValue.fromN("1.01")))).isFalse();
        assertThat(equals.test(state(AttributeValue.fromS("1")))).as("a string of the digits").isFalse();
    }

    @Test
    void equals_whenTheItemsNumberIsNotANumber_doesNotMatch() {
        Condition equals = new Condition.Equals(STATE, AttributeValue.fromN("1"));

        assertThat(equals.test(state(AttributeValue.fromN("one")))).isFalse();
    }

    @Test
    void equals_whenAStringOrABoolean_matchesTheSameValueOfTheSameType() {
        Condition open = new Condition.Equals(STATE, AttributeValue.fromS("open"));
        Condition yes = new Condition.Equals(STATE, AttributeValue.fromBool(true));

        assertThat(open.test(state(AttributeValue.fromS("open")))).isTrue();
        assertThat(open.test(state(AttributeValue.fromS("opened")))).isFalse();
        assertThat(yes.test(state(AttributeValue.fromBool(true)))).isTrue();
        assertThat(yes.test(state(AttributeValue.fromBool(false)))).isFalse();
        assertThat(yes.test(state(AttributeValue.fromS("true")))).isFalse();
    }

    @Test
    void equals_whenTheItemLacksTheAttribute_doesNotMatch() {
        Condition open = new Condition.Equals(STATE, AttributeValue.fromS("open"));

        assertThat(open.test(Map.of())).isFalse();
        assertThat(open.test(Map.of("details", AttributeValue.fromS("open")))).as("a step on the way is not a map").isFalse();
        assertThat(open.test(null)).isFalse();
    }

    @Test
    void beginsWith_matchesStringsWithThePrefixOnly() {
        Condition issue = new Condition.BeginsWith(STATE, "ISSUE#");

        assertThat(issue.test(state(AttributeValue.fromS("ISSUE#1")))).isTrue();
        assertThat(issue.test(state(AttributeValue.fromS("LAYER#1")))).isFalse();
        assertThat(issue.test(state(AttributeValue.fromN("1")))).isFalse();
        assertThat(issue.test(state(AttributeValue.fromB(SdkBytes.fromUtf8String("ISSUE#1"))))).isFalse();
        assertThat(issue.test(Map.of())).isFalse();
    }

    @Test
    void exists_whenPresentAndNotNull_matches() {
        Condition exists = new Condition.Exists(STATE);

        assertThat(exists.test(state(AttributeValue.fromS("")))).isTrue();
        assertThat(exists.test(state(AttributeValue.fromBool(false)))).isTrue();
        assertThat(exists.test(state(AttributeValue.fromNul(true)))).isFalse();
        assertThat(exists.test(Map.of("details", AttributeValue.fromM(Map.of())))).isFalse();
    }
}

package com.multikey.index.definition;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class EntityTypeRuleTest {

    private static final AttributePath PK = AttributePath.parse("pk", "test");

    private static Map<String, AttributeValue> pk(String value) {
        return Map.of("pk", AttributeValue.fromS(value));
    }

    @Test
    void keyPrefix_isThePartBeforeTheFirstSeparator() {
        EntityTypeRule rule = new EntityTypeRule.KeyPrefix(PK, "#");

        assertThat(rule.typeOf(pk("issue#020e"))).contains("issue");
        assertThat(rule.typeOf(pk("layer#us-east-1#requests#12"))).contains("layer");
        assertThat(rule.typeOf(pk("i#1"))).as("a one-letter type").contains("i");
    }

    @Test
    void keyPrefix_whenTheSeparatorIsLonger_cutsBeforeIt() {
        EntityTypeRule rule = new EntityTypeRule.KeyPrefix(PK, "::");

        assertThat(rule.typeOf(pk("task:a::1"))).contains("task:a");
    }

    @Test
    void keyPrefix_whenNoSeparator_orTheValueStartsWithIt_decidesNothing() {
        EntityTypeRule rule = new EntityTypeRule.KeyPrefix(PK, "#");

        assertThat(rule.typeOf(pk("issue"))).isEmpty();
        assertThat(rule.typeOf(pk("#issue"))).isEmpty();
    }

    @Test
    void keyPrefix_whenTheAttributeIsMissingOrNotAString_decidesNothing() {
        EntityTypeRule rule = new EntityTypeRule.KeyPrefix(PK, "#");

        assertThat(rule.typeOf(Map.of())).isEmpty();
        assertThat(rule.typeOf(Map.of("pk", AttributeValue.fromN("12")))).isEmpty();
    }

    @Test
    void named_whenEveryConditionPasses_isItsType_elseDecidesNothing() {
        EntityTypeRule layer = new EntityTypeRule.Named("Layer", List.of(new Condition.BeginsWith(PK, "lyr#"),
                new Condition.Equals(AttributePath.parse("live", "test"), AttributeValue.fromBool(true))));

        assertThat(layer.typeOf(Map.of("pk", AttributeValue.fromS("lyr#1"), "live", AttributeValue.fromBool(true)))).contains("Layer");
        assertThat(layer.typeOf(Map.of("pk", AttributeValue.fromS("lyr#1"), "live", AttributeValue.fromBool(false)))).isEmpty();
        assertThat(layer.typeOf(Map.of("pk", AttributeValue.fromS("iss#1"), "live", AttributeValue.fromBool(true)))).isEmpty();
    }
}

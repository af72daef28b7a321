package com.multikey.common;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class CanonicalNumbersTest {

    @Test
    void canonical_spellsANumberAsDynamoDbReturnsIt() {
        assertThat(CanonicalNumbers.canonical("1E+2")).isEqualTo("100");
        assertThat(CanonicalNumbers.canonical("100.0")).isEqualTo("100");
        assertThat(CanonicalNumbers.canonical("1.5E2")).isEqualTo("150");
        assertThat(CanonicalNumbers.canonical("00042")).isEqualTo("42");
        assertThat(CanonicalNumbers.canonical("1.0")).isEqualTo("1");
        assertThat(CanonicalNumbers.canonical("-0")).isEqualTo("0");
        assertThat(CanonicalNumbers.canonical("0.000E+9")).isEqualTo("0");
        assertThat(CanonicalNumbers.canonical("1.50")).isEqualTo("1.5");
        assertThat(CanonicalNumbers.canonical("1E-130")).isEqualTo("0." + "0".repeat(129) + "1");
        assertThat(CanonicalNumbers.canonical("-9.9999999999999999999999999999999999999E+125"))
                .isEqualTo("-" + "9".repeat(38) + "0".repeat(88));
    }

    @Test
    void canonical_ofAnItem_reachesNumbersInSetsListsAndMaps_andLeavesTheRest() {
        Map<String, AttributeValue> item = Map.of("PK", AttributeValue.fromS("1E+2"), "SK", AttributeValue.fromN("1E+2"),
                "ns", AttributeValue.fromNs(List.of("1.0", "2E0")),
                "m", AttributeValue.fromM(Map.of("l", AttributeValue.fromL(List.of(AttributeValue.fromN("3.00"), AttributeValue.fromBool(true))))));

        Map<String, AttributeValue> canonical = CanonicalNumbers.canonical(item);

        assertThat(canonical).isEqualTo(Map.of("PK", AttributeValue.fromS("1E+2"), "SK", AttributeValue.fromN("100"),
                "ns", AttributeValue.fromNs(List.of("1", "2")),
                "m", AttributeValue.fromM(Map.of("l", AttributeValue.fromL(List.of(AttributeValue.fromN("3"), AttributeValue.fromBool(true)))))));
    }
}

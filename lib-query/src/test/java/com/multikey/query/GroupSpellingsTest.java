package com.multikey.query;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A group named twice is read once, however its values are spelled: equal numbers name one group ({@code N:100} is
 * {@code N:1E+2}), as the read API's group values say.
 */
class GroupSpellingsTest {

    private static final PageRequest REQUEST = PageRequest.onIndex("by-year", List.of(AttributeValue.fromN("2024")), "", Order.ASC, 5);

    @Test
    void withGroups_aGroupNamedTwiceBySpellingsOfOneNumber_isReadOnce_underItsFirstSpelling() {
        // when
        PageRequest request = REQUEST.withGroups(List.of(List.of(GroupValue.parse("N:100")), List.of(GroupValue.parse("N:7")),
                List.of(GroupValue.parse("N:1E+2")), List.of(GroupValue.parse("N:100.00"))));

        // then
        assertThat(request.groups()).containsExactly(List.of(AttributeValue.fromN("100")), List.of(AttributeValue.fromN("7")));
    }

    @Test
    void withGroups_aGroupOfSeveralValuesNamedTwice_isReadOnce_andTwoGroupsStayTwo() {
        // given: binary in either base64 alphabet is one value; text and a number that read alike are two
        AttributeValue bytes = GroupValue.parse("B:AAEC/w==");
        AttributeValue sameBytes = AttributeValue.fromB(SdkBytes.fromByteArray(new byte[] {0, 1, 2, (byte) 0xff}));

        // when
        PageRequest request = REQUEST.withGroups(List.of(List.of(bytes, AttributeValue.fromN("-0.50")), List.of(sameBytes,
                AttributeValue.fromN("-5E-1")), List.of(bytes, AttributeValue.fromS("-0.5"))));

        // then
        assertThat(request.groups()).hasSize(2);
    }

    @Test
    void withGroups_fiftyOneSpellingsOfOneNumber_areOneGroup_notTooMany() {
        // given
        List<List<AttributeValue>> spellings = new ArrayList<>();
        for (int i = 0; i <= PageRequest.MAX_GROUPS; i++) {
            spellings.add(List.of(AttributeValue.fromN("42" + "0".repeat(i) + "E-" + i)));
        }

        // then
        assertThat(REQUEST.withGroups(spellings).groups()).hasSize(1);
    }
}

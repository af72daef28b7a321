package com.multikey.query;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** A group value's text spelling, both ways: what {@link GroupValue#format} writes, {@link GroupValue#parse} reads back. */
class GroupValueTest {

    @Test
    void format_ofEveryType_isReadBackByParse() {
        // given
        List<AttributeValue> values = List.of(AttributeValue.fromS("project#1"), AttributeValue.fromS("S:x"), AttributeValue.fromS("N:1"),
                AttributeValue.fromS("BOOL:true"), AttributeValue.fromS("B:AA=="), AttributeValue.fromS(""), AttributeValue.fromN("42"),
                AttributeValue.fromN("-1.5E+3"), AttributeValue.fromBool(true), AttributeValue.fromBool(false),
                AttributeValue.fromB(SdkBytes.fromByteArray(new byte[] {0, -1, 7})));

        for (AttributeValue value : values) {
            // when
            String text = GroupValue.format(value);

            // then
            AttributeValue read = GroupValue.parse(text);
            if (value.n() != null) {
                assertThat(new java.math.BigDecimal(read.n())).as(text).isEqualByComparingTo(value.n());
            } else {
                assertThat(read).as(text).isEqualTo(value);
            }
        }
    }

    @Test
    void format_spellsNumbersCanonically_andTextThatLooksTypedAfterS() {
        assertThat(GroupValue.format(AttributeValue.fromN("1.50E+2"))).isEqualTo("N:150");
        assertThat(GroupValue.format(AttributeValue.fromN("-0.0"))).isEqualTo("N:0");
        assertThat(GroupValue.format(AttributeValue.fromBool(true))).isEqualTo("BOOL:true");
        assertThat(GroupValue.format(AttributeValue.fromS("B:x"))).isEqualTo("S:B:x");
        assertThat(GroupValue.format(AttributeValue.fromS("plain"))).isEqualTo("plain");
    }
}

package com.multikey.dynamodb.value;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ValuesTest {

    private static Value.N n(String text) {
        return new Value.N(Numbers.parse(text));
    }

    private static Value.B b(int... bytes) {
        byte[] array = new byte[bytes.length];
        for (int i = 0; i < bytes.length; i++) {
            array[i] = (byte) bytes[i];
        }
        return new Value.B(Bytes.of(array));
    }

    // AWS "Core components of Amazon DynamoDB" / "Query": sort keys ordered by UTF-8 bytes, numerically,
    // and binary as unsigned bytes.

    @Test
    void compareKeys_whenSurrogatePairVersusHighBmpChar_utf8Order() {
        String supplementary = "\uD83D\uDE00"; // U+1F600, 4 UTF-8 bytes starting 0xF0
        String bmp = "\uFFFD";                 // U+FFFD, 3 UTF-8 bytes starting 0xEF
        assertThat(supplementary.compareTo(bmp)).isNegative(); // Java's UTF-16 order...
        assertThat(Values.compareKeys(new Value.S(supplementary), new Value.S(bmp))).isPositive(); // ...is not DynamoDB's
    }

    @Test
    void compareKeys_whenPrefix_shorterFirst() {
        assertThat(Values.compareKeys(new Value.S("ab"), new Value.S("abc"))).isNegative();
        assertThat(Values.compareKeys(new Value.S("abc"), new Value.S("abc"))).isZero();
        assertThat(Values.compareKeys(new Value.S(""), new Value.S("a"))).isNegative();
    }

    @Test
    void compareKeys_whenNumbers_numericNotTextual() {
        assertThat(Values.compareKeys(n("9"), n("10"))).isNegative();
        assertThat(Values.compareKeys(n("-10"), n("-9"))).isNegative();
        assertThat(Values.compareKeys(n("1.0"), n("1"))).isZero();
    }

    @Test
    void compareKeys_whenBinary_unsigned() {
        assertThat(Values.compareKeys(b(0x7f), b(0x80))).isNegative();
        assertThat(Values.compareKeys(b(0xff), b(0x00, 0x00))).isPositive();
    }

    @Test
    void compareKeys_whenMixedOrNonKeyTypes_illegalArgument() {
        assertThatThrownBy(() -> Values.compareKeys(new Value.S("1"), n("1"))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Values.compareKeys(new Value.Bool(true), new Value.Bool(true)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    // AWS "DynamoDB item sizes and formats".

    @Test
    void size_whenString_utf8Bytes() {
        assertThat(Values.size(new Value.S("abc"))).isEqualTo(3);
        assertThat(Values.size(new Value.S("é"))).isEqualTo(2);
        assertThat(Values.size(new Value.S("\uD83D\uDE00"))).isEqualTo(4);
        assertThat(Values.size(new Value.S(""))).isZero();
    }

    /**
     * Byte-exact sizes captured against DynamoDB at the 400 KB limit (dynamodb-conformance suite,
     * numberByteSize): the integer and fraction digits are paired separately, a sign costs a byte.
     */
    @ParameterizedTest
    @CsvSource({"0, 1", "1, 2", "12, 2", "123, 3", "1234, 3", "12345678901234567890123456789012345678, 20", "0042, 2",
            "100, 2", "1010, 3", "0.0000001, 2", "1E125, 2", "1E-100, 2", "1.5, 3", "15, 2", "1.2, 3", "1.200, 3",
            "1.234, 4", "3.14159, 5", "123456, 4", "100.5, 4", "0.15, 2", "-42, 3", "-0, 1"})
    void size_whenNumber_asDynamoDbCountsIt(String literal, long bytes) {
        assertThat(Values.size(n(literal))).isEqualTo(bytes);
    }

    @Test
    void size_whenBinaryBoolNull_rawBytesAndOne() {
        assertThat(Values.size(b(1, 2, 3))).isEqualTo(3);
        assertThat(Values.size(new Value.Bool(false))).isEqualTo(1);
        assertThat(Values.size(new Value.Null())).isEqualTo(1);
    }

    @Test
    void size_whenListOrMap_threeOverheadAndOnePerElement() {
        assertThat(Values.size(new Value.L(List.of()))).isEqualTo(3);
        assertThat(Values.size(new Value.M(Map.of()))).isEqualTo(3);
        assertThat(Values.size(new Value.L(List.of(new Value.S("ab"), new Value.Bool(true))))).isEqualTo(3 + 1 + 2 + 1 + 1);
        assertThat(Values.size(new Value.M(Map.of("k", new Value.S("ab"))))).isEqualTo(3 + 1 + 1 + 2);
    }

    @Test
    void size_whenSets_sumOfElements() {
        assertThat(Values.size(new Value.SS(Set.of("a", "bc")))).isEqualTo(3);
        assertThat(Values.size(new Value.NS(Set.of(BigDecimal.ONE, BigDecimal.TEN)))).isEqualTo(4);
    }

    @Test
    void itemSize_whenAttributes_namesPlusValues() {
        Map<String, Value> item = new LinkedHashMap<>();
        item.put("pk", new Value.S("abc"));
        item.put("ü", n("5"));
        assertThat(Values.itemSize(item)).isEqualTo(2 + 3 + 2 + 2);
        assertThat(Values.size(new Value.NS(java.util.Set.of(new BigDecimal("-1.5"))))).isEqualTo(4);
    }

    /**
     * dynalite's capacity tests (run against DynamoDB) put items that read at 0.5 and 1 capacity unit either side
     * of 4 KB: with a binary set counted as the sum of its members and 12.3456 as 4 bytes, they are exactly 4096
     * and 4097 bytes.
     */
    @Test
    void itemSize_whenDynalitesCapacityItems_4096And4097() {
        assertThat(Values.itemSize(capacityItem(4081, "AQI=", "Ag==", "AQ=="))).isEqualTo(4096);
        assertThat(Values.itemSize(capacityItem(4083, "AQI=", "Ag=="))).isEqualTo(4097);
    }

    private static Map<String, Value> capacityItem(int bLength, String... binarySet) {
        Map<String, Value> item = new LinkedHashMap<>();
        item.put("a", new Value.S("x"));
        item.put("b", new Value.S("b".repeat(bLength - 1)));
        item.put("c", n("12.3456"));
        item.put("d", new Value.B(Bytes.of(java.util.Base64.getDecoder().decode("AQI="))));
        Set<Bytes> set = new java.util.LinkedHashSet<>();
        for (String member : binarySet) {
            set.add(Bytes.of(java.util.Base64.getDecoder().decode(member)));
        }
        item.put("e", new Value.BS(set));
        return item;
    }

    // Value records: equal numbers are equal records, sets keep first-given order and drop nothing.

    @Test
    void n_whenSameNumberOtherScale_equalRecords() {
        assertThat(new Value.N(new BigDecimal("1.00"))).isEqualTo(new Value.N(BigDecimal.ONE));
        assertThat(new Value.N(new BigDecimal("-0.0"))).isEqualTo(new Value.N(BigDecimal.ZERO));
        assertThat(new Value.NS(Set.of(new BigDecimal("2.0")))).isEqualTo(new Value.NS(Set.of(new BigDecimal("2"))));
    }

    @Test
    void ss_whenGivenInOrder_keepsOrder() {
        assertThat(new Value.SS(new java.util.LinkedHashSet<>(List.of("z", "a", "m"))).values()).containsExactly("z", "a", "m");
    }
}

package com.multikey.index;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SortKeyCodecTest {

    private static String key(IndexValue value) {
        return SortKeyCodec.encode(value, BigDecimal.ONE, "issue#1");
    }

    private static String text(String value) {
        return key(new IndexValue.Text(value));
    }

    @Test
    void encode_whenText_keepsItReadable() {
        assertThat(SortKeyCodec.encode(new IndexValue.Text("2023-05-01"), BigDecimal.valueOf(2), "issue#67d1"))
                .isEqualTo("S2023-05-01\u0001p1312\u0001issue#67d1");
    }

    @Test
    void encode_whenStringAndItsExtensions_ordersShortestFirst() {
        List<String> keys = List.of(text("a"), text("a\u0000"), text("a\u0001"), text("a\u0002"), text("a\u0003"), text("ab"));

        assertThat(sortedAsDynamoDb(keys)).containsExactlyElementsOf(keys);
    }

    @Test
    void encode_whenAnyValue_neverContainsNulOrSeparatorInsideTheValue() {
        String key = text("\u0000\u0001\u0002x");

        assertThat(key).doesNotContain("\u0000");
        assertThat(key.substring(0, key.indexOf(SortKeyCodec.SEPARATOR))).isEqualTo("S\u0002\u0002\u0002\u0003\u0002\u0004x");
    }

    @Test
    void encode_whenMixedTypes_ordersNumbersThenStringsThenBooleans() {
        List<String> keys = List.of(
                key(new IndexValue.Num(new BigDecimal("-1E+125"))),
                key(new IndexValue.Num(BigDecimal.ZERO)),
                key(new IndexValue.Num(new BigDecimal("9.9999999999999999999999999999999999999E+125"))),
                text(""),
                text("\u0000"),
                text("\uDBFF\uDFFF"),
                key(new IndexValue.Bool(false)),
                key(new IndexValue.Bool(true)));

        assertThat(sortedAsDynamoDb(keys)).containsExactlyElementsOf(keys);
    }

    @Test
    void encodeNumber_whenEqualNumbersSpelledDifferently_encodesIdentically() {
        assertThat(List.of("1", "1.0", "1e0", "10E-1", "0.1e1", "1.000000").stream()
                .map(s -> SortKeyCodec.encodeNumber(new BigDecimal(s))).distinct()).hasSize(1);
        assertThat(SortKeyCodec.encodeNumber(new BigDecimal("-0.00"))).isEqualTo(SortKeyCodec.encodeNumber(BigDecimal.ZERO));
    }

    @Test
    void encodeNumber_whenNegative_ordersLongerMagnitudeFirst() {
        List<String> keys = new ArrayList<>();
        for (String n : List.of("-1E+125", "-100", "-0.421", "-0.42", "-1E-130", "0", "1E-130", "0.42", "0.421", "100")) {
            keys.add(SortKeyCodec.encodeNumber(new BigDecimal(n)) + SortKeyCodec.SEPARATOR);
        }

        assertThat(sortedAsDynamoDb(keys)).containsExactlyElementsOf(keys);
    }

    @Test
    void encodeNumber_whenOutsideDynamoDbRange_refuses() {
        assertThatThrownBy(() -> SortKeyCodec.encodeNumber(new BigDecimal("1E+126")))
                .isInstanceOf(UnindexableValueException.class);
        assertThatThrownBy(() -> SortKeyCodec.encodeNumber(new BigDecimal("1E-131")))
                .isInstanceOf(UnindexableValueException.class);
        assertThatThrownBy(() -> SortKeyCodec.encodeNumber(new BigDecimal("1" + "1".repeat(38))))
                .isInstanceOf(UnindexableValueException.class);
    }

    @Test
    void encode_whenValueTooLong_cutsWithinTheLimitAndKeepsValuesDistinct() {
        String base = "x".repeat(2000);
        String one = SortKeyCodec.encode(new IndexValue.Text(base + "1"), BigDecimal.ONE, "issue#1");
        String two = SortKeyCodec.encode(new IndexValue.Text(base + "2"), BigDecimal.ONE, "issue#1");

        assertThat(one.getBytes(java.nio.charset.StandardCharsets.UTF_8)).hasSizeLessThanOrEqualTo(SortKeyCodec.MAX_KEY_BYTES);
        assertThat(one).isNotEqualTo(two).startsWith("Sxxxx").contains(SortKeyCodec.TRUNCATION_MARK);
    }

    @Test
    void encode_whenCutFallsInsideASurrogatePair_cutsBeforeIt() {
        String value = "\uD83D\uDE00".repeat(400);
        String key = SortKeyCodec.encode(new IndexValue.Text(value), BigDecimal.ONE, "issue#1");
        String kept = key.substring(1, key.indexOf(SortKeyCodec.TRUNCATION_MARK));

        assertThat(kept.length() % 2).isZero();
        assertThat(kept.codePoints()).allMatch(c -> c == 0x1F600);
    }

    @Test
    void textPrefix_whenLongerThanTheCut_isWhatTheKeysOfEveryValueStartingWithItStartWith() {
        String prefix = "\u00e9".repeat(340) + "\u0001" + "x".repeat(20);
        List<String> values = List.of(prefix, prefix + "y", prefix + "\u0000".repeat(400), prefix + "z".repeat(800));

        String keyPrefix = SortKeyCodec.textPrefix(prefix);

        assertThat(keyPrefix.getBytes(java.nio.charset.StandardCharsets.UTF_8).length)
                .isLessThanOrEqualTo(SortKeyCodec.MAX_VALUE_BYTES - 34);
        assertThat(values).allSatisfy(value -> assertThat(text(value)).startsWith(keyPrefix));
        assertThat(SortKeyCodec.textPrefix("ab\u0000")).isEqualTo("Sab\u0002\u0002");
    }

    @Test
    void encode_whenIssueIdLeavesNoRoom_refuses() {
        assertThatThrownBy(() -> SortKeyCodec.encode(new IndexValue.Text("a"), BigDecimal.ONE, "issue#" + "x".repeat(300)))
                .isInstanceOf(UnindexableValueException.class);
    }

    private static List<String> sortedAsDynamoDb(List<String> keys) {
        return keys.stream().sorted(IndexOrder::compareKeys).toList();
    }
}

package com.multikey.index;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The key ranges a reader asks for: every key of a value, of the values from or up to it, of its type. */
class SortKeyCodecBoundsTest {

    /** Values in index order; the long texts differ before the cut, so their keys keep their order. */
    private static final List<IndexValue> VALUES = List.of(
            num("-1E+125"), num("-0.5"), num("0"), num("1"), num("1.5"), num("9.9999999999999999999999999999999999999E+125"),
            text(""), text("\u0000"), text("a"), text("a\u0000"), text("a\u0001"), text("a\u0002"), text("ab"),
            text("x".repeat(600) + "y".repeat(200)), text("x".repeat(800)), text("\u00e9"),
            text("\uDBFF\uDFFF".repeat(300)),
            new IndexValue.Bool(false), new IndexValue.Bool(true));

    private static final List<BigDecimal> NUMS = List.of(new BigDecimal("-1E+125"), BigDecimal.ZERO, BigDecimal.ONE,
            new BigDecimal("9.9999999999999999999999999999999999999E+125"));
    private static final List<String> ISSUE_IDS = List.of("", "issue#1", "\uDBFF\uDFFF".repeat(64));

    @Test
    void lowerBound_whenInclusive_isAtOrBelowEveryKeyOfTheValueAndAboveEveryKeyOfASmallerOne() {
        forEveryValueAndKey((bound, value, key) -> assertThat(KeyOrder.compare(key, SortKeyCodec.lowerBound(bound, true)) >= 0)
                .as("key of %s against %s", value, bound).isEqualTo(order(value, bound) >= 0));
    }

    @Test
    void lowerBound_whenExclusive_isAboveEveryKeyOfTheValueAndBelowEveryKeyOfAGreaterOne() {
        forEveryValueAndKey((bound, value, key) -> assertThat(KeyOrder.compare(key, SortKeyCodec.lowerBound(bound, false)) > 0)
                .as("key of %s against %s", value, bound).isEqualTo(order(value, bound) > 0));
    }

    @Test
    void upperBound_whenInclusive_isAboveEveryKeyOfTheValueAndBelowEveryKeyOfAGreaterOne() {
        forEveryValueAndKey((bound, value, key) -> assertThat(KeyOrder.compare(key, SortKeyCodec.upperBound(bound, true)) < 0)
                .as("key of %s against %s", value, bound).isEqualTo(order(value, bound) <= 0));
    }

    @Test
    void upperBound_whenExclusive_isBelowEveryKeyOfTheValueAndAboveEveryKeyOfASmallerOne() {
        forEveryValueAndKey((bound, value, key) -> assertThat(KeyOrder.compare(key, SortKeyCodec.upperBound(bound, false)) < 0)
                .as("key of %s against %s", value, bound).isEqualTo(order(value, bound) < 0));
    }

    @Test
    void typeLowAndTypeHigh_encloseEveryKeyOfTheTypeAndNoKeyOfAnother() {
        forEveryValueAndKey((bound, value, key) -> {
            boolean sameType = value.getClass() == bound.getClass();
            boolean inside = KeyOrder.compare(key, SortKeyCodec.typeLow(bound)) >= 0
                    && KeyOrder.compare(key, SortKeyCodec.typeHigh(bound)) < 0;
            assertThat(inside).as("key of %s within the type of %s", value, bound).isEqualTo(sameType);
        });
    }

    @Test
    void valuePrefix_whenKeysOfEveryValue_startsExactlyTheKeysOfThatValue() {
        forEveryValueAndKey((bound, value, key) -> assertThat(key.startsWith(SortKeyCodec.valuePrefix(bound)))
                .as("key of %s starts with the prefix of %s", value, bound).isEqualTo(value.equals(bound)));
    }

    @Test
    void sampleKey_isTheKeyOfAnItemWithNumOneAndAnEmptyIssueId() {
        for (IndexValue value : VALUES) {
            assertThat(SortKeyCodec.sampleKey(value)).isEqualTo(SortKeyCodec.encode(value, BigDecimal.ONE, ""));
        }
    }

    private interface KeyCheck {
        void check(IndexValue bound, IndexValue value, String key);
    }

    private static void forEveryValueAndKey(KeyCheck check) {
        for (IndexValue bound : VALUES) {
            for (IndexValue value : VALUES) {
                for (String key : keysOf(value)) {
                    check.check(bound, value, key);
                }
            }
        }
    }

    private static List<String> keysOf(IndexValue value) {
        List<String> keys = new ArrayList<>();
        for (BigDecimal num : NUMS) {
            for (String issueId : ISSUE_IDS) {
                keys.add(SortKeyCodec.encode(value, num, issueId));
            }
        }
        return keys;
    }

    private static int order(IndexValue a, IndexValue b) {
        return Integer.signum(IndexOrder.VALUE.compare(a, b));
    }

    private static IndexValue num(String number) {
        return new IndexValue.Num(new BigDecimal(number));
    }

    private static IndexValue text(String text) {
        return new IndexValue.Text(text);
    }
}

package com.multikey.index;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
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
        assertThat(one).isNotEqualTo(two).startsWith("Sxxxx").contains(TextEncoding.TRUNCATION_MARK);
    }

    @Test
    void encode_whenCutFallsInsideASurrogatePair_cutsBeforeIt() {
        String value = "\uD83D\uDE00".repeat(400);
        String key = SortKeyCodec.encode(new IndexValue.Text(value), BigDecimal.ONE, "issue#1");
        String kept = key.substring(1, key.indexOf(TextEncoding.TRUNCATION_MARK));

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

    /** The encoded value alone, as it starts every key of the value. */
    private static String encodedText(String value) {
        return ValueEncoding.encode(new IndexValue.Text(value), SortKeyCodec.MAX_VALUE_BYTES);
    }

    /** The text bytes a cut value keeps: its budget less the truncation mark and the digest. */
    private static final int CUT_AT = SortKeyCodec.MAX_VALUE_BYTES - TextEncoding.TRUNCATION_MARK.length()
            - TextEncoding.DIGEST_HEX_CHARS;

    @Test
    void encode_whenValueFillsItsBudgetExactly_keepsItWhole() {
        // given: the type tag and 722 characters, exactly MAX_VALUE_BYTES
        String text = "x".repeat(SortKeyCodec.MAX_VALUE_BYTES - 1);

        // then
        assertThat(encodedText(text)).isEqualTo("S" + text);
    }

    @Test
    void encode_whenValueIsOneByteOverItsBudget_cutsItToExactlyTheBudget() {
        // given
        String text = "x".repeat(SortKeyCodec.MAX_VALUE_BYTES);

        // when
        String encoded = encodedText(text);

        // then: the tag and 688 characters of text, the mark and the digest fill the 723 bytes
        assertThat(encoded).hasSize(SortKeyCodec.MAX_VALUE_BYTES)
                .isEqualTo("S" + "x".repeat(CUT_AT - 1) + TextEncoding.TRUNCATION_MARK + sha256Hex(text).substring(0, 32));
    }

    @Test
    void encode_whenEscapedCharactersPushAValuePastItsBudget_cutsIt() {
        // given: U+0002 is escaped as two characters, so these 722 characters encode to 724 bytes
        String text = "\u0002" + "x".repeat(SortKeyCodec.MAX_VALUE_BYTES - 2);

        // when
        String encoded = encodedText(text);

        // then
        assertThat(encoded).contains(TextEncoding.TRUNCATION_MARK);
        assertThat(encoded.getBytes(StandardCharsets.UTF_8)).hasSize(SortKeyCodec.MAX_VALUE_BYTES);
    }

    @Test
    void encode_whenACharacterWouldCrossTheCut_cutsBeforeItAndCountsItsUtf8Bytes() {
        // given: after the tag and 687 characters, each character below fills the cut exactly or crosses it
        String filler = "x".repeat(CUT_AT - 2);
        for (String next : List.of("\u0001", "\u0002", "\u0003", "\u007f", "\u0080", "\u00e9", "\u07ff", "\u0800", "\uffff", "\uD83D\uDE00")) {
            String text = filler + next + "y".repeat(SortKeyCodec.MAX_VALUE_BYTES);

            // when
            String encoded = encodedText(text);
            String kept = encoded.substring(0, encoded.indexOf(TextEncoding.TRUNCATION_MARK));

            // then: the kept text is the longest that fits in CUT_AT bytes
            int nextBytes = next.codePointAt(0) <= 2 ? 2 : next.getBytes(StandardCharsets.UTF_8).length;
            String expected = 1 + filler.length() + nextBytes <= CUT_AT
                    ? "S" + filler + (next.codePointAt(0) <= 2 ? "\u0002" + (char) (next.charAt(0) + 2) : next)
                    : "S" + filler;
            assertThat(kept).as("U+%04X", next.codePointAt(0)).isEqualTo(expected);
        }
    }

    @Test
    void textPrefix_whenTextIsLongerThanTheCut_isExactlyWhatItsKeysKeep() {
        // given: texts whose cut falls before, on and after characters of every escaped and UTF-8 length
        for (String next : List.of("\u0000", "\u0002", "\u0003", "a", "\u0080", "\u0800", "\uD83D\uDE00")) {
            for (int fillerLength = CUT_AT - 4; fillerLength <= CUT_AT; fillerLength++) {
                String text = "x".repeat(fillerLength) + next.repeat(3) + "y".repeat(SortKeyCodec.MAX_VALUE_BYTES);
                String key = encodedText(text);

                // then
                assertThat(SortKeyCodec.textPrefix(text)).as("U+%04X after %d", next.codePointAt(0), fillerLength)
                        .isEqualTo(key.substring(0, key.indexOf(TextEncoding.TRUNCATION_MARK)));
            }
        }
    }

    @Test
    void textPrefix_whenTextIsEmpty_isTheStringTypeTag() {
        assertThat(SortKeyCodec.textPrefix("")).isEqualTo("S");
    }

    @Test
    void textPrefix_whenTextHoldsTheEscapeCharacterItself_escapesIt() {
        assertThat(SortKeyCodec.textPrefix("a\u0002b")).isEqualTo("Sa\u0002\u0004b");
    }

    @Test
    void utf8Length_whenCodePointsAtTheEncodingBoundaries_countsAsUtf8Does() {
        for (String text : List.of("\u007f", "\u0080", "\u07ff", "\u0800", "\uffff", "\uD800\uDC00", "\uDBFF\uDFFF", "a\u00e9\u20ac\uD83D\uDE00")) {
            assertThat(TextEncoding.utf8Length(text)).as("%s", text.codePoints().boxed().toList())
                    .isEqualTo(text.getBytes(StandardCharsets.UTF_8).length);
        }
    }

    private static String sha256Hex(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static List<String> sortedAsDynamoDb(List<String> keys) {
        return keys.stream().sorted(IndexOrder::compareKeys).toList();
    }

    @Test
    void encodeItemKey_escapesTheSeparatorAndTheEscapeCharacter() {
        assertThat(SortKeyCodec.encodeItemKey(ItemKey.ofString("id", "a\u0002b\u0001c"))).isEqualTo("a\u0002\u0004b\u0002\u0003c");
    }
}

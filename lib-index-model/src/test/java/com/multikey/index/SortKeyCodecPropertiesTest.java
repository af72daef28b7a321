package com.multikey.index;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

class SortKeyCodecPropertiesTest {

    /** Characters at and around the separator and escape, ASCII, BMP edges and characters outside the BMP. */
    private static final int[] INTERESTING = {0x0, 0x1, 0x2, 0x3, 0x7, ' ', '#', '0', 'A', 'a', 'b', '~', 0x7F, 0x80,
            0xE9, 0x7FF, 0x800, 0xD7FF, 0xE000, 0xFFFD, 0xFFFF, 0x10000, 0x1F600, 0x10FFFF};

    @Property(tries = 5000)
    void encodedKeys_compareAsUtf8Bytes_likeValueNumIssueId(@ForAll("entries") IndexOrder.Entry a,
                                                           @ForAll("entries") IndexOrder.Entry b) {
        String keyA = SortKeyCodec.encode(a.value(), a.num(), a.issueId());
        String keyB = SortKeyCodec.encode(b.value(), b.num(), b.issueId());

        assertThat(keyA.getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(SortKeyCodec.MAX_KEY_BYTES);
        assertThat(Integer.signum(IndexOrder.compareKeys(keyA, keyB)))
                .as("%s vs %s", a, b)
                .isEqualTo(Integer.signum(IndexOrder.ENTRY.compare(a, b)));
    }

    @Property(tries = 3000)
    void strings_orderLikeCodePoints_includingSeparatorsPrefixesAndNonBmp(@ForAll("strings") String a, @ForAll("strings") String b) {
        String keyA = SortKeyCodec.encode(new IndexValue.Text(a), BigDecimal.ONE, "issue#1");
        String keyB = SortKeyCodec.encode(new IndexValue.Text(b), BigDecimal.ONE, "issue#1");

        assertThat(Integer.signum(IndexOrder.compareKeys(keyA, keyB)))
                .isEqualTo(Integer.signum(IndexOrder.compareCodePoints(a, b)));
    }

    @Property(tries = 3000)
    void numbers_orderNumerically_overTheWholeDynamoDbRange(@ForAll("numbers") BigDecimal a, @ForAll("numbers") BigDecimal b) {
        String keyA = SortKeyCodec.encodeNumber(a) + SortKeyCodec.SEPARATOR;
        String keyB = SortKeyCodec.encodeNumber(b) + SortKeyCodec.SEPARATOR;

        assertThat(Integer.signum(IndexOrder.compareKeys(keyA, keyB))).isEqualTo(Integer.signum(a.compareTo(b)));
    }

    @Property(tries = 1000)
    void equalNumbers_inAnySpelling_encodeIdentically(@ForAll("numbers") BigDecimal number, @ForAll @IntRange(max = 5) int extraZeros) {
        String canonical = SortKeyCodec.encodeNumber(number);
        BigDecimal padded = number.setScale(number.scale() + extraZeros);

        assertThat(SortKeyCodec.encodeNumber(new BigDecimal(number.toString()))).isEqualTo(canonical);
        assertThat(SortKeyCodec.encodeNumber(new BigDecimal(number.toEngineeringString()))).isEqualTo(canonical);
        assertThat(SortKeyCodec.encodeNumber(new BigDecimal(padded.toString()))).isEqualTo(canonical);
        assertThat(SortKeyCodec.encodeNumber(new BigDecimal(number.unscaledValue() + "e" + (-number.scale()))))
                .isEqualTo(canonical);
        assertThat(IndexItem.of("f", new IndexValue.Num(padded), "issue#1", "p", BigDecimal.ONE))
                .isEqualTo(IndexItem.of("f", new IndexValue.Num(number), "issue#1", "p", BigDecimal.ONE));
    }

    @Property(tries = 500)
    void longStrings_fitTheKeyLimit_keepOrderBeforeTheCut_andStayDistinct(@ForAll("longStrings") String a, @ForAll("longStrings") String b,
                                                                        @ForAll("issueIds") String issueId) {
        String keyA = SortKeyCodec.encode(new IndexValue.Text(a), BigDecimal.TEN, issueId);
        String keyB = SortKeyCodec.encode(new IndexValue.Text(b), BigDecimal.TEN, issueId);

        assertThat(keyA.getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(SortKeyCodec.MAX_KEY_BYTES);
        assertThat(keyB.getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(SortKeyCodec.MAX_KEY_BYTES);
        assertThat(keyA.equals(keyB)).isEqualTo(a.equals(b));
        if (firstDifference(a, b) < 150) {
            // every key keeps at least the first 150 code points' bytes of the value (at most 4 bytes each)
            assertThat(Integer.signum(IndexOrder.compareKeys(keyA, keyB)))
                    .isEqualTo(Integer.signum(IndexOrder.compareCodePoints(a, b)));
        }
    }

    private static int firstDifference(String a, String b) {
        int[] x = a.codePoints().toArray();
        int[] y = b.codePoints().toArray();
        int i = 0;
        while (i < x.length && i < y.length && x[i] == y[i]) {
            i++;
        }
        return i;
    }

    @Provide
    Arbitrary<IndexOrder.Entry> entries() {
        Arbitrary<IndexValue> values = Arbitraries.oneOf(
                numbers().map(IndexValue.Num::new),
                strings().map(IndexValue.Text::new),
                // too long for a key, and equal whenever they agree before the cut
                strings().map(s -> new IndexValue.Text(s + "y".repeat(1500))),
                Arbitraries.of(true, false).map(IndexValue.Bool::new));
        Arbitrary<BigDecimal> nums = Arbitraries.oneOf(
                Arbitraries.integers().between(0, 40).map(BigDecimal::valueOf), numbers());
        return Combinators.combine(values, nums, issueIds()).as(IndexOrder.Entry::new);
    }

    @Provide
    Arbitrary<String> strings() {
        Arbitrary<Integer> codePoint = Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(3, Arbitraries.of(java.util.Arrays.stream(INTERESTING).boxed().toList())),
                net.jqwik.api.Tuple.of(1, Arbitraries.integers().between(0, 0x10FFFF)
                        .filter(c -> c < Character.MIN_SURROGATE || c > Character.MAX_SURROGATE)));
        return codePoint.list().ofMaxSize(6).map(SortKeyCodecPropertiesTest::fromCodePoints);
    }

    @Provide
    Arbitrary<String> longStrings() {
        Arbitrary<String> prefix = Arbitraries.of("", "x".repeat(300), "é".repeat(400), "\uD83D\uDE00".repeat(300), "\u0001".repeat(600));
        Arbitrary<String> body = Arbitraries.strings().withChars("ab\u0000\u00e9\uFFFF").ofMinLength(0).ofMaxLength(1500);
        return Combinators.combine(prefix, body).as(String::concat);
    }

    @Provide
    Arbitrary<String> issueIds() {
        return Arbitraries.oneOf(
                Arbitraries.strings().withChars("0123456789abcdef\u0001").ofMinLength(1).ofMaxLength(6).map(s -> "issue#" + s),
                Arbitraries.strings().withChars("ab\u00e9\u20ac").ofMinLength(1).ofMaxLength(60).map(s -> "issue#" + s)
                        .filter(s -> TextEncoding.utf8Length(s) <= SortKeyCodec.MAX_ISSUE_ID_BYTES));
    }

    @Provide
    Arbitrary<BigDecimal> numbers() {
        Arbitrary<BigInteger> unscaled = Arbitraries.oneOf(
                Arbitraries.bigIntegers().between(BigInteger.valueOf(-1000), BigInteger.valueOf(1000)),
                Arbitraries.strings().numeric().ofMinLength(1).ofMaxLength(38).map(BigInteger::new),
                Arbitraries.strings().numeric().ofMinLength(1).ofMaxLength(38).map(s -> new BigInteger(s).negate()));
        Arbitrary<Integer> scale = Arbitraries.integers().between(-130, 170);
        // few digits and a narrow scale make numbers whose digits extend one another, like -0.42 and -0.421
        Arbitrary<BigInteger> related = Arbitraries.strings().withChars("0149").ofMinLength(1).ofMaxLength(6)
                .map(BigInteger::new).flatMap(n -> Arbitraries.of(n, n.negate()));
        Arbitrary<BigDecimal> near = Combinators.combine(related, Arbitraries.integers().between(-2, 4)).as(BigDecimal::new);
        return Arbitraries.oneOf(near, Combinators.combine(unscaled, scale).as(BigDecimal::new))
                .filter(SortKeyCodecPropertiesTest::inDynamoDbRange);
    }

    static boolean inDynamoDbRange(BigDecimal number) {
        if (number.signum() == 0) {
            return true;
        }
        BigDecimal stripped = number.stripTrailingZeros();
        int exponent = stripped.precision() - stripped.scale();
        return stripped.precision() <= 38 && exponent >= -129 && exponent <= 126;
    }

    private static String fromCodePoints(java.util.List<Integer> codePoints) {
        StringBuilder out = new StringBuilder();
        codePoints.forEach(out::appendCodePoint);
        return out.toString();
    }
}

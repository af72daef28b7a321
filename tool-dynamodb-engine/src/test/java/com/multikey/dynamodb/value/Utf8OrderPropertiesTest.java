package com.multikey.dynamodb.value;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;

/** AWS "Query" (sort key order: strings by UTF-8 bytes); the reference is the strings' UTF-8 encodings. */
class Utf8OrderPropertiesTest {

    @Property(tries = 2000)
    void compareKeys_whenStrings_agreesWithUtf8Bytes(@ForAll("text") String a, @ForAll("text") String b) {
        int expected = Integer.signum(Arrays.compareUnsigned(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8)));
        assertThat(Integer.signum(Values.compareKeys(new Value.S(a), new Value.S(b)))).isEqualTo(expected);
    }

    @Property
    void size_whenString_isUtf8Length(@ForAll("text") String a) {
        assertThat(Values.size(new Value.S(a))).isEqualTo(a.getBytes(StandardCharsets.UTF_8).length);
    }

    /** Well-formed strings mixing ASCII, high BMP characters and supplementary ones (surrogate pairs). */
    @Provide
    Arbitrary<String> text() {
        Arbitrary<Integer> codePoint = Arbitraries.oneOf(
                Arbitraries.integers().between(0x20, 0x7f),
                Arbitraries.integers().between(0xe000, 0xffff),
                Arbitraries.integers().between(0x10000, 0x10ffff));
        return codePoint.list().ofMaxSize(6).map(cps -> {
            StringBuilder sb = new StringBuilder();
            cps.forEach(sb::appendCodePoint);
            return sb.toString();
        });
    }
}

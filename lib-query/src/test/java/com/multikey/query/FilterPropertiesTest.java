package com.multikey.query;

import com.multikey.index.IndexValue;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import java.math.BigDecimal;
import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;

/** Filters decided on sort keys (as DynamoDB does) agree with the plain comparison of values. */
class FilterPropertiesTest {

    @Property(tries = 3000)
    void range_matchesExactlyTheValuesOfItsTypeWithinItsBounds(@ForAll("values") IndexValue value, @ForAll("values") IndexValue low,
                                                              @ForAll("values") IndexValue high, @ForAll boolean lowInclusive,
                                                              @ForAll boolean highInclusive, @ForAll boolean open) {
        if (!sameType(low, high)) {
            return;
        }
        Filter.Range range = new Filter.Range(low, lowInclusive, open ? null : high, highInclusive);

        boolean expected = sameType(value, low)
                && (lowInclusive ? compare(value, low) >= 0 : compare(value, low) > 0)
                && (open || (highInclusive ? compare(value, high) <= 0 : compare(value, high) < 0));
        assertThat(range.matches(value)).as("%s in %s", value, range).isEqualTo(expected);
    }

    @Property(tries = 2000)
    void equals_matchesEqualValuesOnly(@ForAll("values") IndexValue value, @ForAll("values") IndexValue other) {
        assertThat(new Filter.Equals(other).matches(value)).isEqualTo(value.equals(other));
    }

    @Property(tries = 2000)
    void beginsWith_matchesTextsWithThatPrefix(@ForAll("values") IndexValue value, @ForAll("texts") String prefix) {
        boolean expected = value instanceof IndexValue.Text text && text.value().startsWith(prefix);
        assertThat(new Filter.BeginsWith(prefix).matches(value)).isEqualTo(expected);
    }

    @Provide
    Arbitrary<IndexValue> values() {
        return Arbitraries.oneOf(
                Arbitraries.of("-10", "-1.5", "-1", "-0.15", "0", "0.15", "1", "1.0", "1.5", "10", "100", "1E+100", "-1E-100")
                        .map(n -> new IndexValue.Num(new BigDecimal(n))),
                texts().map(IndexValue.Text::new),
                Arbitraries.of(true, false).map(IndexValue.Bool::new));
    }

    @Provide
    Arbitrary<String> texts() {
        return Arbitraries.strings().withChars("ab\u0000\u0001\u00e9").ofMaxLength(4);
    }

    private static boolean sameType(IndexValue a, IndexValue b) {
        return a.getClass() == b.getClass();
    }

    /** The specified order of two values of one type: numeric, by code point, false before true. */
    private static int compare(IndexValue a, IndexValue b) {
        return switch (a) {
            case IndexValue.Num n -> n.value().compareTo(((IndexValue.Num) b).value());
            case IndexValue.Text t -> Arrays.compare(t.value().codePoints().toArray(), ((IndexValue.Text) b).value().codePoints().toArray());
            case IndexValue.Bool x -> Boolean.compare(x.value(), ((IndexValue.Bool) b).value());
        };
    }
}

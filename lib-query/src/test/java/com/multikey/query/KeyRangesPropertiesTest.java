package com.multikey.query;

import com.multikey.index.IndexValue;
import com.multikey.index.ValueBounds;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The one mapping from predicates to key ranges, against what the docs say of it: whatever the expression (and, or, not,
 * every operator, predicates on another field), the keys it answers hold every value of the read field that satisfies it;
 * and or, not, and a predicate on another field narrow no further than they can.
 */
class KeyRangesPropertiesTest {

    private static final ValueBounds BOUNDS = ValueBounds.FIELD_PARTITIONED;

    @Property(tries = 3000)
    void of_whenAValueSatisfiesTheExpression_coversItsKey(@ForAll("expressions") Expression expression, @ForAll("values") IndexValue value) {
        // given an item whose field "f" holds this one value, and no field "g"

        // when
        KeyRanges keys = KeyRanges.of(expression, "f"::equals, BOUNDS);

        // then
        if (satisfied(expression, value)) {
            String key = BOUNDS.sampleKey(value);
            boolean covered = switch (keys) {
                case KeyRanges.Within within -> within.ranges().stream().anyMatch(range -> range.contains(key));
                case KeyRanges.Partition partition -> true;
                case KeyRanges.Unlisted unlisted -> true;
            };
            assertThat(covered).as("%s covers %s (%s)", keys, value, PredicateText.format(expression)).isTrue();
        }
    }

    @Property(tries = 1000)
    void of_whenAnItemLacksTheField_isUnlistedIfTheExpressionMayHold(@ForAll("expressions") Expression expression) {
        // given an item without the field "f" (nor "g")

        // when
        KeyRanges keys = KeyRanges.of(expression, "f"::equals, BOUNDS);

        // then: only an unlisted answer may leave out an item that has no index item
        if (satisfied(expression, null)) {
            assertThat(keys).as(PredicateText.format(expression)).isInstanceOf(KeyRanges.Unlisted.class);
        }
    }

    @Test
    void of_orOfTwoEqualities_isTheirTwoPrefixesAscending() {
        // given
        Expression or = new Expression.Or(List.of(new Predicate.Equals("f", num("5")), new Predicate.Equals("f", num("1"))));

        // when
        KeyRanges keys = KeyRanges.of(or, "f"::equals, BOUNDS);

        // then
        assertThat(keys).isEqualTo(new KeyRanges.Within(List.of(new Filter.Equals(num("1")).keyRange(BOUNDS),
                new Filter.Equals(num("5")).keyRange(BOUNDS))));
    }

    @Test
    void of_notOrAnotherField_narrowsNothing() {
        assertThat(KeyRanges.of(new Expression.Not(new Predicate.Equals("f", num("1"))), "f"::equals, BOUNDS))
                .isEqualTo(KeyRanges.UNLISTED);
        assertThat(KeyRanges.of(new Expression.Or(List.of(new Predicate.Equals("f", num("1")), new Predicate.Equals("g", num("1")))),
                "f"::equals, BOUNDS)).isEqualTo(KeyRanges.UNLISTED);
        assertThat(KeyRanges.of(new Expression.And(List.of(new Predicate.Equals("f", num("1")), new Predicate.Missing("g"))),
                "f"::equals, BOUNDS)).isEqualTo(new KeyRanges.Within(List.of(new Filter.Equals(num("1")).keyRange(BOUNDS))));
    }

    @Test
    void of_andOfDisjointPredicates_isNoKey() {
        Expression and = new Expression.And(List.of(new Predicate.Equals("f", num("3")),
                new Predicate.Range("f", num("5"), false, null, false)));

        assertThat(KeyRanges.of(and, "f"::equals, BOUNDS)).isEqualTo(new KeyRanges.Within(List.of()));
    }

    /**
     * Whether an item whose field f holds {@code value} (null: no value) and has no field g satisfies the expression, as the
     * docs define each operator: and on one field is one value satisfying every operand.
     */
    private static boolean satisfied(Expression expression, IndexValue value) {
        return switch (expression) {
            case Predicate p when !p.field().equals("f") -> p instanceof Predicate.Missing;
            case Predicate.Missing p -> value == null;
            case Predicate p -> value != null && p.test(value);
            case Expression.And and -> and.operands().stream().allMatch(o -> satisfied(o, value));
            case Expression.Or or -> or.operands().stream().anyMatch(o -> satisfied(o, value));
            case Expression.Not not -> !satisfied(not.operand(), value);
        };
    }

    @Provide
    Arbitrary<Expression> expressions() {
        return expression(4);
    }

    private Arbitrary<Expression> expression(int depth) {
        Arbitrary<Expression> leaf = predicates().map(p -> p);
        if (depth == 0) {
            return leaf;
        }
        Arbitrary<Expression> inner = Arbitraries.lazy(() -> expression(depth - 1));
        return Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(3, leaf),
                net.jqwik.api.Tuple.of(1, inner.list().ofMinSize(1).ofMaxSize(3).map(Expression.And::new)),
                net.jqwik.api.Tuple.of(1, inner.list().ofMinSize(1).ofMaxSize(3).map(Expression.Or::new)),
                net.jqwik.api.Tuple.of(1, inner.map(Expression.Not::new)));
    }

    private Arbitrary<Predicate> predicates() {
        Arbitrary<String> field = Arbitraries.of("f", "f", "f", "g");
        Arbitrary<IndexValue> value = values();
        return Arbitraries.oneOf(
                Combinators.combine(field, value).as(Predicate.Equals::new),
                Combinators.combine(field, value).as(Predicate.NotEquals::new),
                Combinators.combine(field, value.list().ofMinSize(1).ofMaxSize(3)).as(Predicate.In::new),
                Combinators.combine(field, texts()).as(Predicate.BeginsWith::new),
                Combinators.combine(field, value, Arbitraries.of(true, false), Arbitraries.of(true, false))
                        .as((f, v, lowSide, inclusive) -> lowSide ? new Predicate.Range(f, v, inclusive, null, false)
                                : new Predicate.Range(f, null, false, v, inclusive)),
                field.map(Predicate.Present::new),
                field.map(Predicate.Missing::new));
    }

    @Provide
    Arbitrary<IndexValue> values() {
        return Arbitraries.oneOf(
                Arbitraries.of("-10", "-1", "0", "1", "1.5", "10").map(n -> new IndexValue.Num(new BigDecimal(n))),
                texts().map(IndexValue.Text::new),
                Arbitraries.of(true, false).map(IndexValue.Bool::new));
    }

    private Arbitrary<String> texts() {
        return Arbitraries.strings().withChars("ab\u00e9").ofMaxLength(3);
    }

    private static IndexValue num(String n) {
        return new IndexValue.Num(new BigDecimal(n));
    }
}

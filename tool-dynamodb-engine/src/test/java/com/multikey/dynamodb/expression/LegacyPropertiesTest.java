package com.multikey.dynamodb.expression;

import com.multikey.dynamodb.value.Value;
import com.multikey.dynamodb.value.Values;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * AWS "Writing conditions with legacy parameters", as properties: each comparison operator holds of an attribute as
 * that page words it (a value of another type never matches; NE, NOT_CONTAINS and NULL hold of an absent
 * attribute), and the conditions on several attributes hold together (AND) or any of them (OR, ConditionalOperator).
 */
class LegacyPropertiesTest {

    record Case(Legacy.ComparisonOperator operator, List<Value> values) {
    }

    /** The page's wording of each operator, for an attribute's value (null: absent). */
    private static boolean model(Case c, Value attribute) {
        List<Value> values = c.values();
        Value first = values.isEmpty() ? null : values.get(0);
        boolean sameScalar = attribute != null && first != null && attribute.type().equals(first.type());
        return switch (c.operator()) {
            case NULL -> attribute == null;
            case NOT_NULL -> attribute != null;
            case EQ -> attribute != null && attribute.equals(first);
            case NE -> attribute == null || !attribute.equals(first);
            case LT -> sameScalar && Values.compareKeys(attribute, first) < 0;
            case LE -> sameScalar && Values.compareKeys(attribute, first) <= 0;
            case GT -> sameScalar && Values.compareKeys(attribute, first) > 0;
            case GE -> sameScalar && Values.compareKeys(attribute, first) >= 0;
            case CONTAINS -> contains(attribute, first);
            case NOT_CONTAINS -> !contains(attribute, first);
            case BEGINS_WITH -> attribute instanceof Value.S(String s) && first instanceof Value.S(String p) && s.startsWith(p);
            case IN -> attribute != null && values.contains(attribute);
            case BETWEEN -> sameScalar && attribute.type().equals(values.get(1).type())
                    && Values.compareKeys(attribute, first) >= 0 && Values.compareKeys(attribute, values.get(1)) <= 0;
        };
    }

    /** A substring of a string, an element of a set (of strings or numbers). */
    private static boolean contains(Value attribute, Value operand) {
        if (attribute instanceof Value.S(String s) && operand instanceof Value.S(String e)) {
            return s.contains(e);
        }
        if (attribute instanceof Value.SS(Set<String> set) && operand instanceof Value.S(String e)) {
            return set.contains(e);
        }
        if (attribute instanceof Value.NS(Set<BigDecimal> set) && operand instanceof Value.N(BigDecimal e)) {
            return set.contains(e);
        }
        return false;
    }

    @Property(tries = 1000)
    void eachOperator_holdsAsDocumented(@ForAll("cases") Case c, @ForAll("attributes") Value attribute) {
        Map<String, Value> item = new LinkedHashMap<>();
        if (attribute != null) {
            item.put("a", attribute);
        }
        ConditionExpression condition = Legacy.conditions(List.of(new Legacy.Comparison("a", c.operator(), c.values())), false);

        assertThat(condition.test(item)).as("%s %s on %s", c.operator(), c.values(), attribute).isEqualTo(model(c, attribute));
    }

    @Property(tries = 500)
    void severalAttributes_andOrOr(@ForAll("cases") Case onA, @ForAll("cases") Case onB, @ForAll("attributes") Value a,
                                   @ForAll("attributes") Value b, @ForAll boolean or) {
        Map<String, Value> item = new LinkedHashMap<>();
        if (a != null) {
            item.put("a", a);
        }
        if (b != null) {
            item.put("b", b);
        }
        ConditionExpression condition = Legacy.conditions(List.of(new Legacy.Comparison("a", onA.operator(), onA.values()),
                new Legacy.Comparison("b", onB.operator(), onB.values())), or);

        boolean expected = or ? model(onA, a) || model(onB, b) : model(onA, a) && model(onB, b);
        assertThat(condition.test(item)).isEqualTo(expected);
    }

    @Provide
    Arbitrary<Value> attributes() {
        return Arbitraries.oneOf(strings(), numbers(),
                strings().set().ofMinSize(1).ofMaxSize(3).map(set -> (Value) new Value.SS(set.stream().map(v -> ((Value.S) v).value())
                        .collect(java.util.stream.Collectors.toSet()))),
                numbers().set().ofMinSize(1).ofMaxSize(3).map(set -> (Value) new Value.NS(set.stream().map(v -> ((Value.N) v).value())
                        .collect(java.util.stream.Collectors.toSet())))).injectNull(0.2);
    }

    /** Operators with arguments that pass the documented checks (count, one type, a type the operator accepts, BETWEEN's order). */
    @Provide
    Arbitrary<Case> cases() {
        Arbitrary<Value> scalar = Arbitraries.oneOf(strings(), numbers());
        return Arbitraries.of(Legacy.ComparisonOperator.class).flatMap(operator -> switch (operator) {
            case NULL, NOT_NULL -> Arbitraries.just(new Case(operator, List.of()));
            case BEGINS_WITH -> strings().map(v -> new Case(operator, List.of(v)));
            case IN -> Arbitraries.oneOf(strings().list().ofMinSize(1).ofMaxSize(3), numbers().list().ofMinSize(1).ofMaxSize(3))
                    .map(list -> new Case(operator, list));
            case BETWEEN -> Arbitraries.oneOf(Combinators.combine(strings(), strings()).as(List::of),
                            Combinators.combine(numbers(), numbers()).as(List::of))
                    .map(pair -> Values.compareKeys(pair.get(0), pair.get(1)) <= 0 ? pair : List.of(pair.get(1), pair.get(0)))
                    .map(pair -> new Case(operator, pair));
            default -> scalar.map(v -> new Case(operator, List.of(v)));
        }).filter(c -> {
            Legacy.check(c.operator(), c.values()); // the generated arguments are valid ones
            return true;
        });
    }

    private static Arbitrary<Value> strings() {
        return Arbitraries.strings().withCharRange('a', 'c').ofMaxLength(3).map(s -> (Value) new Value.S(s));
    }

    private static Arbitrary<Value> numbers() {
        return Arbitraries.integers().between(-3, 3).map(i -> (Value) new Value.N(BigDecimal.valueOf(i)));
    }
}

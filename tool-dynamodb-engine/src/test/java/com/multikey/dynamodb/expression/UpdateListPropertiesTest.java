package com.multikey.dynamodb.expression;

import com.multikey.dynamodb.value.Numbers;
import com.multikey.dynamodb.value.Value;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Several SET and REMOVE actions on the elements of one list, modelled from AWS "Using update expressions in
 * DynamoDB": SET replaces an element that exists and appends one that does not, "if you add multiple elements in
 * a single SET operation, the elements are sorted in order by element number"; REMOVE names elements by their
 * positions before the update (every action reads the item as it was), the later ones shifting down.
 */
class UpdateListPropertiesTest {

    @Property
    void set_severalIndexes_inRangeReplaced_pastTheEndAppendedInIndexOrder(
            @ForAll @IntRange(max = 6) int size, @ForAll("indexes") Set<Integer> indexes, @ForAll long seed) {
        // given
        List<Value> list = numbers(size, 100);
        List<Integer> textual = new ArrayList<>(indexes);
        Collections.shuffle(textual, new Random(seed));
        Map<String, Value> values = new LinkedHashMap<>();
        List<String> actions = new ArrayList<>();
        for (int index : textual) {
            values.put(":v" + index, number(1000 + index));
            actions.add("c[" + index + "] = :v" + index);
        }
        // when
        Map<String, Value> updated = Expressions.update("SET " + String.join(", ", actions), Map.of(), values)
                .apply(Map.of("c", new Value.L(list)));
        // then
        List<Value> expected = new ArrayList<>(list);
        for (int index : new TreeSet<>(indexes)) {
            if (index < size) {
                expected.set(index, number(1000 + index));
            } else {
                expected.add(number(1000 + index));
            }
        }
        assertThat(updated.get("c")).isEqualTo(new Value.L(expected));
    }

    @Property
    void remove_severalIndexes_namedByTheirPositionsBeforeTheUpdate(
            @ForAll @IntRange(max = 6) int size, @ForAll("indexes") Set<Integer> indexes, @ForAll long seed,
            @ForAll("indexes") Set<Integer> appended) {
        // given
        List<Value> list = numbers(size, 100);
        List<Integer> textual = new ArrayList<>(indexes);
        Collections.shuffle(textual, new Random(seed));
        List<Integer> past = appended.stream().map(i -> i + 10).toList(); // SET past the end, beside the removals
        Map<String, Value> values = new LinkedHashMap<>();
        past.forEach(i -> values.put(":v" + i, number(1000 + i)));
        String set = past.isEmpty() ? "" : "SET " + String.join(", ", past.stream().map(i -> "c[" + i + "] = :v" + i).toList()) + " ";
        String expression = set + "REMOVE " + String.join(", ", textual.stream().map(i -> "c[" + i + "]").toList());
        // when
        Map<String, Value> updated = Expressions.update(expression, Map.of(), values).apply(Map.of("c", new Value.L(list)));
        // then
        List<Value> expected = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            if (!indexes.contains(i)) {
                expected.add(list.get(i));
            }
        }
        new TreeSet<>(past).forEach(i -> expected.add(number(1000 + i)));
        assertThat(updated.get("c")).isEqualTo(new Value.L(expected));
    }

    @Provide
    Arbitrary<Set<Integer>> indexes() {
        return Arbitraries.integers().between(0, 9).set().ofMinSize(1).ofMaxSize(5);
    }

    private static List<Value> numbers(int size, int from) {
        List<Value> list = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            list.add(number(from + i));
        }
        return list;
    }

    private static Value number(int n) {
        return new Value.N(Numbers.parse(Integer.toString(n)));
    }
}

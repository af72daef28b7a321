package com.multikey.dynamodb.expression;

import com.multikey.dynamodb.EngineException;
import com.multikey.dynamodb.value.Bytes;
import com.multikey.dynamodb.value.Numbers;
import com.multikey.dynamodb.value.Value;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * UpdateItem's legacy AttributeUpdates (AWS "AttributeUpdates (legacy)", AttributeValueUpdate): each top-level
 * attribute PUT (the value replaces it), DELETE without a value (the attribute goes), DELETE with a set (those
 * elements leave the set; the attribute goes with its last element), or ADD (a number added to the attribute's, a
 * missing one counting as 0; a set's elements joined to the attribute's set; a list appended to the attribute's
 * list). The action is PUT when none is given.
 */
public record AttributeUpdates(List<Update> updates) implements UpdateExpression {

    public enum Action { ADD, PUT, DELETE }

    /** One attribute's update; {@code value} is absent only for a DELETE of the whole attribute. */
    public record Update(String attribute, Action action, Optional<Value> value) {
    }

    private static final String INVALID = "One or more parameter values were invalid: ";
    private static final String MISMATCH = "Type mismatch for attribute to update";

    public AttributeUpdates {
        updates = List.copyOf(updates);
    }

    /**
     * Checks one attribute's update as DynamoDB does before it looks the table up: a value for every action but
     * DELETE, a set for a DELETE with a value, a number, set or list for an ADD.
     */
    public static void check(Update update) {
        if (update.value().isEmpty()) {
            if (update.action() != Action.DELETE) {
                throw EngineException.validation(INVALID + "Only DELETE action is allowed when no attribute value is specified");
            }
            return;
        }
        String type = update.value().get().type();
        if (update.action() == Action.DELETE && !Set.of("SS", "NS", "BS").contains(type)) {
            throw EngineException.validation(INVALID + "DELETE action with value is not supported for the type " + type);
        }
        if (update.action() == Action.ADD && !Set.of("L", "SS", "NS", "BS", "N").contains(type)) {
            throw EngineException.validation(INVALID + "ADD action is not supported for the type " + type);
        }
    }

    @Override
    public Map<String, Value> apply(Map<String, Value> item) {
        Map<String, Value> result = new LinkedHashMap<>(item);
        for (Update update : updates) {
            String name = update.attribute();
            Value current = result.get(name);
            switch (update.action()) {
                case PUT -> result.put(name, update.value().orElseThrow());
                case DELETE -> {
                    if (update.value().isEmpty()) {
                        result.remove(name);
                    } else if (current != null) {
                        Value rest = subtract(current, update.value().get());
                        if (rest == null) {
                            result.remove(name);
                        } else {
                            result.put(name, rest);
                        }
                    }
                }
                case ADD -> result.put(name, current == null ? update.value().orElseThrow() : add(current, update.value().orElseThrow()));
            }
        }
        return result;
    }

    private static Value add(Value current, Value operand) {
        return switch (operand) {
            case Value.N(BigDecimal n) when current instanceof Value.N(BigDecimal c) -> new Value.N(Numbers.check(c.add(n)));
            case Value.SS(Set<String> s) when current instanceof Value.SS(Set<String> c) -> new Value.SS(union(c, s));
            case Value.NS(Set<BigDecimal> s) when current instanceof Value.NS(Set<BigDecimal> c) -> new Value.NS(union(c, s));
            case Value.BS(Set<Bytes> s) when current instanceof Value.BS(Set<Bytes> c) -> new Value.BS(union(c, s));
            case Value.L(List<Value> l) when current instanceof Value.L(List<Value> c) -> {
                List<Value> joined = new ArrayList<>(c);
                joined.addAll(l);
                yield new Value.L(joined);
            }
            default -> throw EngineException.validation(MISMATCH);
        };
    }

    /** The set less the given elements; null when nothing is left. */
    private static Value subtract(Value current, Value operand) {
        return switch (operand) {
            case Value.SS(Set<String> s) when current instanceof Value.SS(Set<String> c) -> nonEmpty(minus(c, s), Value.SS::new);
            case Value.NS(Set<BigDecimal> s) when current instanceof Value.NS(Set<BigDecimal> c) -> nonEmpty(minus(c, s), Value.NS::new);
            case Value.BS(Set<Bytes> s) when current instanceof Value.BS(Set<Bytes> c) -> nonEmpty(minus(c, s), Value.BS::new);
            default -> throw EngineException.validation(MISMATCH);
        };
    }

    private static <T> Value nonEmpty(Set<T> set, Function<Set<T>, Value> make) {
        return set.isEmpty() ? null : make.apply(set);
    }

    private static <T> Set<T> union(Set<T> a, Set<T> b) {
        Set<T> all = new LinkedHashSet<>(a);
        all.addAll(b);
        return all;
    }

    private static <T> Set<T> minus(Set<T> a, Set<T> b) {
        Set<T> rest = new LinkedHashSet<>(a);
        rest.removeAll(b);
        return rest;
    }

    @Override
    public Set<String> topLevelAttributes() {
        Set<String> names = new LinkedHashSet<>();
        updates.forEach(u -> names.add(u.attribute()));
        return names;
    }

    @Override
    public Map<String, Value> updatedAttributes(Map<String, Value> item) {
        Map<String, Value> result = new LinkedHashMap<>();
        Set<String> names = topLevelAttributes();
        item.forEach((name, value) -> {
            if (names.contains(name)) {
                result.put(name, value);
            }
        });
        return result;
    }

    @Override
    public Set<String> usedNames() {
        return Set.of();
    }

    @Override
    public Set<String> usedValues() {
        return Set.of();
    }
}

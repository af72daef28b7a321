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
import java.util.Set;

/**
 * An update expression parsed and checked. Applying it computes every new value from the item as it was
 * before the update (so {@code SET a = b, b = a} swaps), then writes the SET/ADD/DELETE results and the removals
 * last, so that each list index names an element of the original list: the writes in ascending path order (an
 * index in range replaces its element; those past the end are appended in the order of their numbers, as AWS
 * "Using update expressions in DynamoDB" documents for several elements added by one SET), the removals in
 * descending path order (a higher index first, so that the lower ones have not moved).
 */
record ParsedUpdate(List<UpdateAction> actions, Set<String> usedNames, Set<String> usedValues, Set<String> nestedAccessNames,
                    Set<String> topLevelNames)
        implements UpdateExpression {

    private static final String WRONG_TYPE = "An operand in the update expression has an incorrect data type";
    private static final String MISSING = "The provided expression refers to an attribute that does not exist in the item";

    @Override
    public Set<String> topLevelAttributes() {
        Set<String> names = new LinkedHashSet<>();
        actions.forEach(a -> names.add(a.path().first()));
        return names;
    }

    @Override
    public Map<String, Value> updatedAttributes(Map<String, Value> item) {
        return new ParsedProjection(actions.stream().map(UpdateAction::path).toList(), usedNames, usedValues, nestedAccessNames, topLevelNames).project(item);
    }

    @Override
    public Map<String, Value> apply(Map<String, Value> item) {
        Map<String, Value> original = Map.copyOf(item);
        List<Path> removals = new ArrayList<>();
        List<Map.Entry<Path, Value>> writes = new ArrayList<>();
        for (UpdateAction action : actions) {
            switch (action) {
                case UpdateAction.Set set -> writes.add(Map.entry(set.path(), evaluate(set.value(), original)));
                case UpdateAction.Remove remove -> removals.add(remove.path());
                case UpdateAction.Add add -> writes.add(Map.entry(add.path(), add(Documents.get(original, add.path()), add.value().value())));
                case UpdateAction.Delete delete -> {
                    Documents.requireParent(original, delete.path());
                    Value current = Documents.get(original, delete.path());
                    if (current != null) {
                        Value rest = subtract(current, delete.value().value());
                        if (rest == null) {
                            removals.add(delete.path()); // the last element gone: the attribute goes
                        } else {
                            writes.add(Map.entry(delete.path(), rest));
                        }
                    }
                }
            }
        }
        Map<String, Value> result = new LinkedHashMap<>(item);
        // Paths never overlap (the parser refuses it), so writes commute but for appends to one list.
        writes.sort(Map.Entry.comparingByKey(Path.ORDER));
        writes.forEach(w -> Documents.set(result, w.getKey(), w.getValue()));
        // An element the item did not have is not removed, even where an append has put one since.
        removals.removeIf(p -> Documents.absentInItsContainer(original, p));
        removals.sort(Path.ORDER.reversed());
        removals.forEach(p -> Documents.remove(result, p));
        return result;
    }

    private static Value evaluate(Operand operand, Map<String, Value> item) {
        return switch (operand) {
            case Operand.Literal l -> l.value();
            case Operand.PathOperand p -> {
                Value v = Documents.get(item, p.path());
                if (v == null) {
                    throw EngineException.validation(MISSING);
                }
                yield v;
            }
            case Operand.IfNotExists f -> {
                Value v = Documents.get(item, f.path());
                yield v != null ? v : evaluate(f.fallback(), item);
            }
            case Operand.ListAppend f -> {
                if (!(evaluate(f.first(), item) instanceof Value.L(List<Value> a))
                        || !(evaluate(f.second(), item) instanceof Value.L(List<Value> b))) {
                    throw EngineException.validation(WRONG_TYPE);
                }
                List<Value> joined = new ArrayList<>(a);
                joined.addAll(b);
                yield new Value.L(joined);
            }
            case Operand.Arithmetic f -> {
                if (!(evaluate(f.left(), item) instanceof Value.N(BigDecimal a))
                        || !(evaluate(f.right(), item) instanceof Value.N(BigDecimal b))) {
                    throw EngineException.validation(WRONG_TYPE);
                }
                yield new Value.N(Numbers.check(f.plus() ? a.add(b) : a.subtract(b)));
            }
            case Operand.Size s -> throw new IllegalStateException(s.toString()); // refused by the parser
        };
    }

    /** ADD: a number added to a number (or to nothing, as to 0), a set joined to a set of its type (or to nothing). */
    private static Value add(Value current, Value operand) {
        if (current == null) {
            return operand;
        }
        return switch (operand) {
            case Value.N(BigDecimal n) when current instanceof Value.N(BigDecimal c) -> new Value.N(Numbers.check(c.add(n)));
            case Value.SS(Set<String> s) when current instanceof Value.SS(Set<String> c) -> new Value.SS(union(c, s));
            case Value.NS(Set<BigDecimal> s) when current instanceof Value.NS(Set<BigDecimal> c) -> new Value.NS(union(c, s));
            case Value.BS(Set<Bytes> s) when current instanceof Value.BS(Set<Bytes> c) -> new Value.BS(union(c, s));
            default -> throw EngineException.validation(WRONG_TYPE);
        };
    }

    /** DELETE: the set less the given elements; null when nothing is left. */
    private static Value subtract(Value current, Value operand) {
        Value rest = switch (operand) {
            case Value.SS(Set<String> s) when current instanceof Value.SS(Set<String> c) -> nonEmpty(minus(c, s), Value.SS::new);
            case Value.NS(Set<BigDecimal> s) when current instanceof Value.NS(Set<BigDecimal> c) -> nonEmpty(minus(c, s), Value.NS::new);
            case Value.BS(Set<Bytes> s) when current instanceof Value.BS(Set<Bytes> c) -> nonEmpty(minus(c, s), Value.BS::new);
            default -> throw EngineException.validation(WRONG_TYPE);
        };
        return rest;
    }

    private static <T> Value nonEmpty(Set<T> set, java.util.function.Function<Set<T>, Value> make) {
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
}

package com.multikey.dynamodb.expression;

import com.multikey.dynamodb.value.Bytes;
import com.multikey.dynamodb.value.Value;
import com.multikey.dynamodb.value.Values;

import java.math.BigDecimal;
import java.util.Arrays;
import java.util.Map;

/**
 * Evaluates a condition against an item, as AWS "Comparison operator and function reference" describes:
 * a missing attribute or values of different types make a comparison false (and {@code <>} true), never an
 * error.
 */
final class Evaluator {

    private Evaluator() {
    }

    static boolean test(Condition condition, Map<String, Value> item) {
        return switch (condition) {
            case Condition.And and -> test(and.left(), item) && test(and.right(), item);
            case Condition.Or or -> test(or.left(), item) || test(or.right(), item);
            case Condition.Not not -> !test(not.condition(), item);
            case Condition.Compare c -> compare(c.comparator(), value(c.left(), item), value(c.right(), item));
            case Condition.Between b -> {
                Value v = value(b.operand(), item);
                yield compare(Condition.Comparator.GE, v, value(b.low(), item))
                        && compare(Condition.Comparator.LE, v, value(b.high(), item));
            }
            case Condition.In in -> {
                Value v = value(in.operand(), item);
                yield v != null && in.candidates().stream().anyMatch(o -> v.equals(value(o, item)));
            }
            case Condition.AttributeExists e -> Documents.get(item, e.path()) != null;
            case Condition.AttributeNotExists e -> Documents.get(item, e.path()) == null;
            case Condition.AttributeType t -> {
                Value v = Documents.get(item, t.path());
                yield v != null && v.type().equals(((Value.S) t.type().value()).value());
            }
            case Condition.BeginsWith b -> beginsWith(value(b.operand(), item), value(b.prefix(), item));
            case Condition.Contains c -> contains(value(c.operand(), item), value(c.element(), item));
        };
    }

    /** An operand's value, or null when the item has no such attribute (or size() has no answer). */
    static Value value(Operand operand, Map<String, Value> item) {
        return switch (operand) {
            case Operand.Literal l -> l.value();
            case Operand.PathOperand p -> Documents.get(item, p.path());
            case Operand.Size s -> size(value(s.operand(), item));
            // Update functions are evaluated by the update; they never reach a condition.
            default -> throw new IllegalStateException(operand.toString());
        };
    }

    static boolean compare(Condition.Comparator comparator, Value a, Value b) {
        if (comparator == Condition.Comparator.EQ) {
            return a != null && a.equals(b);
        }
        if (comparator == Condition.Comparator.NE) {
            return a == null || !a.equals(b);
        }
        if (a == null || b == null || !Values.comparable(a, b)) {
            return false;
        }
        int order = Values.compareKeys(a, b);
        return switch (comparator) {
            case LT -> order < 0;
            case LE -> order <= 0;
            case GT -> order > 0;
            case GE -> order >= 0;
            default -> throw new IllegalStateException();
        };
    }

    /**
     * size(): a string's length in UTF-16 code units (what DynamoDB was measured to return for accented letters
     * and emoji, though its PartiQL page speaks of bytes), a binary's byte count, the element count of a set,
     * list or map; nothing for other types (AWS "Comparison operator and function reference", size).
     */
    private static Value size(Value v) {
        long size = switch (v) {
            case null -> -1;
            case Value.S s -> s.value().length();
            case Value.B b -> b.value().length();
            case Value.SS ss -> ss.values().size();
            case Value.NS ns -> ns.values().size();
            case Value.BS bs -> bs.values().size();
            case Value.L l -> l.values().size();
            case Value.M m -> m.entries().size();
            default -> -1;
        };
        return size < 0 ? null : new Value.N(BigDecimal.valueOf(size));
    }

    static boolean beginsWith(Value v, Value prefix) {
        if (v instanceof Value.S(String s) && prefix instanceof Value.S(String p)) {
            return s.startsWith(p);
        }
        if (v instanceof Value.B(Bytes b) && prefix instanceof Value.B(Bytes p)) {
            byte[] bytes = b.toArray();
            byte[] start = p.toArray();
            return bytes.length >= start.length && Arrays.equals(bytes, 0, start.length, start, 0, start.length);
        }
        return false;
    }

    /** contains(): a substring of a string, a subsequence of a binary, an element of a set or of a list. */
    private static boolean contains(Value v, Value element) {
        if (v == null || element == null) {
            return false;
        }
        return switch (v) {
            case Value.S s -> element instanceof Value.S(String e) && s.value().contains(e);
            case Value.B b -> element instanceof Value.B(Bytes e) && indexOf(b.value().toArray(), e.toArray()) >= 0;
            case Value.SS ss -> element instanceof Value.S(String e) && ss.values().contains(e);
            case Value.NS ns -> element instanceof Value.N(BigDecimal e) && ns.values().contains(e);
            case Value.BS bs -> element instanceof Value.B(Bytes e) && bs.values().contains(e);
            case Value.L l -> l.values().contains(element);
            default -> false;
        };
    }

    private static int indexOf(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}

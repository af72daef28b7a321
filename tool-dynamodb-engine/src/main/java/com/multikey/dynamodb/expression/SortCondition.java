package com.multikey.dynamodb.expression;

import com.multikey.dynamodb.value.Value;
import com.multikey.dynamodb.value.Values;

/** The condition a KeyConditionExpression puts on the sort key. */
public sealed interface SortCondition {

    /** Whether a sort key value satisfies it (same type as the condition's operands; else false). */
    boolean test(Value sortKey);

    /** The sign of {@code v} compared with {@code bound} in key order, or null when they cannot be compared. */
    private static Integer order(Value v, Value bound) {
        return v != null && bound != null && Values.comparable(v, bound) ? Values.compareKeys(v, bound) : null;
    }

    record Equal(Value value) implements SortCondition {
        public boolean test(Value v) {
            Integer order = order(v, value);
            return order != null && order == 0;
        }
    }

    record LessThan(Value value) implements SortCondition {
        public boolean test(Value v) {
            Integer order = order(v, value);
            return order != null && order < 0;
        }
    }

    record LessOrEqual(Value value) implements SortCondition {
        public boolean test(Value v) {
            Integer order = order(v, value);
            return order != null && order <= 0;
        }
    }

    record GreaterThan(Value value) implements SortCondition {
        public boolean test(Value v) {
            Integer order = order(v, value);
            return order != null && order > 0;
        }
    }

    record GreaterOrEqual(Value value) implements SortCondition {
        public boolean test(Value v) {
            Integer order = order(v, value);
            return order != null && order >= 0;
        }
    }

    record Between(Value low, Value high) implements SortCondition {
        public boolean test(Value v) {
            Integer fromLow = order(v, low);
            Integer fromHigh = order(v, high);
            return fromLow != null && fromHigh != null && fromLow >= 0 && fromHigh <= 0;
        }
    }

    /** begins_with on an S or B sort key. */
    record BeginsWith(Value prefix) implements SortCondition {
        public boolean test(Value v) {
            return Evaluator.beginsWith(v, prefix);
        }
    }
}

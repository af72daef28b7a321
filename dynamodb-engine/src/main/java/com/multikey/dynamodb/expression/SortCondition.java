package com.multikey.dynamodb.expression;

import com.multikey.dynamodb.value.Value;

/** The condition a KeyConditionExpression puts on the sort key. */
public sealed interface SortCondition {

    /** Whether a sort key value satisfies it (same type as the condition's operands; else false). */
    boolean test(Value sortKey);

    record Equal(Value value) implements SortCondition {
        public boolean test(Value v) { throw new UnsupportedOperationException("TODO"); }
    }

    record LessThan(Value value) implements SortCondition {
        public boolean test(Value v) { throw new UnsupportedOperationException("TODO"); }
    }

    record LessOrEqual(Value value) implements SortCondition {
        public boolean test(Value v) { throw new UnsupportedOperationException("TODO"); }
    }

    record GreaterThan(Value value) implements SortCondition {
        public boolean test(Value v) { throw new UnsupportedOperationException("TODO"); }
    }

    record GreaterOrEqual(Value value) implements SortCondition {
        public boolean test(Value v) { throw new UnsupportedOperationException("TODO"); }
    }

    record Between(Value low, Value high) implements SortCondition {
        public boolean test(Value v) { throw new UnsupportedOperationException("TODO"); }
    }

    /** begins_with on an S or B sort key. */
    record BeginsWith(Value prefix) implements SortCondition {
        public boolean test(Value v) { throw new UnsupportedOperationException("TODO"); }
    }
}

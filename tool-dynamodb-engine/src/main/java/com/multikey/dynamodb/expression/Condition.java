package com.multikey.dynamodb.expression;

import java.util.List;

/** The syntax tree of a condition (ConditionExpression, FilterExpression, KeyConditionExpression). */
sealed interface Condition {

    enum Comparator {
        EQ("="), NE("<>"), LT("<"), LE("<="), GT(">"), GE(">=");

        final String symbol;

        Comparator(String symbol) {
            this.symbol = symbol;
        }
    }

    record Compare(Comparator comparator, Operand left, Operand right) implements Condition {
    }

    record Between(Operand operand, Operand low, Operand high) implements Condition {
    }

    record In(Operand operand, List<Operand> candidates) implements Condition {
    }

    record And(Condition left, Condition right) implements Condition {
    }

    record Or(Condition left, Condition right) implements Condition {
    }

    record Not(Condition condition) implements Condition {
    }

    record AttributeExists(Path path) implements Condition {
    }

    record AttributeNotExists(Path path) implements Condition {
    }

    record AttributeType(Path path, Operand.Literal type) implements Condition {
    }

    record BeginsWith(Operand operand, Operand prefix) implements Condition {
    }

    record Contains(Operand operand, Operand element) implements Condition {
    }
}

package com.multikey.dynamodb.partiql;

import com.multikey.dynamodb.value.Value;

import java.util.List;

/** An expression of a statement: a path, a value (literal, parameter, tuple, list, set) or an operation on them. */
public sealed interface Expr {

    /** A document path: an attribute, then map keys ({@code a.b}) and list indexes ({@code a[0]}). */
    record Path(List<Step> steps) implements Expr {
        public Path {
            steps = List.copyOf(steps);
        }

        public String attribute() {
            return ((Step.Name) steps.get(0)).name();
        }

        public boolean topLevel() {
            return steps.size() == 1;
        }
    }

    sealed interface Step {
        record Name(String name) implements Step {
        }

        record Index(int index) implements Step {
        }
    }

    /** A literal: 'text', a number, TRUE, FALSE or NULL. */
    record Literal(Value value) implements Expr {
    }

    /** The {@code index}-th (from 0) {@code ?} of the statement, given in the request's Parameters. */
    record Parameter(int index) implements Expr {
    }

    /** {@code {'k': v, ...}}: a map. */
    record Tuple(List<Entry> entries) implements Expr {
        public Tuple {
            entries = List.copyOf(entries);
        }
    }

    record Entry(String key, Expr value) {
    }

    /** {@code [a, b]}: a list. */
    record ListOf(List<Expr> elements) implements Expr {
        public ListOf {
            elements = List.copyOf(elements);
        }
    }

    /** {@code <<a, b>>}: a bag, which DynamoDB stores as a string, number or binary set. */
    record Bag(List<Expr> elements) implements Expr {
        public Bag {
            elements = List.copyOf(elements);
        }
    }

    /** {@code =, <>, <, <=, >, >=} (a {@code !=} is read as {@code <>}). */
    record Comparison(String operator, Expr left, Expr right) implements Expr {
    }

    /** {@code +} or {@code -}. */
    record Arithmetic(String operator, Expr left, Expr right) implements Expr {
    }

    record And(Expr left, Expr right) implements Expr {
    }

    record Or(Expr left, Expr right) implements Expr {
    }

    record Not(Expr operand) implements Expr {
    }

    record Between(Expr operand, Expr low, Expr high) implements Expr {
    }

    record In(Expr operand, List<Expr> candidates) implements Expr {
        public In {
            candidates = List.copyOf(candidates);
        }
    }

    /** {@code x IS [NOT] MISSING} or {@code x IS [NOT] NULL}. */
    record Is(Expr operand, boolean missing, boolean negated) implements Expr {
    }

    /** A function call; {@code name} in lower case (begins_with, contains, size, attribute_type, exists, list_append, set_add, set_delete). */
    record Call(String name, List<Expr> arguments) implements Expr {
        public Call {
            arguments = List.copyOf(arguments);
        }
    }
}

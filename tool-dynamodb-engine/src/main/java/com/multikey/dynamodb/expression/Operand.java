package com.multikey.dynamodb.expression;

import com.multikey.dynamodb.value.Value;

/** An operand of a condition or of an update's SET: what evaluates to a value (or to nothing). */
sealed interface Operand {

    /** An attribute of the item, by its document path. */
    record PathOperand(Path path) implements Operand {
    }

    /** An expression attribute value; {@code ref} is its placeholder (":v"), kept for messages and identity. */
    record Literal(String ref, Value value) implements Operand {
    }

    /** {@code size(operand)}: a string's or binary's length, a set's, list's or map's element count. */
    record Size(Operand operand) implements Operand {
    }

    /** {@code if_not_exists(path, operand)} (update only). */
    record IfNotExists(Path path, Operand fallback) implements Operand {
    }

    /** {@code list_append(a, b)} (update only). */
    record ListAppend(Operand first, Operand second) implements Operand {
    }

    /** {@code a + b} or {@code a - b} (update only). */
    record Arithmetic(Operand left, boolean plus, Operand right) implements Operand {
    }
}

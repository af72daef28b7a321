package com.multikey.dynamodb.expression;

/** One action of an update expression's SET, REMOVE, ADD or DELETE clause. */
sealed interface UpdateAction {

    Path path();

    record Set(Path path, Operand value) implements UpdateAction {
    }

    record Remove(Path path) implements UpdateAction {
    }

    record Add(Path path, Operand.Literal value) implements UpdateAction {
    }

    record Delete(Path path, Operand.Literal value) implements UpdateAction {
    }
}

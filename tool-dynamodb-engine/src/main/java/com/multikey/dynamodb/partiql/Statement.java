package com.multikey.dynamodb.partiql;

import java.util.List;
import java.util.Optional;

/** One PartiQL for DynamoDB statement, as read by {@link StatementParser}. */
public sealed interface Statement {

    /** The table the statement names. */
    String table();

    /** How many {@code ?} parameters it holds. */
    int parameters();

    /** Whether it only reads. */
    default boolean read() {
        return this instanceof Select;
    }

    /**
     * {@code SELECT projection FROM table[.index] [WHERE condition] [ORDER BY key [ASC|DESC], ...]}; an empty projection
     * is {@code *}.
     */
    record Select(List<Expr.Path> projection, String table, Optional<String> index, Optional<Expr> where,
                  Optional<OrderBy> orderBy, int parameters) implements Statement {
        public Select {
            projection = List.copyOf(projection);
        }
    }

    /** {@code key [ASC|DESC]}, and the keys written after it ({@code ORDER BY key [ASC|DESC], ...}), in order. */
    record OrderBy(Expr.Path key, boolean descending, List<OrderBy> then) {
        public OrderBy {
            then = List.copyOf(then);
        }

        public OrderBy(Expr.Path key, boolean descending) {
            this(key, descending, List.of());
        }

        /** This key and those after it. */
        public List<OrderBy> keys() {
            List<OrderBy> keys = new java.util.ArrayList<>();
            keys.add(new OrderBy(key, descending));
            keys.addAll(then);
            return keys;
        }
    }

    /** {@code INSERT INTO table VALUE {...}}. */
    record Insert(String table, Expr item, int parameters) implements Statement {
    }

    /** {@code UPDATE table SET path = value | REMOVE path ... WHERE condition [RETURNING ...]}. */
    record Update(String table, List<Clause> clauses, Expr where, Returning returning, int parameters) implements Statement {
        public Update {
            clauses = List.copyOf(clauses);
        }
    }

    /** {@code DELETE FROM table WHERE condition [RETURNING ALL OLD *]}. */
    record Delete(String table, Expr where, Returning returning, int parameters) implements Statement {
    }

    /**
     * {@code EXISTS(SELECT * FROM table WHERE condition)}: in a transaction of writes, a check that the item its WHERE
     * clause names by its whole key exists and satisfies the rest of the clause (TransactWriteItems' ConditionCheck).
     */
    record Exists(Select select) implements Statement {
        @Override
        public String table() {
            return select.table();
        }

        @Override
        public int parameters() {
            return select.parameters();
        }
    }

    /** One SET or REMOVE of an UPDATE. */
    sealed interface Clause {
        record Set(Expr.Path path, Expr value) implements Clause {
        }

        record Remove(Expr.Path path) implements Clause {
        }
    }

    /** RETURNING's choice; NONE when the statement has none. */
    enum Returning { NONE, ALL_OLD, MODIFIED_OLD, ALL_NEW, MODIFIED_NEW }
}

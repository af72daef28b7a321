package com.multikey.query;

import java.util.Objects;

/**
 * How many items a request matches, as search users know it: {@code eq}, the number exactly; {@code gte}, at least
 * this many (the count stopped at its read budget, having seen only part of the matching items; never above the truth).
 *
 * @param value    the number of matching items, or a lower bound of it
 * @param relation whether it is exact or a lower bound
 * @param source   where it came from: the counts the pipeline keeps, or a count made at read time
 * @param calls    the API calls it took
 * @param examined the items it read (index items, counter items and items of the table)
 */
public record Total(long value, Relation relation, Source source, int calls, long examined) {

    public Total {
        Objects.requireNonNull(relation, "relation");
        Objects.requireNonNull(source, "source");
        if (value < 0) {
            throw new IllegalArgumentException("a total is at least 0, got " + value);
        }
    }

    /** Exact, or a lower bound. */
    public enum Relation {
        /** the number of matching items */
        EQ,
        /** at least this many: the count stopped at its budget */
        GTE;

        /** The spelling of the HTTP API and the CLI's JSON: {@code eq}, {@code gte}. */
        public String apiName() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /** Where a count came from. */
    public enum Source {
        /** the counter items the pipeline keeps for the definitions' {@code counts:} (one or two Queries) */
        KEPT,
        /** a count of the index (and, with predicates, of the items) at read time, within a read budget */
        COUNTED;

        public String apiName() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /** Whether the value is the number of matching items exactly. */
    public boolean exact() {
        return relation == Relation.EQ;
    }
}

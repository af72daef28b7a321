package com.multikey.cli;

import com.multikey.index.definition.CountsDeclaration;

/**
 * The extra writes of an index's kept counts, as docs/cost.md ("With kept counts") models them from its measurements
 * ({@code benchmarks.jar counts}, docs/benchmarks.md (12a): batches of 100 changes of a field of three values). A
 * change of a counted field writes its index items in transactions, which bill twice a plain write (2 units an item
 * under 1 KB), with its touched counters' updates (2 units each, each touched counter once a transaction): 0.045 a
 * change with 1 shard, 0.215 with 8, 0.675 with 32 (4.09, 4.43 and 5.35 write units for 2 index writes). Between the
 * measured shards the updates a change are interpolated, beyond 32 extended with the slope from 8 to 32, and at most 2
 * (a change alone in its batch). An item created in or deleted from a group with a kept total adds its member item's
 * transactional write (2 units) and its share of a total counter update.
 *
 * @param counts              the index's declared counts
 * @param writeUnitsPerChange the index's plain write units of a typical change
 */
record CountsCost(CountsDeclaration counts, double writeUnitsPerChange) {

    static final String SOURCE = "docs/cost.md, With kept counts (benchmarks.jar counts, docs/benchmarks.md (12a))";
    static final String MODEL = "a model of measured batches of 100 changes: a change of a counted field bills its index writes as "
            + "transactional writes (twice the units) and its share of the counter updates (2 units each); an item created or deleted "
            + "adds its member item write (2 units) and its share of a total counter update where the total is kept";

    /** Write units of a transactional write of an item under 1 KB, of a counter update, of a member item write. */
    static final double TRANSACTIONAL_UNITS = 2;
    /** The measured shards and counter updates a change ((write units - 4) / 2 of docs/cost.md's 4.09, 4.43, 5.35). */
    private static final int[] SHARDS = {1, 8, 32};
    private static final double[] UPDATES = {0.045, 0.215, 0.675};
    /** A change alone in its batch: its old value's counter and its new value's. */
    static final double MAX_UPDATES_PER_CHANGE = 2;

    /** Counter updates a change of a counted field pays, at the declared shards. */
    double counterUpdatesPerChange() {
        int shards = counts.shards();
        int last = SHARDS.length - 1;
        int segment = shards <= SHARDS[1] ? 0 : 1;
        double slope = (UPDATES[segment + 1] - UPDATES[segment]) / (SHARDS[segment + 1] - SHARDS[segment]);
        double updates = shards >= SHARDS[last] ? UPDATES[last] + slope * (shards - SHARDS[last])
                : UPDATES[segment] + slope * (shards - SHARDS[segment]);
        return Math.min(MAX_UPDATES_PER_CHANGE, updates);
    }

    /** Whether a typical change (of one value the index holds) changes a counted field: the index counts facets. */
    boolean countsChanges() {
        return !counts.facets().isEmpty();
    }

    /** Extra units of the transactions: the index writes billed twice. */
    double transactionExtraUnitsPerChange() {
        return countsChanges() ? writeUnitsPerChange : 0;
    }

    double counterUnitsPerChange() {
        return countsChanges() ? counterUpdatesPerChange() * TRANSACTIONAL_UNITS : 0;
    }

    /** Extra write units a change of a counted field costs over the plain index writes. */
    double extraUnitsPerChange() {
        return transactionExtraUnitsPerChange() + counterUnitsPerChange();
    }

    /** Extra write units an item created in or deleted from a group costs where the total is kept (0 otherwise). */
    double extraUnitsPerItemCreatedOrDeleted() {
        return counts.total() ? TRANSACTIONAL_UNITS + counterUpdatesPerChange() * TRANSACTIONAL_UNITS : 0;
    }
}

package com.multikey.cli;

/**
 * One declared index's plan: what it does with the sample, what it costs a month, and whether a native GSI could serve
 * it.
 *
 * @param tableItems      items in the table (DynamoDB's count, or the --items assumption)
 * @param changesPerMonth changes a month, each changing one value this index holds (an upper bound for each index)
 */
record IndexPlan(IndexMeasurement measured, long tableItems, long changesPerMonth, Prices prices, GsiVerdict gsi) {

    static final double GB = 1024.0 * 1024 * 1024;

    /** Index items the whole table implies: its items, the share the index covers, the index items each implies. */
    double indexItems() {
        return tableItems * measured.coveredShare() * measured.indexItemsPerCoveredItem();
    }

    double storageBytes() {
        return indexItems() * (measured.indexItemBytes() + IndexMeasurement.ITEM_OVERHEAD_BYTES);
    }

    double writeUnitsPerMonth() {
        return changesPerMonth * measured.writeUnitsPerChange();
    }

    double writesPerMonthDollars() {
        return writeUnitsPerMonth() / 1e6 * prices.writeUnitPerMillion();
    }

    double storagePerMonthDollars() {
        return storageBytes() / GB * prices.storagePerGbMonth();
    }

    double monthlyDollars() {
        return writesPerMonthDollars() + storagePerMonthDollars();
    }
}

package com.multikey.cli;

import com.multikey.index.definition.CountsDeclaration;

import java.util.Optional;

/**
 * One declared index's plan: what it does with the sample, what it costs a month, and whether a native GSI could serve
 * it.
 *
 * @param tableItems      items in the table (DynamoDB's count, or the --items assumption)
 * @param changesPerMonth changes a month, each changing one value this index holds (an upper bound for each index)
 * @param counts          the index's declared kept counts ({@link CountsDeclaration#NONE} when none)
 */
record IndexPlan(IndexMeasurement measured, long tableItems, long changesPerMonth, Prices prices, GsiVerdict gsi, CountsDeclaration counts) {

    static final double GB = 1024.0 * 1024 * 1024;

    /** Index items the whole table implies: its items, the share the index covers, the index items each implies. */
    double indexItems() {
        return tableItems * measured.coveredShare() * measured.indexItemsPerCoveredItem();
    }

    double storageBytes() {
        return indexItems() * (measured.indexItemBytes() + IndexMeasurement.ITEM_OVERHEAD_BYTES);
    }

    /** The kept counts' extra writes, as docs/cost.md models them; empty when the index keeps no counts. */
    Optional<CountsCost> countsCost() {
        return counts.any() ? Optional.of(new CountsCost(counts, measured.writeUnitsPerChange())) : Optional.empty();
    }

    /** Write units a typical change costs: the index writes, and the kept counts' transactions and counter updates. */
    double writeUnitsPerChange() {
        return measured.writeUnitsPerChange() + countsCost().map(CountsCost::extraUnitsPerChange).orElse(0.0);
    }

    double writeUnitsPerMonth() {
        return changesPerMonth * writeUnitsPerChange();
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

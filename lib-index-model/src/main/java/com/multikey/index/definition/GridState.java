package com.multikey.index.definition;

import java.util.Arrays;

/**
 * Where a stack's issue grid is on its way from the field-partitioned layout to the grouped one: which of the two
 * layouts the indexer writes and which one the grid's readers read. A stack records its state in the index table
 * ({@code GridLayoutStore}); {@code operator-cli migrate-grid} moves it forward one state at a time.
 */
public enum GridState {

    /** The layout a stack had before: written and read alone. */
    FIELD_PARTITIONED("field-partitioned"),
    /** Both layouts written; readers read the field-partitioned one while the grouped one is backfilled and verified. */
    MIGRATING("migrating"),
    /** Both layouts written; readers read the grouped one (a reader whose state is not yet fresh still finds the old one whole). */
    SWITCHED("switched"),
    /** The grouped layout written and read alone: every new stack's state; the old layout's items may be removed. */
    GROUPED("grouped");

    private final String label;

    GridState(String label) {
        this.label = label;
    }

    /** As written in the control item, the documentation and the command's output. */
    public String label() {
        return label;
    }

    public static GridState ofLabel(String label) {
        return Arrays.stream(values()).filter(state -> state.label.equals(label)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown grid layout state '" + label + "'"));
    }

    /** Whether the indexer keeps the field-partitioned layout's items. */
    public boolean writesFieldPartitioned() {
        return this != GROUPED;
    }

    /** Whether the indexer keeps the grouped layout's items. */
    public boolean writesGrouped() {
        return this != FIELD_PARTITIONED;
    }

    /** Whether the grid's readers read the grouped layout. */
    public boolean readsGrouped() {
        return this == SWITCHED || this == GROUPED;
    }
}

package com.multikey.index;

import com.multikey.index.definition.IndexDefinitions;

/** The default definitions (the issue grid) for tests: its projector, its index name, issue keys. */
public final class IssueGrid {

    public static final IndexDefinitions DEFINITIONS = IndexDefinitions.packaged();
    public static final String INDEX = IndexItem.FIELD_PARTITIONED_INDEX;

    private IssueGrid() {
    }

    public static IndexProjector projector() {
        return new IndexProjector(DEFINITIONS);
    }

    /** The key of an issue of the app table ({@code id}). */
    public static ItemKey key(String id) {
        return ItemKey.ofString("id", id);
    }
}

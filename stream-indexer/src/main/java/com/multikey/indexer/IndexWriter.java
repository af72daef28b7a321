package com.multikey.indexer;

import com.multikey.common.Deadline;

import java.util.List;
import java.util.Set;

/** Applies index changes to the index table. */
public interface IndexWriter {

    /**
     * Writes the changes (at most one per key), retrying what can succeed later until the deadline.
     *
     * @return the keys whose change was not written
     */
    Set<IndexKey> write(List<IndexChange> changes, Deadline deadline);
}

package com.multikey.indexer;

import com.multikey.common.Deadline;
import com.multikey.index.IndexChange;
import com.multikey.index.IndexKey;

import java.util.List;
import java.util.Objects;
import java.util.Set;

/** Applies index changes to the index table. */
public interface IndexWriter {

    /**
     * Writes the changes (at most one per key), retrying what can succeed later until the deadline.
     *
     * @return what was not written: changes to retry in a later delivery, and changes DynamoDB refused for
     *         their content, which no retry will change
     */
    WriteResult write(List<IndexChange> changes, Deadline deadline);

    /**
     * @param unwritten keys whose change failed for a reason that may pass (throttling, a server error, time
     *                  running out, a missing permission): the records must be delivered again
     * @param refused   changes DynamoDB refused as invalid (a {@code ValidationException} for that request
     *                  alone): skipped, logged and counted, never retried
     */
    record WriteResult(Set<IndexKey> unwritten, List<Refused> refused) {

        public static final WriteResult ALL_WRITTEN = new WriteResult(Set.of(), List.of());

        public WriteResult {
            unwritten = Set.copyOf(unwritten);
            refused = List.copyOf(refused);
        }
    }

    /** A change refused by DynamoDB, with the error code it gave. */
    record Refused(IndexKey key, String errorCode) {
        public Refused {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(errorCode, "errorCode");
        }
    }
}

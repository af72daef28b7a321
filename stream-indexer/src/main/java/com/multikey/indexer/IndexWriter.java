package com.multikey.indexer;

import com.multikey.common.Deadline;
import com.multikey.index.IndexChange;
import com.multikey.index.IndexKey;
import com.multikey.index.counts.CountedWrites;

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
     * Writes plain changes and counted ones (see {@link CountedWrites}): each counted write conditioned on its key's
     * existence, with its counter's change in the same transaction.
     *
     * @throws IllegalStateException when this writer keeps no counts and there are counted writes
     */
    default WriteResult write(List<IndexChange> plain, List<CountedWrites.Counted> counted, Deadline deadline) {
        if (!counted.isEmpty()) {
            throw new IllegalStateException("this index writer keeps no counts; " + counted.size() + " counted writes");
        }
        return write(plain, deadline);
    }

    /**
     * @param unwritten keys whose change failed for a reason that may pass (throttling, a server error, time
     *                  running out, a missing permission): the records must be delivered again
     * @param refused   changes DynamoDB refused as invalid (a {@code ValidationException} for that request
     *                  alone): skipped, logged and counted, never retried
     */
    record WriteResult(Set<IndexKey> unwritten, List<Refused> refused, CountedStats counted) {

        public static final WriteResult ALL_WRITTEN = new WriteResult(Set.of(), List.of());

        /** A result without counted writes. */
        public WriteResult(Set<IndexKey> unwritten, List<Refused> refused) {
            this(unwritten, refused, CountedStats.NONE);
        }

        public WriteResult {
            unwritten = Set.copyOf(unwritten);
            refused = List.copyOf(refused);
        }
    }

    /**
     * What the counted writes' transactions did, for the metrics.
     *
     * @param counterUpdates counter updates in the transactions DynamoDB applied
     * @param flipRetries    transactions sent again after DynamoDB found a write's assumption wrong (its condition failed)
     */
    record CountedStats(long counterUpdates, long flipRetries) {
        public static final CountedStats NONE = new CountedStats(0, 0);
    }

    /** A change refused by DynamoDB, with the error code it gave. */
    record Refused(IndexKey key, String errorCode) {
        public Refused {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(errorCode, "errorCode");
        }
    }
}

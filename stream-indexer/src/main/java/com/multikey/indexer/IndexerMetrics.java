package com.multikey.indexer;

/** Where the indexer reports what a batch did. */
public interface IndexerMetrics {

    void batchProcessed(BatchSummary summary);

    /** Counts of one batch. */
    record BatchSummary(int records, int ignoredRecords, int skippedRecords, int rejectedFields,
                        int valuesNotCopied, int refusedWrites, long puts, long deletes, int failedWrites,
                        int failedRecords) {
    }
}

package com.multikey.indexer;

import com.multikey.common.EmfMetrics;

import java.util.LinkedHashMap;
import java.util.Map;

/** Where the indexer reports what a batch did. */
public interface IndexerMetrics {

    void batchProcessed(BatchSummary summary);

    /** Counts of one batch. */
    record BatchSummary(int records, int ignoredRecords, int skippedRecords, int rejectedFields,
                        int valuesNotCopied, int refusedWrites, long puts, long deletes, int failedWrites,
                        int failedRecords, int missingImages, long counterUpdates, long countedRetries) {

        /** A batch without counted writes. */
        public BatchSummary(int records, int ignoredRecords, int skippedRecords, int rejectedFields, int valuesNotCopied,
                            int refusedWrites, long puts, long deletes, int failedWrites, int failedRecords, int missingImages) {
            this(records, ignoredRecords, skippedRecords, rejectedFields, valuesNotCopied, refusedWrites, puts, deletes, failedWrites,
                    failedRecords, missingImages, 0, 0);
        }
    }

    /** CloudWatch embedded-metric-format lines. */
    static IndexerMetrics emf(EmfMetrics emf) {
        return summary -> {
            Map<String, Number> counts = new LinkedHashMap<>();
            counts.put("Records", summary.records());
            counts.put("IgnoredRecords", summary.ignoredRecords());
            counts.put("SkippedRecords", summary.skippedRecords());
            counts.put("RejectedFields", summary.rejectedFields());
            counts.put("ValuesNotCopied", summary.valuesNotCopied());
            counts.put("RefusedWrites", summary.refusedWrites());
            counts.put("IndexPuts", summary.puts());
            counts.put("IndexDeletes", summary.deletes());
            counts.put("FailedWrites", summary.failedWrites());
            counts.put("FailedRecords", summary.failedRecords());
            counts.put("MissingImages", summary.missingImages());
            counts.put("CounterUpdates", summary.counterUpdates());
            counts.put("CountedRetries", summary.countedRetries());
            emf.publish(counts);
        };
    }
}

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
                        int failedRecords, int missingImages) {
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
            emf.publish(counts);
        };
    }
}

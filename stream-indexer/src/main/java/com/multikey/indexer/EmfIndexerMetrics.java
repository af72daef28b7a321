package com.multikey.indexer;

import com.multikey.common.EmfMetrics;

import java.util.LinkedHashMap;
import java.util.Map;

/** Publishes each batch's counts as CloudWatch metrics (embedded metric format). */
public final class EmfIndexerMetrics implements IndexerMetrics {

    private final EmfMetrics emf;

    public EmfIndexerMetrics(EmfMetrics emf) {
        this.emf = emf;
    }

    @Override
    public void batchProcessed(BatchSummary summary) {
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
        emf.publish(counts);
    }
}

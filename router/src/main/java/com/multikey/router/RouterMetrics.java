package com.multikey.router;

import com.multikey.common.EmfMetrics;

import java.util.LinkedHashMap;
import java.util.Map;

/** Where the router reports what a batch did. */
public interface RouterMetrics {

    void batchProcessed(BatchSummary summary);

    /** Counts of one batch. */
    record BatchSummary(int records, int skippedRecords, int eventsSent, int eventsWithoutImages, int failedRecords) {
    }

    /** CloudWatch embedded-metric-format lines. */
    static RouterMetrics emf(EmfMetrics emf) {
        return summary -> {
            Map<String, Number> counts = new LinkedHashMap<>();
            counts.put("Records", summary.records());
            counts.put("SkippedRecords", summary.skippedRecords());
            counts.put("EventsSent", summary.eventsSent());
            counts.put("EventsWithoutImages", summary.eventsWithoutImages());
            counts.put("FailedRecords", summary.failedRecords());
            emf.publish(counts);
        };
    }
}

package com.multikey.router;

import com.multikey.common.EmfMetrics;

import java.util.LinkedHashMap;
import java.util.Map;

/** Where the router reports what a batch did. */
public interface RouterMetrics {

    /** The EMF dimension value {@code service} the router's metrics are published with (alarms name it). */
    String SERVICE = "router";

    void batchProcessed(BatchSummary summary);

    /**
     * Counts of one batch.
     *
     * @param eventsSent          events EventBridge accepted
     * @param eventsWithoutImages accepted events whose images were dropped (size, nesting, or a permanent refusal)
     * @param eventsAdjusted      events changed to fit PutEvents' limits (numbers as strings, DetailType, images)
     * @param eventsRetried       entries re-sent after a transient error
     * @param eventsRefused       events EventBridge refused permanently, also without images: skipped (alarmed)
     * @param failedRecords       records reported as batch item failures
     */
    record BatchSummary(int records, int skippedRecords, int eventsSent, int eventsWithoutImages, int eventsAdjusted,
                        int eventsRetried, int eventsRefused, int failedRecords) {
    }

    /** CloudWatch embedded-metric-format lines. */
    static RouterMetrics emf(EmfMetrics emf) {
        return summary -> {
            Map<String, Number> counts = new LinkedHashMap<>();
            counts.put("Records", summary.records());
            counts.put("SkippedRecords", summary.skippedRecords());
            counts.put("EventsSent", summary.eventsSent());
            counts.put("EventsWithoutImages", summary.eventsWithoutImages());
            counts.put("EventsAdjusted", summary.eventsAdjusted());
            counts.put("EventsRetried", summary.eventsRetried());
            counts.put("EventsRefused", summary.eventsRefused());
            counts.put("FailedRecords", summary.failedRecords());
            emf.publish(counts);
        };
    }
}

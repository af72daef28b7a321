package com.multikey.reindex.worker;

import com.multikey.common.EmfMetrics;
import com.multikey.reindex.JobSpec;
import com.multikey.reindex.JobStatus;
import com.multikey.reindex.PageCounts;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The worker's metrics (namespace {@code METRICS_NAMESPACE}, {@code service=reindex-worker}): per checkpoint
 * {@code ItemsDone}, {@code IndexWrites} and {@code ItemsPerSecond} (of that invocation); per finished segment
 * {@code SegmentsLeft}; when a verify job is done, its totals as {@code IndexDrift} with the dimension
 * {@code drift} = {@code missing}, {@code stale} or {@code orphaned} (what a scheduled drift check alarms on);
 * when a repair job is done, {@code IndexDriftRepaired} likewise and {@code RepairedIssues}.
 */
public final class WorkerMetrics {

    public static final String SERVICE = "reindex-worker";

    private final EmfMetrics emf;

    public WorkerMetrics(EmfMetrics emf) {
        this.emf = emf;
    }

    public void progress(PageCounts page, double itemsPerSecond) {
        Map<String, Number> counts = new LinkedHashMap<>();
        counts.put("ItemsDone", page.items());
        counts.put("IndexWrites", page.writes());
        counts.put("ItemsPerSecond", Math.round(itemsPerSecond));
        emf.publish(counts);
    }

    public void segmentsLeft(long left) {
        emf.publish(Map.of("SegmentsLeft", left));
    }

    public void jobDone(JobStatus status) {
        emf.publish(Map.of("SegmentsLeft", status.segmentsLeft()));
        String metric = switch (status.spec().kind()) {
            case BACKFILL, REMOVE -> null;
            case VERIFY -> "IndexDrift";
            case REPAIR -> "IndexDriftRepaired";
        };
        if (metric == null) {
            return;
        }
        PageCounts totals = status.totals();
        emf.publish(Map.of("drift", "missing"), Map.of(metric, totals.missing()));
        emf.publish(Map.of("drift", "stale"), Map.of(metric, totals.stale()));
        emf.publish(Map.of("drift", "orphaned"), Map.of(metric, totals.orphaned()));
        if (status.spec().kind() == JobSpec.Kind.REPAIR) {
            emf.publish(Map.of("RepairedIssues", totals.repaired()));
        }
    }
}

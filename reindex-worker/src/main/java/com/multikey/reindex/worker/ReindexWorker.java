package com.multikey.reindex.worker;

import com.multikey.common.StructuredLog;
import com.multikey.reindex.JobSpec;
import com.multikey.reindex.JobStatus;
import com.multikey.reindex.JobStore;
import com.multikey.reindex.PageCounts;
import com.multikey.reindex.PageOutcome;
import com.multikey.reindex.SegmentPosition;
import com.multikey.reindex.SegmentVerifier;
import com.multikey.reindex.SegmentWork;

import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * The worker's logic, free of Lambda: {@code start} records a job and hands each unfinished segment to its own
 * invocation; {@code segment} claims a segment, works it page by page from its checkpoint, saves a checkpoint
 * after every page (one log line each, keys and counts only) with the keys of the wrong index entries a verify's page
 * found (a bounded number a segment, for whoever started the job to look at again), and before the invocation's time
 * runs out hands the rest to a new invocation. The segment that finishes last marks the job done and publishes its totals.
 */
final class ReindexWorker {

    /** What an invocation did, for its answer. */
    sealed interface Outcome {
        record Started(String jobId, boolean resumed, int segmentsInvoked) implements Outcome {
        }

        record Worked(String jobId, int segment, long pages, PageCounts counts, Status status) implements Outcome {
        }
    }

    /** How a segment invocation ended. */
    enum Status { SEGMENT_DONE, JOB_DONE, CONTINUED, SUPERSEDED, ALREADY_DONE }

    private final JobStore jobs;
    private final Function<JobSpec, SegmentWork> work;
    private final SegmentInvoker invoker;
    private final WorkerMetrics metrics;
    private final StructuredLog log;
    private final Clock clock;
    private final Duration safetyMargin;

    ReindexWorker(JobStore jobs, Function<JobSpec, SegmentWork> work, SegmentInvoker invoker, WorkerMetrics metrics,
                  StructuredLog log, Clock clock, Duration safetyMargin) {
        this.jobs = jobs;
        this.work = work;
        this.invoker = invoker;
        this.metrics = metrics;
        this.log = log;
        this.clock = clock;
        this.safetyMargin = safetyMargin;
    }

    Outcome handle(WorkerRequest request, LongSupplier remainingMillis) throws InterruptedException {
        return switch (request) {
            case WorkerRequest.Start start -> start(start.spec());
            case WorkerRequest.Segment segment -> segment(segment.jobId(), segment.segment(), remainingMillis);
        };
    }

    private Outcome start(JobSpec requested) {
        boolean created = jobs.create(requested, clock.instant());
        JobSpec spec = requested;
        if (!created) {
            spec = jobs.job(requested.jobId()).orElseThrow().spec();
            if (spec.kind() != requested.kind() || spec.totalSegments() != requested.totalSegments()) {
                throw new IllegalArgumentException("job " + spec.jobId() + " exists as a " + spec.kind().label() + " over "
                        + spec.totalSegments() + " segments; resume it with the same kind and segments, or use a new job id");
            }
        }
        List<Integer> left = created ? java.util.stream.IntStream.range(0, spec.totalSegments()).boxed().toList()
                : jobs.unfinishedSegments(spec);
        for (int segment : left) {
            invoker.invokeAsync(spec.jobId(), segment);
        }
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("jobId", spec.jobId());
        fields.put("kind", spec.kind().label());
        fields.put("totalSegments", spec.totalSegments());
        fields.put("segmentsInvoked", left.size());
        fields.put("resumed", !created);
        log.info(created ? "reindex job started" : "reindex job resumed", fields);
        if (!created && left.isEmpty()) {
            // every segment is done but the job may not have been marked so (a crash in between): finish it now
            jobs.completeIfLast(spec.jobId(), clock.instant()).ifPresent(this::finished);
        }
        return new Outcome.Started(spec.jobId(), !created, left.size());
    }

    private Outcome segment(String jobId, int segment, LongSupplier remainingMillis) throws InterruptedException {
        JobSpec spec = jobs.job(jobId).orElseThrow(() -> new IllegalArgumentException("no reindex job " + jobId)).spec();
        if (segment >= spec.totalSegments()) {
            throw new IllegalArgumentException("job " + jobId + " has " + spec.totalSegments() + " segments, not segment " + segment);
        }
        Optional<JobStore.Claim> claimed = jobs.claim(jobId, segment, clock.instant());
        if (claimed.isEmpty()) {
            // a retry of an invocation that saved the segment's last page but died before completing the job
            // finishes the job here (completion is conditional: at most one caller ever makes it)
            Optional<JobStatus> finished = jobs.completeIfLast(jobId, clock.instant());
            finished.ifPresent(this::finished);
            return new Outcome.Worked(jobId, segment, 0, PageCounts.NONE, finished.isPresent() ? Status.JOB_DONE : Status.ALREADY_DONE);
        }
        JobStore.Claim claim = claimed.get();
        SegmentWork pages = work.apply(spec);
        SegmentPosition at = claim.position();
        PageCounts total = PageCounts.NONE;
        long kept = claim.kept();
        long pageCount = 0;
        long started = System.nanoTime();
        long longestPageMillis = 0;
        while (true) {
            long pageStart = System.nanoTime();
            PageOutcome page = pages.page(segment, spec.totalSegments(), at);
            List<SegmentVerifier.Discrepancy> keep = JobStore.toKeep(page.found(), kept);
            if (!jobs.checkpoint(jobId, claim, page.next(), page.counts(), keep, clock.instant())) {
                logCheckpoint(spec, segment, claim, page, "superseded");
                return new Outcome.Worked(jobId, segment, pageCount, total, Status.SUPERSEDED);
            }
            pageCount++;
            kept += keep.size();
            total = total.plus(page.counts());
            at = page.next();
            longestPageMillis = Math.max(longestPageMillis, (System.nanoTime() - pageStart) / 1_000_000);
            double seconds = Math.max(1e-3, (System.nanoTime() - started) / 1e9);
            metrics.progress(page.counts(), total.items() / seconds);
            logCheckpoint(spec, segment, claim, page, at.done() ? "segment done" : "checkpoint");
            if (at.done()) {
                Optional<JobStatus> finished = jobs.completeIfLast(jobId, clock.instant());
                finished.ifPresentOrElse(this::finished,
                        () -> jobs.job(jobId).ifPresent(status -> metrics.segmentsLeft(status.segmentsLeft())));
                return new Outcome.Worked(jobId, segment, pageCount, total, finished.isPresent() ? Status.JOB_DONE : Status.SEGMENT_DONE);
            }
            // the next page must fit before the margin: twice the longest page so far, at least the configured margin
            long reserve = Math.max(safetyMargin.toMillis(), 2 * longestPageMillis);
            if (remainingMillis.getAsLong() < reserve) {
                invoker.invokeAsync(jobId, segment);
                Map<String, Object> fields = new LinkedHashMap<>();
                fields.put("jobId", jobId);
                fields.put("segment", segment);
                fields.put("step", claim.step());
                fields.put("remainingMillis", remainingMillis.getAsLong());
                log.info("reindex segment continues in a new invocation", fields);
                return new Outcome.Worked(jobId, segment, pageCount, total, Status.CONTINUED);
            }
        }
    }

    private void finished(JobStatus status) {
        metrics.jobDone(status);
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("jobId", status.spec().jobId());
        fields.put("kind", status.spec().kind().label());
        fields.put("items", status.totals().items());
        fields.put("sourceItems", status.totals().sourceItems());
        fields.put("writes", status.totals().writes());
        fields.put("missing", status.totals().missing());
        fields.put("stale", status.totals().stale());
        fields.put("orphaned", status.totals().orphaned());
        fields.put("repaired", status.totals().repaired());
        fields.put("seconds", status.finishedAt().map(end -> Duration.between(status.startedAt(), end).toSeconds()).orElse(0L));
        log.info("reindex job done", fields);
    }

    private void logCheckpoint(JobSpec spec, int segment, JobStore.Claim claim, PageOutcome page, String message) {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("jobId", spec.jobId());
        fields.put("kind", spec.kind().label());
        fields.put("segment", segment);
        fields.put("step", claim.step());
        fields.put("phase", page.next().phase().name());
        fields.put("items", page.counts().items());
        fields.put("writes", page.counts().writes());
        fields.put("missing", page.counts().missing());
        fields.put("stale", page.counts().stale());
        fields.put("orphaned", page.counts().orphaned());
        log.info("reindex " + message, fields);
    }
}

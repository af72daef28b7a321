package com.multikey.reindex;

import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Reindex jobs and their segments' checkpoints in the jobs table (partition key {@code jobId}, sort key
 * {@code part}: {@code job}, {@code segment#<n>}, or {@code found#<n>#<id>} for the wrong index entries a verify's page
 * found; every item expires {@link #RETENTION} after its last write through the table's TTL on {@code expiresAt}).
 *
 * <p>A segment is worked by one invocation at a time: an invocation first <em>claims</em> the segment (its
 * {@code step} goes up by one, conditioned on the value it read), and every checkpoint is conditioned on that
 * step. A duplicate delivery, a retry of a crashed invocation, or a resumed job claims afresh; whichever
 * claimed before it finds its next checkpoint refused and stops. Each checkpoint adds the page's counts to the
 * job's totals in the same transaction, so totals count every page once; it also keeps, in the same transaction, the
 * keys of the wrong index entries the page found, at most {@link #MAX_KEPT_PER_SEGMENT} a segment, so a job's kept
 * entries are all it found exactly when they are as many as its drift.
 *
 * <p>The job's item is {@link JobRecords}', the segments' claims and checkpoints are {@link SegmentClaims}', the kept
 * entries {@link KeptDiscrepancies}'; {@link JobItems} maps them all to attribute values.
 */
public final class JobStore {

    public static final String JOB_ID = "jobId";
    public static final String PART = "part";
    public static final String EXPIRES_AT = "expiresAt";
    public static final Duration RETENTION = Duration.ofDays(30);
    /** The wrong index entries a segment keeps at most; the rest are only counted. */
    public static final int MAX_KEPT_PER_SEGMENT = 1_000;

    /**
     * A segment claimed for one invocation: the step every checkpoint is conditioned on, where to resume, and how many
     * wrong entries the segment has kept so far.
     */
    public record Claim(int segment, long step, SegmentPosition position, long kept) {
    }

    private final JobRecords jobs;
    private final SegmentClaims segments;
    private final KeptDiscrepancies kept;

    public JobStore(DynamoDbClient dynamoDb, String table) {
        this.jobs = new JobRecords(dynamoDb, table);
        this.segments = new SegmentClaims(dynamoDb, table, jobs);
        this.kept = new KeptDiscrepancies(dynamoDb, table);
    }

    /**
     * Writes the job, unless it exists. A segment's item is written by its first {@link #claim} (and
     * {@link #unfinishedSegments} treats a segment without an item as not started): were the segments written
     * here, a duplicate start delivered meanwhile could have a segment claimed and saved before this write
     * reset it, so the segment would be worked, and taken off the job, twice.
     *
     * @return false when a job with that id already exists (its spec is then {@link #job}'s)
     */
    public boolean create(JobSpec spec, Instant now) {
        return jobs.create(spec, now);
    }

    public Optional<JobStatus> job(String jobId) {
        return jobs.job(jobId);
    }

    /** The segments of a job not yet done, in order (memory: one number per segment). */
    public List<Integer> unfinishedSegments(JobSpec spec) {
        return segments.unfinishedSegments(spec);
    }

    /** Claims a segment for this invocation; empty when it is done or another invocation claimed it meanwhile. */
    public Optional<Claim> claim(String jobId, int segment, Instant now) {
        return segments.claim(jobId, segment, now);
    }

    /**
     * Saves where the segment got to and adds the page's counts to the job's totals (and, when the segment is
     * now done, takes it off {@code segmentsLeft}), in one transaction conditioned on the claim.
     *
     * @return false when another invocation claimed the segment since: this one must stop
     */
    public boolean checkpoint(String jobId, Claim claim, SegmentPosition next, PageCounts counts, Instant now) {
        return checkpoint(jobId, claim, next, counts, List.of(), now);
    }

    /**
     * As {@link #checkpoint(String, Claim, SegmentPosition, PageCounts, Instant)}, keeping in the same transaction
     * {@code kept}: what {@link #toKeep} chose of the wrong entries the page found.
     */
    public boolean checkpoint(String jobId, Claim claim, SegmentPosition next, PageCounts counts, List<SegmentVerifier.Discrepancy> kept,
                              Instant now) {
        return segments.checkpoint(jobId, claim, next, counts, kept, now);
    }

    /**
     * Marks the job done when no segment is left, once: the one caller that makes the change gets the job's
     * final state (to publish its totals); everyone else gets empty.
     */
    public Optional<JobStatus> completeIfLast(String jobId, Instant now) {
        return jobs.completeIfLast(jobId, now);
    }

    /**
     * Which of a page's wrong entries to keep: the first ones, while the segment keeps at most
     * {@link #MAX_KEPT_PER_SEGMENT} and the page's fit in one item.
     */
    public static List<SegmentVerifier.Discrepancy> toKeep(List<SegmentVerifier.Discrepancy> found, long keptBefore) {
        return KeptDiscrepancies.toKeep(found, keptBefore);
    }

    /**
     * The wrong index entries a job's segments kept, at most {@code limit} of them (read in pages, so memory is bounded by
     * the limit).
     */
    public List<SegmentVerifier.Discrepancy> found(String jobId, int limit) {
        return kept.found(jobId, limit);
    }
}

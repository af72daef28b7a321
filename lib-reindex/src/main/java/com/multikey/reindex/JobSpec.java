package com.multikey.reindex;

import java.util.Locale;
import java.util.Optional;

/**
 * A reindex job as started: its id, what it does, over how many scan segments, the index write capacity all
 * its segments share, how many segments run at once (the worker's reserved concurrency), and the Scan page
 * size. Each running segment may use {@link #writeUnitsPerSegment()}.
 */
public record JobSpec(String jobId, Kind kind, int totalSegments, double writeUnitsPerSecond, int concurrency, int pageSize,
                      Optional<String> index) {

    /** What a job does. */
    public enum Kind {
        BACKFILL, VERIFY, REPAIR,
        /** Deletes the items of an index no longer declared ({@link IndexRemoval}). */
        REMOVE;

        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }

        public static Kind of(String label) {
            for (Kind kind : values()) {
                if (kind.label().equals(label)) {
                    return kind;
                }
            }
            throw new IllegalArgumentException("kind must be backfill, verify, repair or remove, got " + label);
        }
    }

    /**
     * Scan's own bound: "TotalSegments ... the value must be greater than or equal to 1, and less than or equal
     * to 1000000" (DynamoDB API reference, Scan).
     */
    public static final int MAX_TOTAL_SEGMENTS = 1_000_000;
    /** Scan's {@code Limit} must be at least 1; pages are also bounded by Scan's 1 MB a call. */
    public static final int MAX_PAGE_SIZE = 1000;

    public JobSpec {
        if (jobId == null || !jobId.matches("[A-Za-z0-9._-]{1,64}")) {
            throw new IllegalArgumentException("job id must be 1 to 64 letters, digits, '.', '_' or '-', got " + jobId);
        }
        if (kind == null) {
            throw new IllegalArgumentException("a job needs a kind: backfill, verify, repair or remove");
        }
        index = index == null ? Optional.empty() : index.filter(name -> !name.isBlank());
        if (kind == Kind.REMOVE && index.isEmpty()) {
            throw new IllegalArgumentException("a remove job names the index whose items it deletes");
        }
        if (totalSegments < 1 || totalSegments > MAX_TOTAL_SEGMENTS) {
            throw new IllegalArgumentException("total segments must be 1 to " + MAX_TOTAL_SEGMENTS + ", got " + totalSegments);
        }
        if (!(writeUnitsPerSecond > 0) || Double.isInfinite(writeUnitsPerSecond)) {
            throw new IllegalArgumentException("the write budget (index WCU/s) must be positive, got " + writeUnitsPerSecond);
        }
        if (concurrency < 1) {
            throw new IllegalArgumentException("concurrency must be at least 1, got " + concurrency);
        }
        if (pageSize < 1 || pageSize > MAX_PAGE_SIZE) {
            throw new IllegalArgumentException("page size must be 1 to " + MAX_PAGE_SIZE + ", got " + pageSize);
        }
    }

    /** A job over every declared index (or, for a removal, none). */
    public JobSpec(String jobId, Kind kind, int totalSegments, double writeUnitsPerSecond, int concurrency, int pageSize) {
        this(jobId, kind, totalSegments, writeUnitsPerSecond, concurrency, pageSize, Optional.empty());
    }

    /** The budget divided among the segments that can run at once. */
    public double writeUnitsPerSegment() {
        return writeUnitsPerSecond / Math.min(concurrency, totalSegments);
    }
}

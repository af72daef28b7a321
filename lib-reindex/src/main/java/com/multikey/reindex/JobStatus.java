package com.multikey.reindex;

import java.time.Instant;
import java.util.Optional;

/** A reindex job's state in the jobs table: its spec, whether it is done, its totals so far, segments left. */
public record JobStatus(JobSpec spec, boolean done, long segmentsLeft, PageCounts totals, Instant startedAt,
                        Optional<Instant> finishedAt) {
}

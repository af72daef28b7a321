package com.multikey.common;

import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * What each job of the one-reader stream consumer has done of the records Lambda will deliver again: the records from
 * the one a batch restarts at (the lowest batch item failure) on, by sequence number, that the index job and the route
 * job each finished. Kept in the checkpoint table under the restart record's event id, so that the next delivery, which
 * starts at that record, finds it, and so that redrive can tell which job a failed record still needs.
 *
 * @param restartEventId the event id of the record the next delivery starts at
 * @param indexed        sequence numbers the index job finished (their index writes done, or skipped for good)
 * @param routed         sequence numbers the route job finished (their events accepted, or refused for good)
 * @param attempt        how many times this item was written: a write is conditional on the attempt it read
 */
public record JobProgress(String restartEventId, Set<String> indexed, Set<String> routed, int attempt) {

    public JobProgress {
        Objects.requireNonNull(restartEventId, "restartEventId");
        indexed = Set.copyOf(new TreeSet<>(indexed));
        routed = Set.copyOf(new TreeSet<>(routed));
    }

    /** Nothing recorded: every record still needs both jobs. */
    public static JobProgress none(String restartEventId) {
        return new JobProgress(restartEventId, Set.of(), Set.of(), 0);
    }
}

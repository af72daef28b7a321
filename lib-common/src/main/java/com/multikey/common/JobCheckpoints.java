package com.multikey.common;

import java.util.Optional;

/** Where the one-reader stream consumer keeps each job's progress past a batch's lowest failure ({@link JobProgress}). */
public interface JobCheckpoints {

    /** The progress recorded for a delivery that starts at the record of this event id; strongly consistent. */
    Optional<JobProgress> read(String restartEventId);

    /**
     * Writes {@code progress} if the item still is at {@code readAttempt} (0: absent), as its attempt {@code readAttempt + 1}.
     *
     * @return false when the condition failed: another invocation wrote it since
     */
    boolean write(JobProgress progress, int readAttempt);
}

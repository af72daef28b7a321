package com.multikey.indexer;

import com.multikey.common.JobCheckpoints;
import com.multikey.common.JobProgress;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/** The checkpoint table in memory, conditional writes included. */
public final class InMemoryJobCheckpoints implements JobCheckpoints {

    final Map<String, JobProgress> items = new HashMap<>();
    int writes;

    @Override
    public synchronized Optional<JobProgress> read(String restartEventId) {
        return Optional.ofNullable(items.get(restartEventId));
    }

    @Override
    public synchronized boolean write(JobProgress progress, int readAttempt) {
        JobProgress current = items.get(progress.restartEventId());
        if ((current == null ? 0 : current.attempt()) != readAttempt) {
            return false;
        }
        writes++;
        items.put(progress.restartEventId(), new JobProgress(progress.restartEventId(), progress.indexed(), progress.routed(), readAttempt + 1));
        return true;
    }
}

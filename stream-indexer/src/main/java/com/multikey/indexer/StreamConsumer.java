package com.multikey.indexer;

import com.amazonaws.services.lambda.runtime.events.DynamodbEvent.DynamodbStreamRecord;
import com.amazonaws.services.lambda.runtime.events.StreamsEventResponse;
import com.amazonaws.services.lambda.runtime.events.StreamsEventResponse.BatchItemFailure;
import com.multikey.common.Deadline;
import com.multikey.common.JobCheckpoints;
import com.multikey.common.JobProgress;
import com.multikey.common.StructuredLog;
import software.amazon.awssdk.core.exception.SdkException;

import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The one-reader stream consumer: both jobs of the pipeline on one read of the stream, each with its own failures. The
 * index job (the stream indexer) and the route job (the router) run side by side on a batch; Lambda restarts at the
 * lowest record either reports, so each job's progress past that record is kept ({@link JobProgress}, under the restart
 * record's event id), and on the next delivery each job is handed only the records it has not finished: a record that
 * failed to index is indexed again without its event being sent again, and the reverse (docs/decisions/0023).
 *
 * <p>Per item, what a job finished is a prefix of the item's records (the indexer fails an item from its first record in
 * the batch, the router an item from its first unsent event), so skipping finished records keeps each item's order. A
 * progress that cannot be read or written costs duplicates (today's at-least-once), never a lost record: nothing is ever
 * marked finished that a job did not report finished.
 */
public final class StreamConsumer implements AutoCloseable {

    /** One job over a batch: its batch item failures (the records it must be handed again, and every later one of their items). */
    @FunctionalInterface
    public interface Job {
        StreamsEventResponse process(List<DynamodbStreamRecord> records, Deadline deadline);
    }

    /** What a job did with its records: the sequence numbers it reported, or the exception it threw. */
    private sealed interface Run {
        record Answered(Set<String> failed) implements Run {
        }

        record Threw(RuntimeException exception) implements Run {
        }
    }

    private static final Comparator<String> SEQUENCE_ORDER = Comparator.comparingInt(String::length).thenComparing(Comparator.naturalOrder());

    private final Job index;
    private final Job route;
    private final JobCheckpoints checkpoints;
    private final StructuredLog log;
    private final ExecutorService routeThreads = Executors.newVirtualThreadPerTaskExecutor();

    public StreamConsumer(Job index, Job route, JobCheckpoints checkpoints, StructuredLog log) {
        this.index = index;
        this.route = route;
        this.checkpoints = checkpoints;
        this.log = log;
    }

    /**
     * @return the union of both jobs' batch item failures
     * @throws RuntimeException what a job threw (after the other job's progress was kept), so Lambda retries the batch
     */
    public StreamsEventResponse process(List<DynamodbStreamRecord> records, Deadline deadline) {
        List<DynamodbStreamRecord> batch = records == null ? List.of() : records;
        Optional<String> restart = batch.isEmpty() ? Optional.empty() : eventId(batch.get(0));
        JobProgress previous = restart.map(this::read).orElse(JobProgress.none(""));
        List<DynamodbStreamRecord> forIndex = batch.stream().filter(r -> !previous.indexed().contains(sequence(r))).toList();
        List<DynamodbStreamRecord> forRoute = batch.stream().filter(r -> !previous.routed().contains(sequence(r))).toList();

        Future<Run> routing = routeThreads.submit(() -> run(route, forRoute, deadline));
        Run indexed = run(index, forIndex, deadline);
        Run routed = await(routing);

        Set<String> failed = new TreeSet<>(SEQUENCE_ORDER);
        RuntimeException thrown = null;
        for (Run run : List.of(indexed, routed)) {
            switch (run) {
                case Run.Answered answered -> failed.addAll(answered.failed());
                case Run.Threw threw -> thrown = thrown == null ? threw.exception() : thrown;
            }
        }
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("records", batch.size());
        fields.put("alreadyIndexed", batch.size() - forIndex.size());
        fields.put("alreadyRouted", batch.size() - forRoute.size());
        fields.put("failedRecords", failed.size());
        if (thrown == null && failed.isEmpty()) {
            log.info("batch consumed", fields);
            return new StreamsEventResponse(List.of());
        }
        // Lambda delivers again from the lowest failure, or, after an exception, the whole batch
        String lowest = thrown != null ? sequence(batch.get(0)) : failed.iterator().next();
        Optional<DynamodbStreamRecord> restartRecord = batch.stream().filter(r -> lowest != null && lowest.equals(sequence(r))).findFirst();
        Optional<String> restartId = restartRecord.flatMap(StreamConsumer::eventId);
        if (lowest != null && restartId.isPresent()) {
            JobProgress next = new JobProgress(restartId.get(), finished(batch, previous.indexed(), forIndex, indexed, lowest),
                    finished(batch, previous.routed(), forRoute, routed, lowest), 0);
            fields.put("checkpoint", write(next, restartId.get().equals(previous.restartEventId()) ? previous.attempt() : 0));
        } else {
            fields.put("checkpoint", "none: the restart record has no sequence number or event id");
        }
        log.info("batch consumed", fields);
        if (thrown != null) {
            throw thrown;
        }
        return new StreamsEventResponse(failed.stream().map(BatchItemFailure::new).toList());
    }

    /**
     * The records at or after {@code lowest} a job has finished: those it had finished before, and those it was handed now
     * and did not report, unless an earlier record of their item was reported (a job that threw finished nothing new).
     */
    private static Set<String> finished(List<DynamodbStreamRecord> batch, Set<String> before, List<DynamodbStreamRecord> handed,
                                        Run run, String lowest) {
        Set<String> done = new HashSet<>();
        before.stream().filter(s -> SEQUENCE_ORDER.compare(s, lowest) >= 0).forEach(done::add);
        if (!(run instanceof Run.Answered answered)) {
            return done;
        }
        Set<String> failedItems = new HashSet<>();
        for (DynamodbStreamRecord record : handed) {
            String sequence = sequence(record);
            String item = itemOf(record);
            if (sequence == null || answered.failed().contains(sequence)) {
                failedItems.add(item);
            }
            if (sequence != null && !failedItems.contains(item) && SEQUENCE_ORDER.compare(sequence, lowest) >= 0) {
                done.add(sequence);
            }
        }
        return done;
    }

    private static Run run(Job job, List<DynamodbStreamRecord> records, Deadline deadline) {
        try {
            StreamsEventResponse response = job.process(records, deadline);
            Set<String> failed = new HashSet<>();
            response.getBatchItemFailures().forEach(f -> failed.add(f.getItemIdentifier()));
            return new Run.Answered(failed);
        } catch (RuntimeException e) {
            return new Run.Threw(e);
        }
    }

    private static Run await(Future<Run> run) {
        try {
            return run.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Run.Threw(new IllegalStateException("interrupted while the route job ran", e));
        } catch (ExecutionException e) {
            return new Run.Threw(new IllegalStateException("the route job failed", e.getCause()));
        }
    }

    private JobProgress read(String restartEventId) {
        try {
            return checkpoints.read(restartEventId).orElse(JobProgress.none(restartEventId));
        } catch (SdkException e) {
            // unread, every record goes to both jobs: at worst a job repeats what it finished (events at least once)
            log.warn("job checkpoint not read, both jobs get every record", Map.of("eventId", restartEventId,
                    "error", e.getClass().getSimpleName()));
            return JobProgress.none(restartEventId);
        }
    }

    private String write(JobProgress progress, int readAttempt) {
        try {
            return checkpoints.write(progress, readAttempt) ? "written" : "not written: changed since it was read";
        } catch (SdkException e) {
            return "not written: " + e.getClass().getSimpleName();
        }
    }

    private static Optional<String> eventId(DynamodbStreamRecord record) {
        return Optional.ofNullable(record.getEventID()).filter(id -> !id.isEmpty());
    }

    private static String sequence(DynamodbStreamRecord record) {
        return record.getDynamodb() == null ? null : record.getDynamodb().getSequenceNumber();
    }

    /** An item's identity: its key attributes as the stream names them. */
    private static String itemOf(DynamodbStreamRecord record) {
        return record.getDynamodb() == null || record.getDynamodb().getKeys() == null ? "" : new TreeMap<>(record.getDynamodb().getKeys()).toString();
    }

    @Override
    public void close() {
        routeThreads.shutdown();
    }
}

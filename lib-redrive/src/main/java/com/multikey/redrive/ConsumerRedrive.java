package com.multikey.redrive;

import com.multikey.common.JobCheckpoints;
import com.multikey.common.JobProgress;
import com.multikey.index.ItemKey;
import com.multikey.reindex.IndexScope;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.Record;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The failure queue of the one-reader mode ({@code StreamReaders: one}, docs/decisions/0023): the records of a range the
 * stream consumer gave up on, each unfinished in its index job, its route job or both. The checkpoints the consumer kept
 * under the range's records (by event id) say which job finished which record; redrive re-runs only the rest:
 * <ul>
 *   <li>the index of the items of records not marked indexed is repaired from each item's current state, as the indexer's
 *   queue is ({@link IndexerRedrive});</li>
 *   <li>the records not marked routed are handed to the consumer again, after their records are marked indexed under the
 *   event id the delivery starts at (their items were just repaired), so the consumer runs only its route job on them and
 *   sends their events; records marked routed are not sent again.</li>
 * </ul>
 * A checkpoint marks only what a job reported finished, so what is read is true, never more: a checkpoint that was not
 * written costs events sent again (at least once), never one lost.
 */
final class ConsumerRedrive implements MessageAction {

    static final String GONE_ADVICE = IndexerRedrive.GONE_ADVICE + "; the events of these records can no longer be produced (the"
            + " items' current state is in the app table)";

    private final StreamRangeReader reader;
    private final IndexerRedrive indexer;
    private final IndexScope schema;
    private final JobCheckpoints checkpoints;
    private final FunctionInvoker invoker;
    private final String consumerFunction;

    ConsumerRedrive(StreamRangeReader reader, IndexerRedrive indexer, IndexScope schema, JobCheckpoints checkpoints, FunctionInvoker invoker,
                    String consumerFunction) {
        this.reader = reader;
        this.indexer = indexer;
        this.schema = schema;
        this.checkpoints = checkpoints;
        this.invoker = invoker;
        this.consumerFunction = consumerFunction;
    }

    @Override
    public Result handle(String body, boolean dryRun) {
        OnFailureRecord range = OnFailureRecord.parse(body);
        if (range.source() == OnFailureRecord.Source.KINESIS) {
            throw new IllegalArgumentException("a Kinesis range (KinesisBatchInfo): the one stream reader reads the table's DynamoDB stream");
        }
        return switch (reader.read(range)) {
            case StreamRange.Gone gone -> new Result.Gone(range.describe(), gone.reason(), GONE_ADVICE);
            case StreamRange.Found found -> redrive(found.records(), range.streamArn(), dryRun);
        };
    }

    private Result redrive(List<Record> records, String streamArn, boolean dryRun) {
        Finished finished = finished(records);
        List<Record> toIndex = records.stream().filter(r -> !finished.indexed().contains(sequence(r))).toList();
        List<Record> toRoute = records.stream().filter(r -> !finished.routed().contains(sequence(r))).toList();

        // the items of the records not indexed, with every image the range holds of them
        Set<ItemKey> unindexed = IndexerRedrive.imagesByItem(toIndex, schema).keySet();
        Map<ItemKey, List<Map<String, AttributeValue>>> images = new LinkedHashMap<>(IndexerRedrive.imagesByItem(records, schema));
        images.keySet().retainAll(unindexed);
        IndexerRedrive.Repairs repairs = indexer.repairItems(images, dryRun);
        if (!repairs.changing().isEmpty()) {
            return new Result.Failed(repairs.stillChanging());
        }
        String index = String.format("index: %d records not indexed, %s", toIndex.size(), repairs.describe(dryRun));
        String skipped = (records.size() - toRoute.size()) + " already routed, not sent again";
        if (dryRun) {
            return new Result.Done(String.format("%d records; %s; events: would re-send those of %d records through %s (%s)",
                    records.size(), index, toRoute.size(), consumerFunction, skipped));
        }
        for (List<Record> chunk : RouterRedrive.chunks(toRoute, streamArn)) {
            Optional<String> refused = routeOnly(chunk, streamArn);
            if (refused.isPresent()) {
                return new Result.Failed(index + "; " + refused.get());
            }
        }
        return new Result.Done(String.format("%d records; %s; events: re-sent those of %d records through %s (%s)", records.size(), index,
                toRoute.size(), consumerFunction, skipped));
    }

    /**
     * Hands a chunk to the consumer for its route job only: under the event id its delivery starts at, the chunk's records
     * are marked indexed (their items' index was just repaired from their current state; indexing their old images again
     * would undo it), the marks already there kept.
     *
     * @return why the chunk's events were not all sent, if they were not
     */
    private Optional<String> routeOnly(List<Record> chunk, String streamArn) {
        String restartAt = chunk.get(0).eventID();
        if (restartAt == null || restartAt.isEmpty()) {
            return Optional.of("a record has no event id: its checkpoint cannot be kept; nothing re-sent");
        }
        Optional<JobProgress> current = checkpoints.read(restartAt);
        Set<String> indexed = new HashSet<>(current.map(JobProgress::indexed).orElse(Set.of()));
        chunk.forEach(record -> indexed.add(sequence(record)));
        JobProgress marked = new JobProgress(restartAt, indexed, current.map(JobProgress::routed).orElse(Set.of()), 0);
        if (!checkpoints.write(marked, current.map(JobProgress::attempt).orElse(0))) {
            return Optional.of("the checkpoint of " + restartAt + " changed while it was being marked; run again");
        }
        List<String> failed = RouterRedrive.batchItemFailures(invoker.invoke(consumerFunction, StreamEventJson.event(chunk, streamArn)));
        if (!failed.isEmpty()) {
            return Optional.of("the consumer reported " + failed.size() + " of " + chunk.size() + " records failed again, from sequence number "
                    + failed.get(0) + "; its checkpoint keeps what was sent");
        }
        return Optional.empty();
    }

    /** Each job's finished records among these: what the checkpoints under any of their event ids mark. */
    private Finished finished(List<Record> records) {
        Set<String> indexed = new HashSet<>();
        Set<String> routed = new HashSet<>();
        for (Record record : records) {
            String id = record.eventID();
            if (id != null && !id.isEmpty()) {
                checkpoints.read(id).ifPresent(progress -> {
                    indexed.addAll(progress.indexed());
                    routed.addAll(progress.routed());
                });
            }
        }
        return new Finished(indexed, routed);
    }

    private record Finished(Set<String> indexed, Set<String> routed) {
    }

    private static String sequence(Record record) {
        return record.dynamodb().sequenceNumber();
    }
}

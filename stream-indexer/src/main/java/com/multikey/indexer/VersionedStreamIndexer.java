package com.multikey.indexer;

import com.amazonaws.services.lambda.runtime.events.KinesisEvent.KinesisEventRecord;
import com.amazonaws.services.lambda.runtime.events.StreamsEventResponse;
import com.multikey.common.ChangeRecord;
import com.multikey.common.Deadline;
import com.multikey.common.KinesisChangeRecords;
import com.multikey.common.PartialBatch;
import com.multikey.common.StructuredLog;
import com.multikey.index.IndexChange;
import com.multikey.index.IndexKey;
import com.multikey.index.IndexProjector;
import com.multikey.index.ItemKey;
import com.multikey.index.definition.IndexDefinitions;
import software.amazon.awssdk.core.exception.SdkException;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Keeps the index exact from records that may come twice and out of order (a table's Kinesis streaming destination):
 * reads the batch's items' {@link ItemState}s, writes the diff from the image each holds to the newest image of the
 * records newer than it, then the new state, conditional on the one read. A record no newer than its item's state
 * writes nothing (a duplicate, a late record); a removal leaves a tombstone, so a late older change cannot bring the
 * item back. An item whose index writes or state write failed for now is reported from its first record.
 *
 * <p>Records of one item are read by one invocation at a time (one partition key, one shard, one lane of the
 * event source mapping), so a state write finds the state it read; if another write came first, the index items this
 * write touched are brought to the state that won (see docs/decisions/0024).
 */
public final class VersionedStreamIndexer {

    private final PartialBatch<ChangeRecord> batch;
    private final KinesisChangeRecords reader;
    private final VersionedBatchPlanner planner;
    private final ItemStates states;
    private final IndexWriter writer;
    private final IndexerMetrics metrics;
    private final StructuredLog log;
    private final IndexerWarnings warnings;

    /** @param projector the projector of the definitions current for a batch (the grid state the stack records) */
    public VersionedStreamIndexer(Supplier<IndexProjector> projector, String keyAttribute, ItemStates states, IndexWriter writer,
                                  IndexerMetrics metrics, StructuredLog log) {
        this.batch = new PartialBatch<>(record -> {
            throw new IllegalStateException("Kinesis records are read by KinesisChangeRecords");
        }, ChangeRecord::sequenceNumber, keyAttribute, log);
        this.reader = new KinesisChangeRecords(keyAttribute);
        this.planner = new VersionedBatchPlanner(records -> projector.get());
        this.states = states;
        this.writer = writer;
        this.metrics = metrics;
        this.log = log;
        this.warnings = new IndexerWarnings(log);
    }

    /**
     * Refuses definitions that declare kept counts: this indexer writes the index from each item's state without the
     * counted conditional writes (decision 0026), so a count would drift from the items it counts.
     *
     * @throws IllegalStateException naming the first index that declares counts
     */
    public static void requireNoKeptCounts(IndexDefinitions definitions) {
        definitions.indexes().stream().filter(index -> index.counts().any()).findFirst().ifPresent(index -> {
            throw new IllegalStateException("index '" + index.name() + "' declares counts, which are not kept on a Kinesis source: "
                    + "remove its counts setting or read the table's DynamoDB stream (StreamSource dynamodb)");
        });
    }

    /**
     * @return the batch item failures, by Kinesis sequence number: the first record of each item whose writes failed
     *         for now, and each record without the new image an index needs
     */
    public StreamsEventResponse process(List<KinesisEventRecord> records, Deadline deadline) {
        return processRecords(reader.read(records), deadline);
    }

    /** As {@link #process}, for records already read. */
    StreamsEventResponse processRecords(List<PartialBatch.Decoded<ChangeRecord>> records, Deadline deadline) {
        PartialBatch.Result<Counts> result = batch.processDecoded(records, deadline, this::index);
        Counts counts = result.report();
        metrics.batchProcessed(new IndexerMetrics.BatchSummary(result.records(), counts.stale(), result.skipped(),
                counts.rejections(), counts.valuesNotCopied(), counts.refused(), counts.puts(), counts.deletes(),
                counts.failedWrites(), result.failed(), counts.missingImages()));
        log.info("batch indexed", Map.of("records", result.records(), "puts", counts.puts(), "deletes", counts.deletes(),
                "staleRecords", counts.stale(), "stateWrites", counts.stateWrites(), "failedRecords", result.failed()));
        return result.response();
    }

    /** What one batch did to the index, for the metrics. */
    private record Counts(int stale, int rejections, int valuesNotCopied, int refused, long puts, long deletes,
                          int failedWrites, int missingImages, int stateWrites) {
    }

    private PartialBatch.Outcome<ChangeRecord, Counts> index(List<ChangeRecord> records, Deadline deadline) {
        VersionedBatchPlanner.Grouped grouped;
        Map<ItemKey, ItemState> read;
        try {
            grouped = planner.group(records);
            read = grouped.byItem().isEmpty() ? Map.of() : states.read(grouped.byItem().keySet(), deadline);
        } catch (SdkException e) {
            // the layout state or the items' states could not be read: nothing is written, every record comes again
            warnings.layoutStateNotRead(records.size(), e);
            return new PartialBatch.Outcome<>(List.copyOf(records), List.of(), new Counts(0, 0, 0, 0, 0, 0, records.size(), 0, 0));
        }
        VersionedBatchPlanner.Plan plan = planner.plan(grouped, read);
        plan.rejections().forEach(warnings::rejected);

        List<IndexChange> changes = new ArrayList<>();
        Map<IndexKey, ItemKey> itemOfKey = new HashMap<>();
        for (VersionedBatchPlanner.ItemPlan item : plan.items()) {
            for (IndexChange change : item.changes()) {
                changes.add(change);
                itemOfKey.put(change.key(), item.item());
            }
        }
        List<IndexChange.Put> withoutValue = changes.stream()
                .filter(change -> change instanceof IndexChange.Put put && !put.item().valueCopied())
                .map(IndexChange.Put.class::cast).toList();
        withoutValue.forEach(warnings::valueNotCopied);
        IndexWriter.WriteResult written = changes.isEmpty() ? IndexWriter.WriteResult.ALL_WRITTEN : writer.write(changes, deadline);
        written.refused().forEach(refused -> warnings.writeRefused(refused, itemOfKey.get(refused.key())));

        Set<ItemKey> failedItems = new LinkedHashSet<>();
        written.unwritten().forEach(key -> failedItems.add(itemOfKey.get(key)));
        int stateWrites = 0;
        int failedWrites = written.unwritten().size();
        for (VersionedBatchPlanner.ItemPlan item : plan.items()) {
            if (failedItems.contains(item.item()) || item.next().isEmpty()) {
                continue;
            }
            try {
                stateWrites++;
                if (!states.write(item.next().get(), item.expected(), deadline)) {
                    failedWrites += repair(plan.projector(), item, deadline, failedItems);
                }
            } catch (SdkException e) {
                failedItems.add(item.item());
                failedWrites++;
            }
        }

        Map<ItemKey, VersionedBatchPlanner.ItemPlan> byItem = new LinkedHashMap<>();
        plan.items().forEach(item -> byItem.put(item.item(), item));
        List<ChangeRecord> redeliver = new ArrayList<>(failedItems.stream().map(item -> byItem.get(item).firstRecord()).toList());
        if (!redeliver.isEmpty()) {
            warnings.writesFailed(failedWrites, failedItems.size(), redeliver.getFirst().sequenceNumber().orElse(""));
        }
        for (BatchPlan.MissingImage missing : plan.missingImages()) {
            warnings.missingImage(missing, missing.record().sourceTable().orElse("(the table of the Kinesis stream)"));
            redeliver.add(missing.record());
        }
        long puts = changes.stream().filter(c -> c instanceof IndexChange.Put).count();
        return new PartialBatch.Outcome<>(redeliver, plan.skipped(), new Counts(plan.stale(), plan.rejections().size(),
                withoutValue.size(), written.refused().size(), puts, changes.size() - puts, failedWrites,
                plan.missingImages().size(), stateWrites));
    }

    /**
     * Another state was written since this batch read the item's: the index items this batch wrote are brought to
     * the image of the state that won. Counts the writes that failed (the item is then reported).
     */
    private int repair(IndexProjector projector, VersionedBatchPlanner.ItemPlan item, Deadline deadline, Set<ItemKey> failedItems) {
        log.warn("item state changed while its index was written; writing the index of the state that won",
                Map.of("itemKey", item.item().toString()));
        Optional<ItemState> winner = Optional.ofNullable(states.read(List.of(item.item()), deadline).get(item.item()));
        List<IndexChange> repair = VersionedBatchPlanner.repair(projector, item.item(), item.next().orElseThrow().image(),
                winner.map(ItemState::image).orElse(null));
        IndexWriter.WriteResult written = repair.isEmpty() ? IndexWriter.WriteResult.ALL_WRITTEN : writer.write(repair, deadline);
        if (!written.unwritten().isEmpty()) {
            failedItems.add(item.item());
        }
        return written.unwritten().size();
    }
}

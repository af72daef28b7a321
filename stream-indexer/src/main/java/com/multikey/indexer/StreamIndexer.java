package com.multikey.indexer;

import com.amazonaws.services.lambda.runtime.events.DynamodbEvent.DynamodbStreamRecord;
import com.amazonaws.services.lambda.runtime.events.StreamsEventResponse;
import com.multikey.common.ChangeRecord;
import com.multikey.common.Deadline;
import com.multikey.common.PartialBatch;
import com.multikey.common.StructuredLog;
import com.multikey.index.IndexChange;
import com.multikey.index.IndexKey;
import com.multikey.index.ItemKey;
import software.amazon.awssdk.core.exception.SdkException;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Keeps the index in step with one batch of app table stream records: plans the net writes, applies them,
 * reports poison records, unindexable fields and writes DynamoDB refuses, and answers with the records Lambda must deliver again.
 */
public final class StreamIndexer {

    /** The stream view type that carries every image an index may need. */
    static final String NEEDED_VIEW_TYPE = "NEW_AND_OLD_IMAGES";

    private final PartialBatch<ChangeRecord> batch;
    private final BatchPlanner planner;
    private final IndexWriter writer;
    private final IndexerMetrics metrics;
    private final StructuredLog log;
    private final IndexerWarnings warnings;
    private final String appTableName;

    public StreamIndexer(BatchPlanner planner, IndexWriter writer, IndexerMetrics metrics, StructuredLog log) {
        this(planner, writer, metrics, log, "");
    }

    /**
     * @param appTableName the source table, named in the log line of a record without the images an index needs
     *                     (empty: the table of the record's stream ARN is named instead)
     */
    public StreamIndexer(BatchPlanner planner, IndexWriter writer, IndexerMetrics metrics, StructuredLog log, String appTableName) {
        this.appTableName = appTableName;
        this.batch = new PartialBatch<>(ChangeRecord::from, ChangeRecord::sequenceNumber, planner.keyAttribute(), log);
        this.planner = planner;
        this.writer = writer;
        this.metrics = metrics;
        this.log = log;
        this.warnings = new IndexerWarnings(log);
    }

    /**
     * @return the batch item failures: for every item with an unwritten change, the first of its records
     *         in this batch, so Lambda restarts at or before it and the replay converges; and every record that
     *         lacks an image an index needs, so it reaches the on-failure destination instead of being skipped
     * @throws com.multikey.common.BatchFailedException when a failed record has no sequence number to report
     */
    public StreamsEventResponse process(List<DynamodbStreamRecord> records, Deadline deadline) {
        PartialBatch.Result<Counts> result = batch.process(records, deadline, this::index);
        Counts counts = result.report();
        metrics.batchProcessed(new IndexerMetrics.BatchSummary(result.records(), counts.ignored(), result.skipped(),
                counts.rejections(), counts.valuesNotCopied(), counts.refused(), counts.puts(), counts.deletes(),
                counts.failedWrites(), result.failed(), counts.missingImages(), counts.counted().counterUpdates(),
                counts.counted().flipRetries()));
        log.info("batch indexed", Map.of("records", result.records(), "puts", counts.puts(),
                "deletes", counts.deletes(), "failedRecords", result.failed()));
        return result.response();
    }

    /** What one batch did to the index, for the metrics. */
    private record Counts(int ignored, int rejections, int valuesNotCopied, int refused, long puts, long deletes,
                          int failedWrites, int missingImages, IndexWriter.CountedStats counted) {
    }

    private PartialBatch.Outcome<ChangeRecord, Counts> index(List<ChangeRecord> records, Deadline deadline) {
        BatchPlan plan;
        try {
            plan = planner.plan(records);
        } catch (SdkException e) {
            // the grid layout state could not be read (throttled, unavailable): which layouts to write is unknown, so
            // nothing is written and every record is delivered again
            warnings.layoutStateNotRead(records.size(), e);
            return new PartialBatch.Outcome<>(List.copyOf(records), List.of(), new Counts(0, 0, 0, 0, 0, 0, records.size(), 0, IndexWriter.CountedStats.NONE));
        }
        plan.rejections().forEach(warnings::rejected);
        List<IndexChange.Put> withoutValue = plan.changes().stream()
                .filter(change -> change instanceof IndexChange.Put put && !put.item().valueCopied() && !put.item().isMember())
                .map(IndexChange.Put.class::cast).toList();
        withoutValue.forEach(warnings::valueNotCopied);

        BatchPlan.Split split = plan.split();
        IndexWriter.WriteResult written = plan.changes().isEmpty() ? IndexWriter.WriteResult.ALL_WRITTEN
                : split.counted().isEmpty() ? writer.write(split.plain(), deadline) : writer.write(split.plain(), split.counted(), deadline);
        written.refused().forEach(refused -> warnings.writeRefused(refused, plan.itemOfKey().get(refused.key())));

        return new PartialBatch.Outcome<>(failedRecords(plan, written), plan.skipped(), new Counts(plan.ignoredCount(),
                plan.rejections().size(), withoutValue.size(), written.refused().size(), plan.puts(), plan.deletes(),
                written.unwritten().size(), plan.missingImages().size(), written.counted()));
    }

    /**
     * The records Lambda must deliver again: the first record of each item with an unwritten change, then each
     * record without the images an index needs.
     */
    private List<ChangeRecord> failedRecords(BatchPlan plan, IndexWriter.WriteResult written) {
        Set<ItemKey> failedItems = new LinkedHashSet<>();
        for (IndexKey key : written.unwritten()) {
            failedItems.add(plan.itemOfKey().get(key));
        }
        List<ChangeRecord> redeliver = new ArrayList<>(failedItems.stream().map(plan.firstRecord()::get).toList());
        if (!redeliver.isEmpty()) {
            warnings.writesFailed(written.unwritten().size(), failedItems.size(), lowest(redeliver));
        }
        for (BatchPlan.MissingImage missing : plan.missingImages()) {
            warnings.missingImage(missing, tableOf(missing.record()));
            redeliver.add(missing.record());
        }
        return redeliver;
    }

    /** The source table a log line names: {@code APP_TABLE_NAME}, else the table of the record's stream ARN. */
    private String tableOf(ChangeRecord record) {
        if (!appTableName.isEmpty()) {
            return appTableName;
        }
        return record.sourceTable().orElse("(unknown: neither APP_TABLE_NAME nor the record's eventSourceARN names it)");
    }

    private static String lowest(List<ChangeRecord> records) {
        return records.stream().map(record -> record.sequenceNumber().orElse(""))
                .min(Comparator.comparing(String::length).thenComparing(Comparator.naturalOrder()))
                .orElse("");
    }
}

package com.multikey.indexer;

import com.amazonaws.services.lambda.runtime.events.DynamodbEvent.DynamodbStreamRecord;
import com.amazonaws.services.lambda.runtime.events.StreamsEventResponse;
import com.multikey.common.ChangeRecord;
import com.multikey.common.Deadline;
import com.multikey.common.PartialBatch;
import com.multikey.common.StructuredLog;
import com.multikey.index.DynamoDbLimits;
import com.multikey.index.IndexChange;
import com.multikey.index.IndexKey;
import com.multikey.index.Rejection;

import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Keeps the index in step with one batch of app table stream records: plans the net writes, applies them,
 * reports poison records, unindexable fields and writes DynamoDB refuses, and answers with the records Lambda must deliver again.
 */
public final class StreamIndexer {

    private final PartialBatch<ChangeRecord> batch;
    private final BatchPlanner planner;
    private final IndexWriter writer;
    private final IndexerMetrics metrics;
    private final StructuredLog log;

    public StreamIndexer(BatchPlanner planner, IndexWriter writer, IndexerMetrics metrics, StructuredLog log) {
        this.batch = new PartialBatch<>(ChangeRecord::from, ChangeRecord::sequenceNumber, planner.keyAttribute(), log);
        this.planner = planner;
        this.writer = writer;
        this.metrics = metrics;
        this.log = log;
    }

    /**
     * @return the batch item failures: for every issue with an unwritten change, the first of its records
     *         in this batch, so Lambda restarts at or before it and the replay converges
     * @throws com.multikey.common.BatchFailedException when a failed record has no sequence number to report
     */
    public StreamsEventResponse process(List<DynamodbStreamRecord> records, Deadline deadline) {
        PartialBatch.Result<Counts> result = batch.process(records, deadline, this::index);
        Counts counts = result.report();
        metrics.batchProcessed(new IndexerMetrics.BatchSummary(result.records(), counts.ignored(), result.skipped(),
                counts.rejections(), counts.valuesNotCopied(), counts.refused(), counts.puts(), counts.deletes(),
                counts.failedWrites(), result.failed()));
        log.info("batch indexed", Map.of("records", result.records(), "puts", counts.puts(),
                "deletes", counts.deletes(), "failedRecords", result.failed()));
        return result.response();
    }

    /** What one batch did to the index, for the metrics. */
    private record Counts(int ignored, int rejections, int valuesNotCopied, int refused, long puts, long deletes,
                          int failedWrites) {
    }

    private PartialBatch.Outcome<ChangeRecord, Counts> index(List<ChangeRecord> records, Deadline deadline) {
        BatchPlan plan = planner.plan(records);
        for (Rejection rejection : plan.rejections()) {
            Map<String, Object> fields = new LinkedHashMap<>();
            fields.put("itemKey", rejection.issueId());
            String message = switch (rejection) {
                case Rejection.Image image -> "issue not indexed";
                case Rejection.Field field -> {
                    fields.put("attribId", field.attribId());
                    yield "custom field not indexed";
                }
            };
            fields.put("reason", rejection.reason());
            log.warn(message, fields);
        }

        int valuesNotCopied = 0;
        for (IndexChange change : plan.changes()) {
            if (change instanceof IndexChange.Put put && !put.item().valueCopied()) {
                valuesNotCopied++;
                Map<String, Object> fields = new LinkedHashMap<>();
                fields.put("itemKey", put.item().issueId());
                fields.put("attribId", put.item().attribId());
                fields.put("reason", "index item would exceed " + DynamoDbLimits.MAX_ITEM_BYTES + " bytes with the value");
                log.warn("custom field indexed without a copy of its value", fields);
            }
        }

        IndexWriter.WriteResult written = plan.changes().isEmpty()
                ? IndexWriter.WriteResult.ALL_WRITTEN : writer.write(plan.changes(), deadline);
        for (IndexWriter.Refused refused : written.refused()) {
            Map<String, Object> fields = new LinkedHashMap<>();
            fields.put("itemKey", plan.issueOfKey().get(refused.key()));
            fields.put("attribId", refused.key().attribId());
            fields.put("errorCode", refused.errorCode());
            log.warn("index write refused by DynamoDB and skipped", fields);
        }
        Set<String> failedIssues = new LinkedHashSet<>();
        for (IndexKey key : written.unwritten()) {
            failedIssues.add(plan.issueOfKey().get(key));
        }
        List<ChangeRecord> redeliver = failedIssues.stream().map(plan.firstRecord()::get).toList();
        if (!redeliver.isEmpty()) {
            log.warn("index writes failed; records reported for redelivery", Map.of(
                    "failedWrites", written.unwritten().size(), "failedIssues", failedIssues.size(),
                    "lowestSequenceNumber", lowest(redeliver)));
        }
        return new PartialBatch.Outcome<>(redeliver, plan.skipped(), new Counts(plan.ignoredCount(), plan.rejections().size(),
                valuesNotCopied, written.refused().size(), plan.puts(), plan.deletes(), written.unwritten().size()));
    }

    private static String lowest(List<ChangeRecord> records) {
        return records.stream().map(record -> record.sequenceNumber().orElse(""))
                .min(Comparator.comparing(String::length).thenComparing(Comparator.naturalOrder()))
                .orElse("");
    }
}

package com.multikey.reindex;

import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;
import software.amazon.awssdk.services.dynamodb.model.Update;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

import static com.multikey.reindex.JobItems.expiry;
import static com.multikey.reindex.JobItems.key;
import static com.multikey.reindex.JobItems.number;
import static com.multikey.reindex.JobItems.segmentPart;
import static com.multikey.reindex.JobStore.EXPIRES_AT;
import static com.multikey.reindex.JobStore.JOB_ID;
import static com.multikey.reindex.JobStore.PART;

/**
 * The segments' items ({@code part} {@code segment#<n>}) and the conditional writes that give a segment to one invocation
 * at a time: the claim, which moves the segment's {@code step} on, and each checkpoint, conditioned on that step, which
 * saves the segment's position together with the job's totals and the page's kept entries in one transaction.
 */
final class SegmentClaims {

    private final DynamoDbClient dynamoDb;
    private final String table;
    private final JobRecords jobs;

    SegmentClaims(DynamoDbClient dynamoDb, String table, JobRecords jobs) {
        this.dynamoDb = dynamoDb;
        this.table = table;
        this.jobs = jobs;
    }

    /** See {@link JobStore#unfinishedSegments}. */
    List<Integer> unfinishedSegments(JobSpec spec) {
        TreeSet<Integer> done = new TreeSet<>();
        Map<String, AttributeValue> start = null;
        do {
            Map<String, AttributeValue> after = start;
            QueryResponse page = dynamoDb.query(b -> {
                b.tableName(table).consistentRead(true)
                        .keyConditionExpression("#j = :j AND begins_with(#p, :s)")
                        .expressionAttributeNames(Map.of("#j", JOB_ID, "#p", PART, "#phase", "phase", "#seg", "segment"))
                        .expressionAttributeValues(Map.of(":j", AttributeValue.fromS(spec.jobId()), ":s",
                                AttributeValue.fromS(JobItems.SEGMENT_PREFIX)))
                        .projectionExpression("#seg, #phase");
                if (after != null) {
                    b.exclusiveStartKey(after);
                }
            });
            page.items().stream().filter(item -> SegmentPosition.Phase.DONE.name().equals(item.get("phase").s()))
                    .forEach(item -> done.add(Integer.parseInt(item.get("segment").n())));
            start = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
        } while (start != null);
        List<Integer> left = new ArrayList<>();
        for (int segment = 0; segment < spec.totalSegments(); segment++) {
            if (!done.contains(segment)) {
                left.add(segment);
            }
        }
        return left;
    }

    /** See {@link JobStore#claim}. */
    Optional<JobStore.Claim> claim(String jobId, int segment, Instant now) {
        Map<String, AttributeValue> key = key(jobId, segmentPart(segment));
        Map<String, AttributeValue> item = dynamoDb.getItem(b -> b.tableName(table).key(key).consistentRead(true)).item();
        SegmentPosition position = SegmentPosition.START;
        long step = 0;
        if (item != null && !item.isEmpty()) {
            position = JobItems.position(item);
            step = Long.parseLong(item.get("step").n());
        }
        if (position.done()) {
            return Optional.empty();
        }
        long read = step;
        // names this claim: when the update succeeded but its answer was lost, the SDK's retry fails its condition,
        // and the token read back tells that the segment is ours after all
        AttributeValue token = AttributeValue.fromS(java.util.UUID.randomUUID().toString());
        Map<String, AttributeValue> claimed;
        try {
            // the position is taken from the claim's own answer: the holder of the previous step may have saved a
            // checkpoint (which leaves the step as it is) between the read above and this update
            claimed = dynamoDb.updateItem(b -> b.tableName(table).key(key)
                    .updateExpression("SET #step = :next, #seg = :seg, #phase = if_not_exists(#phase, :app), #exp = :exp, "
                            + "#by = :token ADD #items :zero")
                    .conditionExpression(read == 0 ? "attribute_not_exists(#step) OR #step = :read" : "#step = :read")
                    .expressionAttributeNames(Map.of("#step", "step", "#seg", "segment", "#phase", "phase", "#exp", EXPIRES_AT,
                            "#items", "itemsDone", "#by", "claimedBy"))
                    .expressionAttributeValues(Map.of(":next", number(read + 1), ":read", number(read), ":seg", number(segment),
                            ":app", AttributeValue.fromS(SegmentPosition.Phase.APP.name()), ":exp", expiry(now), ":zero", number(0),
                            ":token", token))
                    .returnValues(ReturnValue.ALL_NEW)).attributes();
        } catch (ConditionalCheckFailedException claimedMeanwhile) {
            Map<String, AttributeValue> current = dynamoDb.getItem(b -> b.tableName(table).key(key).consistentRead(true)).item();
            if (current == null || !token.equals(current.get("claimedBy")) || !number(read + 1).equals(current.get("step"))) {
                return Optional.empty();
            }
            claimed = current;
        }
        SegmentPosition saved = JobItems.position(claimed);
        if (saved.done()) {
            return Optional.empty();
        }
        return Optional.of(new JobStore.Claim(segment, read + 1, saved, JobItems.longOf(claimed, "kept")));
    }

    /** See {@link JobStore#checkpoint(String, JobStore.Claim, SegmentPosition, PageCounts, List, Instant)}. */
    boolean checkpoint(String jobId, JobStore.Claim claim, SegmentPosition next, PageCounts counts,
                       List<SegmentVerifier.Discrepancy> kept, Instant now) {
        List<TransactWriteItem> writes = new ArrayList<>(List.of(
                TransactWriteItem.builder().update(save(jobId, claim, next, counts.items(), kept.size(), now)).build(),
                TransactWriteItem.builder().update(jobs.addPage(jobId, counts, next.done(), now)).build()));
        if (!kept.isEmpty()) {
            Map<String, AttributeValue> found = KeptDiscrepancies.item(jobId, claim.segment(), kept, now);
            writes.add(TransactWriteItem.builder().put(b -> b.tableName(table).item(found)).build());
        }
        try {
            dynamoDb.transactWriteItems(b -> b.transactItems(writes));
            return true;
        } catch (TransactionCanceledException e) {
            if (e.hasCancellationReasons() && e.cancellationReasons().stream().anyMatch(r -> "ConditionalCheckFailed".equals(r.code()))) {
                return false;
            }
            throw e;
        }
    }

    /** The update that saves where the segment got to, conditioned on the claim. */
    private Update save(String jobId, JobStore.Claim claim, SegmentPosition next, long items, int kept, Instant now) {
        Map<String, String> names = new HashMap<>(Map.of("#step", "step", "#phase", "phase", "#start", "startKey",
                "#items", "itemsDone", "#exp", EXPIRES_AT, "#at", "updatedAt"));
        Map<String, AttributeValue> values = new HashMap<>(Map.of(":claim", number(claim.step()),
                ":phase", AttributeValue.fromS(next.phase().name()), ":items", number(items), ":exp", expiry(now),
                ":at", number(now.toEpochMilli())));
        String set = "SET #phase = :phase, #exp = :exp, #at = :at";
        String add = " ADD #items :items";
        if (kept > 0) {
            names.put("#kept", "kept");
            values.put(":kept", number(kept));
            add += ", #kept :kept";
        }
        if (next.startKey().isEmpty()) {
            set += " REMOVE #start";
        } else {
            set += ", #start = :start";
            values.put(":start", AttributeValue.fromM(next.startKey()));
        }
        return Update.builder().tableName(table).key(key(jobId, segmentPart(claim.segment())))
                .updateExpression(set + add).conditionExpression("#step = :claim")
                .expressionAttributeNames(names).expressionAttributeValues(values).build();
    }
}

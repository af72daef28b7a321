package com.multikey.reindex;

import com.multikey.index.IndexKey;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;
import software.amazon.awssdk.services.dynamodb.model.Update;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * Reindex jobs and their segments' checkpoints in the jobs table (partition key {@code jobId}, sort key
 * {@code part}: {@code job}, {@code segment#<n>}, or {@code found#<n>#<id>} for the wrong index entries a verify's page
 * found; every item expires {@link #RETENTION} after its last write through the table's TTL on {@code expiresAt}).
 *
 * <p>A segment is worked by one invocation at a time: an invocation first <em>claims</em> the segment (its
 * {@code step} goes up by one, conditioned on the value it read), and every checkpoint is conditioned on that
 * step. A duplicate delivery, a retry of a crashed invocation, or a resumed job claims afresh; whichever
 * claimed before it finds its next checkpoint refused and stops. Each checkpoint adds the page's counts to the
 * job's totals in the same transaction, so totals count every page once; it also keeps, in the same transaction, the
 * keys of the wrong index entries the page found, at most {@link #MAX_KEPT_PER_SEGMENT} a segment, so a job's kept
 * entries are all it found exactly when they are as many as its drift.
 */
public final class JobStore {

    public static final String JOB_ID = "jobId";
    public static final String PART = "part";
    public static final String EXPIRES_AT = "expiresAt";
    public static final Duration RETENTION = Duration.ofDays(30);
    static final String JOB_PART = "job";
    private static final String SEGMENT_PREFIX = "segment#";
    private static final String FOUND_PREFIX = "found#";
    /** The wrong index entries a segment keeps at most; the rest are only counted. */
    public static final int MAX_KEPT_PER_SEGMENT = 1_000;
    /** What one page's kept entries may take of an item (400 KB at most), counted as the UTF-8 bytes of their keys. */
    static final int MAX_KEPT_BYTES_PER_PAGE = 300_000;
    private static final List<String> TOTALS = List.of("itemsDone", "issues", "writes", "missing", "stale", "orphaned", "repaired");

    /**
     * A segment claimed for one invocation: the step every checkpoint is conditioned on, where to resume, and how many
     * wrong entries the segment has kept so far.
     */
    public record Claim(int segment, long step, SegmentPosition position, long kept) {
    }

    private final DynamoDbClient dynamoDb;
    private final String table;

    public JobStore(DynamoDbClient dynamoDb, String table) {
        this.dynamoDb = dynamoDb;
        this.table = table;
    }

    /**
     * Writes the job, unless it exists. A segment's item is written by its first {@link #claim} (and
     * {@link #unfinishedSegments} treats a segment without an item as not started): were the segments written
     * here, a duplicate start delivered meanwhile could have a segment claimed and saved before this write
     * reset it, so the segment would be worked, and taken off the job, twice.
     *
     * @return false when a job with that id already exists (its spec is then {@link #job}'s)
     */
    public boolean create(JobSpec spec, Instant now) {
        Map<String, AttributeValue> job = new LinkedHashMap<>(key(spec.jobId(), JOB_PART));
        job.put("kind", AttributeValue.fromS(spec.kind().label()));
        job.put("totalSegments", number(spec.totalSegments()));
        job.put("writeUnitsPerSecond", AttributeValue.fromN(Double.toString(spec.writeUnitsPerSecond())));
        job.put("concurrency", number(spec.concurrency()));
        job.put("pageSize", number(spec.pageSize()));
        spec.index().ifPresent(index -> job.put("index", AttributeValue.fromS(index)));
        job.put("status", AttributeValue.fromS("RUNNING"));
        job.put("segmentsLeft", number(spec.totalSegments()));
        TOTALS.forEach(name -> job.put(name, number(0)));
        job.put("startedAt", number(now.toEpochMilli()));
        job.put(EXPIRES_AT, expiry(now));
        try {
            dynamoDb.putItem(b -> b.tableName(table).item(job).conditionExpression("attribute_not_exists(#p)")
                    .expressionAttributeNames(Map.of("#p", PART)));
        } catch (ConditionalCheckFailedException exists) {
            return false;
        }
        return true;
    }

    public Optional<JobStatus> job(String jobId) {
        Map<String, AttributeValue> item = dynamoDb.getItem(b -> b.tableName(table).key(key(jobId, JOB_PART)).consistentRead(true)).item();
        return item == null || item.isEmpty() ? Optional.empty() : Optional.of(status(item));
    }

    /** The segments of a job not yet done, in order (memory: one number per segment). */
    public List<Integer> unfinishedSegments(JobSpec spec) {
        TreeSet<Integer> done = new TreeSet<>();
        Map<String, AttributeValue> start = null;
        do {
            Map<String, AttributeValue> after = start;
            QueryResponse page = dynamoDb.query(b -> {
                b.tableName(table).consistentRead(true)
                        .keyConditionExpression("#j = :j AND begins_with(#p, :s)")
                        .expressionAttributeNames(Map.of("#j", JOB_ID, "#p", PART, "#phase", "phase", "#seg", "segment"))
                        .expressionAttributeValues(Map.of(":j", AttributeValue.fromS(spec.jobId()), ":s", AttributeValue.fromS(SEGMENT_PREFIX)))
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

    /** Claims a segment for this invocation; empty when it is done or another invocation claimed it meanwhile. */
    public Optional<Claim> claim(String jobId, int segment, Instant now) {
        Map<String, AttributeValue> key = key(jobId, segmentPart(segment));
        Map<String, AttributeValue> item = dynamoDb.getItem(b -> b.tableName(table).key(key).consistentRead(true)).item();
        SegmentPosition position = SegmentPosition.START;
        long step = 0;
        if (item != null && !item.isEmpty()) {
            position = positionOf(item);
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
        SegmentPosition saved = positionOf(claimed);
        if (saved.done()) {
            return Optional.empty();
        }
        return Optional.of(new Claim(segment, read + 1, saved, longOf(claimed, "kept")));
    }

    /**
     * Saves where the segment got to and adds the page's counts to the job's totals (and, when the segment is
     * now done, takes it off {@code segmentsLeft}), in one transaction conditioned on the claim.
     *
     * @return false when another invocation claimed the segment since: this one must stop
     */
    public boolean checkpoint(String jobId, Claim claim, SegmentPosition next, PageCounts counts, Instant now) {
        return checkpoint(jobId, claim, next, counts, List.of(), now);
    }

    /**
     * As {@link #checkpoint(String, Claim, SegmentPosition, PageCounts, Instant)}, keeping in the same transaction
     * {@code kept}: what {@link #toKeep} chose of the wrong entries the page found.
     */
    public boolean checkpoint(String jobId, Claim claim, SegmentPosition next, PageCounts counts, List<SegmentVerifier.Discrepancy> kept,
                              Instant now) {
        Map<String, String> segmentNames = new HashMap<>(Map.of("#step", "step", "#phase", "phase", "#start", "startKey",
                "#items", "itemsDone", "#exp", EXPIRES_AT, "#at", "updatedAt"));
        Map<String, AttributeValue> segmentValues = new HashMap<>(Map.of(":claim", number(claim.step()),
                ":phase", AttributeValue.fromS(next.phase().name()), ":items", number(counts.items()), ":exp", expiry(now),
                ":at", number(now.toEpochMilli())));
        String set = "SET #phase = :phase, #exp = :exp, #at = :at";
        String add = " ADD #items :items";
        if (!kept.isEmpty()) {
            segmentNames.put("#kept", "kept");
            segmentValues.put(":kept", number(kept.size()));
            add += ", #kept :kept";
        }
        if (next.startKey().isEmpty()) {
            set += " REMOVE #start";
        } else {
            set += ", #start = :start";
            segmentValues.put(":start", AttributeValue.fromM(next.startKey()));
        }
        Update segment = Update.builder().tableName(table).key(key(jobId, segmentPart(claim.segment())))
                .updateExpression(set + add).conditionExpression("#step = :claim")
                .expressionAttributeNames(segmentNames).expressionAttributeValues(segmentValues).build();

        Map<String, String> jobNames = new HashMap<>(Map.of("#exp", EXPIRES_AT));
        Map<String, AttributeValue> jobValues = new HashMap<>(Map.of(":exp", expiry(now)));
        List<String> adds = new ArrayList<>();
        long[] values = {counts.items(), counts.sourceItems(), counts.writes(), counts.missing(), counts.stale(), counts.orphaned(),
                counts.repaired()};
        for (int i = 0; i < TOTALS.size(); i++) {
            jobNames.put("#t" + i, TOTALS.get(i));
            jobValues.put(":t" + i, number(values[i]));
            adds.add("#t" + i + " :t" + i);
        }
        if (next.done()) {
            jobNames.put("#left", "segmentsLeft");
            jobValues.put(":minusOne", number(-1));
            adds.add("#left :minusOne");
        }
        Update job = Update.builder().tableName(table).key(key(jobId, JOB_PART))
                .updateExpression("SET #exp = :exp ADD " + String.join(", ", adds))
                .expressionAttributeNames(jobNames).expressionAttributeValues(jobValues).build();
        List<TransactWriteItem> writes = new ArrayList<>(List.of(TransactWriteItem.builder().update(segment).build(),
                TransactWriteItem.builder().update(job).build()));
        if (!kept.isEmpty()) {
            // a key of its own: the transaction is written once or not at all, and a claim's pages never share one
            Map<String, AttributeValue> found = new LinkedHashMap<>(key(jobId, FOUND_PREFIX + String.format("%07d", claim.segment()) + "#"
                    + java.util.UUID.randomUUID()));
            found.put("found", AttributeValue.fromL(kept.stream().map(JobStore::foundItem).toList()));
            found.put(EXPIRES_AT, expiry(now));
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

    /**
     * Marks the job done when no segment is left, once: the one caller that makes the change gets the job's
     * final state (to publish its totals); everyone else gets empty.
     */
    public Optional<JobStatus> completeIfLast(String jobId, Instant now) {
        try {
            Map<String, AttributeValue> item = dynamoDb.updateItem(b -> b.tableName(table).key(key(jobId, JOB_PART))
                    .updateExpression("SET #status = :done, #finished = :now")
                    .conditionExpression("#left = :zero AND #status = :running")
                    .expressionAttributeNames(Map.of("#status", "status", "#finished", "finishedAt", "#left", "segmentsLeft"))
                    .expressionAttributeValues(Map.of(":done", AttributeValue.fromS("DONE"), ":running", AttributeValue.fromS("RUNNING"),
                            ":now", number(now.toEpochMilli()), ":zero", number(0)))
                    .returnValues(ReturnValue.ALL_NEW)).attributes();
            return Optional.of(status(item));
        } catch (ConditionalCheckFailedException notLast) {
            return Optional.empty();
        }
    }

    /**
     * Which of a page's wrong entries to keep: the first ones, while the segment keeps at most
     * {@link #MAX_KEPT_PER_SEGMENT} and the page's fit in one item.
     */
    public static List<SegmentVerifier.Discrepancy> toKeep(List<SegmentVerifier.Discrepancy> found, long keptBefore) {
        List<SegmentVerifier.Discrepancy> keep = new ArrayList<>();
        long bytes = 0;
        for (SegmentVerifier.Discrepancy discrepancy : found) {
            bytes += bytes(discrepancy);
            if (keptBefore + keep.size() >= MAX_KEPT_PER_SEGMENT || bytes > MAX_KEPT_BYTES_PER_PAGE) {
                break;
            }
            keep.add(discrepancy);
        }
        return keep;
    }

    /**
     * The wrong index entries a job's segments kept, at most {@code limit} of them (read in pages, so memory is bounded by
     * the limit).
     */
    public List<SegmentVerifier.Discrepancy> found(String jobId, int limit) {
        List<SegmentVerifier.Discrepancy> found = new ArrayList<>();
        Map<String, AttributeValue> start = null;
        do {
            Map<String, AttributeValue> after = start;
            QueryResponse page = dynamoDb.query(b -> {
                b.tableName(table).consistentRead(true).keyConditionExpression("#j = :j AND begins_with(#p, :f)")
                        .expressionAttributeNames(Map.of("#j", JOB_ID, "#p", PART))
                        .expressionAttributeValues(Map.of(":j", AttributeValue.fromS(jobId), ":f", AttributeValue.fromS(FOUND_PREFIX)));
                if (after != null) {
                    b.exclusiveStartKey(after);
                }
            });
            for (Map<String, AttributeValue> item : page.items()) {
                for (AttributeValue entry : item.get("found").l()) {
                    if (found.size() == limit) {
                        return found;
                    }
                    found.add(discrepancy(entry.m()));
                }
            }
            start = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
        } while (start != null);
        return found;
    }

    private static AttributeValue foundItem(SegmentVerifier.Discrepancy discrepancy) {
        Map<String, AttributeValue> entry = new LinkedHashMap<>();
        entry.put("kind", AttributeValue.fromS(discrepancy.kind().name()));
        if (!discrepancy.itemKey().isEmpty()) {
            entry.put("issueId", AttributeValue.fromS(discrepancy.itemKey()));
        }
        entry.put(IndexKey.ATTRIB_ID, AttributeValue.fromS(discrepancy.key().attribId()));
        entry.put(IndexKey.SORT_KEY, AttributeValue.fromS(discrepancy.key().sortKey()));
        return AttributeValue.fromM(entry);
    }

    private static SegmentVerifier.Discrepancy discrepancy(Map<String, AttributeValue> entry) {
        return new SegmentVerifier.Discrepancy(SegmentVerifier.Kind.valueOf(entry.get("kind").s()),
                entry.containsKey("issueId") ? entry.get("issueId").s() : "", IndexKey.of(entry));
    }

    /** An entry's size in an item: its strings' UTF-8 bytes, and its attribute names. */
    private static long bytes(SegmentVerifier.Discrepancy discrepancy) {
        return 40 + utf8(discrepancy.itemKey()) + utf8(discrepancy.key().attribId()) + utf8(discrepancy.key().sortKey());
    }

    private static long utf8(String text) {
        return text.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
    }

    private static SegmentPosition positionOf(Map<String, AttributeValue> segment) {
        return new SegmentPosition(SegmentPosition.Phase.valueOf(segment.get("phase").s()),
                segment.containsKey("startKey") ? segment.get("startKey").m() : Map.of());
    }

    private static JobStatus status(Map<String, AttributeValue> item) {
        JobSpec spec = new JobSpec(item.get(JOB_ID).s(), JobSpec.Kind.of(item.get("kind").s()), intOf(item, "totalSegments"),
                Double.parseDouble(item.get("writeUnitsPerSecond").n()), intOf(item, "concurrency"), intOf(item, "pageSize"),
                Optional.ofNullable(item.get("index")).map(AttributeValue::s));
        PageCounts totals = new PageCounts(longOf(item, "itemsDone"), longOf(item, "issues"), longOf(item, "writes"),
                longOf(item, "missing"), longOf(item, "stale"), longOf(item, "orphaned"), longOf(item, "repaired"));
        return new JobStatus(spec, "DONE".equals(item.get("status").s()), longOf(item, "segmentsLeft"), totals,
                Instant.ofEpochMilli(longOf(item, "startedAt")),
                item.containsKey("finishedAt") ? Optional.of(Instant.ofEpochMilli(longOf(item, "finishedAt"))) : Optional.empty());
    }

    private static int intOf(Map<String, AttributeValue> item, String name) {
        return (int) longOf(item, name);
    }

    private static long longOf(Map<String, AttributeValue> item, String name) {
        AttributeValue value = item.get(name);
        return value == null ? 0 : Long.parseLong(value.n());
    }

    private static Map<String, AttributeValue> key(String jobId, String part) {
        return Map.of(JOB_ID, AttributeValue.fromS(jobId), PART, AttributeValue.fromS(part));
    }

    private static String segmentPart(int segment) {
        return SEGMENT_PREFIX + String.format("%07d", segment);
    }

    private static AttributeValue number(long value) {
        return AttributeValue.fromN(Long.toString(value));
    }

    private static AttributeValue expiry(Instant now) {
        return number(now.plus(RETENTION).getEpochSecond());
    }

}

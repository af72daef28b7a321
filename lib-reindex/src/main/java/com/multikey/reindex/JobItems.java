package com.multikey.reindex;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static com.multikey.reindex.JobStore.EXPIRES_AT;
import static com.multikey.reindex.JobStore.JOB_ID;
import static com.multikey.reindex.JobStore.PART;
import static com.multikey.reindex.JobStore.RETENTION;

/**
 * The jobs table's items as attribute values: their keys ({@code jobId}, and the {@code part} {@code job},
 * {@code segment#<n>} or {@code found#<n>#<id>}), a job's item to and from {@link JobSpec} and {@link JobStatus}, a
 * segment's position, numbers and the expiry every write sets.
 */
final class JobItems {

    static final String JOB_PART = "job";
    static final String SEGMENT_PREFIX = "segment#";
    static final String FOUND_PREFIX = "found#";
    /** The job's totals, in the order of {@link #totals(PageCounts)}. */
    static final List<String> TOTALS = List.of("itemsDone", "issues", "writes", "missing", "stale", "orphaned", "repaired");

    private JobItems() {
    }

    static Map<String, AttributeValue> key(String jobId, String part) {
        return Map.of(JOB_ID, AttributeValue.fromS(jobId), PART, AttributeValue.fromS(part));
    }

    static String segmentPart(int segment) {
        return SEGMENT_PREFIX + String.format("%07d", segment);
    }

    /** The part of an item keeping one page's entries of a segment: one of its own, random after the segment. */
    static String foundPart(int segment) {
        return FOUND_PREFIX + String.format("%07d", segment) + "#" + java.util.UUID.randomUUID();
    }

    /** A new job's item: running, every segment left, every total zero. */
    static Map<String, AttributeValue> newJob(JobSpec spec, Instant now) {
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
        return job;
    }

    static JobStatus status(Map<String, AttributeValue> item) {
        JobSpec spec = new JobSpec(item.get(JOB_ID).s(), JobSpec.Kind.of(item.get("kind").s()), intOf(item, "totalSegments"),
                Double.parseDouble(item.get("writeUnitsPerSecond").n()), intOf(item, "concurrency"), intOf(item, "pageSize"),
                Optional.ofNullable(item.get("index")).map(AttributeValue::s));
        PageCounts totals = new PageCounts(longOf(item, "itemsDone"), longOf(item, "issues"), longOf(item, "writes"),
                longOf(item, "missing"), longOf(item, "stale"), longOf(item, "orphaned"), longOf(item, "repaired"));
        return new JobStatus(spec, "DONE".equals(item.get("status").s()), longOf(item, "segmentsLeft"), totals,
                Instant.ofEpochMilli(longOf(item, "startedAt")),
                item.containsKey("finishedAt") ? Optional.of(Instant.ofEpochMilli(longOf(item, "finishedAt"))) : Optional.empty());
    }

    /** A page's counts in the order of {@link #TOTALS}. */
    static long[] totals(PageCounts counts) {
        return new long[] {counts.items(), counts.sourceItems(), counts.writes(), counts.missing(), counts.stale(), counts.orphaned(),
                counts.repaired()};
    }

    static SegmentPosition position(Map<String, AttributeValue> segment) {
        return new SegmentPosition(SegmentPosition.Phase.valueOf(segment.get("phase").s()),
                segment.containsKey("startKey") ? segment.get("startKey").m() : Map.of());
    }

    /** A number attribute of the item, 0 when it has none. */
    static long longOf(Map<String, AttributeValue> item, String name) {
        AttributeValue value = item.get(name);
        return value == null ? 0 : Long.parseLong(value.n());
    }

    private static int intOf(Map<String, AttributeValue> item, String name) {
        return (int) longOf(item, name);
    }

    static AttributeValue number(long value) {
        return AttributeValue.fromN(Long.toString(value));
    }

    /** When an item written now expires: {@link JobStore#RETENTION} from now, in epoch seconds. */
    static AttributeValue expiry(Instant now) {
        return number(now.plus(RETENTION).getEpochSecond());
    }
}

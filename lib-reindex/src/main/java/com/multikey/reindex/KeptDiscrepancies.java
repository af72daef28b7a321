package com.multikey.reindex;

import com.multikey.index.IndexKey;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static com.multikey.reindex.JobStore.EXPIRES_AT;
import static com.multikey.reindex.JobStore.JOB_ID;
import static com.multikey.reindex.JobStore.MAX_KEPT_PER_SEGMENT;
import static com.multikey.reindex.JobStore.PART;

/**
 * The keys of the wrong index entries a verify's pages found, kept in the jobs table beside the job: which of a page's
 * entries to keep, the item that keeps them ({@code found#<segment>#<id>}, written in the page's checkpoint), and
 * reading a job's back.
 */
final class KeptDiscrepancies {

    /** What one page's kept entries may take of an item (400 KB at most), counted as the UTF-8 bytes of their keys. */
    static final int MAX_KEPT_BYTES_PER_PAGE = 300_000;

    private final DynamoDbClient dynamoDb;
    private final String table;

    KeptDiscrepancies(DynamoDbClient dynamoDb, String table) {
        this.dynamoDb = dynamoDb;
        this.table = table;
    }

    /** See {@link JobStore#toKeep}. */
    static List<SegmentVerifier.Discrepancy> toKeep(List<SegmentVerifier.Discrepancy> found, long keptBefore) {
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

    /** The item that keeps one page's chosen entries of a segment. */
    static Map<String, AttributeValue> item(String jobId, int segment, List<SegmentVerifier.Discrepancy> kept, Instant now) {
        // a key of its own: the transaction is written once or not at all, and a claim's pages never share one
        Map<String, AttributeValue> found = new LinkedHashMap<>(JobItems.key(jobId, JobItems.foundPart(segment)));
        found.put("found", AttributeValue.fromL(kept.stream().map(KeptDiscrepancies::entry).toList()));
        found.put(EXPIRES_AT, JobItems.expiry(now));
        return found;
    }

    /** See {@link JobStore#found}. */
    List<SegmentVerifier.Discrepancy> found(String jobId, int limit) {
        List<SegmentVerifier.Discrepancy> found = new ArrayList<>();
        Map<String, AttributeValue> start = null;
        do {
            Map<String, AttributeValue> after = start;
            QueryResponse page = dynamoDb.query(b -> {
                b.tableName(table).consistentRead(true).keyConditionExpression("#j = :j AND begins_with(#p, :f)")
                        .expressionAttributeNames(Map.of("#j", JOB_ID, "#p", PART))
                        .expressionAttributeValues(Map.of(":j", AttributeValue.fromS(jobId), ":f",
                                AttributeValue.fromS(JobItems.FOUND_PREFIX)));
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

    private static AttributeValue entry(SegmentVerifier.Discrepancy discrepancy) {
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
        return text.getBytes(StandardCharsets.UTF_8).length;
    }
}

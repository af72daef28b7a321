package com.multikey.reindex;

import com.multikey.index.IndexChange;
import com.multikey.index.ItemKey;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;

import java.util.List;
import java.util.Map;

/**
 * A backfill, one page of one segment at a time: a page of the app table's parallel Scan, each item through
 * the stream indexer's projection, its items written by {@link ConditionalIndexWriter} (so it is safe beside
 * the stream indexer), index writes held to a {@link RateLimiter}.
 */
public final class SegmentBackfill implements SegmentWork {

    private static final int MAX_ATTEMPTS_PER_ITEM = 5;

    private final DynamoDbClient dynamoDb;
    private final String appTable;
    private final IndexScope scope;
    private final ConditionalIndexWriter writer;
    private final RateLimiter rate;
    private final int pageSize;

    /**
     * @param writeUnitsPerSecond index write capacity this backfill may use; a transactional write of an index
     *                            item (up to 1 KB) takes {@value WriteCost#UNITS_PER_TRANSACTIONAL_WRITE} units
     * @param pageSize            items per Scan page (Scan's {@code Limit})
     */
    public SegmentBackfill(DynamoDbClient dynamoDb, String appTable, String indexTable, IndexScope scope,
                           double writeUnitsPerSecond, int pageSize) {
        this(dynamoDb, appTable, scope, new ConditionalIndexWriter(dynamoDb, appTable, indexTable, scope),
                new RateLimiter(writeUnitsPerSecond, System::nanoTime), pageSize);
    }

    SegmentBackfill(DynamoDbClient dynamoDb, String appTable, IndexScope scope, ConditionalIndexWriter writer,
                    RateLimiter rate, int pageSize) {
        if (pageSize < 1) {
            throw new IllegalArgumentException("page size must be at least 1, got " + pageSize);
        }
        this.dynamoDb = dynamoDb;
        this.appTable = appTable;
        this.scope = scope;
        this.writer = writer;
        this.rate = rate;
        this.pageSize = pageSize;
    }

    @Override
    public PageOutcome page(int segment, int totalSegments, SegmentPosition at) throws InterruptedException {
        ScanRequest.Builder scan = ScanRequest.builder().tableName(appTable).segment(segment).totalSegments(totalSegments)
                .limit(pageSize).consistentRead(true);
        if (!at.startKey().isEmpty()) {
            scan.exclusiveStartKey(at.startKey());
        }
        ScanResponse page = dynamoDb.scan(scan.build());
        long writes = 0;
        long coveredCount = 0;
        for (Map<String, AttributeValue> item : page.items()) {
            var key = scope.keyOf(item);
            if (key.isPresent() && scope.covers(item)) {
                coveredCount++;
                writes += indexItem(key.get(), item);
            }
        }
        SegmentPosition next = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty()
                ? new SegmentPosition(SegmentPosition.Phase.APP, page.lastEvaluatedKey()) : SegmentPosition.DONE;
        return new PageOutcome(new PageCounts(page.items().size(), coveredCount, writes, 0, 0, 0, 0), next);
    }

    /** Index writes made for the item (none when it kept changing: the stream indexer handles it, verify checks it). */
    private long indexItem(ItemKey key, Map<String, AttributeValue> item) throws InterruptedException {
        Map<String, AttributeValue> version = item;
        for (int attempt = 1; version != null && attempt <= MAX_ATTEMPTS_PER_ITEM; attempt++) {
            List<IndexChange> puts = scope.project(key, version).items().stream().<IndexChange>map(IndexChange.Put::new).toList();
            rate.acquire(WriteCost.units(puts.size()));
            if (writer.write(key, version, puts) == ConditionalIndexWriter.Outcome.WRITTEN) {
                return puts.size();
            }
            version = writer.currentVersion(key);
        }
        return 0;
    }
}

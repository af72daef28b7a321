package com.multikey.reindex;

import com.multikey.index.IndexItem;
import com.multikey.index.IndexKey;
import com.multikey.index.definition.IndexDefinition;
import com.multikey.index.definition.IndexDefinitions;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.Delete;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Deletes the items of an index that is no longer declared, one page of one segment of the index table at a time
 * (resumable like every segment work; idempotent: a second run finds nothing left). Each delete is conditioned on
 * the item still being that index's, so nothing another index owns is ever touched.
 *
 * <p>A grouped index's items name it in {@code index}; the items of the field-partitioned layout (the original
 * grid) carry {@value IndexItem#ITEM_ID} and no {@code index}, and are removed with the target
 * {@value #FIELD_PARTITIONED}.
 */
public final class IndexRemoval implements SegmentWork {

    /** The name that targets the field-partitioned layout's items (no index name can contain parentheses). */
    public static final String FIELD_PARTITIONED = "(field-partitioned)";

    private final DynamoDbClient dynamoDb;
    private final String indexTable;
    private final String index;
    private final RateLimiter rate;
    private final int pageSize;

    /**
     * @throws IllegalArgumentException when the index is still declared (remove it from the definitions and deploy first)
     */
    public IndexRemoval(DynamoDbClient dynamoDb, String indexTable, IndexDefinitions definitions, String index,
                        double writeUnitsPerSecond, int pageSize) {
        check(definitions, index);
        this.dynamoDb = dynamoDb;
        this.indexTable = indexTable;
        this.index = index;
        this.rate = new RateLimiter(writeUnitsPerSecond, System::nanoTime);
        this.pageSize = pageSize;
    }

    /**
     * @throws IllegalArgumentException when the target is still declared (the field-partitioned layout: still kept in the
     *                                  definitions' grid state)
     */
    public static void check(IndexDefinitions definitions, String index) {
        if (FIELD_PARTITIONED.equals(index)) {
            definitions.indexes().stream().filter(i -> i.layout() == IndexDefinition.Layout.FIELD_PARTITIONED).findFirst()
                    .ifPresent(i -> {
                        throw new IllegalArgumentException("index '" + i.name() + "' still uses the field-partitioned layout; "
                                + "remove it from the definitions and deploy before removing its items");
                    });
        } else if (definitions.index(index).isPresent()) {
            throw new IllegalArgumentException("index '" + index + "' is still declared; remove it from the definitions "
                    + "and deploy before removing its items");
        }
    }

    /**
     * Works every segment of the index table's scan to its end in this process, {@code segments} at once (an
     * operator's run, or a test's); the number of items deleted. A run stopped part way is resumed by running again.
     */
    public long run(int segments) throws InterruptedException {
        if (segments < 1) {
            throw new IllegalArgumentException("segments must be at least 1, got " + segments);
        }
        ExecutorService pool = Executors.newFixedThreadPool(segments);
        try {
            List<Future<Long>> running = new ArrayList<>();
            for (int segment = 0; segment < segments; segment++) {
                int s = segment;
                running.add(pool.submit(() -> {
                    long deleted = 0;
                    for (SegmentPosition at = SegmentPosition.START; !at.done(); ) {
                        PageOutcome page = page(s, segments, at);
                        deleted += page.counts().writes();
                        at = page.next();
                    }
                    return deleted;
                }));
            }
            long deleted = 0;
            for (Future<Long> segment : running) {
                deleted += segment.get();
            }
            return deleted;
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        } finally {
            pool.shutdownNow();
        }
    }

    @Override
    public PageOutcome page(int segment, int totalSegments, SegmentPosition at) throws InterruptedException {
        ScanRequest.Builder scan = ScanRequest.builder().tableName(indexTable).segment(segment).totalSegments(totalSegments)
                .limit(pageSize);
        if (!at.startKey().isEmpty()) {
            scan.exclusiveStartKey(at.startKey());
        }
        ScanResponse page = dynamoDb.scan(scan.build());
        long deleted = 0;
        for (Map<String, AttributeValue> item : page.items()) {
            if (isTarget(item)) {
                rate.acquire(WriteCost.units(1));
                deleted += delete(item) ? 1 : 0;
            }
        }
        SegmentPosition next = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty()
                ? new SegmentPosition(SegmentPosition.Phase.INDEX, page.lastEvaluatedKey()) : SegmentPosition.DONE;
        return new PageOutcome(new PageCounts(page.items().size(), 0, deleted, 0, 0, 0, 0), next);
    }

    private boolean isTarget(Map<String, AttributeValue> item) {
        AttributeValue name = item.get(IndexItem.INDEX);
        if (FIELD_PARTITIONED.equals(index)) {
            return name == null && item.containsKey(IndexItem.ITEM_ID);
        }
        return name != null && index.equals(name.s());
    }

    /**
     * Deletes the item unless it is no longer the removed index's; whether it deleted it. A transaction of one delete:
     * the calls and permissions the worker already has.
     */
    private boolean delete(Map<String, AttributeValue> item) {
        Delete.Builder delete = Delete.builder().tableName(indexTable).key(IndexKey.of(item).toKey());
        if (FIELD_PARTITIONED.equals(index)) {
            delete.conditionExpression("attribute_not_exists(#x) AND attribute_exists(#i)")
                    .expressionAttributeNames(Map.of("#x", IndexItem.INDEX, "#i", IndexItem.ITEM_ID));
        } else {
            delete.conditionExpression("#x = :name").expressionAttributeNames(Map.of("#x", IndexItem.INDEX))
                    .expressionAttributeValues(Map.of(":name", AttributeValue.fromS(index)));
        }
        try {
            dynamoDb.transactWriteItems(b -> b.transactItems(TransactWriteItem.builder().delete(delete.build()).build()));
            return true;
        } catch (TransactionCanceledException e) {
            if (e.hasCancellationReasons() && e.cancellationReasons().stream().anyMatch(r -> "ConditionalCheckFailed".equals(r.code()))) {
                return false;
            }
            throw e;
        }
    }
}

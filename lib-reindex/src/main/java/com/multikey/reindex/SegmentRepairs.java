package com.multikey.reindex;

import com.multikey.index.IndexChange;
import com.multikey.index.IndexItem;
import com.multikey.index.IndexKey;
import com.multikey.index.ItemKey;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.Delete;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The repairs {@link SegmentVerifier} makes of what it finds wrong: each from a consistent read of the source item,
 * conditioned on that version through {@link ConditionalIndexWriter} (safe beside the stream indexer), re-read and tried
 * again when the item changed meanwhile; each write within the verifier's write rate. Each method answers the index
 * writes it made.
 */
final class SegmentRepairs {

    private static final int MAX_ATTEMPTS_PER_ITEM = 5;

    private final DynamoDbClient dynamoDb;
    private final String indexTable;
    private final IndexScope scope;
    private final ConditionalIndexWriter writer;
    private final RateLimiter rate;

    SegmentRepairs(DynamoDbClient dynamoDb, String appTable, String indexTable, IndexScope scope, RateLimiter rate) {
        this.dynamoDb = dynamoDb;
        this.indexTable = indexTable;
        this.scope = scope;
        this.writer = new ConditionalIndexWriter(dynamoDb, appTable, indexTable, scope);
        this.rate = rate;
    }

    /** Puts what the scanned version lacks; if the item changed since, puts everything its current version implies. */
    long fromTable(ItemKey itemKey, Map<String, AttributeValue> version, List<IndexChange> puts)
            throws InterruptedException {
        Map<String, AttributeValue> current = version;
        List<IndexChange> changes = puts;
        for (int attempt = 1; current != null && attempt <= MAX_ATTEMPTS_PER_ITEM; attempt++) {
            rate.acquire(WriteCost.units(changes.size()));
            if (writer.write(itemKey, current, changes) == ConditionalIndexWriter.Outcome.WRITTEN) {
                return changes.size();
            }
            current = writer.currentVersion(itemKey);
            if (current != null) {
                changes = scope.project(itemKey, current).items().stream().<IndexChange>map(IndexChange.Put::new).toList();
            }
        }
        return 0;
    }

    /** Deletes the keys the item's version (or its absence) does not imply, re-reading it when it changed meanwhile. */
    long fromIndex(ItemKey itemKey, Map<String, AttributeValue> version, List<IndexKey> unwanted)
            throws InterruptedException {
        Map<String, AttributeValue> current = version;
        List<IndexKey> keys = unwanted;
        for (int attempt = 1; attempt <= MAX_ATTEMPTS_PER_ITEM; attempt++) {
            List<IndexChange> deletes = keys.stream().<IndexChange>map(IndexChange.Delete::new).toList();
            if (deletes.isEmpty()) {
                return 0;
            }
            rate.acquire(WriteCost.units(deletes.size()));
            if (writer.write(itemKey, current, deletes) == ConditionalIndexWriter.Outcome.WRITTEN) {
                return deletes.size();
            }
            current = writer.currentVersion(itemKey);
            Set<IndexKey> wanted = wantedKeys(itemKey, current);
            keys = keys.stream().filter(key -> !wanted.contains(key)).toList();
        }
        return 0;
    }

    /**
     * Deletes an index item that names no source item (no {@value IndexItem#ITEM_KEY} or {@value IndexItem#ITEM_ID}, or
     * one that is not a key of the table), unless what names its source has been written since; whether it deleted it. A
     * transaction of one delete: the calls and permissions the worker already has.
     */
    boolean deleteSourceless(Map<String, AttributeValue> item) throws InterruptedException {
        rate.acquire(WriteCost.units(1));
        List<String> terms = new ArrayList<>(List.of("attribute_exists(#a)"));
        Map<String, String> names = new LinkedHashMap<>(Map.of("#a", IndexKey.ATTRIB_ID));
        Map<String, AttributeValue> values = new LinkedHashMap<>();
        List<String> naming = List.of(IndexItem.ITEM_KEY, IndexItem.ITEM_ID);
        for (int i = 0; i < naming.size(); i++) {
            names.put("#n" + i, naming.get(i));
            AttributeValue read = item.get(naming.get(i));
            if (read == null) {
                terms.add("attribute_not_exists(#n" + i + ")");
            } else {
                terms.add("#n" + i + " = :n" + i);
                values.put(":n" + i, read);
            }
        }
        Delete.Builder delete = Delete.builder().tableName(indexTable).key(IndexKey.of(item).toKey())
                .conditionExpression(String.join(" AND ", terms)).expressionAttributeNames(names);
        if (!values.isEmpty()) {
            delete.expressionAttributeValues(values);
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

    /** The index keys the item's version implies (none when it is gone). */
    Set<IndexKey> wantedKeys(ItemKey itemKey, Map<String, AttributeValue> version) {
        if (version == null) {
            return Set.of();
        }
        return scope.project(itemKey, version).items().stream().map(IndexItem::key).collect(Collectors.toSet());
    }
}

package com.multikey.query;

import com.multikey.common.RetryBudget;
import com.multikey.index.IndexItem;
import com.multikey.index.IndexKey;
import com.multikey.index.IndexProjector;
import com.multikey.index.ItemKey;
import software.amazon.awssdk.core.exception.ApiCallTimeoutException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiConsumer;
import java.util.function.Supplier;

/**
 * The calls of one page and what they cost: Queries of the index table and of the source table, BatchGetItems of the
 * source table's items (kept for the page: an item is read once), each within the page's time budget, counted in reads
 * (a BatchGetItem's re-sent keys are one read), calls (each sent), and items read (a Query's scanned items, a
 * BatchGetItem's keys) against the page's item budget.
 */
final class PageReads {

    /** The keys of one BatchGetItem. */
    static final int MAX_BATCH_GET_KEYS = 100;
    /** Stands for the source of an index item that names none: never read, never listed. */
    static final ItemKey NO_ITEM = ItemKey.ofString("", "");

    /** The tables a page reads, the client it reads them with, and the issue grid's settings (its missing tail's GSI). */
    record Tables(DynamoDbClient dynamoDb, String appTable, String indexTable, GridSettings grid) {
    }

    private final Tables tables;
    private final IndexProjector projector;
    private final RetryBudget budget;
    private final Duration pageBudget;
    private final int itemBudget;
    private final int maxReads;
    /** Items read from the source table by key; empty when the item no longer exists. */
    private final Map<ItemKey, Optional<Map<String, AttributeValue>>> hydrated = new HashMap<>();
    /** Told of each item a BatchGetItem returns. */
    private BiConsumer<ItemKey, Map<String, AttributeValue>> onItem = (key, item) -> { };
    private int reads;
    private int calls;
    private int queries;
    private int batchGets;
    private int indexItems;
    private int tableItems;

    /**
     * @param itemBudget the items the page may read ({@link Integer#MAX_VALUE}: reads alone bound it)
     * @param maxReads   the reads (Queries and BatchGetItems) the page may make
     */
    PageReads(Tables tables, IndexProjector projector, RetryBudget budget, Duration pageBudget, int itemBudget, int maxReads) {
        this.tables = tables;
        this.projector = projector;
        this.budget = budget;
        this.pageBudget = pageBudget;
        this.itemBudget = itemBudget;
        this.maxReads = maxReads;
    }

    void onItem(BiConsumer<ItemKey, Map<String, AttributeValue>> listener) {
        this.onItem = listener;
    }

    Tables tables() {
        return tables;
    }

    /** Whether the page may read again: it has reads and items left. */
    boolean mayRead() {
        return reads < maxReads && examined() < itemBudget;
    }

    /** The reads (Queries and BatchGetItems) the page may still make. */
    int readsLeft() {
        return Math.max(0, maxReads - reads);
    }

    int budgetLeft() {
        return Math.max(0, itemBudget - examined());
    }

    /** Items read: index items and items of the source table. */
    int examined() {
        return indexItems + tableItems;
    }

    /** Every call sent, re-sent unprocessed keys included. */
    int calls() {
        return calls;
    }

    Explain.Reads counts() {
        return new Explain.Reads(queries, batchGets, indexItems, tableItems);
    }

    boolean isRead(ItemKey key) {
        return hydrated.containsKey(key);
    }

    /** The item as read; empty when it was read and does not exist (or was not read). */
    Optional<Map<String, AttributeValue>> item(ItemKey key) {
        return hydrated.getOrDefault(key, Optional.empty());
    }

    /** How many items the page has read by key. */
    int itemsRead() {
        return hydrated.size();
    }

    /** A Query of one index partition, within a key range (null: the whole partition), filtered on a project when given. */
    QueryResponse index(String partition, Optional<String> project, Filter.KeyRange range, Map<String, AttributeValue> position,
                        int limit, boolean forward) {
        Map<String, String> names = new HashMap<>(Map.of("#a", IndexKey.ATTRIB_ID));
        Map<String, AttributeValue> values = new HashMap<>(Map.of(":a", AttributeValue.fromS(partition)));
        project.ifPresent(p -> {
            names.put("#p", IndexItem.PROJECT);
            values.put(":p", AttributeValue.fromS(p));
        });
        String keyCondition = "#a = :a";
        if (range != null) {
            names.put("#k", IndexKey.SORT_KEY);
            if (range.prefix() != null) {
                keyCondition += " AND begins_with(#k, :prefix)";
                values.put(":prefix", AttributeValue.fromS(range.prefix()));
            } else {
                keyCondition += " AND #k BETWEEN :low AND :high";
                values.put(":low", AttributeValue.fromS(range.low()));
                values.put(":high", AttributeValue.fromS(range.high()));
            }
        }
        QueryRequest.Builder query = QueryRequest.builder().tableName(tables.indexTable())
                .keyConditionExpression(keyCondition)
                .expressionAttributeNames(names).expressionAttributeValues(values)
                .scanIndexForward(forward).limit(limit);
        if (project.isPresent()) {
            query.filterExpression("#p = :p");
        }
        QueryResponse response = query(query, position);
        indexItems += response.scannedCount();
        return response;
    }

    /** A Query of the source table or one of its indexes. */
    QueryResponse table(QueryRequest.Builder query, Map<String, AttributeValue> position) {
        QueryResponse response = query(query, position);
        tableItems += response.scannedCount();
        return response;
    }

    private QueryResponse query(QueryRequest.Builder query, Map<String, AttributeValue> position) {
        if (!position.isEmpty()) {
            query.exclusiveStartKey(position);
        }
        reads++;
        queries++;
        return call("Query", () -> tables.dynamoDb().query(query.overrideConfiguration(budget.callTimeout()).build()));
    }

    /** BatchGetItem of up to 100 items; unprocessed keys are re-sent within the page's {@link RetryBudget}. */
    void read(List<ItemKey> ids) {
        List<Map<String, AttributeValue>> keys = ids.stream().filter(id -> id != NO_ITEM).map(ItemKey::toKey).toList();
        if (keys.isEmpty()) {
            ids.forEach(id -> hydrated.putIfAbsent(id, Optional.empty()));
            return;
        }
        String appTable = tables.appTable();
        Map<String, KeysAndAttributes> pending = Map.of(appTable, KeysAndAttributes.builder().keys(keys).build());
        reads++;
        tableItems += keys.size();
        while (true) {
            Map<String, KeysAndAttributes> requested = pending;
            batchGets++;
            BatchGetItemResponse response = call("BatchGetItem", () -> tables.dynamoDb().batchGetItem(b -> b.requestItems(requested)
                    .overrideConfiguration(budget.callTimeout())));
            response.responses().getOrDefault(appTable, List.of())
                    .forEach(item -> projector.keyOf(item).ifPresent(key -> {
                        hydrated.put(key, Optional.of(item));
                        onItem.accept(key, item);
                    }));
            pending = response.hasUnprocessedKeys() ? response.unprocessedKeys() : Map.of();
            if (pending.isEmpty()) {
                break;
            }
            if (!budget.retryAfterFailure()) {
                int left = pending.values().stream().mapToInt(k -> k.keys().size()).sum();
                throw new RetryableQueryException("BatchGetItem still left " + left + " of " + ids.size()
                        + " item(s) unprocessed after " + budget.failedAttempts() + " attempt(s) within the page's budget of "
                        + pageBudget + "; the table is short of read capacity, try the page again later");
            }
        }
        ids.forEach(id -> hydrated.putIfAbsent(id, Optional.empty()));
    }

    /** Every item of {@code ids} not read yet, a BatchGetItem per hundred. */
    void readAll(List<ItemKey> ids) {
        List<ItemKey> unread = ids.stream().filter(key -> !hydrated.containsKey(key)).distinct().toList();
        for (int i = 0; i < unread.size(); i += MAX_BATCH_GET_KEYS) {
            read(unread.subList(i, Math.min(unread.size(), i + MAX_BATCH_GET_KEYS)));
        }
    }

    private <T> T call(String operation, Supplier<T> call) {
        if (!budget.hasTime()) {
            throw new RetryableQueryException("the page's budget of " + pageBudget + " ran out before a " + operation);
        }
        calls++;
        try {
            return call.get();
        } catch (ApiCallTimeoutException e) {
            throw new RetryableQueryException(operation + " did not answer within the page's budget of " + pageBudget, e);
        }
    }
}

package com.multikey.query;

import com.multikey.common.Backoff;
import com.multikey.common.Sleeper;
import com.multikey.indexer.IndexItem;
import com.multikey.indexer.IndexerConfig;
import com.multikey.indexer.IssueIndexer;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The grid's read side: a page of a project's issues sorted by any custom field (value, then num, then
 * id), filtered on the value, in two API calls — a Query on the index and a BatchGetItem on the app table —
 * optionally followed by the project's issues that lack the field (a Query on {@code ByProject}).
 *
 * <p>A multi-valued issue is listed once, under its first value in the page order that passes the filter;
 * an index item that no longer matches its issue (the index lags the table by the stream's delay) is left
 * out. Both are decided on the items just read, so every issue appears once across all pages.
 */
public final class GridQuery {

    /** DynamoDB's order of string keys: their UTF-8 bytes, unsigned. */
    private static final Comparator<String> KEY_ORDER = Comparator.comparing(
            (String key) -> key.getBytes(java.nio.charset.StandardCharsets.UTF_8), java.util.Arrays::compareUnsigned);

    private final DynamoDbClient dynamoDb;
    private final String appTable;
    private final String indexTable;
    private final String byProjectIndex;
    private final IndexerConfig config;
    private final IssueIndexer issues;
    private final AttributeCatalog catalog;
    private final Backoff backoff;
    private final Sleeper sleeper;

    public GridQuery(DynamoDbClient dynamoDb, String appTable, String indexTable, String byProjectIndex, IndexerConfig config,
                     AttributeCatalog catalog, Backoff backoff, Sleeper sleeper) {
        this.dynamoDb = dynamoDb;
        this.appTable = appTable;
        this.indexTable = indexTable;
        this.byProjectIndex = byProjectIndex;
        this.config = config;
        this.issues = new IssueIndexer(config);
        this.catalog = catalog;
        this.backoff = backoff;
        this.sleeper = sleeper;
    }

    /** With the data model's names: tables as given, index {@code ByProject}, attributes {@code custom_fields}, {@code num}. */
    public static GridQuery of(DynamoDbClient dynamoDb, String appTable, String indexTable) {
        return new GridQuery(dynamoDb, appTable, indexTable, "ByProject", IndexerConfig.withDefaults(indexTable),
                AttributeCatalog.fromProjectItems(dynamoDb, appTable), Backoff.standard(), Sleeper.SYSTEM);
    }

    /**
     * @throws QueryException for an attribute the project's catalog does not define, a malformed cursor, or
     *                        a cursor from another query
     */
    public Page page(PageRequest request) {
        Optional<Cursor> cursor = request.cursor().map(text -> Cursor.decode(text, request));
        if (cursor.isEmpty()) {
            catalog.attributesOf(request.project()).ifPresent(known -> {
                if (!known.contains(request.attribId())) {
                    throw new QueryException("project " + request.project() + " has no attribute '" + request.attribId() + "'");
                }
            });
        }
        if (cursor.isPresent() && cursor.get().part() == Cursor.Part.MISSING) {
            return missingPage(request, cursor.get().startKey());
        }
        return indexPage(request, cursor.map(Cursor::startKey).orElse(null));
    }

    private Page indexPage(PageRequest request, Map<String, AttributeValue> startKey) {
        Map<String, String> names = new HashMap<>(Map.of("#a", "attribId", "#p", IndexItem.PROJECT));
        Map<String, AttributeValue> values = new HashMap<>(Map.of(
                ":a", AttributeValue.fromS(request.attribId()), ":p", AttributeValue.fromS(request.project())));
        String keyCondition = "#a = :a";
        if (request.filter().isPresent()) {
            Filter.KeyRange range = request.filter().get().keyRange();
            names.put("#k", "sortKey");
            if (range.prefix() != null) {
                keyCondition += " AND begins_with(#k, :prefix)";
                values.put(":prefix", AttributeValue.fromS(range.prefix()));
            } else {
                keyCondition += " AND #k BETWEEN :low AND :high";
                values.put(":low", AttributeValue.fromS(range.low()));
                values.put(":high", AttributeValue.fromS(range.high()));
            }
        }
        QueryRequest.Builder query = QueryRequest.builder().tableName(indexTable)
                .keyConditionExpression(keyCondition).filterExpression("#p = :p")
                .expressionAttributeNames(names).expressionAttributeValues(values)
                .scanIndexForward(request.order() == Order.ASC).limit(request.pageSize());
        if (startKey != null) {
            query.exclusiveStartKey(startKey);
        }
        QueryResponse response = dynamoDb.query(query.build());
        int calls = 1;

        List<IndexItem> entries = response.items().stream().map(IndexItem::fromItem).toList();
        Map<String, Map<String, AttributeValue>> hydrated = new HashMap<>();
        if (!entries.isEmpty()) {
            calls += batchGet(entries.stream().map(IndexItem::issueId).distinct().toList(), hydrated);
        }
        List<Map<String, AttributeValue>> page = new ArrayList<>();
        Set<String> listed = new LinkedHashSet<>();
        for (IndexItem entry : entries) {
            Map<String, AttributeValue> issue = hydrated.get(entry.issueId());
            if (issue != null && isListedUnder(entry, issue, request) && listed.add(entry.issueId())) {
                page.add(issue);
            }
        }

        Optional<String> next;
        if (response.hasLastEvaluatedKey() && !response.lastEvaluatedKey().isEmpty()) {
            next = Optional.of(new Cursor(Cursor.Part.INDEX, response.lastEvaluatedKey()).encode(request));
        } else if (request.includeMissing()) {
            next = Optional.of(new Cursor(Cursor.Part.MISSING, Map.of()).encode(request));
        } else {
            next = Optional.empty();
        }
        return new Page(page, next, calls);
    }

    /** Whether this index item is the one its issue is listed under: it matches the issue, and is its first matching value. */
    private boolean isListedUnder(IndexItem entry, Map<String, AttributeValue> issue, PageRequest request) {
        Optional<String> first = issues.project(entry.issueId(), issue).items().stream()
                .filter(item -> item.attribId().equals(entry.attribId()) && item.project().equals(request.project()))
                .filter(item -> request.filter().map(f -> f.matches(item.value())).orElse(true))
                .map(IndexItem::sortKey)
                .min(request.order() == Order.ASC ? KEY_ORDER : KEY_ORDER.reversed());
        return first.isPresent() && first.get().equals(entry.sortKey());
    }

    private Page missingPage(PageRequest request, Map<String, AttributeValue> startKey) {
        QueryRequest.Builder query = QueryRequest.builder().tableName(appTable).indexName(byProjectIndex)
                .keyConditionExpression("#p = :p")
                .filterExpression("attribute_not_exists(#cf.#f)")
                .expressionAttributeNames(Map.of("#p", config.projectAttribute(), "#cf", config.customFieldsAttribute(),
                        "#f", request.attribId()))
                .expressionAttributeValues(Map.of(":p", AttributeValue.fromS(request.project())))
                .scanIndexForward(request.order() == Order.ASC).limit(request.pageSize());
        if (!startKey.isEmpty()) {
            query.exclusiveStartKey(startKey);
        }
        QueryResponse response = dynamoDb.query(query.build());
        Optional<String> next = response.hasLastEvaluatedKey() && !response.lastEvaluatedKey().isEmpty()
                ? Optional.of(new Cursor(Cursor.Part.MISSING, response.lastEvaluatedKey()).encode(request))
                : Optional.empty();
        return new Page(response.items(), next, 1);
    }

    /** BatchGetItem of up to 100 issues, retrying unprocessed keys with backoff; returns the calls made. */
    private int batchGet(List<String> ids, Map<String, Map<String, AttributeValue>> into) {
        List<Map<String, AttributeValue>> keys = ids.stream()
                .map(id -> Map.of(config.keyAttribute(), AttributeValue.fromS(id))).toList();
        Map<String, KeysAndAttributes> pending = Map.of(appTable, KeysAndAttributes.builder().keys(keys).build());
        int calls = 0;
        for (int attempt = 0; !pending.isEmpty(); attempt++) {
            if (attempt > 0) {
                sleep(backoff.delay(attempt - 1));
            }
            Map<String, KeysAndAttributes> request = pending;
            BatchGetItemResponse response = dynamoDb.batchGetItem(b -> b.requestItems(request));
            calls++;
            response.responses().getOrDefault(appTable, List.of())
                    .forEach(item -> into.put(item.get(config.keyAttribute()).s(), item));
            pending = response.hasUnprocessedKeys() ? response.unprocessedKeys() : Map.of();
            if (attempt > 20) {
                throw new IllegalStateException("BatchGetItem left keys unprocessed after " + calls + " calls");
            }
        }
        return calls;
    }

    private void sleep(Duration duration) {
        try {
            sleeper.sleep(duration);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while retrying BatchGetItem", e);
        }
    }

}

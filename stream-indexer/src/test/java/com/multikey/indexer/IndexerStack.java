package com.multikey.indexer;

import com.amazonaws.services.lambda.runtime.events.StreamsEventResponse;
import com.multikey.common.Backoff;
import com.multikey.common.Sleeper;
import com.multikey.common.StructuredLog;
import com.multikey.emulator.functions.LocalContext;
import com.multikey.emulator.services.streams.LambdaEvents;
import com.multikey.emulator.services.streams.StreamTail;
import com.multikey.emulator.template.TemplateEnvironment;
import com.multikey.index.IndexEntry;
import com.multikey.index.IndexItem;
import com.multikey.index.IndexKey;
import com.multikey.index.IndexProjector;
import com.multikey.index.IndexValue;
import com.multikey.index.ItemKey;
import com.multikey.testkit.LocalTables;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * The template's tables in the embedded DynamoDB engine, the indexer handler configured from the template's
 * environment, and the app table's stream delivered to it in Lambda events. Test classes get one from
 * {@link IndexerStackExtension}.
 */
final class IndexerStack implements AutoCloseable {

    static final String FUNCTION = "StreamIndexerFunction";

    private final LocalTables localTables;
    final DynamoDbClient dynamoDb;
    final DynamoDbStreamsClient streams;
    final RecordingMetrics metrics = new RecordingMetrics();
    IndexerConfig config;
    StreamTail tail;

    IndexerStack() {
        localTables = LocalTables.start();
        dynamoDb = localTables.dynamoDb();
        streams = localTables.local().streamsClient();
    }

    /** Drops every table, creates the template's tables anew, and forgets the metrics of earlier batches. */
    void reset() {
        localTables.reset();
        config = IndexerConfig.fromEnvironment(TemplateEnvironment.of(localTables.template(), FUNCTION, localTables.names()));
        tail = new StreamTail(dynamoDb, streams, appTable());
        metrics.summaries.clear();
    }

    String appTable() {
        return localTables.name("AppTable");
    }

    StreamIndexerHandler handler(DynamoDbClient client, Duration backoffBase, Sleeper sleeper) {
        return handler(client, backoffBase, sleeper, IndexerFixtures.quietLog());
    }

    StreamIndexerHandler handler(DynamoDbClient client, Duration backoffBase, Sleeper sleeper, StructuredLog log) {
        IndexWriter writer = new DynamoDbIndexWriter(client, config.indexTableName(),
                new Backoff(backoffBase, backoffBase.multipliedBy(20), new Random(7)), sleeper, log);
        return new StreamIndexerHandler(new StreamIndexer(new BatchPlanner(config), writer, metrics, log));
    }

    StreamIndexerHandler handler() {
        return handler(dynamoDb, Duration.ofMillis(10), Sleeper.SYSTEM);
    }

    /** The handler as Lambda builds it: from the template's environment alone, with the local engine as its endpoint. */
    StreamIndexerHandler handlerFromEnvironment() {
        return new StreamIndexerHandler(TemplateEnvironment.forLocalRun(localTables.template(), FUNCTION, localTables.names(),
                Map.of("DYNAMODB", localTables.local().endpoint())));
    }

    /** Stream records written since the last call. */
    List<Record> newRecords() {
        return tail.poll();
    }

    /** Delivers the records in batches; every batch must succeed. */
    void deliver(StreamIndexerHandler handler, List<Record> records, int batchSize) {
        for (int from = 0; from < records.size(); from += batchSize) {
            StreamsEventResponse response = invoke(handler, records.subList(from, Math.min(records.size(), from + batchSize)));
            if (!response.getBatchItemFailures().isEmpty()) {
                throw new AssertionError("batch reported failures: " + response.getBatchItemFailures());
            }
        }
    }

    StreamsEventResponse invoke(StreamIndexerHandler handler, List<Record> batch) {
        return handler.handleRequest(LambdaEvents.dynamodbEvent(batch, tail.streamArn()), LocalContext.of(FUNCTION));
    }

    void pump() {
        deliver(handler(), newRecords(), 100);
    }

    void put(Map<String, AttributeValue> item) {
        dynamoDb.putItem(b -> b.tableName(appTable()).item(item));
    }

    void delete(String id) {
        dynamoDb.deleteItem(b -> b.tableName(appTable()).key(Map.of("id", AttributeValue.fromS(id))));
    }

    /** Issue ids of one attribute's index items in Query order. */
    List<String> query(String attribId, boolean ascending) {
        List<String> issueIds = new ArrayList<>();
        dynamoDb.queryPaginator(b -> b.tableName(config.indexTableName())
                        .keyConditionExpression("attribId = :a")
                        .expressionAttributeValues(Map.of(":a", AttributeValue.fromS(attribId)))
                        .scanIndexForward(ascending))
                .items().forEach(item -> issueIds.add(IndexEntry.sourceOf(item, config.definitions().table()).orElseThrow().toString()));
        return issueIds;
    }

    /** One attribute's index items in Query order, as stored (numbers normalized). */
    List<Map<String, AttributeValue>> queryItems(String attribId, boolean ascending) {
        List<Map<String, AttributeValue>> items = new ArrayList<>();
        dynamoDb.queryPaginator(b -> b.tableName(config.indexTableName())
                        .keyConditionExpression("attribId = :a")
                        .expressionAttributeValues(Map.of(":a", AttributeValue.fromS(attribId)))
                        .scanIndexForward(ascending))
                .items().forEach(item -> items.add(IndexItem.normalized(item)));
        return items;
    }

    Set<Map<String, AttributeValue>> indexItems() {
        return storedIndex();
    }

    /** The index table's items as stored (numbers spelled as the indexer writes them). */
    Set<Map<String, AttributeValue>> storedIndex() {
        Set<Map<String, AttributeValue>> items = new HashSet<>();
        dynamoDb.scanPaginator(b -> b.tableName(config.indexTableName())).items()
                .forEach(item -> items.add(IndexItem.normalized(item)));
        return items;
    }

    /** The stored index items the app table's current items imply. */
    Set<Map<String, AttributeValue>> expectedStoredIndex() {
        Set<Map<String, AttributeValue>> items = new HashSet<>();
        expectedIndex().forEach(item -> items.add(item.toItem()));
        return items;
    }

    /** The index the app table's current items imply. */
    Set<IndexItem> expectedIndex() {
        IndexProjector projector = new IndexProjector(config.definitions());
        Set<IndexItem> items = new HashSet<>();
        dynamoDb.scanPaginator(b -> b.tableName(appTable())).items()
                .forEach(item -> items.addAll(projector.project(projector.keyOf(item).orElseThrow(), item).items()));
        return items;
    }

    /** The stored form of an item with its value copied, however large (to probe DynamoDB's own limit). */
    static Map<String, AttributeValue> withValueCopied(IndexItem item) {
        Map<String, AttributeValue> copied = new java.util.HashMap<>(item.toItem());
        copied.remove(IndexItem.VALUE_OMITTED);
        copied.put(IndexItem.VALUE, item.value().toAttributeValue());
        return copied;
    }

    /** An issue grid index item built without the model's checks (a key DynamoDB refuses, say). */
    static IndexItem unchecked(String attribId, String sortKey, String issueId, String project, java.math.BigDecimal num, IndexValue value) {
        Map<String, AttributeValue> item = Map.of(IndexKey.ATTRIB_ID, AttributeValue.fromS(attribId), IndexKey.SORT_KEY, AttributeValue.fromS(sortKey),
                IndexItem.ITEM_ID, AttributeValue.fromS(issueId), IndexItem.PROJECT, AttributeValue.fromS(project),
                IndexItem.NUM, AttributeValue.fromN(num.toString()), IndexItem.VALUE, value.toAttributeValue());
        return new IndexItem(IndexItem.FIELD_PARTITIONED_INDEX, new IndexKey(attribId, sortKey), ItemKey.ofString("id", issueId), value,
                item);
    }

    @Override
    public void close() {
        streams.close();
        localTables.close();
    }
}

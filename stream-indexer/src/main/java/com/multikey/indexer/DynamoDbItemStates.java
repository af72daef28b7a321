package com.multikey.indexer;

import com.multikey.common.Backoff;
import com.multikey.common.Deadline;
import com.multikey.common.DynamoDbJson;
import com.multikey.common.RetryBudget;
import com.multikey.common.Sleeper;
import com.multikey.index.ItemKey;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Item states in their own table (partition key {@code itemKey}, S: the item's key attributes as DynamoDB JSON, names
 * sorted): read with strongly consistent BatchGetItem (100 keys a call, {@code UnprocessedKeys} sent again with backoff),
 * written with a PutItem conditional on the version read. A removed item's tombstone expires (TTL {@code expiresAt})
 * {@link #TOMBSTONE_LIFETIME} after its removal: longer than Kinesis keeps a record (365 days at most), so no late
 * record can outlive it.
 */
public final class DynamoDbItemStates implements ItemStates {

    static final String ITEM_KEY = "itemKey";
    static final String KEY = "key";
    static final String VERSION = "version";
    static final String EVENT_ID = "eventId";
    static final String IMAGE = "image";
    static final String EXPIRES_AT = "expiresAt";
    static final int MAX_GET = 100;
    static final Duration TOMBSTONE_LIFETIME = Duration.ofDays(400);

    private final DynamoDbClient dynamoDb;
    private final String tableName;
    private final Backoff backoff;
    private final Sleeper sleeper;

    public DynamoDbItemStates(DynamoDbClient dynamoDb, String tableName, Backoff backoff, Sleeper sleeper) {
        this.dynamoDb = dynamoDb;
        this.tableName = tableName;
        this.backoff = backoff;
        this.sleeper = sleeper;
    }

    /** The item's key as the state table's partition key value. */
    static String itemKey(ItemKey item) {
        return DynamoDbJson.image(new TreeMap<>(item.attributes()));
    }

    @Override
    public Map<ItemKey, ItemState> read(Collection<ItemKey> items, Deadline deadline) {
        Map<String, ItemKey> byText = new LinkedHashMap<>();
        items.forEach(item -> byText.put(itemKey(item), item));
        List<String> keys = new ArrayList<>(byText.keySet());
        Map<ItemKey, ItemState> found = new HashMap<>();
        for (int from = 0; from < keys.size(); from += MAX_GET) {
            List<Map<String, AttributeValue>> pending = keys.subList(from, Math.min(keys.size(), from + MAX_GET)).stream()
                    .map(key -> Map.of(ITEM_KEY, AttributeValue.fromS(key))).toList();
            RetryBudget budget = new RetryBudget(backoff, sleeper, deadline);
            while (!pending.isEmpty()) {
                List<Map<String, AttributeValue>> call = pending;
                BatchGetItemResponse response = dynamoDb.batchGetItem(b -> b.requestItems(Map.of(tableName,
                        KeysAndAttributes.builder().keys(call).consistentRead(true).build())).overrideConfiguration(budget.callTimeout()));
                response.responses().getOrDefault(tableName, List.of()).forEach(item -> {
                    ItemKey key = byText.get(item.get(ITEM_KEY).s());
                    if (key != null) {
                        found.put(key, state(key, item));
                    }
                });
                KeysAndAttributes unprocessed = response.unprocessedKeys().get(tableName);
                pending = unprocessed == null ? List.of() : unprocessed.keys();
                if (!pending.isEmpty() && !budget.retryAfterFailure()) {
                    throw SdkClientException.create("item states not read in time: " + pending.size() + " keys unprocessed");
                }
            }
        }
        return found;
    }

    @Override
    public boolean write(ItemState next, Optional<ItemState> expected, Deadline deadline) {
        Map<String, AttributeValue> item = new LinkedHashMap<>();
        item.put(ITEM_KEY, AttributeValue.fromS(itemKey(next.item())));
        item.put(KEY, AttributeValue.fromM(next.item().attributes()));
        item.put(VERSION, AttributeValue.fromN(Long.toString(next.version())));
        if (next.eventId() != null) {
            item.put(EVENT_ID, AttributeValue.fromS(next.eventId()));
        }
        if (next.image() != null) {
            item.put(IMAGE, AttributeValue.fromM(next.image()));
        } else {
            Instant removedAt = Instant.EPOCH.plus(Duration.ofNanos(Math.multiplyExact(next.version(), 1_000L)));
            item.put(EXPIRES_AT, AttributeValue.fromN(Long.toString(removedAt.plus(TOMBSTONE_LIFETIME).getEpochSecond())));
        }
        try {
            dynamoDb.putItem(b -> {
                b.tableName(tableName).item(item).overrideConfiguration(deadline.callOverride());
                if (expected.isEmpty()) {
                    b.conditionExpression("attribute_not_exists(#k)").expressionAttributeNames(Map.of("#k", ITEM_KEY));
                } else {
                    // the version and the event id the state was read with: one state per (version, event) written
                    b.conditionExpression("#v = :v AND " + (expected.get().eventId() == null ? "attribute_not_exists(#e)" : "#e = :e"))
                            .expressionAttributeNames(Map.of("#v", VERSION, "#e", EVENT_ID))
                            .expressionAttributeValues(expected.get().eventId() == null
                                    ? Map.of(":v", AttributeValue.fromN(Long.toString(expected.get().version())))
                                    : Map.of(":v", AttributeValue.fromN(Long.toString(expected.get().version())),
                                    ":e", AttributeValue.fromS(expected.get().eventId())));
                }
            });
            return true;
        } catch (ConditionalCheckFailedException e) {
            return false;
        }
    }

    private static ItemState state(ItemKey key, Map<String, AttributeValue> item) {
        AttributeValue image = item.get(IMAGE);
        AttributeValue eventId = item.get(EVENT_ID);
        return new ItemState(key, Long.parseLong(item.get(VERSION).n()), eventId == null ? null : eventId.s(),
                image == null ? null : image.m());
    }
}

package com.multikey.common;

import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;

import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * {@link JobCheckpoints} in a DynamoDB table keyed {@code restartAt} (S, the event id): {@code indexed} and {@code routed}
 * (string sets of sequence numbers, absent when empty), {@code attempt} (N) and {@code expiresAt} (TTL: two days, past the
 * stream's 24-hour retention, after which neither a redelivery nor redrive can need it).
 */
public final class DynamoDbJobCheckpoints implements JobCheckpoints {

    static final String KEY = "restartAt";
    static final Duration KEEP = Duration.ofDays(2);

    private final DynamoDbClient dynamoDb;
    private final String table;
    private final Clock clock;

    public DynamoDbJobCheckpoints(DynamoDbClient dynamoDb, String table, Clock clock) {
        this.dynamoDb = dynamoDb;
        this.table = table;
        this.clock = clock;
    }

    @Override
    public Optional<JobProgress> read(String restartEventId) {
        GetItemResponse response = dynamoDb.getItem(b -> b.tableName(table).consistentRead(true)
                .key(Map.of(KEY, AttributeValue.fromS(restartEventId))));
        if (!response.hasItem() || response.item().isEmpty()) {
            return Optional.empty();
        }
        Map<String, AttributeValue> item = response.item();
        return Optional.of(new JobProgress(restartEventId, strings(item.get("indexed")), strings(item.get("routed")),
                Integer.parseInt(item.get("attempt").n())));
    }

    @Override
    public boolean write(JobProgress progress, int readAttempt) {
        Map<String, AttributeValue> item = new HashMap<>();
        item.put(KEY, AttributeValue.fromS(progress.restartEventId()));
        if (!progress.indexed().isEmpty()) {
            item.put("indexed", AttributeValue.fromSs(List.copyOf(progress.indexed())));
        }
        if (!progress.routed().isEmpty()) {
            item.put("routed", AttributeValue.fromSs(List.copyOf(progress.routed())));
        }
        item.put("attempt", AttributeValue.fromN(Integer.toString(readAttempt + 1)));
        item.put("expiresAt", AttributeValue.fromN(Long.toString(clock.instant().plus(KEEP).getEpochSecond())));
        try {
            dynamoDb.putItem(b -> {
                b.tableName(table).item(item);
                if (readAttempt == 0) {
                    b.conditionExpression("attribute_not_exists(#k)").expressionAttributeNames(Map.of("#k", KEY));
                } else {
                    b.conditionExpression("#a = :a").expressionAttributeNames(Map.of("#a", "attempt"))
                            .expressionAttributeValues(Map.of(":a", AttributeValue.fromN(Integer.toString(readAttempt))));
                }
            });
            return true;
        } catch (ConditionalCheckFailedException e) {
            return false;
        }
    }

    private static Set<String> strings(AttributeValue value) {
        return value == null || !value.hasSs() ? Set.of() : Set.copyOf(value.ss());
    }
}

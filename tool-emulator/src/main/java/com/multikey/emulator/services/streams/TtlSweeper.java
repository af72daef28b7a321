package com.multikey.emulator.services.streams;

import com.multikey.common.PlainJson;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.Identity;
import software.amazon.awssdk.services.dynamodb.model.OperationType;
import software.amazon.awssdk.services.dynamodb.model.Record;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * DynamoDB's TTL process for the template's tables with {@code TimeToLiveSpecification} enabled: items
 * whose TTL attribute is in the past are deleted, and the REMOVE records of those deletes carry the TTL
 * process's {@code userIdentity}, as on AWS. It is the local stack's TTL process: it prints what it expires
 * and runs between stream polls (the engine's own TTL sweeper is not started in the local stack).
 */
final class TtlSweeper {

    private static final Identity TTL_IDENTITY = Identity.builder().type("Service").principalId("dynamodb.amazonaws.com").build();

    /** A table with TTL on: its name, TTL attribute and key attributes. */
    private record TtlTable(String name, String ttlAttribute, List<String> keyAttributes) {
    }

    private final DynamoDbClient dynamoDb;
    private final Consumer<String> out;
    private final List<TtlTable> tables = new java.util.ArrayList<>();
    private final Map<String, String> expiredKeys = new ConcurrentHashMap<>();

    TtlSweeper(DynamoDbClient dynamoDb, Consumer<String> out) {
        this.dynamoDb = dynamoDb;
        this.out = out;
    }

    /** Watches a table: the one with this name, whose items expire by this attribute. */
    void watch(String table, String ttlAttribute) {
        tables.add(new TtlTable(table, ttlAttribute, keyAttributes(table)));
    }

    /**
     * Deletes items whose TTL attribute is in the past, as DynamoDB's TTL process does, within about a second
     * instead of AWS's hours. Their REMOVE records get the TTL process's userIdentity, so they look as on AWS.
     */
    int sweep() {
        int expired = 0;
        long now = Instant.now().getEpochSecond();
        for (TtlTable table : tables) {
            Map<String, String> ttlName = Map.of("#ttl", table.ttlAttribute());
            Map<String, AttributeValue> values = Map.of(":now", AttributeValue.fromN(Long.toString(now)));
            for (Map<String, AttributeValue> item : dynamoDb.scanPaginator(b -> b.tableName(table.name())
                    .filterExpression("#ttl < :now").expressionAttributeNames(ttlName).expressionAttributeValues(values)).items()) {
                Map<String, AttributeValue> key = new LinkedHashMap<>();
                table.keyAttributes().forEach(k -> key.put(k, item.get(k)));
                String keyJson = table.name() + " " + PlainJson.EXACT.of(key);
                expiredKeys.put(keyJson, "");
                try {
                    dynamoDb.deleteItem(b -> b.tableName(table.name()).key(key).conditionExpression("#ttl < :now")
                            .expressionAttributeNames(ttlName).expressionAttributeValues(values));
                    expired++;
                    out.accept("TTL: expired " + PlainJson.EXACT.of(key) + " in " + table.name());
                } catch (ConditionalCheckFailedException changed) {
                    expiredKeys.remove(keyJson);
                }
            }
        }
        return expired;
    }

    /** The record as AWS would deliver it: a REMOVE of an item this sweeper expired carries the TTL identity. */
    Record withTtlIdentity(String table, Record record) {
        if (record.eventName() != OperationType.REMOVE || record.userIdentity() != null) {
            return record;
        }
        String keyJson = table + " " + PlainJson.EXACT.of(record.dynamodb().keys());
        String bound = expiredKeys.get(keyJson);
        if (bound == null) {
            return record;
        }
        if (bound.isEmpty()) {
            expiredKeys.put(keyJson, record.dynamodb().sequenceNumber());
        } else if (!bound.equals(record.dynamodb().sequenceNumber())) {
            return record;
        }
        return record.toBuilder().userIdentity(TTL_IDENTITY).build();
    }

    private List<String> keyAttributes(String table) {
        return dynamoDb.describeTable(b -> b.tableName(table)).table().keySchema().stream()
                .map(k -> k.attributeName()).toList();
    }
}

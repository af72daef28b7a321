package com.multikey.deletelayer;

import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;

import java.util.Map;

/**
 * A conditional PutItem: the tombstone never overwrites an item with the same key. The condition names the partition
 * key, which every item of the table has: on a table with a sort key too it still checks the item of the tombstone's
 * full key.
 */
public final class DynamoDbTombstoneWriter implements TombstoneWriter {

    private final DynamoDbClient dynamoDb;
    private final String tableName;
    private final String keyAttribute;

    /** @param keyAttribute the table's partition key */
    public DynamoDbTombstoneWriter(DynamoDbClient dynamoDb, String tableName, String keyAttribute) {
        this.dynamoDb = dynamoDb;
        this.tableName = tableName;
        this.keyAttribute = keyAttribute;
    }

    @Override
    public Outcome write(Map<String, AttributeValue> tombstone) {
        try {
            dynamoDb.putItem(b -> b.tableName(tableName).item(tombstone)
                    .conditionExpression("attribute_not_exists(#key)")
                    .expressionAttributeNames(Map.of("#key", keyAttribute)));
            return Outcome.WRITTEN;
        } catch (ConditionalCheckFailedException exists) {
            return Outcome.KEPT_EXISTING;
        }
    }
}

package com.multikey.dynamodb.conformance;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndexUpdate;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.LimitExceededException;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

import java.util.List;

import static com.multikey.dynamodb.conformance.Errors.expect;
import static com.multikey.dynamodb.conformance.Errors.expectValidation;

/**
 * UpdateTable validates its request before it looks up the table: the members' constraints (a throughput of at
 * least 1, index names), a throughput over the largest DynamoDB takes, an index update that names no action, two
 * updates of one index. Only then the table: an index update's throughput out of bounds, and more than one index
 * created or deleted at once ("You can create or delete only one global secondary index per UpdateTable
 * operation", API reference), are refused for a table that exists.
 */
class UpdateTableChecksTest extends EngineTestSupport {

    private static final String MISSING = "no-such-table";
    private static final long TOO_HIGH = 1_000_000_000_001L;

    @Test
    void updateTable_withThroughputConstraintsBroken_isRefusedBeforeTheLookup() {
        expectValidation(() -> dynamoDb.updateTable(b -> b.tableName(MISSING).provisionedThroughput(t -> t.build())),
                "2 validation errors detected: "
                        + "Value null at 'provisionedThroughput.writeCapacityUnits' failed to satisfy constraint: Member must not be null; "
                        + "Value null at 'provisionedThroughput.readCapacityUnits' failed to satisfy constraint: Member must not be null");
        expectValidation(() -> dynamoDb.updateTable(b -> b.tableName(MISSING).provisionedThroughput(t -> t.readCapacityUnits(TOO_HIGH).writeCapacityUnits(-1L))),
                "1 validation error detected: "
                        + "Value '-1' at 'provisionedThroughput.writeCapacityUnits' failed to satisfy constraint: Member must have value greater than or equal to 1");
        expectValidation(() -> dynamoDb.updateTable(b -> b.tableName(MISSING).provisionedThroughput(t -> t.readCapacityUnits(TOO_HIGH).writeCapacityUnits(TOO_HIGH))),
                "Given value 1000000000001 for ReadCapacityUnits is out of bounds");
        expectValidation(() -> dynamoDb.updateTable(b -> b.tableName(MISSING).provisionedThroughput(t -> t.readCapacityUnits(1_000_000_000_000L).writeCapacityUnits(TOO_HIGH))),
                "Given value 1000000000001 for WriteCapacityUnits is out of bounds");
    }

    @Test
    void updateTable_withIndexUpdatesMalformed_isRefusedBeforeTheLookup() {
        expectValidation(() -> dynamoDb.updateTable(b -> b.tableName(MISSING).globalSecondaryIndexUpdates(
                        GlobalSecondaryIndexUpdate.builder().update(u -> u.build()).build())),
                "2 validation errors detected: "
                        + "Value null at 'globalSecondaryIndexUpdates.1.member.update.indexName' failed to satisfy constraint: Member must not be null; "
                        + "Value null at 'globalSecondaryIndexUpdates.1.member.update.provisionedThroughput' failed to satisfy constraint: Member must not be null");
        expectValidation(() -> dynamoDb.updateTable(b -> b.tableName(MISSING).globalSecondaryIndexUpdates(
                        GlobalSecondaryIndexUpdate.builder().update(u -> u.indexName("a").provisionedThroughput(t -> t.build())).build(),
                        GlobalSecondaryIndexUpdate.builder().update(u -> u.indexName("abc;").provisionedThroughput(t -> t.readCapacityUnits(TOO_HIGH).writeCapacityUnits(0L))).build())),
                "5 validation errors detected: "
                        + "Value 'a' at 'globalSecondaryIndexUpdates.1.member.update.indexName' failed to satisfy constraint: Member must have length greater than or equal to 3; "
                        + "Value null at 'globalSecondaryIndexUpdates.1.member.update.provisionedThroughput.writeCapacityUnits' failed to satisfy constraint: Member must not be null; "
                        + "Value null at 'globalSecondaryIndexUpdates.1.member.update.provisionedThroughput.readCapacityUnits' failed to satisfy constraint: Member must not be null; "
                        + "Value 'abc;' at 'globalSecondaryIndexUpdates.2.member.update.indexName' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+; "
                        + "Value '0' at 'globalSecondaryIndexUpdates.2.member.update.provisionedThroughput.writeCapacityUnits' failed to satisfy constraint: Member must have value greater than or equal to 1");
        String noAction = "One or more parameter values were invalid: One of GlobalSecondaryIndexUpdate.Update, "
                + "GlobalSecondaryIndexUpdate.Create, GlobalSecondaryIndexUpdate.Delete must not be null";
        expectValidation(() -> dynamoDb.updateTable(b -> b.tableName(MISSING).globalSecondaryIndexUpdates(GlobalSecondaryIndexUpdate.builder().build())), noAction);
        expectValidation(() -> dynamoDb.updateTable(b -> b.tableName(MISSING).globalSecondaryIndexUpdates(
                java.util.Collections.nCopies(6, GlobalSecondaryIndexUpdate.builder().build()))), noAction);
        expectValidation(() -> dynamoDb.updateTable(b -> b.tableName(MISSING).globalSecondaryIndexUpdates(
                        GlobalSecondaryIndexUpdate.builder().delete(d -> d.indexName("abc")).build(),
                        GlobalSecondaryIndexUpdate.builder().delete(d -> d.indexName("abc")).build())),
                "One or more parameter values were invalid: Only one global secondary index update per index is allowed simultaneously. Index: abc");
    }

    @Test
    void updateTable_ofAMissingTableWithAnIndexThroughputOutOfBounds_isResourceNotFound() {
        expect(() -> dynamoDb.updateTable(b -> b.tableName(MISSING).globalSecondaryIndexUpdates(GlobalSecondaryIndexUpdate.builder()
                        .update(u -> u.indexName("abc").provisionedThroughput(t -> t.readCapacityUnits(TOO_HIGH).writeCapacityUnits(TOO_HIGH))).build())),
                ResourceNotFoundException.class, "Requested resource not found: Table: " + MISSING + " not found");
    }

    @Test
    void updateTable_ofAnIndexWithThroughputOutOfBounds_isRefused() {
        String table = provisionedTable();
        expectValidation(() -> dynamoDb.updateTable(b -> b.tableName(table).globalSecondaryIndexUpdates(GlobalSecondaryIndexUpdate.builder()
                        .update(u -> u.indexName("abc").provisionedThroughput(t -> t.readCapacityUnits(1_000_000_000_000L).writeCapacityUnits(TOO_HIGH))).build())),
                "This operation cannot be performed with given input values. Please contact DynamoDB service team for more info: Action Blocked: IndexUpdate");
    }

    @Test
    void updateTable_creatingOrDeletingMoreThanOneIndex_isLimitExceeded() {
        String table = provisionedTable();
        List<GlobalSecondaryIndexUpdate> deletes = List.of("abc", "abd").stream()
                .map(name -> GlobalSecondaryIndexUpdate.builder().delete(d -> d.indexName(name)).build()).toList();
        expect(() -> dynamoDb.updateTable(b -> b.tableName(table).globalSecondaryIndexUpdates(deletes)),
                LimitExceededException.class, "Subscriber limit exceeded: Only 1 online index can be created or deleted simultaneously per table");
    }

    private String provisionedTable() {
        String name = uniqueName("provisioned");
        dynamoDb.createTable(b -> b.tableName(name).provisionedThroughput(t -> t.readCapacityUnits(10L).writeCapacityUnits(5L))
                .attributeDefinitions(attribute("id", ScalarAttributeType.S)).keySchema(key("id", KeyType.HASH)));
        return name;
    }
}

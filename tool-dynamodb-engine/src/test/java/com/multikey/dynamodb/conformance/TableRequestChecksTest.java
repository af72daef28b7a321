package com.multikey.dynamodb.conformance;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndexUpdate;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

import java.nio.charset.StandardCharsets;

import static com.multikey.dynamodb.conformance.Errors.expect;
import static com.multikey.dynamodb.conformance.Errors.expectValidation;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * CreateTable's and UpdateTable's refusals (API_CreateTable.html, API_UpdateTable.html, API_Projection.html)
 * and a request without a body: each answered as DynamoDB answers it, not accepted.
 */
class TableRequestChecksTest extends EngineTestSupport {

    @Test
    void anIndexProjectionWithoutProjectionType_isRefused_andNoTableIsCreated() {
        String name = uniqueName("noprojection");
        expectValidation(() -> dynamoDb.createTable(b -> b.tableName(name).billingMode(BillingMode.PAY_PER_REQUEST)
                        .attributeDefinitions(attribute("a", ScalarAttributeType.S), attribute("b", ScalarAttributeType.S))
                        .keySchema(key("a", KeyType.HASH), key("b", KeyType.RANGE))
                        .localSecondaryIndexes(l -> l.indexName("ByB").keySchema(key("a", KeyType.HASH), key("b", KeyType.RANGE))
                                .projection(p -> { }))),
                "One or more parameter values were invalid: Unknown ProjectionType: null");
        expectValidation(() -> dynamoDb.createTable(b -> b.tableName(name).billingMode(BillingMode.PAY_PER_REQUEST)
                        .attributeDefinitions(attribute("a", ScalarAttributeType.S), attribute("b", ScalarAttributeType.S))
                        .keySchema(key("a", KeyType.HASH))
                        .globalSecondaryIndexes(g -> g.indexName("ByB").keySchema(key("b", KeyType.HASH)).projection(p -> { }))),
                "One or more parameter values were invalid: Unknown ProjectionType: null");
        assertThat(dynamoDb.listTables().tableNames()).doesNotContain(name);
    }

    @Test
    void updateTable_withNothingToUpdate_isRefused() {
        String table = hashTable();
        expectValidation(() -> dynamoDb.updateTable(b -> b.tableName(table)),
                "At least one of ProvisionedThroughput, BillingMode, UpdateStreamEnabled, GlobalSecondaryIndexUpdates or SSESpecification or ReplicaUpdates is required");
        expectValidation(() -> dynamoDb.updateTable(b -> b.tableName(table).globalSecondaryIndexUpdates(java.util.List.of())),
                "At least one of ProvisionedThroughput, BillingMode, UpdateStreamEnabled, GlobalSecondaryIndexUpdates or SSESpecification or ReplicaUpdates is required");
    }

    @Test
    void updateTable_ofAnIndexTheTableLacks_isResourceNotFound() {
        String table = provisionedTable();
        expect(() -> dynamoDb.updateTable(b -> b.tableName(table).globalSecondaryIndexUpdates(GlobalSecondaryIndexUpdate.builder()
                        .update(u -> u.indexName("Missing").provisionedThroughput(t -> t.readCapacityUnits(5L).writeCapacityUnits(5L))).build())),
                ResourceNotFoundException.class, "Requested resource not found: Index: Missing not found");
    }

    @Test
    void updateTable_toTheThroughputItAlreadyHas_isRefused() {
        String table = provisionedTable();
        expectValidation(() -> dynamoDb.updateTable(b -> b.tableName(table).provisionedThroughput(t -> t.readCapacityUnits(10L).writeCapacityUnits(5L))),
                "The provisioned throughput for the table will not change. The requested value equals the current value. "
                        + "Current ReadCapacityUnits provisioned for the table: 10. Requested ReadCapacityUnits: 10. "
                        + "Current WriteCapacityUnits provisioned for the table: 5. Requested WriteCapacityUnits: 5. "
                        + "Refer to the Amazon DynamoDB Developer Guide for current limits and how to request higher limits.");
        dynamoDb.updateTable(b -> b.tableName(table).provisionedThroughput(t -> t.readCapacityUnits(11L).writeCapacityUnits(5L)));
        assertThat(dynamoDb.describeTable(b -> b.tableName(table)).table().provisionedThroughput().readCapacityUnits()).isEqualTo(11L);
    }

    @Test
    void updateTable_throughputOnAnOnDemandTable_isRefused() {
        String table = hashTable();
        expectValidation(() -> dynamoDb.updateTable(b -> b.tableName(table).provisionedThroughput(t -> t.readCapacityUnits(1L).writeCapacityUnits(1L))),
                "One or more parameter values were invalid: Neither ReadCapacityUnits nor WriteCapacityUnits can be specified when BillingMode is PAY_PER_REQUEST");
    }

    @EngineOnly("in-process calls with a raw body")
    @Test
    void aRequestWithoutBody_isASerializationError() {
        var response = engine.handle("DynamoDB_20120810.ListTables", new byte[0]);
        assertThat(response.status()).isEqualTo(400);
        assertThat(response.bodyText()).isEqualTo("{\"__type\":\"com.amazon.coral.service#SerializationException\"}");
        assertThat(engine.handle("DynamoDB_20120810.ListTables", "{}".getBytes(StandardCharsets.UTF_8)).status()).isEqualTo(200);
    }

    private String provisionedTable() {
        String name = uniqueName("provisioned");
        dynamoDb.createTable(b -> b.tableName(name).provisionedThroughput(t -> t.readCapacityUnits(10L).writeCapacityUnits(5L))
                .attributeDefinitions(attribute("id", ScalarAttributeType.S)).keySchema(key("id", KeyType.HASH)));
        return name;
    }
}

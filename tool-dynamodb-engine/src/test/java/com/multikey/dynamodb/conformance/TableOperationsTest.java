package com.multikey.dynamodb.conformance;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndexUpdate;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ResourceInUseException;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.TableStatus;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static com.multikey.dynamodb.conformance.Errors.expect;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * CreateTable, DescribeTable, ListTables, DeleteTable, UpdateTable and the TTL operations, written from
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_CreateTable.html, API_ListTables.html,
 * API_UpdateTable.html and API_UpdateTimeToLive.html.
 */
class TableOperationsTest extends EngineTestSupport {

    @Test
    void createTable_describedActiveWithIndexesAndStream() {
        String table = rangeTable();
        dynamoDb.putItem(b -> b.tableName(table).item(Map.of("pk", s("p"), "sk", n("1"), "grp", s("g"), "rank", n("1"))));

        var description = dynamoDb.describeTable(b -> b.tableName(table)).table();

        assertThat(description.tableStatus()).isEqualTo(TableStatus.ACTIVE);
        assertThat(description.itemCount()).isEqualTo(1);
        assertThat(description.tableArn()).isEqualTo("arn:aws:dynamodb:us-east-1:000000000000:table/" + table);
        assertThat(description.billingModeSummary().billingMode()).isEqualTo(BillingMode.PAY_PER_REQUEST);
        assertThat(description.globalSecondaryIndexes()).singleElement().satisfies(gsi -> {
            assertThat(gsi.indexName()).isEqualTo("ByGroup");
            assertThat(gsi.indexStatusAsString()).isEqualTo("ACTIVE");
            assertThat(gsi.itemCount()).isEqualTo(1);
        });
        assertThat(description.latestStreamArn()).isNull();
        dynamoDb.waiter().waitUntilTableExists(b -> b.tableName(table));
    }

    @Test
    void createTable_errors() {
        String table = hashTable();
        expect(() -> dynamoDb.createTable(b -> b.tableName(table).billingMode(BillingMode.PAY_PER_REQUEST)
                        .attributeDefinitions(attribute("id", ScalarAttributeType.S)).keySchema(key("id", KeyType.HASH))),
                ResourceInUseException.class, "Table already exists: " + table);
        expect(() -> dynamoDb.createTable(b -> b.tableName("ab").billingMode(BillingMode.PAY_PER_REQUEST)
                        .attributeDefinitions(attribute("id", ScalarAttributeType.S)).keySchema(key("id", KeyType.HASH))),
                DynamoDbException.class, "Member must have length greater than or equal to 3");
        expect(() -> dynamoDb.createTable(b -> b.tableName(uniqueName("t")).billingMode(BillingMode.PAY_PER_REQUEST)
                        .attributeDefinitions(attribute("id", ScalarAttributeType.S), attribute("x", ScalarAttributeType.S))
                        .keySchema(key("id", KeyType.HASH))),
                DynamoDbException.class, "One or more parameter values were invalid");
        expect(() -> dynamoDb.createTable(b -> b.tableName(uniqueName("t")).billingMode(BillingMode.PROVISIONED)
                        .attributeDefinitions(attribute("id", ScalarAttributeType.S)).keySchema(key("id", KeyType.HASH))),
                DynamoDbException.class, "ReadCapacityUnits and WriteCapacityUnits must both be specified when BillingMode is PROVISIONED");
        expect(() -> dynamoDb.describeTable(b -> b.tableName("missing")),
                ResourceNotFoundException.class, "Requested resource not found: Table: missing not found");
    }

    @Test
    void createTable_20GlobalIndexesAccepted_21Refused_5LocalAccepted_6Refused() {
        assertThat(createWithIndexes(20, 0)).isTrue();
        expect(() -> createWithIndexes(21, 0), DynamoDbException.class, "GlobalSecondaryIndex count exceeds the per-table limit of 20");
        assertThat(createWithIndexes(0, 5)).isTrue();
        expect(() -> createWithIndexes(0, 6), DynamoDbException.class, "Number of LocalSecondaryIndexes exceeds per-table limit of 5");
    }

    private boolean createWithIndexes(int globals, int locals) {
        List<software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex> gsis = new ArrayList<>();
        List<software.amazon.awssdk.services.dynamodb.model.LocalSecondaryIndex> lsis = new ArrayList<>();
        List<software.amazon.awssdk.services.dynamodb.model.AttributeDefinition> attributes = new ArrayList<>(List.of(
                attribute("pk", ScalarAttributeType.S), attribute("sk", ScalarAttributeType.S)));
        for (int i = 0; i < globals; i++) {
            attributes.add(attribute("g" + i, ScalarAttributeType.S));
            gsis.add(software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex.builder().indexName("Gsi" + i)
                    .keySchema(key("g" + i, KeyType.HASH)).projection(p -> p.projectionType(ProjectionType.KEYS_ONLY)).build());
        }
        for (int i = 0; i < locals; i++) {
            attributes.add(attribute("l" + i, ScalarAttributeType.S));
            lsis.add(software.amazon.awssdk.services.dynamodb.model.LocalSecondaryIndex.builder().indexName("Lsi" + i)
                    .keySchema(key("pk", KeyType.HASH), key("l" + i, KeyType.RANGE)).projection(p -> p.projectionType(ProjectionType.ALL)).build());
        }
        dynamoDb.createTable(b -> {
            b.tableName(uniqueName("indexes")).billingMode(BillingMode.PAY_PER_REQUEST).attributeDefinitions(attributes)
                    .keySchema(key("pk", KeyType.HASH), key("sk", KeyType.RANGE));
            if (!gsis.isEmpty()) {
                b.globalSecondaryIndexes(gsis);
            }
            if (!lsis.isEmpty()) {
                b.localSecondaryIndexes(lsis);
            }
        });
        return true;
    }

    @Test
    void listTables_paginated() {
        List<String> created = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            created.add(hashTable());
        }
        var first = dynamoDb.listTables(b -> b.limit(2));
        assertThat(first.tableNames()).hasSize(2);
        assertThat(first.lastEvaluatedTableName()).isEqualTo(first.tableNames().get(1));
        List<String> all = list(dynamoDb.listTablesPaginator(b -> b.limit(2)).tableNames());
        assertThat(all).containsAll(created).isSorted();
        expect(() -> dynamoDb.listTables(b -> b.limit(101)), DynamoDbException.class, "Member must have value less than or equal to 100");
    }

    @Test
    void updateTable_newGlobalIndexIsBackfilled_andDeletedIndexGone() {
        String table = hashTable();
        dynamoDb.putItem(b -> b.tableName(table).item(Map.of("id", s("a"), "kind", s("k"))));
        dynamoDb.putItem(b -> b.tableName(table).item(Map.of("id", s("b"))));

        dynamoDb.updateTable(b -> b.tableName(table).attributeDefinitions(attribute("kind", ScalarAttributeType.S))
                .globalSecondaryIndexUpdates(GlobalSecondaryIndexUpdate.builder().create(c -> c.indexName("ByKind")
                        .keySchema(key("kind", KeyType.HASH)).projection(p -> p.projectionType(ProjectionType.KEYS_ONLY))).build()));

        var found = dynamoDb.query(b -> b.tableName(table).indexName("ByKind").keyConditionExpression("kind = :k")
                .expressionAttributeValues(Map.of(":k", s("k"))));
        assertThat(found.items()).containsExactly(Map.of("id", s("a"), "kind", s("k")));

        dynamoDb.updateTable(b -> b.tableName(table).globalSecondaryIndexUpdates(GlobalSecondaryIndexUpdate.builder()
                .delete(d -> d.indexName("ByKind")).build()));
        assertThat(dynamoDb.describeTable(b -> b.tableName(table)).table().hasGlobalSecondaryIndexes()).isFalse();
    }

    @Test
    void localSecondaryIndex_includeProjection_fetchesFromTheTableForAllAttributes() {
        String table = uniqueName("lsi");
        dynamoDb.createTable(b -> b.tableName(table).billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(attribute("pk", ScalarAttributeType.S), attribute("sk", ScalarAttributeType.S),
                        attribute("alt", ScalarAttributeType.N))
                .keySchema(key("pk", KeyType.HASH), key("sk", KeyType.RANGE))
                .localSecondaryIndexes(l -> l.indexName("ByAlt").keySchema(key("pk", KeyType.HASH), key("alt", KeyType.RANGE))
                        .projection(p -> p.projectionType(ProjectionType.INCLUDE).nonKeyAttributes("shown"))));
        dynamoDb.putItem(b -> b.tableName(table).item(Map.of("pk", s("p"), "sk", s("a"), "alt", n("2"), "shown", s("y"), "hidden", s("z"))));

        var projected = dynamoDb.query(b -> b.tableName(table).indexName("ByAlt").keyConditionExpression("pk = :p")
                .expressionAttributeValues(Map.of(":p", s("p"))));
        var all = dynamoDb.query(b -> b.tableName(table).indexName("ByAlt").keyConditionExpression("pk = :p")
                .expressionAttributeValues(Map.of(":p", s("p"))).select("ALL_ATTRIBUTES"));

        assertThat(projected.items()).containsExactly(Map.of("pk", s("p"), "sk", s("a"), "alt", n("2"), "shown", s("y")));
        assertThat(all.items().get(0)).containsEntry("hidden", s("z"));
    }

    @Test
    void deleteTable_thenGone() {
        String table = hashTable();
        dynamoDb.deleteTable(b -> b.tableName(table));
        expect(() -> dynamoDb.getItem(b -> b.tableName(table).key(Map.of("id", s("a")))),
                ResourceNotFoundException.class, "Requested resource not found");
        expect(() -> dynamoDb.deleteTable(b -> b.tableName(table)), ResourceNotFoundException.class, "not found");
    }

    @Test
    void updateTimeToLive_enableTwiceRefused() {
        String table = hashTable();
        dynamoDb.updateTimeToLive(b -> b.tableName(table).timeToLiveSpecification(t -> t.enabled(true).attributeName("ttl")));
        expect(() -> dynamoDb.updateTimeToLive(b -> b.tableName(table).timeToLiveSpecification(t -> t.enabled(true).attributeName("ttl"))),
                DynamoDbException.class, "TimeToLive is already enabled");
        assertThat(dynamoDb.describeTimeToLive(b -> b.tableName(table)).timeToLiveDescription().timeToLiveStatusAsString()).isEqualTo("ENABLED");
    }
}

package com.multikey.query;

import com.multikey.common.Backoff;
import com.multikey.common.Sleeper;
import com.multikey.index.IndexItem;
import com.multikey.index.IndexProjector;
import com.multikey.index.definition.DefinitionsYaml;
import com.multikey.index.definition.IndexDefinitions;
import com.multikey.testkit.LocalTables;
import com.multikey.testkit.LocalTablesExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/** Several groups of a numeric group attribute: one group spelled two ways (1 and 1.0) is one group, read once. */
@ExtendWith(LocalTablesExtension.class)
class NumericGroupValuesTest {

    private static final IndexDefinitions DEFINITIONS = DefinitionsYaml.parse("""
            version: 1
            table: {partitionKey: {name: pk, type: N}, sortKey: {name: sk, type: S}}
            indexes:
              - name: by-rank
                covers: [{attribute: sk, beginsWith: "I#"}]
                group: pk
                values: {attribute: rank}
                orderBy: num
            """);

    @Test
    void severalGroups_oneNumericGroupSpelledTwoWays_isReadOnce_eachItemListedOnce(LocalTables tables) {
        DynamoDbClient dynamoDb = tables.dynamoDb();
        dynamoDb.createTable(b -> b.tableName("Shelves").billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(a -> a.attributeName("pk").attributeType(ScalarAttributeType.N),
                        a -> a.attributeName("sk").attributeType(ScalarAttributeType.S))
                .keySchema(k -> k.attributeName("pk").keyType(KeyType.HASH), k -> k.attributeName("sk").keyType(KeyType.RANGE)));
        IndexProjector projector = new IndexProjector(DEFINITIONS);
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            Map<String, AttributeValue> item = Map.of("pk", AttributeValue.fromN(i < 5 ? "1" : "2"), "sk", AttributeValue.fromS("I#" + i),
                    "num", AttributeValue.fromN(Integer.toString(i)), "rank", AttributeValue.fromN(Integer.toString(10 * i)));
            dynamoDb.putItem(b -> b.tableName("Shelves").item(item));
            for (IndexItem indexItem : projector.project(projector.keyOf(item).orElseThrow(), item).items()) {
                dynamoDb.putItem(b -> b.tableName("IssueAttribIndexTable").item(indexItem.toItem()));
            }
            expected.add("I#" + i);
        }
        IndexQuery query = new IndexQuery(dynamoDb, "Shelves", "IssueAttribIndexTable", DEFINITIONS,
                new Backoff(Duration.ofMillis(1), Duration.ofMillis(5), new Random(1)), Sleeper.SYSTEM, Duration.ofSeconds(60),
                System::nanoTime, CursorSealer.of(CursorKeys.ephemeral()), GridSettings.NONE);
        PageRequest request = PageRequest.onIndex("by-rank", List.of(AttributeValue.fromN("1")), "", Order.ASC, 3)
                .withGroups(List.of(List.of(AttributeValue.fromN("1")), List.of(AttributeValue.fromN("1.0")), List.of(AttributeValue.fromN("2"))));

        List<String> listed = new ArrayList<>();
        for (int n = 0; request != null && n < 50; n++) {
            Page page = query.page(request);
            page.items().forEach(item -> listed.add(item.get("sk").s()));
            request = page.nextCursor().map(request::after).orElse(null);
        }
        Total total = new Counts(query, dynamoDb, "IssueAttribIndexTable", DEFINITIONS)
                .total(PageRequest.onIndex("by-rank", List.of(AttributeValue.fromN("1")), "", Order.ASC, 3)
                        .withGroups(List.of(List.of(AttributeValue.fromN("1")), List.of(AttributeValue.fromN("1.0")), List.of(AttributeValue.fromN("2")))));

        assertThat(listed).isEqualTo(expected);
        assertThat(total.value()).isEqualTo(8);
    }
}

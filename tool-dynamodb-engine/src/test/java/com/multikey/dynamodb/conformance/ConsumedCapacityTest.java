package com.multikey.dynamodb.conformance;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.TransactGetItem;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * ConsumedCapacity as AWS "Read/write capacity mode" documents it, returned when ReturnConsumedCapacity is TOTAL or
 * INDEXES: one read unit per 4 KB read (rounded up; half as many when eventually consistent), one write unit per 1 KB
 * written (the larger of the item before and after), at least one unit (half for an eventually consistent read), a
 * Query or Scan charged on the sum of what it read, a transaction twice. Item sizes here are those of AWS "Item
 * sizes": attribute names' and strings' UTF-8 lengths.
 */
class ConsumedCapacityTest extends EngineTestSupport {

    /** An item of exactly {@code bytes} bytes: "id" (2) + its id + "data" (4) + a string filling the rest. */
    private static Map<String, AttributeValue> item(String id, int bytes) {
        return Map.of("id", s(id), "data", s("x".repeat(bytes - 2 - id.length() - 4)));
    }

    private static ConsumedCapacity total(String table, double units) {
        return ConsumedCapacity.builder().tableName(table).capacityUnits(units).build();
    }

    @Test
    void getItem_readUnits() {
        String table = hashTable();
        dynamoDb.putItem(b -> b.tableName(table).item(item("big", 5000)));
        dynamoDb.putItem(b -> b.tableName(table).item(item("four", 4096)));

        assertThat(dynamoDb.getItem(b -> b.tableName(table).key(Map.of("id", s("none")))
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)).consumedCapacity()).isEqualTo(total(table, 0.5));
        assertThat(dynamoDb.getItem(b -> b.tableName(table).key(Map.of("id", s("none"))).consistentRead(true)
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)).consumedCapacity()).isEqualTo(total(table, 1));
        assertThat(dynamoDb.getItem(b -> b.tableName(table).key(Map.of("id", s("four")))
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)).consumedCapacity()).isEqualTo(total(table, 0.5));
        assertThat(dynamoDb.getItem(b -> b.tableName(table).key(Map.of("id", s("big")))
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)).consumedCapacity()).isEqualTo(total(table, 1));
        assertThat(dynamoDb.getItem(b -> b.tableName(table).key(Map.of("id", s("big"))).consistentRead(true)
                .returnConsumedCapacity(ReturnConsumedCapacity.INDEXES)).consumedCapacity())
                .isEqualTo(total(table, 2).toBuilder().table(c -> c.capacityUnits(2.0)).build());
        // not asked for: none
        assertThat(dynamoDb.getItem(b -> b.tableName(table).key(Map.of("id", s("big")))).consumedCapacity()).isNull();
        assertThat(dynamoDb.getItem(b -> b.tableName(table).key(Map.of("id", s("big")))
                .returnConsumedCapacity(ReturnConsumedCapacity.NONE)).consumedCapacity()).isNull();
    }

    @Test
    void writes_chargeTheLargerOfBeforeAndAfter() {
        String table = hashTable();

        assertThat(dynamoDb.putItem(b -> b.tableName(table).item(item("a", 1024))
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)).consumedCapacity()).isEqualTo(total(table, 1));
        assertThat(dynamoDb.putItem(b -> b.tableName(table).item(item("a", 2500))
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)).consumedCapacity()).isEqualTo(total(table, 3));
        assertThat(dynamoDb.putItem(b -> b.tableName(table).item(item("a", 100))
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)).consumedCapacity()).isEqualTo(total(table, 3));
        assertThat(dynamoDb.updateItem(b -> b.tableName(table).key(Map.of("id", s("a"))).updateExpression("SET #d = :d")
                        .expressionAttributeNames(Map.of("#d", "data")).expressionAttributeValues(Map.of(":d", s("y".repeat(1500)))).returnConsumedCapacity(ReturnConsumedCapacity.TOTAL))
                .consumedCapacity()).isEqualTo(total(table, 2));
        assertThat(dynamoDb.deleteItem(b -> b.tableName(table).key(Map.of("id", s("a")))
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)).consumedCapacity()).isEqualTo(total(table, 2));
        assertThat(dynamoDb.deleteItem(b -> b.tableName(table).key(Map.of("id", s("a")))
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)).consumedCapacity()).isEqualTo(total(table, 1));
    }

    @Test
    void writes_indexes_perIndexWithINDEXES() {
        String table = rangeTable();
        Map<String, AttributeValue> item = Map.of("pk", s("p"), "sk", n("1"), "grp", s("g"), "rank", n("1"));

        ConsumedCapacity put = dynamoDb.putItem(b -> b.tableName(table).item(item)
                .returnConsumedCapacity(ReturnConsumedCapacity.INDEXES)).consumedCapacity();
        // a new index key: the old entry removed and the new one written
        ConsumedCapacity moved = dynamoDb.updateItem(b -> b.tableName(table).key(Map.of("pk", s("p"), "sk", n("1")))
                .updateExpression("SET #r = :r").expressionAttributeNames(Map.of("#r", "rank"))
                .expressionAttributeValues(Map.of(":r", n("2"))).returnConsumedCapacity(ReturnConsumedCapacity.INDEXES)).consumedCapacity();
        // not in the index: the table alone
        ConsumedCapacity unindexed = dynamoDb.putItem(b -> b.tableName(table).item(Map.of("pk", s("q"), "sk", n("1")))
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)).consumedCapacity();

        assertThat(put.capacityUnits()).isEqualTo(2.0);
        assertThat(put.table().capacityUnits()).isEqualTo(1.0);
        assertThat(put.globalSecondaryIndexes()).containsOnlyKeys("ByGroup");
        assertThat(put.globalSecondaryIndexes().get("ByGroup").capacityUnits()).isEqualTo(1.0);
        assertThat(moved.capacityUnits()).isEqualTo(3.0);
        assertThat(moved.globalSecondaryIndexes().get("ByGroup").capacityUnits()).isEqualTo(2.0);
        assertThat(unindexed).isEqualTo(total(table, 1));
    }

    @Test
    void queryAndScan_chargeTheSumOfWhatTheyRead() {
        String table = hashTable();
        for (int i = 0; i < 5; i++) {
            String id = "item" + i;
            dynamoDb.putItem(b -> b.tableName(table).item(item(id, 2000))); // 10,000 bytes in all: 3 units of 4 KB
        }

        var scan = dynamoDb.scan(b -> b.tableName(table).filterExpression("id = :none")
                .expressionAttributeValues(Map.of(":none", s("none"))).returnConsumedCapacity(ReturnConsumedCapacity.TOTAL));
        var consistent = dynamoDb.scan(b -> b.tableName(table).consistentRead(true).limit(2)
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL));
        var query = dynamoDb.query(b -> b.tableName(table).keyConditionExpression("id = :id")
                .expressionAttributeValues(Map.of(":id", s("item3"))).returnConsumedCapacity(ReturnConsumedCapacity.TOTAL));
        var nothing = dynamoDb.query(b -> b.tableName(table).keyConditionExpression("id = :id")
                .expressionAttributeValues(Map.of(":id", s("none"))).returnConsumedCapacity(ReturnConsumedCapacity.TOTAL));

        assertThat(scan.count()).isZero();
        assertThat(scan.consumedCapacity()).isEqualTo(total(table, 1.5));
        assertThat(consistent.consumedCapacity()).isEqualTo(total(table, 1));
        assertThat(query.consumedCapacity()).isEqualTo(total(table, 0.5));
        assertThat(nothing.consumedCapacity()).isEqualTo(total(table, 0.5));
    }

    @Test
    void query_onAnIndex_chargesTheIndex() {
        String table = rangeTable();
        dynamoDb.putItem(b -> b.tableName(table).item(Map.of("pk", s("p"), "sk", n("1"), "grp", s("g"), "rank", n("1"))));

        ConsumedCapacity capacity = dynamoDb.query(b -> b.tableName(table).indexName("ByGroup").keyConditionExpression("grp = :g")
                .expressionAttributeValues(Map.of(":g", s("g"))).returnConsumedCapacity(ReturnConsumedCapacity.INDEXES)).consumedCapacity();

        assertThat(capacity.capacityUnits()).isEqualTo(0.5);
        assertThat(capacity.table().capacityUnits()).isEqualTo(0.0);
        assertThat(capacity.globalSecondaryIndexes().get("ByGroup").capacityUnits()).isEqualTo(0.5);
    }

    @Test
    void batches_perTable_eachItemRoundedOnItsOwn() {
        String table = hashTable();
        String other = hashTable();
        var written = dynamoDb.batchWriteItem(b -> b.returnConsumedCapacity(ReturnConsumedCapacity.TOTAL).requestItems(Map.of(
                table, List.of(WriteRequest.builder().putRequest(p -> p.item(item("a", 1500))).build(),
                        WriteRequest.builder().putRequest(p -> p.item(item("b", 100))).build()),
                other, List.of(WriteRequest.builder().deleteRequest(d -> d.key(Map.of("id", s("none")))).build())))).consumedCapacity();
        var read = dynamoDb.batchGetItem(b -> b.returnConsumedCapacity(ReturnConsumedCapacity.TOTAL).requestItems(Map.of(
                table, KeysAndAttributes.builder().keys(Map.of("id", s("a")), Map.of("id", s("b")), Map.of("id", s("none"))).build(),
                other, KeysAndAttributes.builder().consistentRead(true).keys(Map.of("id", s("none"))).build()))).consumedCapacity();

        assertThat(written).containsExactlyInAnyOrder(total(table, 3), total(other, 1));
        assertThat(read).containsExactlyInAnyOrder(total(table, 1.5), total(other, 1));
    }

    @Test
    void transactions_costTwice() {
        String table = hashTable();
        var written = dynamoDb.transactWriteItems(b -> b.returnConsumedCapacity(ReturnConsumedCapacity.TOTAL).transactItems(
                TransactWriteItem.builder().put(p -> p.tableName(table).item(item("a", 1500))).build(),
                TransactWriteItem.builder().put(p -> p.tableName(table).item(item("b", 100))).build())).consumedCapacity();
        var read = dynamoDb.transactGetItems(b -> b.returnConsumedCapacity(ReturnConsumedCapacity.TOTAL).transactItems(
                TransactGetItem.builder().get(g -> g.tableName(table).key(Map.of("id", s("a")))).build(),
                TransactGetItem.builder().get(g -> g.tableName(table).key(Map.of("id", s("none")))).build())).consumedCapacity();

        assertThat(written).containsExactly(total(table, 6));
        assertThat(read).containsExactly(total(table, 4));
    }
}

package com.multikey.indexer;

import com.multikey.common.Backoff;
import com.multikey.common.Deadline;
import com.multikey.common.Sleeper;
import com.multikey.index.ItemKey;
import com.multikey.testkit.LocalTables;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/** Item states in a table of the DynamoDB engine: read back as written, and written only over the state read. */
class DynamoDbItemStatesTest {

    private static LocalTables tables;
    private static DynamoDbClient dynamoDb;
    private static int tableCount;

    private DynamoDbItemStates states;

    @BeforeAll
    static void start() {
        tables = LocalTables.start();
        dynamoDb = tables.dynamoDb();
    }

    @AfterAll
    static void stop() {
        tables.close();
    }

    private DynamoDbItemStates newTable() {
        String name = "ItemStates" + tableCount++;
        dynamoDb.createTable(b -> b.tableName(name).billingMode(BillingMode.PAY_PER_REQUEST)
                .keySchema(k -> k.attributeName("itemKey").keyType(KeyType.HASH))
                .attributeDefinitions(a -> a.attributeName("itemKey").attributeType(ScalarAttributeType.S)));
        return new DynamoDbItemStates(dynamoDb, name, new Backoff(Duration.ofMillis(1), Duration.ofMillis(5), new Random(1)), Sleeper.SYSTEM);
    }

    private static Deadline minute() {
        return Deadline.after(Duration.ofMinutes(1));
    }

    @Test
    void write_thenRead_returnsTheStateAndTombstone() {
        // given
        states = newTable();
        ItemKey a = ItemKey.ofString("id", "issue#a");
        ItemKey b = new ItemKey(Map.of("pk", AttributeValue.fromS("p"), "sk", AttributeValue.fromN("2")));
        ItemState alive = new ItemState(a, 1_700_000_000_000_001L, "e1", Map.of("id", AttributeValue.fromS("issue#a"),
                "custom_fields", AttributeValue.fromM(Map.of("f1", AttributeValue.fromS("x")))));
        ItemState removed = new ItemState(b, 1_700_000_000_000_002L, "e2", null);

        // when
        assertThat(states.write(alive, Optional.empty(), minute())).isTrue();
        assertThat(states.write(removed, Optional.empty(), minute())).isTrue();

        // then
        assertThat(states.read(List.of(a, b, ItemKey.ofString("id", "issue#none")), minute()))
                .containsExactlyInAnyOrderEntriesOf(Map.of(a, alive, b, removed));
    }

    @Test
    void write_overAStateNotTheOneRead_isRefused() {
        // given
        states = newTable();
        ItemKey a = ItemKey.ofString("id", "issue#a");
        ItemState first = new ItemState(a, 10, "e1", Map.of("id", AttributeValue.fromS("issue#a")));
        ItemState second = new ItemState(a, 20, "e2", null);
        states.write(first, Optional.empty(), minute());

        // when, then
        assertThat(states.write(second, Optional.empty(), minute())).as("a state exists").isFalse();
        assertThat(states.write(second, Optional.of(new ItemState(a, 10, "other", null)), minute())).as("another event").isFalse();
        assertThat(states.write(second, Optional.of(first), minute())).isTrue();
        assertThat(states.read(List.of(a), minute())).containsEntry(a, second);
    }

    @Test
    void read_ofMoreThanOneCallsKeys_findsEveryState() {
        // given
        states = newTable();
        List<ItemKey> items = IntStream.range(0, 230).mapToObj(i -> ItemKey.ofString("id", "issue#" + i)).toList();
        items.forEach(item -> states.write(new ItemState(item, 5, "e", null), Optional.empty(), minute()));

        // when, then
        assertThat(states.read(items, minute())).hasSize(230);
    }
}

package com.multikey.local;

import com.multikey.emulator.TemplateRuntime;
import com.multikey.emulator.template.SamTemplate;
import com.multikey.emulator.template.TemplateException;
import com.multikey.testkit.IssueFixtures;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The stack given an existing table ({@code ExistingTableName}, {@code ExistingTableStreamArn}) instead of creating
 * {@code AppTable}: it creates no app table, and the indexer, the router, delete-layer (through TTL expiry), the
 * reindex worker and redrive all use the given table and its stream.
 */
class ExistingTableIT {

    private static final String TABLE = "Orders";
    private static final String TABLE_ARN = "arn:aws:dynamodb:us-east-1:123456789012:table/" + TABLE;
    // the engine labels a stream when it is enabled: locally the table's latest stream is read, whatever the label
    private static final String STREAM_ARN = TABLE_ARN + "/stream/2026-01-01T00:00:00.000";

    private final List<String> lines = new CopyOnWriteArrayList<>();

    private static SamTemplate template() {
        return SamTemplate.ofRepository().withParameterOverrides(Map.of("ExistingTableName", TABLE, "ExistingTableStreamArn", STREAM_ARN));
    }

    /** The table as its owner made it, before the stack: key {@code id}, both images on its stream, TTL on expiresAt. */
    private static void createTable(DynamoDbClient dynamoDb, boolean stream) {
        dynamoDb.createTable(b -> {
            b.tableName(TABLE).billingMode("PAY_PER_REQUEST")
                    .attributeDefinitions(a -> a.attributeName("id").attributeType(ScalarAttributeType.S))
                    .keySchema(k -> k.attributeName("id").keyType(KeyType.HASH));
            if (stream) {
                b.streamSpecification(s -> s.streamEnabled(true).streamViewType(StreamViewType.NEW_AND_OLD_IMAGES));
            }
        });
        dynamoDb.updateTimeToLive(b -> b.tableName(TABLE).timeToLiveSpecification(t -> t.enabled(true).attributeName("expiresAt")));
    }

    private TemplateRuntime runtime(Consumer<DynamoDbClient> existing) {
        return new TemplateRuntime(template(), new TemplateRuntime.Ports("127.0.0.1", 0, 0, 0), lines::add, existing);
    }

    @Test
    void stack_givenAnExistingTable_createsNoAppTable_andIndexesRoutesAndExpiresOnTheGivenTable() throws InterruptedException {
        try (TemplateRuntime runtime = runtime(dynamoDb -> createTable(dynamoDb, true))) {
            // given
            DynamoDbClient client = runtime.dynamoDb();
            runtime.startPolling();

            // when
            for (int i = 1; i <= 3; i++) {
                String n = Integer.toString(i);
                client.putItem(b -> b.tableName(TABLE).item(issue(n)));
            }
            client.deleteItem(b -> b.tableName(TABLE).key(Map.of("id", AttributeValue.fromS("issue#3"))));
            client.putItem(b -> b.tableName(TABLE).item(Map.of("id", AttributeValue.fromS("layer#us-east-1#requests#12"),
                    "arn", AttributeValue.fromS("arn:aws:lambda:us-east-1:123456789012:layer:multikey-requests:12"),
                    "expiresAt", AttributeValue.fromN(Long.toString(Instant.now().getEpochSecond() - 5)))));

            // then
            assertThat(runtime.awaitQuiet(Duration.ofSeconds(60))).as(String.join("\n", lines)).isTrue();
            assertThat(client.listTables().tableNames()).contains(TABLE, "IssueAttribIndexTable").doesNotContain("AppTable");
            assertThat(IssueFixtures.storedIndex(client, "IssueAttribIndexTable"))
                    .isNotEmpty().isEqualTo(IssueFixtures.expectedIndex(client, TABLE, IssueFixtures.recorded(client, "IssueAttribIndexTable")));
            assertThat(runtime.bus().received()).isNotEmpty().allSatisfy(event ->
                    assertThat(event.envelope().path("resources").toString()).isEqualTo("[\"" + TABLE_ARN + "\"]"));
            assertThat(runtime.busRules().targetCalls()).singleElement().satisfies(call -> {
                assertThat(call.function()).isEqualTo("DeleteLayerFunction");
                assertThat(call.result()).contains("tombstone WRITTEN");
            });
            assertThat(client.getItem(b -> b.tableName(TABLE).key(Map.of("id", AttributeValue.fromS("layer#us-east-1#requests#12"))))
                    .item()).as("the tombstone, in the given table").containsKey("deletedAt");
            for (String function : List.of("StreamIndexerFunction", "DeleteLayerFunction", "ReindexWorkerFunction", "RedriveFunction")) {
                assertThat(runtime.environment(function)).as(function).containsEntry("APP_TABLE_NAME", TABLE);
            }
            assertThat(runtime.environment("RouterFunction")).containsEntry("TABLE_ARN", TABLE_ARN);
        }
    }

    @Test
    void stack_givenATableThatDoesNotExist_isRefused_namingIt() {
        assertThatThrownBy(() -> runtime(dynamoDb -> { }).close())
                .isInstanceOf(TemplateException.class)
                .hasMessageContaining("StreamIndexerFunctionAppTableStream.EventSourceArn: the stream ARN names table Orders, which does not exist");
    }

    @Test
    void stack_givenATableWithoutAStream_isRefused_namingWhatToSet() {
        assertThatThrownBy(() -> runtime(dynamoDb -> createTable(dynamoDb, false)).close())
                .isInstanceOf(TemplateException.class)
                .hasMessageContaining("table Orders has no stream enabled (StreamViewType NEW_AND_OLD_IMAGES)");
    }

    private static Map<String, AttributeValue> issue(String n) {
        return Map.of("id", AttributeValue.fromS("issue#" + n), "project", AttributeValue.fromS("project#1"),
                "num", AttributeValue.fromN(n), "custom_fields", AttributeValue.fromM(Map.of(
                        "size", AttributeValue.fromN(Integer.toString(10 - Integer.parseInt(n))),
                        "tags", AttributeValue.fromSs(List.of("a", "b" + n)))));
    }
}

package com.multikey.local;

import com.multikey.emulator.TemplateRuntime;
import com.multikey.emulator.services.dynamodb.LocalDynamoDb;
import com.multikey.emulator.template.SamTemplate;
import com.multikey.testkit.IssueFixtures;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;

/** 'start' end to end: a separate AWS SDK client writes over HTTP, the running stack does the rest. */
class TemplateRuntimeIT {

    private static TemplateRuntime runtime;
    private static DynamoDbClient client;
    private static final List<String> lines = new CopyOnWriteArrayList<>();

    @BeforeAll
    static void start() {
        runtime = new TemplateRuntime(SamTemplate.ofRepository(), 0, lines::add);
        runtime.startPolling();
        client = DynamoDbClient.builder().endpointOverride(runtime.dynamoDbLocal().endpoint()).region(LocalDynamoDb.REGION)
                .credentialsProvider(LocalDynamoDb.credentials()).httpClient(UrlConnectionHttpClient.create()).build();
    }

    @AfterAll
    static void stop() {
        client.close();
        runtime.close();
    }

    private static AttributeValue s(String value) {
        return AttributeValue.fromS(value);
    }

    private static void put(Map<String, AttributeValue> item) {
        client.putItem(b -> b.tableName("AppTable").item(item));
    }

    @Test
    void aClientWithOtherCredentialsAndRegion_seesTheSameTables_asInOneAccount() {
        try (DynamoDbClient other = DynamoDbClient.builder().endpointOverride(runtime.dynamoDbLocal().endpoint())
                .region(software.amazon.awssdk.regions.Region.EU_WEST_1)
                .credentialsProvider(software.amazon.awssdk.auth.credentials.StaticCredentialsProvider.create(
                        software.amazon.awssdk.auth.credentials.AwsBasicCredentials.create("AKIAOTHERKEY", "other-secret")))
                .httpClient(UrlConnectionHttpClient.create()).build()) {
            assertThat(other.listTables().tableNames()).contains("AppTable", "IssueAttribIndexTable");
        }
    }

    @Test
    void clientWrites_areIndexedAndRouted_andExpiredLayersDeletedExactlyOnce() throws InterruptedException {
        for (int i = 1; i <= 3; i++) {
            put(Map.of("id", s("issue#" + i), "project", s("project#1"), "num", AttributeValue.fromN(Integer.toString(i)),
                    "custom_fields", AttributeValue.fromM(Map.of("size", AttributeValue.fromN(Integer.toString(10 - i)),
                            "tags", AttributeValue.fromSs(List.of("a", "b" + i))))));
        }
        client.updateItem(b -> b.tableName("AppTable").key(Map.of("id", s("issue#2")))
                .updateExpression("SET custom_fields.#size = :v").expressionAttributeNames(Map.of("#size", "size"))
                .expressionAttributeValues(Map.of(":v", AttributeValue.fromN("100"))));
        client.deleteItem(b -> b.tableName("AppTable").key(Map.of("id", s("issue#3"))));
        put(Map.of("id", s("layer#us-east-1#requests#12"),
                "arn", s("arn:aws:lambda:us-east-1:123456789012:layer:multikey-requests:12"),
                "expiresAt", AttributeValue.fromN(Long.toString(Instant.now().getEpochSecond() - 5))));
        put(Map.of("id", s("layer#us-east-1#requests#11"),
                "arn", s("arn:aws:lambda:us-east-1:123456789012:layer:multikey-requests:11")));
        client.deleteItem(b -> b.tableName("AppTable").key(Map.of("id", s("layer#us-east-1#requests#11"))));

        assertThat(runtime.awaitQuiet(Duration.ofSeconds(60))).as(String.join("\n", lines)).isTrue();

        assertThat(indexItems()).isEqualTo(expectedIndex()).hasSize(6);
        assertThat(query("size")).containsExactly("issue#1", "issue#2");
        assertThat(runtime.lambdaApi().calls()).singleElement()
                .satisfies(call -> assertThat(call.path()).isEqualTo("/2018-10-31/layers/multikey-requests/versions/12"));
        assertThat(runtime.busRules().targetCalls()).singleElement().satisfies(call -> {
            assertThat(call.function()).isEqualTo("DeleteLayerFunction");
            assertThat(call.result()).contains("tombstone WRITTEN");
        });
        assertThat(runtime.busRules().routed()).filteredOn(e -> e.detailType().equals("Layer Removed"))
                .singleElement().satisfies(e -> assertThat(e.rules()).isEmpty());
        assertThat(runtime.busRules().routed()).filteredOn(e -> e.detailType().equals("Layer Expired"))
                .singleElement().satisfies(e -> assertThat(e.rules()).containsExactly("LayerExpiredRule"));
        assertThat(lines).anyMatch(line -> line.startsWith("StreamIndexerFunction: batch of"))
                .anyMatch(line -> line.startsWith("RouterFunction: batch of"))
                .anyMatch(line -> line.startsWith("TTL: expired {\"id\":\"layer#us-east-1#requests#12\"}"));
    }

    /** A field's items of project#1 in the grid's order (a new stack's grid: grouped by project). */
    private static List<String> query(String attribId) {
        return client.query(b -> b.tableName("IssueAttribIndexTable").keyConditionExpression("attribId = :a")
                        .expressionAttributeValues(Map.of(":a", s("issue-grid|project#1|" + attribId))))
                .items().stream().map(i -> i.get("itemKey").m().get("id").s()).toList();
    }

    private static Set<Map<String, AttributeValue>> indexItems() {
        return IssueFixtures.storedIndex(client, "IssueAttribIndexTable");
    }

    private static Set<Map<String, AttributeValue>> expectedIndex() {
        return IssueFixtures.expectedIndex(client, "AppTable", IssueFixtures.recorded(client, "IssueAttribIndexTable"));
    }
}

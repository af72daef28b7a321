package com.multikey.local;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
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

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The stack deployed with StreamReaders one on the emulator ({@code local.jar start --stream-readers one}): one event
 * source mapping reads the stream, and its consumer, from the stream indexer's deployable jar, both indexes and routes.
 */
class OneStreamReaderIT {

    private static TemplateRuntime runtime;
    private static DynamoDbClient client;
    private static final List<String> lines = new CopyOnWriteArrayList<>();

    @BeforeAll
    static void start() {
        runtime = new TemplateRuntime(SamTemplate.ofRepository().withParameterOverrides(Map.of("StreamReaders", "one")), 0, lines::add);
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

    @Test
    void oneMappingReadsTheStream_andItsConsumerIndexesAndRoutes() throws Exception {
        // given
        String streamArn = client.describeTable(b -> b.tableName("AppTable")).table().latestStreamArn();

        // when
        for (int i = 1; i <= 3; i++) {
            client.putItem(b -> b.tableName("AppTable").item(Map.of("id", s("issue#" + 0), "project", s("project#1"),
                    "num", AttributeValue.fromN("7"), "custom_fields", AttributeValue.fromM(Map.of("size", AttributeValue.fromN("1"))))));
        }
        client.putItem(b -> b.tableName("AppTable").item(Map.of("id", s("issue#1"), "project", s("project#1"),
                "num", AttributeValue.fromN("1"), "custom_fields", AttributeValue.fromM(Map.of("size", AttributeValue.fromN("9"),
                        "tags", AttributeValue.fromSs(List.of("a", "b")))))));
        client.deleteItem(b -> b.tableName("AppTable").key(Map.of("id", s("issue#0"))));
        client.putItem(b -> b.tableName("AppTable").item(Map.of("id", s("layer#us-east-1#requests#12"),
                "arn", s("arn:aws:lambda:us-east-1:123456789012:layer:multikey-requests:12"),
                "expiresAt", AttributeValue.fromN(Long.toString(Instant.now().getEpochSecond() - 5)))));

        // then
        assertThat(runtime.awaitQuiet(Duration.ofSeconds(60))).as(String.join("\n", lines)).isTrue();
        assertThat(IssueFixtures.storedIndex(client, "IssueAttribIndexTable")).isEqualTo(IssueFixtures.expectedIndex(client, "AppTable",
                IssueFixtures.recorded(client, "IssueAttribIndexTable"))).hasSize(3);
        assertThat(runtime.busRules().routed()).extracting(e -> e.detailType())
                .as("the tombstone delete-layer writes is a change too").containsExactlyInAnyOrder("Issue Created", "Issue Created", "Issue Removed", "Layer Created", "Layer Expired", "Layer Created");
        assertThat(runtime.busRules().targetCalls()).singleElement().satisfies(call -> assertThat(call.result()).contains("tombstone WRITTEN"));
        assertThat(lines).anyMatch(line -> line.startsWith("StreamIndexerFunction: batch of"))
                .noneMatch(line -> line.startsWith("RouterFunction"));
        assertThat(runtime.functionIds()).doesNotContain("RouterFunction");
        assertThat(mappings(streamArn)).as("the stream's readers, as ListEventSourceMappings lists them")
                .singleElement().satisfies(arn -> assertThat(arn).contains(":function:").contains("StreamIndexerFunction").endsWith(":live"));
    }

    private static List<String> mappings(String streamArn) throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(runtime.lambdaApi().endpoint()
                + "/2015-03-31/event-source-mappings/?EventSourceArn=" + URLEncoder.encode(streamArn, StandardCharsets.UTF_8))).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(200);
        List<String> functions = new ArrayList<>();
        for (JsonNode mapping : new ObjectMapper().readTree(response.body()).path("EventSourceMappings")) {
            functions.add(mapping.path("FunctionArn").asText());
        }
        return functions;
    }
}

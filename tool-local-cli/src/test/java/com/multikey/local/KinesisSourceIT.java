package com.multikey.local;

import com.fasterxml.jackson.databind.JsonNode;
import com.multikey.emulator.TemplateRuntime;
import com.multikey.emulator.services.bus.LocalEventBridge;
import com.multikey.emulator.services.dynamodb.LocalDynamoDb;
import com.multikey.emulator.services.kinesis.KinesisFaults;
import com.multikey.emulator.template.SamTemplate;
import com.multikey.testkit.IssueFixtures;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The stack deployed with StreamSource kinesis on the emulator ({@code local.jar start --stream-source kinesis}): the
 * table's Kinesis streaming destination puts its changes on the local data stream, with duplicates and reordering on,
 * and the Kinesis event source mappings deliver them to the order-independent indexer and to the router. The index is
 * exact; the events arrive, none lost, some twice and some out of order.
 */
class KinesisSourceIT {

    private static TemplateRuntime runtime;
    private static DynamoDbClient client;
    private static final List<String> lines = new CopyOnWriteArrayList<>();

    @BeforeAll
    static void start() {
        runtime = new TemplateRuntime(SamTemplate.ofRepository().withParameterOverrides(Map.of("StreamSource", "kinesis")), 0, lines::add);
        runtime.kinesisFaults(new KinesisFaults(0.3, 8, 36));
        runtime.startPolling();
        client = DynamoDbClient.builder().endpointOverride(runtime.dynamoDbLocal().endpoint()).region(LocalDynamoDb.REGION)
                .credentialsProvider(LocalDynamoDb.credentials()).httpClient(UrlConnectionHttpClient.create()).build();
    }

    @AfterAll
    static void stop() {
        client.close();
        runtime.close();
    }

    @Test
    void randomHistoryWithDuplicatesAndReordering_indexIsExact_andEventsArriveTwiceAndOutOfOrder() throws Exception {
        // given: a random history of puts and deletes on a few items, so each item changes many times
        Random random = new Random(36);
        int changes = 0;
        Map<String, Boolean> present = new HashMap<>();

        // when
        for (int step = 0; step < 240; step++) {
            String id = "issue#" + random.nextInt(12);
            if (present.getOrDefault(id, false) && random.nextInt(4) == 0) {
                client.deleteItem(b -> b.tableName("AppTable").key(Map.of("id", AttributeValue.fromS(id))));
                present.put(id, false);
            } else {
                client.putItem(b -> b.tableName("AppTable").item(IssueFixtures.randomIssue(id, random.nextInt(50), random, 1 + random.nextInt(4))));
                present.put(id, true);
            }
            changes++;
        }

        // then
        assertThat(runtime.awaitQuiet(Duration.ofSeconds(120))).as(String.join("\n", lines)).isTrue();
        assertThat(IssueFixtures.storedIndex(client, "IssueAttribIndexTable")).as("the index, exact")
                .isEqualTo(IssueFixtures.expectedIndex(client, "AppTable", IssueFixtures.recorded(client, "IssueAttribIndexTable")));
        assertThat(runtime.kinesisDuplicates()).as("changes put twice on the stream").isPositive();

        List<JsonNode> details = runtime.bus().received().stream().map(LocalEventBridge.Received::envelope)
                .map(e -> (JsonNode) e.path("detail")).toList();
        Set<String> eventIds = new HashSet<>();
        details.forEach(d -> eventIds.add(d.path("eventId").asText()));
        assertThat(eventIds).as("every change sent, none lost").hasSizeGreaterThanOrEqualTo(changes);
        assertThat(details.size()).as("some changes sent twice").isGreaterThan(eventIds.size());
        assertThat(outOfOrder(details)).as("some item's events out of the order of its changes").isPositive();
        assertThat(runtime.onFailure().values()).allSatisfy(batches -> assertThat(batches).isEmpty());
        assertThat(readersOf(runtime.kinesis().streams().arn("AppTableChangesStream")))
                .as("the Kinesis stream's readers, as ListEventSourceMappings lists them").hasSize(2);
    }

    @Test
    void kinesisEndpoint_servesWhatAnEventSourceNeeds() throws Exception {
        // given
        String stream = "AppTableChangesStream";

        // when
        JsonNode shards = runtime.kinesis().call("ListShards", Map.of("StreamName", stream));
        String shardId = shards.path("Shards").get(0).path("ShardId").asText();
        JsonNode iterator = post("GetShardIterator", "{\"StreamName\":\"" + stream + "\",\"ShardId\":\"" + shardId
                + "\",\"ShardIteratorType\":\"TRIM_HORIZON\"}");
        JsonNode summary = post("DescribeStreamSummary", "{\"StreamName\":\"" + stream + "\"}");
        JsonNode put = post("PutRecord", "{\"StreamName\":\"" + stream + "\",\"PartitionKey\":\"k\",\"Data\":\"e30=\"}");

        // then
        assertThat(shards.path("Shards")).hasSize(4);
        assertThat(summary.path("StreamDescriptionSummary").path("OpenShardCount").asInt()).isEqualTo(4);
        assertThat(put.path("SequenceNumber").asText()).isNotEmpty();
        JsonNode records = post("GetRecords", "{\"ShardIterator\":\"" + iterator.path("ShardIterator").asText() + "\",\"Limit\":5}");
        assertThat(records.has("NextShardIterator")).isTrue();
        assertThat(records.path("Records")).allSatisfy(r -> {
            assertThat(r.path("PartitionKey").asText()).isNotEmpty();
            assertThat(r.path("Data").asText()).isNotEmpty();
        });
    }

    /** How many events came after a later change of the same item (by approximateCreationDateTime). */
    private static int outOfOrder(List<JsonNode> details) {
        Map<String, String> latest = new HashMap<>();
        int late = 0;
        for (JsonNode detail : details) {
            String item = detail.path("keys").toString();
            String time = detail.path("approximateCreationDateTime").asText();
            String before = latest.get(item);
            if (before != null && Instant.parse(time).isBefore(Instant.parse(before))) {
                late++;
            } else {
                latest.put(item, time);
            }
        }
        return late;
    }

    private static JsonNode post(String operation, String body) throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(runtime.kinesis().endpoint())
                .header("X-Amz-Target", "Kinesis_20131202." + operation).header("Content-Type", "application/x-amz-json-1.1")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return new com.fasterxml.jackson.databind.ObjectMapper().readTree(response.body());
    }

    private static List<String> readersOf(String streamArn) throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(runtime.lambdaApi().endpoint()
                + "/2015-03-31/event-source-mappings/?EventSourceArn=" + java.net.URLEncoder.encode(streamArn, java.nio.charset.StandardCharsets.UTF_8)))
                .GET().build(), HttpResponse.BodyHandlers.ofString());
        List<String> functions = new ArrayList<>();
        for (JsonNode mapping : new com.fasterxml.jackson.databind.ObjectMapper().readTree(response.body()).path("EventSourceMappings")) {
            functions.add(mapping.path("FunctionArn").asText());
        }
        return functions;
    }
}

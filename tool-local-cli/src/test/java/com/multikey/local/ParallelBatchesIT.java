package com.multikey.local;

import com.fasterxml.jackson.databind.JsonNode;
import com.multikey.emulator.TemplateRuntime;
import com.multikey.emulator.services.bus.LocalEventBridge;
import com.multikey.emulator.services.streams.StreamTail;
import com.multikey.emulator.template.SamTemplate;
import com.multikey.testkit.IssueFixtures;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Both stream consumers with a ParallelizationFactor of 4, through the template's runtime: many issues with
 * several changes each, function errors injected after the indexer and the router did their work, and events
 * the bus refuses on their first attempt (real partial batch responses). The index ends exact, and no consumer
 * of the bus ever sees an item's change before the changes that came before it.
 */
class ParallelBatchesIT {

    private static final int ISSUES = 60;
    private static final int VERSIONS = 5;

    private static TemplateRuntime runtime;
    private static DynamoDbClient client;
    private static final List<String> lines = new CopyOnWriteArrayList<>();

    @BeforeAll
    static void start() {
        SamTemplate template = SamTemplate.ofRepository().withParameterOverrides(Map.of(
                "StreamIndexerParallelizationFactor", "4", "RouterParallelizationFactor", "4"));
        runtime = new TemplateRuntime(template, 0, lines::add);
        client = runtime.dynamoDb();
    }

    @AfterAll
    static void stop() {
        runtime.close();
    }

    private static Map<String, AttributeValue> issue(int i, int version) {
        Map<String, AttributeValue> item = new LinkedHashMap<>();
        item.put("id", AttributeValue.fromS("issue#" + i));
        item.put("project", AttributeValue.fromS("project#p"));
        item.put("num", AttributeValue.fromN(Integer.toString(i)));
        item.put("name", AttributeValue.fromS("v" + version));
        item.put("custom_fields", AttributeValue.fromM(Map.of(
                "size", AttributeValue.fromN(Integer.toString(version * 100 + i)),
                "tags", AttributeValue.fromSs(List.of("t" + version, "t" + (version + i) % 7 + "x")))));
        return item;
    }

    @Test
    void withFourConcurrentBatchesPerShard_andInjectedFailures_theIndexIsExact_andEachItemsEventsInOrder() throws InterruptedException {
        // given: every batch holding a record of issue#5, issue#17 or issue#42 fails once after the indexer ran;
        // every router batch holding issue#23's third change fails once after the router ran
        Set<String> indexerFailed = ConcurrentHashMap.newKeySet();
        Set<String> routerFailed = ConcurrentHashMap.newKeySet();
        Map<String, String> sequenceOf = new ConcurrentHashMap<>();
        runtime.invocationFaults("StreamIndexerFunction", sequenceNumbers -> sequenceNumbers.stream()
                .anyMatch(n -> Set.of("issue#5", "issue#17", "issue#42").contains(sequenceOf.get(n)) && indexerFailed.add(n)));
        runtime.invocationFaults("RouterFunction", sequenceNumbers -> sequenceNumbers.stream()
                .anyMatch(n -> "issue#23/v2".equals(sequenceOf.get(n + "/v")) && routerFailed.add(n)));
        // the bus refuses the first attempt of every fourth issue's second change as a setup error: the router
        // reports it and the item's later records as batch item failures
        Set<String> refusedOnce = ConcurrentHashMap.newKeySet();
        runtime.bus().faults((call, entry) -> {
            JsonNode detail = readDetail(entry);
            String id = detail.at("/keys/id").asText();
            boolean pick = id.startsWith("issue#") && Integer.parseInt(id.substring(6)) % 4 == 0
                    && "v1".equals(detail.at("/newImage/name").asText());
            return pick && refusedOnce.add(id) ? Optional.of("AccessDeniedException") : Optional.empty();
        });

        // when: 60 issues, 5 versions each, interleaved
        for (int version = 0; version < VERSIONS; version++) {
            for (int i = 0; i < ISSUES; i++) {
                Map<String, AttributeValue> item = issue(i, version);
                client.putItem(b -> b.tableName("AppTable").item(item));
            }
        }
        // the faults name records by sequence number: learn them from the stream as the mappings will see them
        mapSequenceNumbers(sequenceOf);
        runtime.startPolling();

        // then
        assertThat(runtime.awaitQuiet(Duration.ofSeconds(120))).as(String.join("\n", lines)).isTrue();
        assertThat(indexerFailed).as("indexer faults injected").isNotEmpty();
        assertThat(routerFailed).as("router faults injected").isNotEmpty();
        assertThat(refusedOnce).as("bus refusals injected").hasSize(ISSUES / 4);
        assertThat(lines).anyMatch(line -> line.contains("reported failed; delivering again"));
        assertThat(runtime.onFailure().values()).allMatch(List::isEmpty);

        assertThat(indexItems()).isEqualTo(expectedIndex()).hasSize(ISSUES * 3);

        Map<String, List<Integer>> arrivals = new LinkedHashMap<>();
        for (LocalEventBridge.Received received : runtime.bus().received()) {
            String id = received.envelope().at("/detail/keys/id").asText();
            if (id.startsWith("issue#")) {
                arrivals.computeIfAbsent(id, k -> new ArrayList<>())
                        .add(Integer.parseInt(received.envelope().at("/detail/newImage/name").asText().substring(1)));
            }
        }
        assertThat(arrivals).hasSize(ISSUES);
        arrivals.forEach((id, versions) -> {
            // delivery is at least once: a redelivered batch may repeat changes already sent, but a change never
            // arrives before every earlier change of its item has
            Set<Integer> seen = new HashSet<>();
            for (int version : versions) {
                for (int earlier = 0; earlier < version; earlier++) {
                    assertThat(seen).as(id + " v" + version + " arrived before v" + earlier + ": " + versions).contains(earlier);
                }
                seen.add(version);
            }
            assertThat(seen).as(id).hasSize(VERSIONS);
        });
    }

    /** Each stream record's sequence number, to its item id (and its item id and version, under {@code n + "/v"}). */
    private static void mapSequenceNumbers(Map<String, String> sequenceOf) {
        try (var streams = runtime.dynamoDbLocal().streamsClient()) {
            new StreamTail(client, streams, "AppTable").poll().forEach(record -> {
                String id = record.dynamodb().keys().get("id").s();
                sequenceOf.put(record.dynamodb().sequenceNumber(), id);
                sequenceOf.put(record.dynamodb().sequenceNumber() + "/v", id + "/" + record.dynamodb().newImage().get("name").s());
            });
        }
        assertThat(sequenceOf).hasSize(2 * ISSUES * VERSIONS);
    }

    private static JsonNode readDetail(JsonNode entry) {
        try {
            return new com.fasterxml.jackson.databind.ObjectMapper().readTree(entry.path("Detail").asText());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static Set<Map<String, AttributeValue>> indexItems() {
        return IssueFixtures.storedIndex(client, "IssueAttribIndexTable");
    }

    private static Set<Map<String, AttributeValue>> expectedIndex() {
        return IssueFixtures.expectedIndex(client, "AppTable", IssueFixtures.recorded(client, "IssueAttribIndexTable"));
    }
}

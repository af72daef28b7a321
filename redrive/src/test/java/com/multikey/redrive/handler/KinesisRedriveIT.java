package com.multikey.redrive.handler;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.multikey.emulator.TemplateRuntime;
import com.multikey.emulator.services.bus.LocalEventBridge;
import com.multikey.emulator.template.SamTemplate;
import com.multikey.redrive.OnFailureRecord;
import com.multikey.reindex.IndexScope;
import com.multikey.reindex.Verifier;
import com.multikey.testkit.IssueFixtures;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Redrive of the Kinesis source's failure queues end to end on the local runtime ({@code StreamSource} kinesis: the
 * table's Kinesis streaming destination, the local Kinesis endpoint, the Kinesis event source mappings), through the
 * deployable redrive function from its jar: a batch given up on leaves its {@code KinesisBatchInfo} record in the
 * queue, and redrive reads the range back from the data stream (GetShardIterator, GetRecords on the local endpoint).
 */
class KinesisRedriveIT {

    private static final String APP = "AppTable";
    private static final String INDEX = "IssueAttribIndexTable";
    private static final String INDEXER_QUEUE = "StreamIndexerFailureQueue";
    private static final String ROUTER_QUEUE = "RouterFailureQueue";
    private static final Duration QUIET = Duration.ofSeconds(60);

    private final List<String> lines = new CopyOnWriteArrayList<>();
    private TemplateRuntime runtime;
    private DynamoDbClient dynamoDb;

    @BeforeEach
    void start() {
        SamTemplate template = SamTemplate.ofRepository().withParameterOverrides(Map.of("StreamSource", "kinesis"));
        // give up after one retry, so a persistent failure reaches the on-failure destination quickly
        SamTemplate.map(template.parameters().get("StreamMaximumRetryAttempts"), "parameter").put("Default", 1);
        runtime = new TemplateRuntime(template, 0, lines::add);
        dynamoDb = runtime.dynamoDb();
        runtime.startPolling();
    }

    @AfterEach
    void stop() {
        if (runtime != null) {
            runtime.close();
        }
    }

    /** The deployable redrive function, run from its jar by the local runtime; its JSON report. */
    private JsonNode invokeRedriveFunction(String request) throws Exception {
        return new ObjectMapper().readTree(new ObjectMapper().readTree(runtime.function("RedriveFunction").invoke(request)).asText());
    }

    private static Map<String, AttributeValue> issue(int n, int num, Map<String, String> fields) {
        return Map.of("id", AttributeValue.fromS("issue#" + n), "project", AttributeValue.fromS("project#1"),
                "num", AttributeValue.fromN(Integer.toString(num)), "name", AttributeValue.fromS("issue " + n),
                "custom_fields", AttributeValue.fromM(fields.entrySet().stream()
                        .collect(Collectors.toMap(Map.Entry::getKey, e -> AttributeValue.fromS(e.getValue())))));
    }

    private void put(Map<String, AttributeValue> item) {
        dynamoDb.putItem(b -> b.tableName(APP).item(item));
    }

    private void delete(int n) {
        dynamoDb.deleteItem(b -> b.tableName(APP).key(Map.of("id", AttributeValue.fromS("issue#" + n))));
    }

    private void awaitQuiet() throws InterruptedException {
        assertThat(runtime.awaitQuiet(QUIET)).as("the local stack went quiet").isTrue();
    }

    private Set<Map<String, AttributeValue>> dropIndexTable() {
        Set<Map<String, AttributeValue>> saved = new HashSet<>(dynamoDb.scanPaginator(b -> b.tableName(INDEX)).items().stream().toList());
        dynamoDb.deleteTable(b -> b.tableName(INDEX));
        return saved;
    }

    private void restoreIndexTable(Set<Map<String, AttributeValue>> items) {
        dynamoDb.createTable(b -> b.tableName(INDEX).billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(a -> a.attributeName("attribId").attributeType(ScalarAttributeType.S),
                        a -> a.attributeName("sortKey").attributeType(ScalarAttributeType.S))
                .keySchema(k -> k.attributeName("attribId").keyType(KeyType.HASH), k -> k.attributeName("sortKey").keyType(KeyType.RANGE)));
        items.forEach(item -> dynamoDb.putItem(b -> b.tableName(INDEX).item(item)));
    }

    private Verifier.Report verify(boolean repair) {
        return new Verifier(dynamoDb, APP, INDEX, IndexScope.all(IssueFixtures.recorded(dynamoDb, INDEX))).verify(repair);
    }

    private Set<Map<String, AttributeValue>> expectedIndex() {
        return IssueFixtures.expectedIndex(dynamoDb, APP, IssueFixtures.recorded(dynamoDb, INDEX));
    }

    /**
     * Issues 1 to 6 indexed; then, with index writes failing (the index table gone), 1 and 2 updated, 3 deleted, 7
     * created: the indexer gives up on them; the index table back as it was.
     */
    private List<String> failedIndexerBatches() throws InterruptedException {
        for (int i = 1; i <= 6; i++) {
            put(issue(i, i, Map.of("size", "s" + i, "owner", "o" + i)));
        }
        awaitQuiet();
        Set<Map<String, AttributeValue>> before = dropIndexTable();
        put(issue(1, 1, Map.of("size", "changed", "owner", "o1")));
        put(issue(2, 20, Map.of("size", "s2")));
        delete(3);
        put(issue(7, 7, Map.of("size", "s7")));
        awaitQuiet();
        restoreIndexTable(before);
        List<String> bodies = runtime.sqs().bodies(INDEXER_QUEUE);
        assertThat(bodies).as(String.join("\n", lines)).isNotEmpty()
                .allSatisfy(body -> assertThat(OnFailureRecord.parse(body).source()).isEqualTo(OnFailureRecord.Source.KINESIS));
        return bodies;
    }

    @Test
    void indexerBatchPastItsRetries_isRepairedByRedrive_fromTheDataStreamsRecords_andLaterChangesIndexRight() throws Exception {
        // given
        List<String> bodies = failedIndexerBatches();
        assertThat(verify(false).clean()).as("the index lacks the changes given up on").isFalse();

        // when: a dry run, then the redrive
        JsonNode dryRun = invokeRedriveFunction("{\"queue\": \"indexer\", \"dryRun\": true, \"maxMessages\": 100}");
        boolean cleanAfterDryRun = verify(false).clean();
        JsonNode report = invokeRedriveFunction("{\"queue\": \"indexer\", \"maxMessages\": 100}");

        // then
        assertThat(dryRun.path("messages")).hasSize(bodies.size()).allSatisfy(m -> assertThat(m.path("outcome").asText()).isEqualTo("would redrive"));
        assertThat(cleanAfterDryRun).as("a dry run writes nothing").isFalse();
        assertThat(report.path("messages")).as(report.toString()).hasSize(bodies.size())
                .allSatisfy(m -> assertThat(m.path("outcome").asText()).isEqualTo("redriven"));
        assertThat(report.path("remaining").asInt()).isZero();
        assertThat(runtime.sqs().bodies(INDEXER_QUEUE)).isEmpty();
        assertThat(IssueFixtures.storedIndex(dynamoDb, INDEX)).isEqualTo(expectedIndex());

        // and: the repaired issues' next changes, indexed by the Kinesis indexer from item states the redrive left
        // behind, leave nothing of the repaired images
        put(issue(1, 1, Map.of("size", "s1", "owner", "again")));
        put(issue(2, 2, Map.of("owner", "o2")));
        put(issue(3, 3, Map.of("size", "back")));
        delete(7);
        awaitQuiet();
        assertThat(runtime.sqs().bodies(INDEXER_QUEUE)).isEmpty();
        assertThat(IssueFixtures.storedIndex(dynamoDb, INDEX)).isEqualTo(expectedIndex());
    }

    @Test
    void indexerMessage_whoseRecordsArePastTheStreamsRetention_isReportedGoneAndKept_untilVerifyRepairs() throws Exception {
        // given: the failed batches' records trimmed from the data stream, as its retention period does
        List<String> bodies = failedIndexerBatches();
        assertThat(runtime.kinesis().streams().trimBefore(Instant.now().plusSeconds(1))).isPositive();

        // when
        JsonNode report = invokeRedriveFunction("{\"queue\": \"indexer\", \"maxMessages\": 100}");

        // then: every message reported gone, with what to do, and kept
        assertThat(report.path("messages")).as(report.toString()).hasSize(bodies.size()).allSatisfy(m -> {
            assertThat(m.path("outcome").asText()).isEqualTo("range gone");
            assertThat(m.path("reason").asText()).contains("retention");
            assertThat(m.path("advice").asText()).contains("verify --repair");
            assertThat(m.path("dropped").asBoolean()).isFalse();
        });
        assertThat(report.path("remaining").asInt()).isEqualTo(bodies.size());
        assertThat(runtime.sqs().bodies(INDEXER_QUEUE)).hasSize(bodies.size());

        // and: verify --repair, as advised, makes the index right; the next changes index right after it; the messages
        // go only when asked
        assertThat(verify(true).clean()).isFalse();
        assertThat(verify(false).clean()).isTrue();
        put(issue(1, 1, Map.of("owner", "later")));
        put(issue(7, 7, Map.of("size", "s7", "owner", "o7")));
        awaitQuiet();
        assertThat(IssueFixtures.storedIndex(dynamoDb, INDEX)).isEqualTo(expectedIndex());
        JsonNode dropped = invokeRedriveFunction("{\"queue\": \"indexer\", \"maxMessages\": 100, \"dropGone\": true}");
        assertThat(dropped.path("messages")).allSatisfy(m -> assertThat(m.path("dropped").asBoolean()).isTrue());
        assertThat(runtime.sqs().bodies(INDEXER_QUEUE)).isEmpty();
    }

    @Test
    void routerBatchPastItsRetries_isResentThroughTheRouterAsAKinesisEvent_andItsEventsReachTheBus() throws Exception {
        // given: every PutEvents call refused while issues are written: the router gives up on its batch
        runtime.bus().callFaults((call, request) -> java.util.Optional.of("AccessDeniedException"));
        put(issue(1, 1, Map.of("size", "s1")));
        put(issue(2, 2, Map.of("size", "s2")));
        awaitQuiet();
        List<String> bodies = runtime.sqs().bodies(ROUTER_QUEUE);
        assertThat(bodies).as(String.join("\n", lines)).isNotEmpty()
                .allSatisfy(body -> assertThat(OnFailureRecord.parse(body).source()).isEqualTo(OnFailureRecord.Source.KINESIS));
        int received = runtime.bus().received().size();
        runtime.bus().callFaults(LocalEventBridge.CallFaults.NONE);

        // when
        JsonNode report = invokeRedriveFunction("{\"queue\": \"router\"}");

        // then
        assertThat(report.path("messages")).as(report.toString()).hasSize(bodies.size())
                .allSatisfy(m -> assertThat(m.path("outcome").asText()).isEqualTo("redriven"));
        assertThat(runtime.sqs().bodies(ROUTER_QUEUE)).isEmpty();
        assertThat(runtime.bus().received().subList(received, runtime.bus().received().size()))
                .extracting(r -> r.envelope().path("detail").path("keys").path("id").asText())
                .contains("issue#1", "issue#2");
    }
}

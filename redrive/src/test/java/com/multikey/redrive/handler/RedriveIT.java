package com.multikey.redrive.handler;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.multikey.common.ClientFactory;
import com.multikey.emulator.TemplateRuntime;
import com.multikey.emulator.functions.LocalFunction;
import com.multikey.emulator.template.SamTemplate;
import com.multikey.index.GridLayoutStore;
import com.multikey.index.IndexItem;
import com.multikey.index.IndexValue;
import com.multikey.index.definition.IndexDefinitions;
import com.multikey.redrive.FunctionInvoker;
import com.multikey.redrive.OnFailureRecord;
import com.multikey.redrive.QueueKind;
import com.multikey.redrive.Redrive;
import com.multikey.redrive.RedriveConfig;
import com.multikey.redrive.Redrives;
import com.multikey.redrive.StreamRange;
import com.multikey.redrive.StreamRangeReader;
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
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;
import software.amazon.awssdk.services.sqs.SqsClient;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Redrive end to end on the local runtime (the functions from their deployable jars, the DynamoDB engine, the
 * local SQS endpoint): a batch fails past its retry limit, its on-failure record lands in the template's
 * failure queue, and redrive acts on it.
 */
class RedriveIT {

    private static final String APP = "AppTable";
    private static final String INDEX = "IssueAttribIndexTable";
    private static final String INDEXER_QUEUE = "StreamIndexerFailureQueue";
    private static final String ROUTER_QUEUE = "RouterFailureQueue";
    private static final String DEAD_LETTERS = "DeleteLayerDeadLetterQueue";
    private static final Duration QUIET = Duration.ofSeconds(60);

    private final List<String> lines = new CopyOnWriteArrayList<>();
    private TemplateRuntime runtime;
    private DynamoDbClient dynamoDb;
    private DynamoDbStreamsClient streams;
    private SqsClient sqs;
    private Redrives redrives;

    @BeforeEach
    void start() {
        SamTemplate template = SamTemplate.ofRepository();
        // give up after one retry, so a persistent failure reaches the on-failure destination quickly
        SamTemplate.map(template.parameters().get("StreamMaximumRetryAttempts"), "parameter").put("Default", 1);
        runtime = new TemplateRuntime(template, 0, lines::add);
        dynamoDb = runtime.dynamoDb();
        streams = runtime.dynamoDbLocal().streamsClient();
        Map<String, String> env = new HashMap<>(runtime.environment("RedriveFunction"));
        sqs = new ClientFactory(env).configure(SqsClient.builder(), "SQS").httpClient(ClientFactory.httpClient()).build();
        redrives = new Redrives(RedriveConfig.fromEnvironment(env), dynamoDb, streams, sqs, this::invokeLocally);
        runtime.startPolling();
    }

    @AfterEach
    void stop() {
        if (sqs != null) {
            sqs.close();
        }
        if (streams != null) {
            streams.close();
        }
        if (runtime != null) {
            runtime.close();
        }
    }

    /** The functions of the local runtime stand in for Lambda's Invoke. */
    private String invokeLocally(String functionName, String eventJson) {
        LocalFunction function = runtime.function(functionName);
        try {
            return function.invoke(eventJson);
        } catch (RuntimeException e) {
            throw new FunctionInvoker.FunctionFailedException(functionName + " failed: " + e.getMessage());
        }
    }

    /** The deployable redrive function, run from its jar by the local runtime; its JSON report. */
    private JsonNode invokeRedriveFunction(String request) {
        try {
            return new ObjectMapper().readTree(new ObjectMapper().readTree(runtime.function("RedriveFunction").invoke(request)).asText());
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new AssertionError("the redrive function answered no JSON report", e);
        }
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

    /** Index writes fail persistently: the index table is gone (ResourceNotFoundException, retried, never refused). */
    private Set<Map<String, AttributeValue>> dropIndexTable() {
        // every item, the grid layout's control item too: the restored table is the same stack's
        Set<Map<String, AttributeValue>> saved = new java.util.HashSet<>(dynamoDb.scanPaginator(b -> b.tableName(INDEX)).items().stream()
                .toList());
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

    private Verifier.Report verify() {
        // a new stack: the grid grouped by project, as the indexer recorded it
        return new Verifier(dynamoDb, APP, INDEX, IndexScope.all(IssueFixtures.recorded(dynamoDb, INDEX))).verify(false);
    }

    /** Issues 1 to 6 indexed; then, with index writes failing, 1 and 2 updated, 3 deleted, 7 created: the indexer gives up on them. */
    private Set<Map<String, AttributeValue>> failedIndexerBatch() throws InterruptedException {
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
        return before;
    }

    /** The keys of the items the records in the messages' ranges changed, read back from the stream. */
    private Set<String> issuesNamedBy(List<String> bodies) {
        Set<String> ids = new TreeSet<>();
        StreamRangeReader reader = new StreamRangeReader(streams);
        IndexScope scope = IndexScope.all(IndexDefinitions.packaged());
        for (String body : bodies) {
            if (reader.read(OnFailureRecord.parse(body)) instanceof StreamRange.Found found) {
                found.records().forEach(record -> scope.keyOf(record.dynamodb().keys()).ifPresent(key -> ids.add(key.toString())));
            }
        }
        return ids;
    }

    @Test
    void indexerBatchPastItsRetries_landsInTheFailureQueue_andRedriveRepairsExactlyItsIssues() throws InterruptedException {
        // given: the failed batches' on-failure records in the queue, the index as it was before them
        Set<Map<String, AttributeValue>> before = failedIndexerBatch();
        List<String> bodies = runtime.sqs().bodies(INDEXER_QUEUE);
        assertThat(bodies).isNotEmpty();
        assertThat(bodies).allSatisfy(body -> assertThat(OnFailureRecord.parse(body).condition()).isEqualTo("RetryAttemptsExhausted"));
        assertThat(issuesNamedBy(bodies)).containsExactly("issue#1", "issue#2", "issue#3", "issue#7");
        restoreIndexTable(before);
        // an issue no failed batch names, wrong in the index: redrive must leave it to verify
        IndexItem planted = IndexItem.of("size", new IndexValue.Text("planted"), "issue#5", "project#1", BigDecimal.valueOf(5));
        dynamoDb.putItem(b -> b.tableName(INDEX).item(planted.toItem()));

        // when: a dry run, then the redrive
        Redrive.Report dryRun = redrives.forQueue(QueueKind.INDEXER).run(true, 100, false);
        Set<Map<String, AttributeValue>> afterDryRun = IssueFixtures.storedIndex(dynamoDb, INDEX);
        JsonNode report = invokeRedriveFunction("{\"queue\": \"indexer\", \"maxMessages\": 100}");

        // then
        assertThat(dryRun.outcomes()).hasSize(bodies.size()).allMatch(Redrive.Outcome.WouldRedrive.class::isInstance);
        assertThat(afterDryRun).isEqualTo(union(before.stream().filter(item -> !GridLayoutStore.isControl(item)).map(IndexItem::normalized)
                .collect(java.util.stream.Collectors.toSet()), planted));
        assertThat(report.path("messages")).hasSize(bodies.size()).allMatch(m -> m.path("outcome").asText().equals("redriven"));
        assertThat(report.path("remaining").asInt()).isZero();
        assertThat(runtime.sqs().bodies(INDEXER_QUEUE)).isEmpty();
        Verifier.Report verified = verify();
        assertThat(verified.missingCount()).isZero();
        assertThat(verified.orphanedCount()).isZero();
        assertThat(verified.stale()).containsExactly(new Verifier.Discrepancy("issue#5", planted.key()));
    }

    @Test
    void indexerRedrive_whenTheIssuesChangedAgainMeanwhile_repairsFromTheirCurrentState() throws InterruptedException {
        // given: the failed batches in the queue; the index back; then the same issues change again (indexed by the stream)
        Set<Map<String, AttributeValue>> before = failedIndexerBatch();
        int messages = runtime.sqs().bodies(INDEXER_QUEUE).size();
        restoreIndexTable(before);
        put(issue(1, 11, Map.of("owner", "again")));
        delete(2);
        put(issue(3, 3, Map.of("size", "back")));
        put(issue(7, 7, Map.of("size", "s7", "owner", "o7")));
        awaitQuiet();
        assertThat(verify().clean()).as("the index is wrong before the redrive").isFalse();

        // when
        Redrive.Report report = redrives.forQueue(QueueKind.INDEXER).run(false, 100, false);

        // then
        assertThat(report.outcomes()).hasSize(messages).allMatch(Redrive.Outcome.Redriven.class::isInstance);
        assertThat(runtime.sqs().bodies(INDEXER_QUEUE)).isEmpty();
        assertThat(verify().clean()).isTrue();
        assertThat(IssueFixtures.storedIndex(dynamoDb, INDEX)).isEqualTo(IssueFixtures.expectedIndex(dynamoDb, APP,
                IssueFixtures.recorded(dynamoDb, INDEX)));
    }

    @Test
    void aMessageWhoseRangeIsGone_isReportedAndKept_andDroppedOnlyWhenAsked() {
        // given: an on-failure record naming a shard the stream no longer has
        String streamArn = dynamoDb.describeTable(b -> b.tableName(APP)).table().latestStreamArn();
        String body = """
                {"requestContext": {"condition": "RetryAttemptsExhausted", "approximateInvokeCount": 2},
                 "version": "1.0", "timestamp": "2026-01-01T00:00:00.000Z",
                 "DDBStreamBatchInfo": {"shardId": "shardId-00000001000000000000-00000000", "startSequenceNumber": "100000000000000000001",
                   "endSequenceNumber": "100000000000000000002", "batchSize": 2, "streamArn": "%s"}}""".formatted(streamArn);
        runtime.sqs().send(INDEXER_QUEUE, body);

        // when
        Redrive.Report kept = redrives.forQueue(QueueKind.INDEXER).run(false, 10, false);
        JsonNode keptByTheFunction = invokeRedriveFunction("{\"queue\": \"indexer\"}");

        // then
        assertThat(kept.outcomes()).singleElement().isInstanceOfSatisfying(Redrive.Outcome.RangeGone.class, gone -> {
            assertThat(gone.advice()).contains("verify --repair");
            assertThat(gone.dropped()).isFalse();
        });
        assertThat(kept.remaining()).as("kept and visible again").isEqualTo(1);
        assertThat(keptByTheFunction.path("messages")).singleElement().satisfies(m -> {
            assertThat(m.path("outcome").asText()).isEqualTo("range gone");
            assertThat(m.path("dropped").asBoolean()).isFalse();
        });
        assertThat(keptByTheFunction.path("remaining").asInt()).isEqualTo(1);

        Redrive.Report dropped = redrives.forQueue(QueueKind.INDEXER).run(false, 10, true);
        assertThat(dropped.outcomes()).singleElement().isInstanceOfSatisfying(Redrive.Outcome.RangeGone.class,
                gone -> assertThat(gone.dropped()).isTrue());
        assertThat(runtime.sqs().bodies(INDEXER_QUEUE)).isEmpty();
    }

    @Test
    void routerBatchPastItsRetries_isResentThroughTheRouter_andItsEventsReachTheBus() throws InterruptedException {
        // given: every PutEvents call refused while an issue is written: the router gives up on its batch
        runtime.bus().callFaults((call, request) -> java.util.Optional.of("AccessDeniedException"));
        put(issue(1, 1, Map.of("size", "s1")));
        put(issue(2, 2, Map.of("size", "s2")));
        awaitQuiet();
        assertThat(runtime.sqs().bodies(ROUTER_QUEUE)).isNotEmpty();
        int received = runtime.bus().received().size();
        runtime.bus().callFaults(com.multikey.emulator.services.bus.LocalEventBridge.CallFaults.NONE);

        // when: a dry run; then the deployable function from its jar, its Lambda client invoking the router through
        // the local Lambda API's Invoke
        Redrive.Report dryRun = redrives.forQueue(QueueKind.ROUTER).run(true, 10, false);
        int afterDryRun = runtime.bus().received().size();
        JsonNode byTheFunction = invokeRedriveFunction("{\"queue\": \"router\"}");

        // then
        assertThat(dryRun.outcomes()).isNotEmpty().allMatch(Redrive.Outcome.WouldRedrive.class::isInstance);
        assertThat(afterDryRun).isEqualTo(received);
        assertThat(byTheFunction.path("messages")).hasSize(dryRun.outcomes().size())
                .allSatisfy(m -> assertThat(m.path("outcome").asText()).isEqualTo("redriven"));
        assertThat(runtime.sqs().bodies(ROUTER_QUEUE)).isEmpty();
        assertThat(redrives.forQueue(QueueKind.ROUTER).run(false, 10, false).outcomes()).as("nothing left").isEmpty();
        assertThat(runtime.bus().received().subList(received, runtime.bus().received().size()))
                .extracting(r -> r.envelope().path("detail").path("keys").path("id").asText())
                .contains("issue#1", "issue#2");
    }

    @Test
    void deadLetter_ofADeliveryThatKeptFailing_isReinvokedWithTheStoredEvent_andDeletedAfterwards() throws Exception {
        // given: Lambda's API throttles every call while a layer record expires: delete-layer fails on every attempt
        // of the rule's target, and the bus puts the event on the target's dead-letter queue
        runtime.lambdaApi().throttleCalls(Integer.MAX_VALUE);
        put(Map.of("id", AttributeValue.fromS("layer#us-east-1#requests#12"),
                "arn", AttributeValue.fromS("arn:aws:lambda:us-east-1:123456789012:layer:multikey-requests:12"),
                "expiresAt", AttributeValue.fromN(Long.toString(java.time.Instant.now().getEpochSecond() - 5))));
        awaitQuiet();
        List<String> deadLetters = runtime.sqs().bodies(DEAD_LETTERS);
        assertThat(deadLetters).singleElement().satisfies(body ->
                assertThat(new ObjectMapper().readTree(body).path("detail-type").asText()).isEqualTo("Layer Expired"));
        runtime.lambdaApi().throttleCalls(0);
        long deletesBefore = layerDeletes();

        // when
        Redrive.Report dryRun = redrives.forQueue(QueueKind.DELETE_LAYER).run(true, 10, false);
        long deletesAfterDryRun = layerDeletes();
        Redrive.Report report = redrives.forQueue(QueueKind.DELETE_LAYER).run(false, 10, false);

        // then
        assertThat(dryRun.outcomes()).singleElement().isInstanceOf(Redrive.Outcome.WouldRedrive.class);
        assertThat(deletesAfterDryRun).isEqualTo(deletesBefore);
        assertThat(report.outcomes()).singleElement().isInstanceOf(Redrive.Outcome.Redriven.class);
        assertThat(layerDeletes()).as("the layer version deleted by the re-invoked delete-layer").isEqualTo(deletesBefore + 1);
        assertThat(runtime.sqs().bodies(DEAD_LETTERS)).isEmpty();
    }

    /** DeleteLayerVersion calls the local Lambda API answered with success. */
    private long layerDeletes() {
        return runtime.lambdaApi().calls().stream()
                .filter(call -> call.method().equals("DELETE") && call.path().contains("/layers/multikey-requests/versions/12") && call.status() < 300)
                .count();
    }

    private static Set<Map<String, AttributeValue>> union(Set<Map<String, AttributeValue>> items, IndexItem more) {
        return union(items, more.toItem());
    }

    private static Set<Map<String, AttributeValue>> union(Set<Map<String, AttributeValue>> items, Map<String, AttributeValue> more) {
        Set<Map<String, AttributeValue>> all = new java.util.HashSet<>(items);
        all.add(more);
        return all;
    }
}

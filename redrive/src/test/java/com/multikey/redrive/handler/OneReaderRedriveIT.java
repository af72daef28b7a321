package com.multikey.redrive.handler;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.multikey.common.ClientFactory;
import com.multikey.emulator.TemplateRuntime;
import com.multikey.emulator.functions.LocalFunction;
import com.multikey.emulator.services.bus.LocalEventBridge;
import com.multikey.emulator.template.SamTemplate;
import com.multikey.redrive.FunctionInvoker;
import com.multikey.redrive.OnFailureRecord;
import com.multikey.redrive.QueueKind;
import com.multikey.redrive.Redrive;
import com.multikey.redrive.RedriveConfig;
import com.multikey.redrive.Redrives;
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
import software.amazon.awssdk.services.sqs.SqsClient;

import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Redrive in the one-reader mode ({@code StreamReaders: one}) on the local runtime: the consumer gives up on a record
 * its index job could not finish and on one its route job could not, both land in the one failure queue
 * (StreamIndexerFailureQueue), and redrive re-runs for each only the job its checkpoint does not mark finished: the
 * first item's index is repaired without its event being sent again, the second's event is sent once more and its index
 * left alone.
 */
class OneReaderRedriveIT {

    private static final String APP = "AppTable";
    private static final String INDEX = "IssueAttribIndexTable";
    private static final String QUEUE = "StreamIndexerFailureQueue";
    private static final Duration QUIET = Duration.ofSeconds(60);

    private final List<String> lines = new CopyOnWriteArrayList<>();
    private TemplateRuntime runtime;
    private DynamoDbClient dynamoDb;
    private SqsClient sqs;
    private Redrives redrives;

    @BeforeEach
    void start() {
        // give up after one retry, so a persistent failure reaches the on-failure destination quickly
        SamTemplate template = SamTemplate.ofRepository().withParameterOverrides(Map.of("StreamReaders", "one", "StreamMaximumRetryAttempts", "1"));
        runtime = new TemplateRuntime(template, 0, lines::add);
        dynamoDb = runtime.dynamoDb();
        Map<String, String> env = new HashMap<>(runtime.environment("RedriveFunction"));
        sqs = new ClientFactory(env).configure(SqsClient.builder(), "SQS").httpClient(ClientFactory.httpClient()).build();
        redrives = new Redrives(RedriveConfig.fromEnvironment(env), dynamoDb, runtime.dynamoDbLocal().streamsClient(), sqs, this::invokeLocally);
        runtime.startPolling();
    }

    @AfterEach
    void stop() {
        if (sqs != null) {
            sqs.close();
        }
        if (runtime != null) {
            runtime.close();
        }
    }

    private String invokeLocally(String functionName, String eventJson) {
        LocalFunction function = runtime.function(functionName);
        try {
            return function.invoke(eventJson);
        } catch (RuntimeException e) {
            throw new FunctionInvoker.FunctionFailedException(functionName + " failed: " + e.getMessage());
        }
    }

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

    private Verifier.Report verify() {
        return new Verifier(dynamoDb, APP, INDEX, IndexScope.all(IssueFixtures.recorded(dynamoDb, INDEX))).verify(false);
    }

    /** The issue ids of the events the bus received from the given position on. */
    private List<String> eventsFrom(int position) {
        List<LocalEventBridge.Received> received = runtime.bus().received();
        return received.subList(position, received.size()).stream()
                .map(r -> r.envelope().path("detail").path("keys").path("id").asText()).toList();
    }

    @Test
    void aRecordNotIndexed_andOneNotRouted_redriveRepairsTheFirstsIndex_andSendsOnlyTheSecondsEventAgain() throws Exception {
        // given: issues 1 to 3 indexed and routed
        for (int i = 1; i <= 3; i++) {
            put(issue(i, i, Map.of("size", "s" + i)));
        }
        awaitQuiet();
        // issue 1 changes while index writes fail: its event is sent, its index is not written
        Set<Map<String, AttributeValue>> index = dropIndexTable();
        int beforeIssue1 = runtime.bus().received().size();
        put(issue(1, 1, Map.of("size", "changed", "owner", "o1")));
        awaitQuiet();
        assertThat(eventsFrom(beforeIssue1)).as("issue 1's event, sent while its index failed").contains("issue#1");
        restoreIndexTable(index);
        // issue 2 changes while every PutEvents call is refused: it is indexed, its event is not sent
        runtime.bus().callFaults((call, request) -> Optional.of("AccessDeniedException"));
        put(issue(2, 20, Map.of("size", "s2", "owner", "o2")));
        awaitQuiet();
        runtime.bus().callFaults(LocalEventBridge.CallFaults.NONE);
        List<String> bodies = runtime.sqs().bodies(QUEUE);
        assertThat(bodies).as("both records in the one failure queue").hasSizeGreaterThanOrEqualTo(2)
                .allSatisfy(body -> assertThat(OnFailureRecord.parse(body).condition()).isEqualTo("RetryAttemptsExhausted"));
        assertThat(verify().stale()).as("issue 1's index, not written").isNotEmpty();
        Set<Map<String, AttributeValue>> indexBefore = IssueFixtures.storedIndex(dynamoDb, INDEX);
        int before = runtime.bus().received().size();

        // when: a dry run, then the deployed redrive function, from its jar
        Redrive.Report dryRun = redrives.forQueue(QueueKind.INDEXER).run(true, 10, false);
        Set<Map<String, AttributeValue>> indexAfterDryRun = IssueFixtures.storedIndex(dynamoDb, INDEX);
        int afterDryRun = runtime.bus().received().size();
        JsonNode report = invokeRedriveFunction("{\"queue\": \"indexer\"}");

        // then
        assertThat(dryRun.outcomes()).hasSize(bodies.size()).allMatch(Redrive.Outcome.WouldRedrive.class::isInstance);
        assertThat(indexAfterDryRun).isEqualTo(indexBefore);
        assertThat(afterDryRun).isEqualTo(before);
        assertThat(report.path("messages")).hasSize(bodies.size())
                .allSatisfy(m -> assertThat(m.path("outcome").asText()).as(m.toString()).isEqualTo("redriven"));
        assertThat(runtime.sqs().bodies(QUEUE)).isEmpty();
        assertThat(eventsFrom(before)).as("the event of issue 2 only: issue 1's was sent").containsExactly("issue#2");
        assertThat(verify().clean()).isTrue();
        assertThat(IssueFixtures.storedIndex(dynamoDb, INDEX)).isEqualTo(IssueFixtures.expectedIndex(dynamoDb, APP,
                IssueFixtures.recorded(dynamoDb, INDEX)));
        assertThat(redrives.forQueue(QueueKind.INDEXER).run(false, 10, false).outcomes()).as("nothing left").isEmpty();
    }

    @Test
    void theRouterQueue_withOneReader_isRefused_namingTheIndexerQueue() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> redrives.forQueue(QueueKind.ROUTER))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--queue indexer");
    }
}

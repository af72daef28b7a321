package com.multikey.redrive.handler;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.multikey.common.ClientFactory;
import com.multikey.emulator.TemplateRuntime;
import com.multikey.emulator.functions.LocalFunction;
import com.multikey.emulator.template.SamTemplate;
import com.multikey.redrive.FunctionInvoker;
import com.multikey.redrive.RedriveConfig;
import com.multikey.redrive.Redrives;
import com.multikey.reindex.IndexScope;
import com.multikey.reindex.Verifier;
import com.multikey.testkit.IssueFixtures;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;
import software.amazon.awssdk.services.sqs.SqsClient;

import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The stack the redrive end-to-end tests run on, one for each test: the repository's template on the local runtime (the
 * functions from their deployable jars, the DynamoDB engine, the local SQS endpoint, the bus), with the stream's retries
 * limited to one so that a persistent failure reaches the on-failure destination quickly; and what the tests do on it:
 * write issues, make index writes fail by dropping the index table and bring it back, verify the index, run the
 * deployable redrive function or the redrive library itself.
 */
abstract class RedriveStack {

    static final String APP = "AppTable";
    static final String INDEX = "IssueAttribIndexTable";
    static final String INDEXER_QUEUE = "StreamIndexerFailureQueue";
    static final String ROUTER_QUEUE = "RouterFailureQueue";
    static final Duration QUIET = Duration.ofSeconds(60);

    /** What the stack logged, for the failure messages. */
    final List<String> lines = new CopyOnWriteArrayList<>();
    TemplateRuntime runtime;
    DynamoDbClient dynamoDb;
    private DynamoDbStreamsClient streams;
    private SqsClient sqs;
    private Redrives redrives;

    /** The template parameters of this class's stack, beside the retry limit ({@code StreamSource}, {@code StreamReaders}). */
    abstract Map<String, String> parameters();

    @BeforeEach
    void start() {
        Map<String, String> parameters = new HashMap<>(parameters());
        // give up after one retry, so a persistent failure reaches the on-failure destination quickly
        parameters.put("StreamMaximumRetryAttempts", "1");
        runtime = new TemplateRuntime(SamTemplate.ofRepository().withParameterOverrides(parameters), 0, lines::add);
        dynamoDb = runtime.dynamoDb();
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

    /** A DynamoDB Streams client of the local engine (closed with the stack). */
    DynamoDbStreamsClient streams() {
        if (streams == null) {
            streams = runtime.dynamoDbLocal().streamsClient();
        }
        return streams;
    }

    /**
     * The redrive library as the redrive function configures it (its environment, its SQS client), the local runtime's
     * functions standing in for Lambda's Invoke.
     */
    Redrives redrives() {
        if (redrives == null) {
            Map<String, String> env = new HashMap<>(runtime.environment("RedriveFunction"));
            sqs = new ClientFactory(env).configure(SqsClient.builder(), "SQS").httpClient(ClientFactory.httpClient()).build();
            redrives = new Redrives(RedriveConfig.fromEnvironment(env), dynamoDb, streams(), sqs, this::invokeLocally);
        }
        return redrives;
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
    JsonNode invokeRedriveFunction(String request) {
        try {
            return new ObjectMapper().readTree(new ObjectMapper().readTree(runtime.function("RedriveFunction").invoke(request)).asText());
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new AssertionError("the redrive function answered no JSON report", e);
        }
    }

    static Map<String, AttributeValue> issue(int n, int num, Map<String, String> fields) {
        return Map.of("id", AttributeValue.fromS("issue#" + n), "project", AttributeValue.fromS("project#1"),
                "num", AttributeValue.fromN(Integer.toString(num)), "name", AttributeValue.fromS("issue " + n),
                "custom_fields", AttributeValue.fromM(fields.entrySet().stream()
                        .collect(Collectors.toMap(Map.Entry::getKey, e -> AttributeValue.fromS(e.getValue())))));
    }

    void put(Map<String, AttributeValue> item) {
        dynamoDb.putItem(b -> b.tableName(APP).item(item));
    }

    void delete(int n) {
        dynamoDb.deleteItem(b -> b.tableName(APP).key(Map.of("id", AttributeValue.fromS("issue#" + n))));
    }

    void awaitQuiet() throws InterruptedException {
        assertThat(runtime.awaitQuiet(QUIET)).as("the local stack went quiet").isTrue();
    }

    /** Index writes fail persistently: the index table is gone (ResourceNotFoundException, retried, never refused). */
    Set<Map<String, AttributeValue>> dropIndexTable() {
        // every item, the grid layout's control item too: the restored table is the same stack's
        Set<Map<String, AttributeValue>> saved = new HashSet<>(dynamoDb.scanPaginator(b -> b.tableName(INDEX)).items().stream().toList());
        dynamoDb.deleteTable(b -> b.tableName(INDEX));
        return saved;
    }

    void restoreIndexTable(Set<Map<String, AttributeValue>> items) {
        dynamoDb.createTable(b -> b.tableName(INDEX).billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(a -> a.attributeName("attribId").attributeType(ScalarAttributeType.S),
                        a -> a.attributeName("sortKey").attributeType(ScalarAttributeType.S))
                .keySchema(k -> k.attributeName("attribId").keyType(KeyType.HASH), k -> k.attributeName("sortKey").keyType(KeyType.RANGE)));
        items.forEach(item -> dynamoDb.putItem(b -> b.tableName(INDEX).item(item)));
    }

    /**
     * Issues 1 to 6 indexed; then, with index writes failing, 1 and 2 updated, 3 deleted, 7 created: the indexer gives up
     * on them. The index table stays gone; its items as they were before, to restore it with.
     */
    Set<Map<String, AttributeValue>> failedIndexerBatch() throws InterruptedException {
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

    /** The index checked against the table, nothing repaired. */
    Verifier.Report verify() {
        return verify(false);
    }

    /** The index checked against the table (and repaired when asked): the grid grouped as the indexer recorded it. */
    Verifier.Report verify(boolean repair) {
        return new Verifier(dynamoDb, APP, INDEX, IndexScope.all(IssueFixtures.recorded(dynamoDb, INDEX))).verify(repair);
    }

    /** The index items the table's issues should have, as the indexer recorded the grid. */
    Set<Map<String, AttributeValue>> expectedIndex() {
        return IssueFixtures.expectedIndex(dynamoDb, APP, IssueFixtures.recorded(dynamoDb, INDEX));
    }
}

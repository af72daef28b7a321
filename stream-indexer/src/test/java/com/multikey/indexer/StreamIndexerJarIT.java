package com.multikey.indexer;

import com.multikey.emulator.functions.DeployableJar;
import com.multikey.emulator.functions.LocalContext;
import com.multikey.emulator.services.dynamodb.LocalDynamoDb;
import com.multikey.emulator.template.SamTemplate;
import com.multikey.emulator.template.TemplateEnvironment;
import com.multikey.emulator.template.TemplateTables;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The stream indexer's deployable jar on its own: what is and is not inside, every class it can reach
 * inside, and the handler built from the jar alone indexing the sample stream events in the local DynamoDB engine.
 */
class StreamIndexerJarIT {

    /**
     * SnakeYAML's dumping settings: the definitions reader's node graph uses only its FlowStyle and ScalarStyle enums, and
     * its own code (for dumping, left out of the jar) never runs.
     */
    private static final String SNAKEYAML_DUMPER_OPTIONS = "org/yaml/snakeyaml/DumperOptions";

    private static final String FUNCTION = "StreamIndexerFunction";
    private static final String DYNAMODB = "software/amazon/awssdk/services/dynamodb/";
    private static final String EVENTBRIDGE = "software/amazon/awssdk/services/eventbridge/";
    private static final String EVENTS = "com/amazonaws/services/lambda/runtime/events/";
    private static final SamTemplate TEMPLATE = SamTemplate.ofRepository();
    private static DeployableJar jar;

    @BeforeAll
    static void open() {
        jar = DeployableJar.of(TEMPLATE, FUNCTION);
    }

    @AfterAll
    static void close() throws Exception {
        jar.close();
    }

    @Test
    void jar_isAtMostTenMegabytes_withTheHandlerAndOnlyTheClientsItUses() {
        assertThat(jar.sizeBytes()).as("%s size", jar).isLessThanOrEqualTo(10_000_000L);
        assertThat(jar.hasClass(jar.handlerClassName())).isTrue();
        assertThat(jar.hasClass("software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient")).isTrue();
        assertThat(jar.hasClass("software.amazon.awssdk.services.dynamodb.DefaultDynamoDbClient")).isTrue();
        assertThat(jar.hasClass("org.joda.time.DateTime")).as("the runtime's event reader loads it").isTrue();
        assertThat(jar.hasClass("software.amazon.awssdk.services.dynamodb.model.TableDescription")).isFalse();
        assertThat(jar.entries()).as("no other HTTP client, no streams client, paginators or async clients")
                .noneMatch(name -> name.startsWith("software/amazon/awssdk/http/apache/")
                        || name.startsWith("software/amazon/awssdk/http/nio/netty/") || name.startsWith("io/netty/")
                        || name.startsWith(DYNAMODB + "streams/") || name.startsWith(DYNAMODB + "paginators/")
                        || name.startsWith(DYNAMODB + "DefaultDynamoDbAsyncClient"));
        assertThat(jar.classesNewerThan(65)).as("classes the java21 runtime cannot load").isEmpty();
    }

    @Test
    void withOneReader_theSameJarRunsTheConsumer_withTheEventBridgeClientForItsRouteJob() throws Exception {
        try (DeployableJar consumer = DeployableJar.of(TEMPLATE.withParameterOverrides(Map.of("StreamReaders", "one")), FUNCTION)) {
            assertThat(consumer.path()).isEqualTo(jar.path());
            assertThat(consumer.handlerClassName()).isEqualTo(StreamConsumerHandler.class.getName());
            assertThat(consumer.handlerClass().getConstructor()).as("no-arg constructor for Lambda").isNotNull();
            assertThat(consumer.hasClass("software.amazon.awssdk.services.eventbridge.DefaultEventBridgeClient")).isTrue();
            assertThat(consumer.hasClass("software.amazon.awssdk.services.eventbridge.model.PutRuleResponse")).as("other operations' types").isFalse();
        }
    }

    @Test
    void everyClassTheIndexerCanReach_isInTheJar() {
        Map<String, String> missing = jar.missingReachableClasses(List.of(DYNAMODB, EVENTBRIDGE, EVENTS, "org/yaml/snakeyaml/"),
                // the client registers every exception its calls may answer with
                name -> name.startsWith("org/yaml/snakeyaml/") || name.startsWith(DYNAMODB + "model/") && !name.endsWith("Exception")
                        || name.startsWith(DYNAMODB + "transform/") || name.startsWith(EVENTBRIDGE + "model/") && !name.endsWith("Exception")
                        || name.startsWith(EVENTBRIDGE + "transform/") || name.startsWith(EVENTS),
                // the endpoint interceptor only checks a request's type against the other operations' requests
                name -> (name.startsWith(DYNAMODB + "model/") || name.startsWith(EVENTBRIDGE + "model/")) && name.endsWith("Request"),
                // the one-reader consumer's route job (StreamConsumerHandler) puts events on the bus
                Set.of(SNAKEYAML_DUMPER_OPTIONS, DYNAMODB + "DynamoDbClient", DYNAMODB + "DefaultDynamoDbClient",
                        EVENTBRIDGE + "EventBridgeClient", EVENTBRIDGE + "DefaultEventBridgeClient"));

        assertThat(missing).as("missing class -> a class naming it").isEmpty();
    }

    @Test
    void everyClassTheKinesisIndexerCanReach_isInTheJar() throws Exception {
        // given: StreamSource kinesis deploys the same jar with the order-independent indexer's handler
        try (DeployableJar kinesis = DeployableJar.of(TEMPLATE.withParameterOverrides(Map.of("StreamSource", "kinesis")), FUNCTION)) {
            // when
            Map<String, String> missing = kinesis.missingReachableClasses(List.of(DYNAMODB, EVENTS, "org/yaml/snakeyaml/"),
                    name -> name.startsWith("org/yaml/snakeyaml/") || name.startsWith(DYNAMODB + "model/") && !name.endsWith("Exception")
                            || name.startsWith(DYNAMODB + "transform/") || name.startsWith(EVENTS),
                    // the endpoint interceptor only checks a request's type against the other operations' requests
                    name -> name.startsWith(DYNAMODB + "model/") && name.endsWith("Request"),
                    Set.of(SNAKEYAML_DUMPER_OPTIONS, DYNAMODB + "DynamoDbClient", DYNAMODB + "DefaultDynamoDbClient"));

            // then
            assertThat(kinesis.handlerClassName()).isEqualTo(KinesisStreamIndexerHandler.class.getName());
            assertThat(missing).as("missing class -> a class naming it").isEmpty();
        }
    }

    @Test
    void handler_fromTheJarAlone_indexesTheSampleEvents() throws Throwable {
        assertThat(jar.handlerClass().getConstructor()).as("no-arg constructor for Lambda").isNotNull();
        try (LocalDynamoDb dynamoDbLocal = LocalDynamoDb.start(); DynamoDbClient dynamoDb = dynamoDbLocal.client()) {
            Map<String, String> names = new HashMap<>();
            TEMPLATE.resources().keySet().forEach(id -> names.put(id, id));
            names.putAll(TemplateTables.create(TEMPLATE, dynamoDb));
            assertThat(TemplateEnvironment.of(TEMPLATE, FUNCTION, names)).isNotEmpty();
            Object handler = jar.newHandler(TemplateEnvironment.forLocalRun(TEMPLATE, FUNCTION, names,
                    Map.of("DYNAMODB", dynamoDbLocal.endpoint())));
            Path events = SamTemplate.findUp("sam").resolve("events");
            String indexTable = names.get("IssueAttribIndexTable");

            Object response = jar.invoke(handler, events.resolve("issue-insert.json"), LocalContext.of(FUNCTION));
            assertThat((List<?>) response.getClass().getMethod("getBatchItemFailures").invoke(response)).isEmpty();
            assertThat(dynamoDb.scan(b -> b.tableName(indexTable)).count()).as("index items after the insert").isPositive();

            for (String sample : List.of("issue-update.json", "issue-remove.json")) {
                response = jar.invoke(handler, events.resolve(sample), LocalContext.of(FUNCTION));
                assertThat((List<?>) response.getClass().getMethod("getBatchItemFailures").invoke(response)).as(sample).isEmpty();
            }
            // what is left is the grid layout's control item, which the first batch recorded (a new stack: grouped)
            assertThat(dynamoDb.scan(b -> b.tableName(indexTable)).items()).as("index items after the removal")
                    .singleElement().satisfies(item -> assertThat(item.get("state").s()).isEqualTo("grouped"));
        }
    }
    @Test
    void handler_fromTheJarAlone_keepsDeclaredCountsInTransactions(@org.junit.jupiter.api.io.TempDir Path dir) throws Throwable {
        try (LocalDynamoDb dynamoDbLocal = LocalDynamoDb.start(); DynamoDbClient dynamoDb = dynamoDbLocal.client()) {
            // given: the issue grid, grouped, keeping its group total
            Path definitions = dir.resolve("index-definitions.yaml");
            java.nio.file.Files.writeString(definitions, """
                    version: 1
                    table: {partitionKey: {name: id, type: S}}
                    indexes:
                      - name: issue-grid
                        covers: [{attribute: id, beginsWith: "issue#"}]
                        group: project
                        values: {entriesOf: custom_fields}
                        orderBy: num
                        counts: {total: true, shards: 2}
                    """);
            Map<String, String> names = new HashMap<>();
            TEMPLATE.resources().keySet().forEach(id -> names.put(id, id));
            names.putAll(TemplateTables.create(TEMPLATE, dynamoDb));
            Map<String, String> env = new HashMap<>(TemplateEnvironment.forLocalRun(TEMPLATE, FUNCTION, names,
                    Map.of("DYNAMODB", dynamoDbLocal.endpoint())));
            env.put("INDEX_DEFINITIONS", definitions.toString());
            Object handler = jar.newHandler(env);
            Path events = SamTemplate.findUp("sam").resolve("events");
            String indexTable = names.get("IssueAttribIndexTable");

            // when: the sample insert, delivered twice (a replay)
            for (int delivery = 0; delivery < 2; delivery++) {
                Object response = jar.invoke(handler, events.resolve("issue-insert.json"), LocalContext.of(FUNCTION));
                assertThat((List<?>) response.getClass().getMethod("getBatchItemFailures").invoke(response)).isEmpty();
            }

            // then: one member item, counted once
            List<Map<String, software.amazon.awssdk.services.dynamodb.model.AttributeValue>> items =
                    dynamoDb.scan(b -> b.tableName(indexTable)).items();
            assertThat(items).filteredOn(item -> item.containsKey("member")).hasSize(1);
            assertThat(items).filteredOn(item -> item.containsKey("counter"))
                    .extracting(item -> item.get("count").n()).containsExactly("1");
        }
    }
}

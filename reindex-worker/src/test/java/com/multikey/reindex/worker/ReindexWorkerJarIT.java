package com.multikey.reindex.worker;

import com.multikey.emulator.functions.DeployableJar;
import com.multikey.emulator.functions.LocalFunction;
import com.multikey.emulator.services.dynamodb.LocalDynamoDb;
import com.multikey.emulator.services.lambda.LocalLambdaApi;
import com.multikey.emulator.template.SamTemplate;
import com.multikey.emulator.template.TemplateEnvironment;
import com.multikey.emulator.template.TemplateTables;
import com.multikey.index.GridLayoutStore;
import com.multikey.index.definition.GridState;
import com.multikey.index.definition.IndexDefinitions;
import com.multikey.reindex.JobStatus;
import com.multikey.reindex.JobStore;
import com.multikey.testkit.IssueFixtures;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The reindex worker's deployable jar on its own: its size, what is and is not inside, every class it can
 * reach inside, and the handler built from the jar alone running a backfill job through a local Lambda API
 * endpoint (its own asynchronous invocations included) against the local DynamoDB engine.
 */
class ReindexWorkerJarIT {

    /**
     * SnakeYAML's dumping settings: the definitions reader's node graph uses only its FlowStyle and ScalarStyle enums, and
     * its own code (for dumping, left out of the jar) never runs.
     */
    private static final String SNAKEYAML_DUMPER_OPTIONS = "org/yaml/snakeyaml/DumperOptions";

    private static final String FUNCTION = "ReindexWorkerFunction";
    private static final String DYNAMODB = "software/amazon/awssdk/services/dynamodb/";
    private static final String LAMBDA = "software/amazon/awssdk/services/lambda/";
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
    void jar_isAtMostTenAndAHalfMegabytes_withTheHandlerAndOnlyTheClientsItUses() {
        // two SDK clients (DynamoDB, Lambda), the verify pages' kept keys and the definitions reader: beside delete-layer,
        // the largest of the function jars (10.0 MB on 2026-11-27)
        assertThat(jar.sizeBytes()).as("%s size", jar).isLessThanOrEqualTo(10_500_000L);
        assertThat(jar.hasClass(jar.handlerClassName())).isTrue();
        assertThat(jar.hasClass("software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient")).isTrue();
        assertThat(jar.hasClass("software.amazon.awssdk.services.lambda.model.InvokeRequest")).isTrue();
        assertThat(jar.hasClass("software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsResponse")).isTrue();
        assertThat(jar.hasClass("software.amazon.awssdk.services.lambda.model.PublishLayerVersionResponse")).isFalse();
        assertThat(jar.hasClass("software.amazon.awssdk.services.dynamodb.model.TableDescription")).isFalse();
        assertThat(jar.entries()).as("no other HTTP client, no streams client, paginators or async clients")
                .noneMatch(name -> name.startsWith("software/amazon/awssdk/http/apache/")
                        || name.startsWith("software/amazon/awssdk/http/nio/netty/") || name.startsWith("io/netty/")
                        || name.startsWith(DYNAMODB + "streams/") || name.startsWith(LAMBDA + "paginators/")
                        || name.startsWith(LAMBDA + "DefaultLambdaAsyncClient"));
        assertThat(jar.classesNewerThan(65)).as("classes the java21 runtime cannot load").isEmpty();
    }

    @Test
    void everyClassTheFunctionCanReach_isInTheJar() {
        Map<String, String> missing = jar.missingReachableClasses(List.of(DYNAMODB, LAMBDA, EVENTS, "org/yaml/snakeyaml/"),
                // the clients register every exception their calls may answer with
                name -> name.startsWith("org/yaml/snakeyaml/") || (name.startsWith(DYNAMODB + "model/") || name.startsWith(LAMBDA + "model/")) && !name.endsWith("Exception")
                        || name.startsWith(DYNAMODB + "transform/") || name.startsWith(LAMBDA + "transform/") || name.startsWith(EVENTS),
                // the endpoint interceptors only check a request's type against the other operations' requests
                name -> (name.startsWith(DYNAMODB + "model/") || name.startsWith(LAMBDA + "model/")) && name.endsWith("Request"),
                Set.of(SNAKEYAML_DUMPER_OPTIONS, DYNAMODB + "DynamoDbClient", DYNAMODB + "DefaultDynamoDbClient", LAMBDA + "LambdaClient", LAMBDA + "DefaultLambdaClient"));

        assertThat(missing).as("missing class -> a class naming it").isEmpty();
    }

    @Test
    void handler_fromTheJarAlone_runsABackfillJob_invokingItselfThroughTheLambdaApi() throws Throwable {
        assertThat(jar.handlerClass().getConstructor()).as("no-arg constructor for Lambda").isNotNull();
        try (LocalDynamoDb dynamoDbLocal = LocalDynamoDb.start(); DynamoDbClient dynamoDb = dynamoDbLocal.client();
             LocalLambdaApi lambdaApi = LocalLambdaApi.start()) {
            Map<String, String> names = new HashMap<>();
            TEMPLATE.resources().keySet().forEach(id -> names.put(id, id));
            names.putAll(TemplateTables.create(TEMPLATE, dynamoDb));
            IssueFixtures.putRandomIssues(dynamoDb, names.get("AppTable"), 40, new Random(3));
            Map<String, String> environment = TemplateEnvironment.forLocalRun(TEMPLATE, FUNCTION, names,
                    Map.of("DYNAMODB", dynamoDbLocal.endpoint(), "LAMBDA", lambdaApi.endpoint()));
            LocalFunction worker = LocalFunction.create(TEMPLATE, FUNCTION, environment);
            lambdaApi.register(worker, Set.of(FUNCTION, environment.get("WORKER_FUNCTION_NAME")),
                    new LocalLambdaApi.AsyncSettings(2, 0, Duration.ZERO));

            String answer = worker.invoke("{\"action\":\"start\",\"jobId\":\"jar-1\",\"kind\":\"backfill\",\"totalSegments\":3}");

            assertThat(answer).contains("\"segmentsInvoked\":3");
            assertThat(lambdaApi.awaitAsyncIdle(Duration.ofMinutes(2))).isTrue();
            assertThat(lambdaApi.asyncFailures()).isEmpty();
            JobStatus job = new JobStore(dynamoDb, names.get("ReindexJobsTable")).job("jar-1").orElseThrow();
            assertThat(job.done()).isTrue();
            assertThat(job.totals().sourceItems()).isEqualTo(40);
            // a new stack: the worker recorded the grid layout grouped, and backfilled that layout
            assertThat(IssueFixtures.storedIndex(dynamoDb, names.get("IssueAttribIndexTable")))
                    .filteredOn(item -> !GridLayoutStore.isControl(item))
                    .containsExactlyInAnyOrderElementsOf(IssueFixtures.expectedIndex(dynamoDb, names.get("AppTable"),
                            IndexDefinitions.packaged().withGridState(GridState.GROUPED)));
        }
    }
}

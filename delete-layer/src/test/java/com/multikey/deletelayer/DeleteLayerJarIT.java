package com.multikey.deletelayer;

import com.multikey.emulator.functions.DeployableJar;
import com.multikey.emulator.functions.LocalContext;
import com.multikey.emulator.services.dynamodb.LocalDynamoDb;
import com.multikey.emulator.services.lambda.LocalLambdaApi;
import com.multikey.emulator.template.SamTemplate;
import com.multikey.emulator.template.TemplateEnvironment;
import com.multikey.emulator.template.TemplateTables;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The delete-layer function's deployable jar on its own: what is and is not inside, every class it can
 * reach inside, and the handler built from the jar alone handling the sample "Layer Expired" event against
 * a local Lambda API endpoint and the local DynamoDB engine.
 */
class DeleteLayerJarIT {

    /**
     * SnakeYAML's dumping settings: the definitions reader's node graph uses only its FlowStyle and ScalarStyle enums, and
     * its own code (for dumping, left out of the jar) never runs.
     */
    private static final String SNAKEYAML_DUMPER_OPTIONS = "org/yaml/snakeyaml/DumperOptions";

    private static final String FUNCTION = "DeleteLayerFunction";
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
    void jar_isAtMostTenMegabytes_withTheHandlerAndOnlyTheClientsItUses() {
        // two SDK clients (DynamoDB, Lambda) and the reading half of SnakeYAML (INDEX_DEFINITIONS may name a YAML file)
        assertThat(jar.sizeBytes()).as("%s size", jar).isLessThanOrEqualTo(10_000_000L);
        assertThat(jar.hasClass(jar.handlerClassName())).isTrue();
        assertThat(jar.hasClass("software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient")).isTrue();
        assertThat(jar.hasClass("software.amazon.awssdk.services.lambda.model.DeleteLayerVersionRequest")).isTrue();
        assertThat(jar.hasClass("software.amazon.awssdk.services.dynamodb.model.PutItemResponse")).isTrue();
        assertThat(jar.hasClass("org.joda.time.DateTime")).as("the runtime's event reader loads it").isTrue();
        assertThat(jar.hasClass("software.amazon.awssdk.services.lambda.model.PublishLayerVersionRequest$BuilderImpl")).isFalse();
        assertThat(jar.hasClass("software.amazon.awssdk.services.lambda.model.PublishLayerVersionResponse")).isFalse();
        assertThat(jar.hasClass("software.amazon.awssdk.services.dynamodb.model.TableDescription")).isFalse();
        assertThat(jar.hasClass("software.amazon.awssdk.services.dynamodb.model.CreateTableRequest")).isTrue();
        assertThat(jar.hasClass("software.amazon.awssdk.services.dynamodb.model.CreateTableRequest$BuilderImpl")).isFalse();
        assertThat(jar.hasClass("software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex")).as("a type only other calls hold").isFalse();
        assertThat(jar.hasClass("software.amazon.awssdk.services.dynamodb.model.TransactWriteItem")).as("a type only other calls hold").isFalse();
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
                // the endpoint interceptor only checks a request's type against the other operations' requests
                name -> name.startsWith(DYNAMODB + "model/") && name.endsWith("Request"),
                Set.of(SNAKEYAML_DUMPER_OPTIONS, DYNAMODB + "DynamoDbClient", DYNAMODB + "DefaultDynamoDbClient", LAMBDA + "LambdaClient", LAMBDA + "DefaultLambdaClient"));

        assertThat(missing).as("missing class -> a class naming it").isEmpty();
    }

    @Test
    void handler_fromTheJarAlone_deletesTheLayerAndWritesATombstone() throws Throwable {
        assertThat(jar.handlerClass().getConstructor()).as("no-arg constructor for Lambda").isNotNull();
        try (LocalDynamoDb dynamoDbLocal = LocalDynamoDb.start(); DynamoDbClient dynamoDb = dynamoDbLocal.client();
             LocalLambdaApi lambdaApi = LocalLambdaApi.start()) {
            Map<String, String> names = new HashMap<>();
            TEMPLATE.resources().keySet().forEach(id -> names.put(id, id));
            names.putAll(TemplateTables.create(TEMPLATE, dynamoDb));
            assertThat(TemplateEnvironment.of(TEMPLATE, FUNCTION, names)).isNotEmpty();
            Object handler = jar.newHandler(TemplateEnvironment.forLocalRun(TEMPLATE, FUNCTION, names,
                    Map.of("DYNAMODB", dynamoDbLocal.endpoint(), "LAMBDA", lambdaApi.endpoint())));

            Object result = jar.invoke(handler, SamTemplate.findUp("sam").resolve("events/layer-expired-event.json"),
                    LocalContext.of(FUNCTION));

            assertThat(result).isEqualTo("deleted arn:aws:lambda:us-east-1:123456789012:layer:multikey-requests:12 (tombstone WRITTEN)");
            assertThat(lambdaApi.calls()).extracting(LocalLambdaApi.Call::status).containsExactly(204);
            Map<String, AttributeValue> tombstone = dynamoDb.getItem(b -> b.tableName(names.get("AppTable"))
                    .key(Map.of("id", AttributeValue.fromS("layer#us-east-1#requests#12")))).item();
            assertThat(tombstone).containsKeys("arn", "deletedAt");
        }
    }
}

package com.multikey.queryapi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.multikey.emulator.functions.DeployableJar;
import com.multikey.emulator.functions.LocalFunction;
import com.multikey.emulator.services.dynamodb.LocalDynamoDb;
import com.multikey.emulator.services.secrets.LocalSecretsManager;
import com.multikey.emulator.template.SamTemplate;
import com.multikey.emulator.template.TemplateEnvironment;
import com.multikey.emulator.template.TemplateSecrets;
import com.multikey.emulator.template.TemplateTables;
import com.multikey.testkit.IssueFixtures;
import com.multikey.testkit.OpenApiResponses;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The query function's deployable jar on its own: its size, no class newer than the java21 runtime loads, and the
 * handler built from the jar alone answering an HTTP API event (payload 2.0) against the local DynamoDB engine, as its OpenAPI document
 * describes.
 */
class QueryApiJarIT {

    /**
     * SnakeYAML's dumping settings: the definitions reader's node graph uses only its FlowStyle and ScalarStyle enums, and
     * its own code (for dumping, left out of the jar) never runs.
     */
    private static final String SNAKEYAML_DUMPER_OPTIONS = "org/yaml/snakeyaml/DumperOptions";

    private static final String FUNCTION = "QueryFunction";
    private static final SamTemplate TEMPLATE = SamTemplate.ofRepository();

    @Test
    void jar_isAtMostTenMegabytes_withTheHandler_andNoWritingClient() throws Exception {
        try (DeployableJar jar = DeployableJar.of(TEMPLATE, FUNCTION)) {
            assertThat(jar.sizeBytes()).as("%s size", jar).isLessThanOrEqualTo(10_000_000L);
            assertThat(jar.hasClass(jar.handlerClassName())).isTrue();
            assertThat(jar.entries()).contains("openapi.json");
            assertThat(jar.entries()).noneMatch(name -> name.startsWith("software/amazon/awssdk/services/lambda/")
                    || name.startsWith("software/amazon/awssdk/services/eventbridge/") || name.startsWith("io/netty/"));
            assertThat(jar.classesNewerThan(65)).as("classes the java21 runtime cannot load").isEmpty();
        }
    }

    @Test
    void everyClassTheFunctionCanReach_isInTheJar() throws Exception {
        String dynamoDb = "software/amazon/awssdk/services/dynamodb/";
        String secretsManager = "software/amazon/awssdk/services/secretsmanager/";
        String events = "com/amazonaws/services/lambda/runtime/events/";
        try (DeployableJar jar = DeployableJar.of(TEMPLATE, FUNCTION)) {
            Map<String, String> missing = jar.missingReachableClasses(List.of(dynamoDb, secretsManager, events, "org/yaml/snakeyaml/"),
                    name -> name.startsWith("org/yaml/snakeyaml/")
                            || name.startsWith(dynamoDb + "model/") && !name.endsWith("Exception") || name.startsWith(dynamoDb + "transform/")
                            || name.startsWith(secretsManager + "model/") && !name.endsWith("Exception")
                            || name.startsWith(secretsManager + "transform/") || name.startsWith(events),
                    name -> (name.startsWith(dynamoDb + "model/") || name.startsWith(secretsManager + "model/")) && name.endsWith("Request"),
                    Set.of(SNAKEYAML_DUMPER_OPTIONS, dynamoDb + "DynamoDbClient", dynamoDb + "DefaultDynamoDbClient",
                            secretsManager + "SecretsManagerClient", secretsManager + "DefaultSecretsManagerClient"));

            assertThat(missing).as("missing class -> a class naming it").isEmpty();
            assertThat(jar.hasClass("software.amazon.awssdk.services.secretsmanager.transform.GetSecretValueRequestMarshaller")).isTrue();
        }
    }

    @Test
    void handlerFromTheJar_readsTheCursorKeysFromSecretsManager_andPagesWithItsSealedCursors(@TempDir Path secretsDirectory)
            throws Exception {
        try (LocalDynamoDb dynamoDbLocal = LocalDynamoDb.start(); DynamoDbClient dynamoDb = dynamoDbLocal.client();
             LocalSecretsManager secrets = LocalSecretsManager.start()) {
            // given: three issues lacking the field, and the stack's secret served as Secrets Manager serves it
            Map<String, String> names = new HashMap<>();
            TEMPLATE.resources().keySet().forEach(id -> names.put(id, id));
            names.putAll(TemplateTables.create(TEMPLATE, dynamoDb));
            TemplateSecrets.create(TEMPLATE, secretsDirectory).forEach((id, file) -> secrets.put(names.get(id), file));
            for (String num : List.of("1", "2", "3")) {
                dynamoDb.putItem(b -> b.tableName(names.get("AppTable")).item(Map.of("id", AttributeValue.fromS("issue#j" + num),
                        "project", AttributeValue.fromS("project#j"), "num", AttributeValue.fromN(num))));
            }
            LocalFunction query = LocalFunction.create(TEMPLATE, FUNCTION, TemplateEnvironment.forLocalRun(TEMPLATE, FUNCTION, names,
                    Map.of("DYNAMODB", dynamoDbLocal.endpoint(), "SECRETS_MANAGER", secrets.endpoint())));
            String page = "/v1/grid?field=f&missing=true&pageSize=2&project=project%23j";

            // when
            JsonNode first = body(query.invoke(event("/v1/grid", "field=f&missing=true&pageSize=2&project=project%23j")));
            JsonNode second = body(query.invoke(event("/v1/grid", "field=f&missing=true&pageSize=2&project=project%23j&cursor="
                    + first.get("nextCursor").asText())));

            // then
            assertThat(first.get("items")).as(page).hasSize(2);
            assertThat(second.get("items")).hasSize(1);
            assertThat(second.at("/items/0/key/id").asText()).isEqualTo("issue#j3");
            assertThat(second.get("nextCursor").isNull()).isTrue();
        }
    }

    private static String event(String path, String query) {
        return "{\"version\":\"2.0\",\"rawPath\":\"" + path + "\",\"rawQueryString\":\"" + query + "\","
                + "\"requestContext\":{\"http\":{\"method\":\"GET\",\"path\":\"" + path + "\"}}}";
    }

    private static JsonNode body(String answer) throws Exception {
        JsonNode response = new ObjectMapper().readTree(answer);
        assertThat(response.get("statusCode").asInt()).as(answer).isEqualTo(200);
        return new ObjectMapper().readTree(response.get("body").asText());
    }

    @Test
    void handlerFromTheJar_answersAPageOfTheGrid() throws Exception {
        try (LocalDynamoDb dynamoDbLocal = LocalDynamoDb.start(); DynamoDbClient dynamoDb = dynamoDbLocal.client()) {
            // given
            Map<String, String> names = new HashMap<>();
            TEMPLATE.resources().keySet().forEach(id -> names.put(id, id));
            names.putAll(TemplateTables.create(TEMPLATE, dynamoDb));
            IssueFixtures.putRandomIssues(dynamoDb, names.get("AppTable"), 10, new Random(4));
            LocalFunction query = LocalFunction.create(TEMPLATE, FUNCTION, TemplateEnvironment.forLocalRun(TEMPLATE, FUNCTION, names,
                    Map.of("DYNAMODB", dynamoDbLocal.endpoint())));

            // when
            String answer = query.invoke("{\"version\":\"2.0\",\"rawPath\":\"/v1/indexes\",\"rawQueryString\":\"\","
                    + "\"requestContext\":{\"http\":{\"method\":\"GET\",\"path\":\"/v1/indexes\"}}}");

            // then
            JsonNode response = new ObjectMapper().readTree(answer);
            Map<String, String> headers = new HashMap<>();
            response.path("headers").fields().forEachRemaining(header -> headers.put(header.getKey(), header.getValue().asText()));
            OpenApiResponses.of(QueryApi.openApiDocument()).check("GET", "/v1/indexes", response.get("statusCode").asInt(), headers,
                    response.get("body").asText());
            assertThat(response.get("statusCode").asInt()).as(answer).isEqualTo(200);
            // an empty index table: a new stack, whose grid is grouped; the grid is listed as the index its readers read
            assertThat(new ObjectMapper().readTree(response.get("body").asText()).at("/indexes/0/name").asText()).isEqualTo("issue-grid");
        }
    }
}

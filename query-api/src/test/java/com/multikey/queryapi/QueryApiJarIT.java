package com.multikey.queryapi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.multikey.local.runtime.DeployableJar;
import com.multikey.local.runtime.LocalDynamoDb;
import com.multikey.local.runtime.LocalFunction;
import com.multikey.local.runtime.SamTemplate;
import com.multikey.local.runtime.TemplateEnvironment;
import com.multikey.local.runtime.TemplateTables;
import com.multikey.testkit.IssueFixtures;
import com.multikey.testkit.OpenApiResponses;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

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
        String events = "com/amazonaws/services/lambda/runtime/events/";
        try (DeployableJar jar = DeployableJar.of(TEMPLATE, FUNCTION)) {
            Map<String, String> missing = jar.missingReachableClasses(List.of(dynamoDb, events),
                    name -> name.startsWith(dynamoDb + "model/") && !name.endsWith("Exception") || name.startsWith(dynamoDb + "transform/")
                            || name.startsWith(events),
                    name -> name.startsWith(dynamoDb + "model/") && name.endsWith("Request"),
                    Set.of(dynamoDb + "DynamoDbClient", dynamoDb + "DefaultDynamoDbClient"));

            assertThat(missing).as("missing class -> a class naming it").isEmpty();
        }
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
            assertThat(new ObjectMapper().readTree(response.get("body").asText()).at("/indexes/0/name").asText()).isEqualTo("custom_fields");
        }
    }
}

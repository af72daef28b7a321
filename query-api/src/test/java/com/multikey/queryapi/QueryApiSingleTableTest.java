package com.multikey.queryapi;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.multikey.common.StructuredLog;
import com.multikey.emulator.functions.LocalContext;
import com.multikey.index.IndexProjector;
import com.multikey.index.definition.IndexDefinitions;
import com.multikey.query.CursorKeys;
import com.multikey.query.CursorSealer;
import com.multikey.testkit.LocalTables;
import com.multikey.testkit.LocalTablesExtension;
import com.multikey.testkit.OpenApiResponses;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The real handler over the single-table example ({@code examples/single-table}: its definitions, a pk/sk table), for
 * predicates on its indexes: the sorted attribute's {@code @} spelling on {@code issue-labels} (an index of the elements of
 * {@code labels}) and range bounds of two types. Every answer is checked against the OpenAPI document.
 */
class QueryApiSingleTableTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final OpenApiResponses OPENAPI = OpenApiResponses.of(QueryApi.openApiDocument());
    private static final Path EXAMPLE = Path.of("..", "examples", "single-table", "index-definitions.yaml");
    private static final String TABLE = "Tracker";
    @RegisterExtension
    static final LocalTablesExtension TABLES = LocalTablesExtension.createdOnce();
    private static QueryApiHandler handler;

    @BeforeAll
    static void load(LocalTables tables) {
        DynamoDbClient dynamoDb = tables.dynamoDb();
        dynamoDb.createTable(b -> b.tableName(TABLE).billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(a -> a.attributeName("pk").attributeType(ScalarAttributeType.S),
                        a -> a.attributeName("sk").attributeType(ScalarAttributeType.S))
                .keySchema(k -> k.attributeName("pk").keyType(KeyType.HASH), k -> k.attributeName("sk").keyType(KeyType.RANGE)));
        IndexProjector projector = new IndexProjector(IndexDefinitions.read(EXAMPLE));
        for (Map<String, AttributeValue> item : List.of(issue(7, "a", "b", "e"), issue(8, "c", "d"), issue(9, "f"))) {
            dynamoDb.putItem(b -> b.tableName(TABLE).item(item));
            projector.project(projector.keyOf(item).orElseThrow(), item).items()
                    .forEach(indexItem -> dynamoDb.putItem(b -> b.tableName("IssueAttribIndexTable").item(indexItem.toItem())));
        }
        Map<String, String> env = Map.of("APP_TABLE_NAME", TABLE, "INDEX_TABLE_NAME", "IssueAttribIndexTable",
                "INDEX_DEFINITIONS", EXAMPLE.toString());
        handler = new QueryApiHandler(env, new StructuredLog("QueryApiHandler", new PrintStream(new ByteArrayOutputStream(), true,
                StandardCharsets.UTF_8), Clock.systemUTC()), dynamoDb, CursorSealer.of(CursorKeys.ephemeral()));
    }

    /** An issue of project r7 as the example writes one: num, title, state, labels (a string set). */
    private static Map<String, AttributeValue> issue(int num, String... labels) {
        return Map.of("pk", AttributeValue.fromS("PROJECT#r7"), "sk", AttributeValue.fromS("ISSUE#" + num),
                "num", AttributeValue.fromN(Integer.toString(num)), "title", AttributeValue.fromS("issue " + num),
                "state", AttributeValue.fromS("open"), "labels", AttributeValue.fromSs(List.of(labels)));
    }

    private record Answer(int status, JsonNode body) {
    }

    private static Answer get(String path, String query) {
        APIGatewayV2HTTPEvent.RequestContext.Http http = new APIGatewayV2HTTPEvent.RequestContext.Http();
        http.setMethod("GET");
        APIGatewayV2HTTPEvent.RequestContext context = new APIGatewayV2HTTPEvent.RequestContext();
        context.setHttp(http);
        APIGatewayV2HTTPResponse response = handler.handleRequest(APIGatewayV2HTTPEvent.builder().withRawPath(path)
                .withRawQueryString(query).withRequestContext(context).build(), LocalContext.of("QueryFunction"));
        OPENAPI.check("GET", path, response.getStatusCode(), response.getHeaders(), response.getBody());
        try {
            return new Answer(response.getStatusCode(), JSON.readTree(response.getBody()));
        } catch (Exception e) {
            throw new AssertionError("not JSON: " + response.getBody(), e);
        }
    }

    private static List<String> listed(JsonNode page) {
        List<String> listed = new ArrayList<>();
        page.get("items").forEach(item -> listed.add(item.at("/key/sk").asText() + " " + item.get("value").asText()));
        return listed;
    }

    @Test
    void atLabels_onTheLabelsIndex_isTheSortedField_listingEachItemUnderItsFirstElementThatSatisfiesIt() {
        // when: @labels = b and @labels <= "b"; @labels >= d both ways; labels = a with @labels = e
        Answer equalsB = get("/v1/indexes/issue-labels/items",
                "group=PROJECT%23r7&where=%40labels%20%3D%20b&where=%40labels%20%3C%3D%20%22b%22");
        Answer fromD = get("/v1/indexes/issue-labels/items", "group=PROJECT%23r7&where=%40labels%20%3E%3D%20d");
        Answer fromDDescending = get("/v1/indexes/issue-labels/items", "group=PROJECT%23r7&order=desc&where=%40labels%20%3E%3D%20d");
        Answer noOneElement = get("/v1/indexes/issue-labels/items", "group=PROJECT%23r7&where=labels%20%3D%20a&where=%40labels%20%3D%20e");

        // then: ISSUE#7 (labels a, b, e) is listed under b, not a; each under its first element from d
        assertThat(equalsB.status()).isEqualTo(200);
        assertThat(listed(equalsB.body())).containsExactly("ISSUE#7 b");
        assertThat(listed(fromD.body())).containsExactly("ISSUE#8 d", "ISSUE#7 e", "ISSUE#9 f");
        assertThat(listed(fromDDescending.body())).containsExactly("ISSUE#9 f", "ISSUE#7 e", "ISSUE#8 d");
        assertThat(listed(noOneElement.body())).isEmpty();
    }

    @Test
    void rangeBoundsOfTwoTypesOnOneField_inEitherSpelling_areA400NamingWhere_andTheLaterPredicate() {
        // when: @num >= 3 with @num < "m"; labels >= a with @labels < N:3 (one field, two spellings)
        Answer num = get("/v1/indexes/issue-labels/items", "group=PROJECT%23r7&where=%40num%20%3E%3D%203&where=%40num%20%3C%20%22m%22");
        Answer labels = get("/v1/indexes/issue-labels/items", "group=PROJECT%23r7&where=labels%20%3E%3D%20a&where=%40labels%20%3C%20N%3A3");

        // then
        for (Answer answer : List.of(num, labels)) {
            assertThat(answer.status()).as(answer.body().toString()).isEqualTo(400);
            assertThat(answer.body().get("parameter").asText()).isEqualTo("where");
            assertThat(answer.body().get("position").asInt()).isEqualTo(1);
            assertThat(answer.body().get("detail").asText()).contains("two types");
        }
        assertThat(num.body().get("predicate").asText()).isEqualTo("@num < \"m\"");
    }
}

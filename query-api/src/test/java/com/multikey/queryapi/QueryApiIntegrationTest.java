package com.multikey.queryapi;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.multikey.index.IndexProjector;
import com.multikey.index.ItemKey;
import com.multikey.index.definition.IndexDefinitions;
import com.multikey.local.runtime.GridSample;
import com.multikey.local.runtime.LocalContext;
import com.multikey.local.runtime.SamTemplate;
import com.multikey.local.runtime.TemplateEnvironment;
import com.multikey.testkit.Fixtures;
import com.multikey.testkit.LocalTables;
import com.multikey.testkit.LocalTablesExtension;
import com.multikey.testkit.OpenApiResponses;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The real handler, configured as the template configures QueryFunction, over the grid sample in the local DynamoDB engine:
 * every route, every error, both authorization modes, and cursors that were edited or made for another query. Every answer is
 * checked against the OpenAPI document the API serves.
 */
class QueryApiIntegrationTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final IndexDefinitions DEFINITIONS = IndexDefinitions.packaged();
    private static final OpenApiResponses OPENAPI = OpenApiResponses.of(QueryApi.openApiDocument());
    @RegisterExtension
    static final LocalTablesExtension TABLES = LocalTablesExtension.createdOnce();
    private static QueryApiHandler iam;
    private static QueryApiHandler jwt;

    @BeforeAll
    static void load(LocalTables tables) {
        DynamoDbClient dynamoDb = tables.dynamoDb();
        GridSample grid = Fixtures.grid();
        grid.projects().forEach(item -> dynamoDb.putItem(b -> b.tableName("AppTable").item(item)));
        grid.issues().forEach(item -> put(dynamoDb, item));
        put(dynamoDb, issue("issue#big", "project#35e9", 9, Map.of("3812", AttributeValue.fromS("2023-06-01"),
                "size", AttributeValue.fromN("9007199254740993"))));
        put(dynamoDb, issue("issue#other", "project#other", 1, Map.of("3812", AttributeValue.fromS("2023-01-01"))));
        // field 9999 of two projects: project#mine's first value, then twelve of project#theirs, then project#mine's last
        put(dynamoDb, issue("issue#mine1", "project#mine", 1, Map.of("9999", AttributeValue.fromS("a"))));
        for (int i = 10; i < 22; i++) {
            put(dynamoDb, issue("issue#theirs" + i, "project#theirs", i, Map.of("9999", AttributeValue.fromS("b-secret-" + i))));
        }
        put(dynamoDb, issue("issue#mine2", "project#mine", 2, Map.of("9999", AttributeValue.fromS("c"))));
        SamTemplate template = tables.template();
        Map<String, String> names = new HashMap<>(tables.names());
        Map<String, String> env = new HashMap<>(TemplateEnvironment.forLocalRun(template, "QueryFunction", names,
                Map.of("DYNAMODB", tables.local().endpoint())));
        iam = new QueryApiHandler(env);
        env.put("AUTH_MODE", "JWT");
        jwt = new QueryApiHandler(env);
    }

    private static Map<String, AttributeValue> issue(String id, String project, int num, Map<String, AttributeValue> fields) {
        return Map.of("id", AttributeValue.fromS(id), "project", AttributeValue.fromS(project), "num", AttributeValue.fromN(Integer.toString(num)),
                "custom_fields", AttributeValue.fromM(fields));
    }

    /** The issue and the index items the stream indexer keeps for it. */
    private static void put(DynamoDbClient dynamoDb, Map<String, AttributeValue> item) {
        dynamoDb.putItem(b -> b.tableName("AppTable").item(item));
        List<WriteRequest> puts = new IndexProjector(DEFINITIONS).project(ItemKey.ofString("id", item.get("id").s()), item).items().stream()
                .map(indexItem -> WriteRequest.builder().putRequest(PutRequest.builder().item(indexItem.toItem()).build()).build()).toList();
        if (!puts.isEmpty()) {
            dynamoDb.batchWriteItem(b -> b.requestItems(Map.of("IssueAttribIndexTable", puts)));
        }
    }

    private record Answer(int status, Map<String, String> headers, JsonNode body) {
    }

    /** The handler's answer to a request, checked against the OpenAPI document it serves before any test looks at it. */
    private static Answer call(QueryApiHandler handler, String method, String path, String query, String projectsClaim) {
        APIGatewayV2HTTPEvent.RequestContext.Http http = new APIGatewayV2HTTPEvent.RequestContext.Http();
        http.setMethod(method);
        APIGatewayV2HTTPEvent.RequestContext context = new APIGatewayV2HTTPEvent.RequestContext();
        context.setHttp(http);
        if (projectsClaim != null) {
            APIGatewayV2HTTPEvent.RequestContext.Authorizer authorizer = new APIGatewayV2HTTPEvent.RequestContext.Authorizer();
            APIGatewayV2HTTPEvent.RequestContext.Authorizer.JWT token = new APIGatewayV2HTTPEvent.RequestContext.Authorizer.JWT();
            token.setClaims(Map.of("projects", projectsClaim, "sub", "user-1"));
            authorizer.setJwt(token);
            context.setAuthorizer(authorizer);
        }
        APIGatewayV2HTTPEvent event = APIGatewayV2HTTPEvent.builder().withRawPath(path).withRawQueryString(query)
                .withRequestContext(context).build();
        APIGatewayV2HTTPResponse response = handler.handleRequest(event, LocalContext.of("QueryFunction"));
        OPENAPI.check(method, path, response.getStatusCode(), response.getHeaders(), response.getBody());
        try {
            return new Answer(response.getStatusCode(), response.getHeaders(), JSON.readTree(response.getBody()));
        } catch (Exception e) {
            throw new AssertionError("not JSON: " + response.getBody(), e);
        }
    }

    private static Answer get(QueryApiHandler handler, String path, String query, String projectsClaim) {
        return call(handler, "GET", path, query, projectsClaim);
    }

    private static Answer get(String path, String query) {
        return get(iam, path, query, null);
    }

    private static List<String> ids(JsonNode page) {
        List<String> ids = new ArrayList<>();
        page.get("items").forEach(item -> ids.add(item.at("/key/id").asText()));
        return ids;
    }

    @Test
    void grid_pagesByAFieldBothWays_thenTheMissingTail_markedAsSuch() {
        // when
        Answer first = get("/v1/grid", "project=project%2335e9&field=3812&pageSize=2&missing=true");
        Answer second = get("/v1/grid", "project=project%2335e9&field=3812&pageSize=2&missing=true&cursor="
                + first.body().get("nextCursor").asText());
        Answer descending = get("/v1/grid", "project=project%2335e9&field=3812&order=desc");

        // then
        assertThat(first.status()).isEqualTo(200);
        assertThat(first.headers()).containsEntry("content-type", "application/json");
        assertThat(ids(first.body())).containsExactly("issue#020e", "issue#67d1");
        assertThat(first.body().at("/items/0/value").asText()).isEqualTo("2023-05-01");
        assertThat(first.body().at("/items/0/missing").asBoolean()).isFalse();
        assertThat(ids(second.body())).containsExactly("issue#big", "issue#af34");
        assertThat(second.body().at("/items/1/missing").asBoolean()).as("issue#af34 has no 3812").isTrue();
        assertThat(second.body().at("/items/1/value").isNull()).isTrue();
        assertThat(ids(descending.body())).containsExactly("issue#big", "issue#67d1", "issue#020e");
        assertThat(descending.body().get("nextCursor").isNull()).isTrue();
    }

    @Test
    void grid_numbersADoubleCannotHold_comeBackAsStringsOfTheirDigits() {
        Answer page = get("/v1/grid", "project=project%2335e9&field=3812&equals=2023-06-01&type=text");

        assertThat(ids(page.body())).containsExactly("issue#big");
        JsonNode size = page.body().at("/items/0/item/custom_fields/size");
        assertThat(size.isTextual()).isTrue();
        assertThat(size.asText()).isEqualTo("9007199254740993");
        assertThat(page.body().at("/items/0/item/num").isNumber()).isTrue();
    }

    @Test
    void grid_filters_equalsBeginsWithAndRanges() {
        assertThat(ids(get("/v1/grid", "project=project%2335e9&field=3812&beginsWith=2023-05").body()))
                .containsExactly("issue#020e", "issue#67d1");
        assertThat(ids(get("/v1/grid", "project=project%2335e9&field=3812&gt=2023-05-01&type=text").body()))
                .containsExactly("issue#67d1", "issue#big");
        assertThat(ids(get("/v1/grid", "project=project%2335e9&field=3812&ge=2023-05-01&lt=2023-06-01&type=text").body()))
                .containsExactly("issue#020e", "issue#67d1");
    }

    @Test
    void indexes_listsTheDeclaredIndexes_andAnIndexPageIsTheGridsPage() {
        Answer indexes = get("/v1/indexes", null);
        Answer page = get("/v1/indexes/custom_fields/items", "group=project%2335e9&entry=3812");

        assertThat(indexes.body().at("/indexes/0/name").asText()).isEqualTo("custom_fields");
        assertThat(indexes.body().at("/indexes/0/values").asText()).isEqualTo("entriesOf");
        assertThat(ids(page.body())).isEqualTo(ids(get("/v1/grid", "project=project%2335e9&field=3812").body()));
    }

    @Test
    void openApi_isServed() {
        Answer document = get("/openapi.json", null);

        assertThat(document.status()).isEqualTo(200);
        assertThat(document.body().get("openapi").asText()).isEqualTo("3.1.0");
        assertThat(document.body().at("/paths/~1v1~1grid/get/operationId").asText()).isEqualTo("gridPage");
        assertThat(OpenApiResponses.of(document.body().toString()).schemaProblems()).isEmpty();
    }

    @Test
    void badInput_isA400ProblemNamingTheParameter() {
        Map<String, String> cases = new LinkedHashMap<>();
        cases.put("project=project%2335e9&field=3812&type=date&equals=x", "type");
        cases.put("project=project%2335e9&field=3812&gt=5&lt=3", "gt");
        cases.put("project=project%2335e9&field=3812&gt=5&lt=b", "lt");
        cases.put("project=project%2335e9&field=3812&pageSize=0", "pageSize");
        cases.put("project=project%2335e9&field=3812&pageSize=101", "pageSize");
        cases.put("project=project%2335e9&field=3812&order=up", "order");
        cases.put("project=project%2335e9", "field");
        cases.put("field=3812", "project");
        cases.put("project=project%2335e9&field=3812&sort=x", "sort");
        cases.put("project=project%2335e9&field=3812&order=asc&order=desc", "order");
        cases.put("project=project%2335e9&field=3812&cursor=bm90LWEtY3Vyc29y", "cursor");
        cases.put("project=project%2335e9&field=3812&missing=true&equals=x", "missing");
        cases.put("project=project%2335e9&field=3812&equals=1&beginsWith=1", "equals");
        cases.put("project=project%2335e9&field=nope", "field");
        cases.put("project=project%2335e9&field=3812&equals=%E0%A4%A", "query");

        cases.forEach((query, parameter) -> {
            Answer answer = get("/v1/grid", query);
            assertThat(answer.status()).as(query).isEqualTo(400);
            assertThat(answer.headers()).as(query).containsEntry("content-type", "application/problem+json");
            assertThat(answer.body().get("parameter").asText()).as(query).isEqualTo(parameter);
            assertThat(answer.body().get("status").asInt()).isEqualTo(400);
            assertThat(answer.body().toString()).as(query).doesNotContain("AppTable").doesNotContain("IssueAttribIndexTable")
                    .doesNotContain("attribId").doesNotContain("sortKey");
        });
    }

    @Test
    void malformedQueryString_onEveryRoute_isA400ProblemNamingTheQuery() {
        for (String path : List.of("/v1/grid", "/v1/indexes", "/v1/indexes/custom_fields/items", "/openapi.json")) {
            Answer answer = get(path, "x=%E0%A4%A");

            assertThat(answer.status()).as(path).isEqualTo(400);
            assertThat(answer.body().get("parameter").asText()).as(path).isEqualTo("query");
        }
    }

    @Test
    void unknownIndexOrRoute_is404_andAnotherMethod405() {
        assertThat(get("/v1/indexes/nope/items", "group=x").status()).isEqualTo(404);
        assertThat(get("/v1/indexes/nope/items", "group=x").body().get("detail").asText()).contains("no index named 'nope'");
        assertThat(get("/v2/grid", null).status()).isEqualTo(404);
        assertThat(call(iam, "POST", "/v1/grid", null, null).status()).isEqualTo(405);
        assertThat(call(iam, "DELETE", "/v2/grid", null, null).status()).isEqualTo(405);
    }

    @Test
    void cursor_editedOrMadeForAnotherQuery_isRefused_andNeverWidensTheQuery() {
        // given
        String cursor = get("/v1/grid", "project=project%2335e9&field=3812&pageSize=1").body().get("nextCursor").asText();
        String edited = cursor.substring(0, cursor.length() - 2) + (cursor.endsWith("A") ? "B" : "A") + cursor.charAt(cursor.length() - 1);

        // then
        for (String query : List.of("project=project%23other&field=3812&pageSize=1&cursor=" + cursor,
                "project=project%2335e9&field=3812&pageSize=1&order=desc&cursor=" + cursor,
                "project=project%2335e9&field=3812&pageSize=1&beginsWith=2&cursor=" + cursor,
                "project=project%2335e9&field=3812&pageSize=1&cursor=" + edited)) {
            Answer answer = get("/v1/grid", query);
            assertThat(answer.status()).as(query).isEqualTo(400);
            assertThat(answer.body().get("parameter").asText()).as(query).isEqualTo("cursor");
        }
    }

    @Test
    void jwt_readsTheProjectsItsClaimLists_only() {
        // when
        Answer listed = get(jwt, "/v1/grid", "project=project%2335e9&field=3812", "[project#35e9 project#x]");
        Answer other = get(jwt, "/v1/grid", "project=project%23other&field=3812", "[project#35e9 project#x]");
        Answer single = get(jwt, "/v1/grid", "project=project%2335e9&field=3812", "project#35e9");
        Answer noClaim = get(jwt, "/v1/grid", "project=project%2335e9&field=3812", "");
        Answer unsigned = get(jwt, "/v1/grid", "project=project%2335e9&field=3812", null);
        Answer everything = get(jwt, "/v1/grid", "project=project%23other&field=3812", "[*]");

        // then
        assertThat(listed.status()).isEqualTo(200);
        assertThat(single.status()).isEqualTo(200);
        assertThat(everything.status()).isEqualTo(200);
        assertThat(ids(everything.body())).containsExactly("issue#other");
        for (Answer refused : List.of(other, noClaim, unsigned)) {
            assertThat(refused.status()).isEqualTo(403);
            assertThat(refused.headers()).containsEntry("content-type", "application/problem+json");
            assertThat(refused.body().has("items")).isFalse();
        }
    }

    @Test
    void claimValues_readTheFormsApiGatewayPasses() {
        assertThat(QueryApiHandler.claimValues("[a b c]")).containsExactlyInAnyOrder("a", "b", "c");
        assertThat(QueryApiHandler.claimValues("a,b")).containsExactlyInAnyOrder("a", "b");
        assertThat(QueryApiHandler.claimValues("[\"a\",\"b\"]")).containsExactlyInAnyOrder("a", "b");
        assertThat(QueryApiHandler.claimValues(" ")).isEmpty();
        assertThat(QueryApiHandler.claimValues(null)).isEmpty();
    }

    @Test
    void aProjectOrFieldNoKeyCanHold_isA400NamingItsParameter_notA503ToRetry() {
        // given: names longer than DynamoDB's 2048 bytes of a partition key, and an empty group value
        String huge = "p".repeat(3000);
        Map<String, String> cases = new LinkedHashMap<>();
        cases.put("/v1/grid?project=" + huge + "&field=3812", "project");
        cases.put("/v1/grid?project=project%23none&field=" + huge, "field");
        cases.put("/v1/indexes/custom_fields/items?group=" + huge + "&entry=3812", "group");
        cases.put("/v1/indexes/custom_fields/items?group=&entry=3812", "group");

        org.assertj.core.api.SoftAssertions.assertSoftly(softly -> cases.forEach((uri, parameter) -> {
            // when
            String[] parts = uri.split("\\?", 2);
            Answer answer = get(parts[0], parts[1]);
            // then
            softly.assertThat(answer.status()).as(uri.substring(0, 40)).isEqualTo(400);
            softly.assertThat(answer.body().path("parameter").asText()).as(uri.substring(0, 40)).isEqualTo(parameter);
        }));
    }

    @Test
    void aFilterValueLongerThanAKeyHolds_isDecidedOnTheWholeValue() {
        String huge = "p".repeat(3000);
        for (String filter : List.of("type=text&equals=", "beginsWith=", "type=text&gt=")) {
            Answer answer = get("/v1/grid", "project=project%2335e9&field=3812&" + filter + huge);
            assertThat(answer.status()).as(filter).isEqualTo(200);
        }
    }

    @Test
    void jwt_anIndexPageOfAGroupTheClaimDoesNotList_is403() {
        Answer other = get(jwt, "/v1/indexes/custom_fields/items", "group=project%23other&entry=3812", "[project#35e9]");
        Answer typed = get(jwt, "/v1/indexes/custom_fields/items", "group=S:project%23other&entry=3812", "[project#35e9]");
        Answer listed = get(jwt, "/v1/indexes/custom_fields/items", "group=S:project%2335e9&entry=3812", "[project#35e9]");

        assertThat(other.status()).isEqualTo(403);
        assertThat(typed.status()).isEqualTo(403);
        assertThat(listed.status()).isEqualTo(200);
    }

    @Test
    void odds_pageSizeForms_groupPrefixes_repeatedGroups() {
        Map<String, Integer> cases = new LinkedHashMap<>();
        cases.put("/v1/grid?project=project%2335e9&field=3812&pageSize=1e1", 400);
        cases.put("/v1/grid?project=project%2335e9&field=3812&pageSize=%205", 400);
        cases.put("/v1/grid?project=project%2335e9&field=3812&pageSize=+5", 400);
        cases.put("/v1/grid?project=project%2335e9&field=3812&pageSize=0100", 200);
        cases.put("/v1/grid?project=project%2335e9&field=3812&pageSize=", 400);
        cases.put("/v1/grid?project=project%2335e9&field=3812&equals=", 200);
        cases.put("/v1/grid?project=project%2335e9&field=3812&type=number&gt=1e999999999", 400);
        cases.put("/v1/grid?project=project%2335e9&field=3812&type=number&gt=5&lt=1", 400);
        cases.put("/v1/grid?project=project%2335e9&field=3812&gt=5&lt=5", 200);
        cases.put("/v1/indexes/custom_fields/items?group=N:5&entry=3812", 400);
        cases.put("/v1/indexes/custom_fields/items?group=N:1e999999999&entry=3812", 400);
        cases.put("/v1/indexes/custom_fields/items?group=N:x&entry=3812", 400);
        cases.put("/v1/indexes/custom_fields/items?group=a&group=b&entry=3812", 400);
        cases.put("/v1/indexes/custom_fields/items?entry=3812", 400);
        cases.put("/v1/indexes/custom_fields/items?group=project%2335e9", 400);
        cases.put("/v1/indexes/..%2Fgrid/items?group=project%2335e9", 404);
        cases.put("/v1/indexes/../items?group=project%2335e9", 404);
        cases.forEach((uri, status) -> {
            String[] parts = uri.split("\\?", 2);
            Answer answer = get(parts[0], parts[1]);
            assertThat(answer.status()).as(uri + " " + answer.body()).isEqualTo(status);
        });
    }

    @Test
    void cursor_carriesNothingOfAnotherProject() {
        // when: a page of project#mine that ends where the Query stopped evaluating, among project#theirs' items
        Answer page = get(jwt, "/v1/grid", "project=project%23mine&field=9999&pageSize=1", "[project#mine]");
        String cursor = new String(java.util.Base64.getUrlDecoder().decode(page.body().get("nextCursor").asText()),
                java.nio.charset.StandardCharsets.UTF_8);

        // then
        assertThat(ids(page.body())).containsExactly("issue#mine1");
        assertThat(cursor).doesNotContain("theirs").doesNotContain("secret");
    }
}

package com.multikey.queryapi;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.multikey.common.StructuredLog;
import com.multikey.emulator.fixtures.GridSample;
import com.multikey.emulator.functions.LocalContext;
import com.multikey.emulator.services.secrets.LocalSecretsManager;
import com.multikey.emulator.template.SamTemplate;
import com.multikey.emulator.template.TemplateEnvironment;
import com.multikey.emulator.template.TemplateSecrets;
import com.multikey.index.IndexProjector;
import com.multikey.index.ItemKey;
import com.multikey.index.definition.IndexDefinitions;
import com.multikey.testkit.Fixtures;
import com.multikey.testkit.LocalTables;
import com.multikey.testkit.LocalTablesExtension;
import com.multikey.testkit.OpenApiResponses;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.HexFormat;
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
    private static final ByteArrayOutputStream LOG_LINES = new ByteArrayOutputStream();
    private static QueryApiHandler iam;
    private static QueryApiHandler jwt;
    /** The function's environment as the template gives it, its endpoints the local ones (Secrets Manager included). */
    private static Map<String, String> env;
    /** The stack's cursor keys' secret, as the local Secrets Manager endpoint serves it. */
    private static Path cursorKeys;
    private static LocalSecretsManager secrets;
    private static DynamoDbClient reader;
    private static Map<String, String> tableNames;

    @BeforeAll
    static void load(LocalTables tables, @TempDir Path secretsDirectory) {
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
        // a multi-valued field: issue#list1 is listed under one of its three elements, issue#list2 under its only one
        put(dynamoDb, issue("issue#list1", "project#lists", 1, Map.of("tags", AttributeValue.fromL(List.of(AttributeValue.fromN("-1"),
                AttributeValue.fromS("béta"), AttributeValue.fromBool(true))))));
        put(dynamoDb, issue("issue#list2", "project#lists", 2, Map.of("tags", AttributeValue.fromSs(List.of("alpha")))));
        PLANNED.forEach(issue -> put(dynamoDb, issue(issue.id(), "project#plan", issue.num(), issue.fields())));
        SamTemplate template = tables.template();
        Map<String, String> names = new HashMap<>(tables.names());
        reader = dynamoDb;
        tableNames = Map.copyOf(names);
        secrets = LocalSecretsManager.start();
        TemplateSecrets.create(template, secretsDirectory).forEach((id, file) -> {
            names.put(id, id);
            secrets.put(id, file);
        });
        cursorKeys = secretsDirectory.resolve("CursorKeySecret.json");
        env = new HashMap<>(TemplateEnvironment.forLocalRun(template, "QueryFunction", names,
                Map.of("DYNAMODB", tables.local().endpoint(), "SECRETS_MANAGER", secrets.endpoint())));
        iam = new QueryApiHandler(env, new StructuredLog("QueryApiHandler", new PrintStream(LOG_LINES, true, StandardCharsets.UTF_8),
                Clock.systemUTC()));
        Map<String, String> jwtEnv = new HashMap<>(env);
        jwtEnv.put("AUTH_MODE", "JWT");
        jwt = new QueryApiHandler(jwtEnv);
    }

    @AfterAll
    static void stop() {
        if (secrets != null) {
            secrets.close();
        }
    }

    /** An issue of project#plan: its status, severity (none for every seventh) and team, for requests with predicates. */
    private record Planned(String id, int num, String status, Integer severity, String team) {
        Map<String, AttributeValue> fields() {
            Map<String, AttributeValue> fields = new HashMap<>(Map.of("status", AttributeValue.fromS(status), "team", AttributeValue.fromS(team)));
            if (severity != null) {
                fields.put("severity", AttributeValue.fromN(Integer.toString(severity)));
            }
            return fields;
        }
    }

    private static final List<Planned> PLANNED = java.util.stream.IntStream.rangeClosed(1, 30).mapToObj(num -> new Planned(
            "issue#p" + num, num, List.of("open", "triage", "closed").get(num % 3), num % 7 == 0 ? null : (num * 7) % 5 + 1,
            num % 2 == 0 ? "core" : "web")).toList();

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
        cases.put("project=project%2335e9&field=3812&equals=%E0%A4%A", "equals");
        cases.put("project=project%2335e9&field=3812&%E0%A4%A=1", "query");

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
    void malformedQueryString_onEveryRoute_isA400ProblemNamingTheParameterWhoseValueItIs_orTheQuery() {
        for (String path : List.of("/v1/grid", "/v1/indexes", "/v1/indexes/custom_fields/items", "/openapi.json")) {
            // when
            Answer inAValue = get(path, "x=%E0%A4%A");
            Answer inAName = get(path, "x%zz=1");

            // then
            assertThat(inAValue.status()).as(path).isEqualTo(400);
            assertThat(inAValue.body().get("parameter").asText()).as(path).isEqualTo("x");
            assertThat(inAName.status()).as(path).isEqualTo(400);
            assertThat(inAName.body().get("parameter").asText()).as(path).isEqualTo("query");
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
    void cursor_editedCutOrMadeForAnotherQuery_isRefusedNamingTheCursor_andNeverWidensTheQuery() {
        // given
        String cursor = get("/v1/grid", "project=project%2335e9&field=3812&pageSize=1").body().get("nextCursor").asText();
        // the second-to-last character changed (it carries only data bits): to 'A', or to 'B' when it is an 'A' already
        String edited = cursor.substring(0, cursor.length() - 2) + (cursor.charAt(cursor.length() - 2) == 'A' ? "B" : "A")
                + cursor.charAt(cursor.length() - 1);
        String typeTag = cursor.substring(0, 20) + (cursor.charAt(20) == 'N' ? 'O' : 'N') + cursor.substring(21);
        String indexCursor = get("/v1/indexes/custom_fields/items", "group=project%2335e9&entry=3812&pageSize=1").body()
                .get("nextCursor").asText();

        // then: another project, field (entry), order, filter, missing tail, index route's group; edited; cut
        Map<String, String> refused = new LinkedHashMap<>();
        refused.put("project=project%23other&field=3812&pageSize=1&cursor=" + cursor, "/v1/grid");
        refused.put("project=project%2335e9&field=882a&pageSize=1&cursor=" + cursor, "/v1/grid");
        refused.put("project=project%2335e9&field=3812&pageSize=1&order=desc&cursor=" + cursor, "/v1/grid");
        refused.put("project=project%2335e9&field=3812&pageSize=1&beginsWith=2&cursor=" + cursor, "/v1/grid");
        refused.put("project=project%2335e9&field=3812&pageSize=1&type=text&equals=2023-05-01&cursor=" + cursor, "/v1/grid");
        refused.put("project=project%2335e9&field=3812&pageSize=1&missing=true&cursor=" + cursor, "/v1/grid");
        refused.put("project=project%2335e9&field=3812&pageSize=1&cursor=" + edited, "/v1/grid");
        refused.put("project=project%2335e9&field=3812&pageSize=1&cursor=" + typeTag, "/v1/grid");
        refused.put("project=project%2335e9&field=3812&pageSize=1&cursor=" + cursor.substring(0, cursor.length() - 1), "/v1/grid");
        refused.put("project=project%2335e9&field=3812&pageSize=1&cursor=" + cursor.substring(0, cursor.length() / 2), "/v1/grid");
        refused.put("group=project%23other&entry=3812&pageSize=1&cursor=" + indexCursor, "/v1/indexes/custom_fields/items");
        refused.put("group=project%2335e9&entry=882a&pageSize=1&cursor=" + indexCursor, "/v1/indexes/custom_fields/items");
        refused.forEach((query, path) -> {
            Answer answer = get(path, query);
            assertThat(answer.status()).as(query).isEqualTo(400);
            assertThat(answer.body().get("parameter").asText()).as(query).isEqualTo("cursor");
            // the same words whatever was wrong: nothing tells about the keys
            assertThat(answer.body().get("detail").asText()).as(query).isEqualTo(com.multikey.query.CursorSealer.REFUSED);
        });
        // the same query with another page size takes it
        assertThat(get("/v1/grid", "project=project%2335e9&field=3812&pageSize=5&cursor=" + cursor).status()).isEqualTo(200);
    }

    @Test
    void cursor_pastItsLifetime_isA400NamingTheCursor() throws Exception {
        // given: the API over the library with a one-hour lifetime and a clock the test moves
        java.util.concurrent.atomic.AtomicReference<java.time.Instant> now = new java.util.concurrent.atomic.AtomicReference<>(
                java.time.Instant.parse("2026-11-27T08:00:00Z"));
        java.time.Clock clock = new java.time.Clock() {
            @Override
            public java.time.ZoneId getZone() {
                return java.time.ZoneOffset.UTC;
            }

            @Override
            public java.time.Clock withZone(java.time.ZoneId zone) {
                return this;
            }

            @Override
            public java.time.Instant instant() {
                return now.get();
            }
        };
        com.multikey.query.CursorSealer sealer = new com.multikey.query.CursorSealer(com.multikey.query.CursorKeys.ephemeral(),
                java.time.Duration.ofHours(1), clock);
        QueryApi api = new QueryApi(com.multikey.query.IndexQuery.of(reader, tableNames.get("AppTable"),
                tableNames.get("IssueAttribIndexTable"), DEFINITIONS).withCursorSealer(sealer)::page, DEFINITIONS);
        Map<String, List<String>> first = Map.of("project", List.of("project#35e9"), "field", List.of("3812"), "pageSize", List.of("1"));
        String cursor = JSON.readTree(api.handle(new QueryApi.Request("GET", "/v1/grid", first, java.util.Optional.empty())).body())
                .get("nextCursor").asText();
        Map<String, List<String>> next = new HashMap<>(first);
        next.put("cursor", List.of(cursor));

        // when
        now.set(now.get().plus(java.time.Duration.ofMinutes(59)));
        QueryApi.Response within = api.handle(new QueryApi.Request("GET", "/v1/grid", next, java.util.Optional.empty()));
        now.set(now.get().plus(java.time.Duration.ofMinutes(1)));
        QueryApi.Response expired = api.handle(new QueryApi.Request("GET", "/v1/grid", next, java.util.Optional.empty()));

        // then
        assertThat(within.status()).as(within.body()).isEqualTo(200);
        assertThat(expired.status()).isEqualTo(400);
        OPENAPI.check("GET", "/v1/grid", expired.status(), expired.headers(), expired.body());
        assertThat(JSON.readTree(expired.body()).get("parameter").asText()).isEqualTo("cursor");
        assertThat(JSON.readTree(expired.body()).get("detail").asText()).isEqualTo(com.multikey.query.CursorSealer.REFUSED);
    }

    @Test
    void cursorLifetime_isADayUnlessSet_from60SecondsTo30Days() {
        assertThat(QueryApiHandler.cursorLifetime(Map.of())).isEqualTo(java.time.Duration.ofDays(1));
        assertThat(QueryApiHandler.cursorLifetime(Map.of("CURSOR_LIFETIME_SECONDS", "60"))).isEqualTo(java.time.Duration.ofMinutes(1));
        assertThat(QueryApiHandler.cursorLifetime(Map.of("CURSOR_LIFETIME_SECONDS", "2592000"))).isEqualTo(java.time.Duration.ofDays(30));
        for (String bad : List.of("59", "2592001", "1h", "-5")) {
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> QueryApiHandler.cursorLifetime(Map.of("CURSOR_LIFETIME_SECONDS", bad)))
                    .as(bad).hasMessageContaining("CURSOR_LIFETIME_SECONDS");
        }
    }

    @Test
    void cursor_withOneCharacterChangedAtAnyPosition_isA400NamingTheCursor() {
        // given: a real cursor of a page of the grid
        String cursor = get("/v1/grid", "project=project%2335e9&field=3812&pageSize=1").body().get("nextCursor").asText();
        String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

        // then: every position, changed to the next character of the base64url alphabet and to one outside it
        for (int i = 0; i < cursor.length(); i++) {
            char next = alphabet.charAt((alphabet.indexOf(cursor.charAt(i)) + 1) % alphabet.length());
            for (char replacement : new char[] {next, '.'}) {
                String edited = cursor.substring(0, i) + replacement + cursor.substring(i + 1);
                Answer answer = get("/v1/grid", "project=project%2335e9&field=3812&pageSize=1&cursor=" + edited);
                assertThat(answer.status()).as("%d %c", i, replacement).isEqualTo(400);
                assertThat(answer.body().get("parameter").asText()).as("%d %c", i, replacement).isEqualTo("cursor");
            }
        }
    }

    @Test
    void cursor_ofAnotherProject_isRefusedWithAJwtForBoth() {
        // given: a token that may read both projects
        String claim = "[project#35e9 project#other]";
        String cursor = get(jwt, "/v1/grid", "project=project%2335e9&field=3812&pageSize=1", claim).body().get("nextCursor").asText();

        // when
        Answer moved = get(jwt, "/v1/grid", "project=project%23other&field=3812&pageSize=1&cursor=" + cursor, claim);

        // then
        assertThat(moved.status()).isEqualTo(400);
        assertThat(moved.body().get("parameter").asText()).isEqualTo("cursor");
        assertThat(moved.body().has("items")).isFalse();
    }

    @Test
    void cursor_underThePreviousKey_opensAfterARotation_andIsRefusedOnceThatKeyIsDropped() throws Exception {
        // given: a cursor sealed under the stack's key
        String before = Files.readString(cursorKeys, StandardCharsets.UTF_8);
        String old = get("/v1/grid", "project=project%2335e9&field=3812&pageSize=1").body().get("nextCursor").asText();
        JsonNode current = JSON.readTree(before);
        try {
            // when: the secret is rotated (a new current key, the old one previous) and a new container starts
            Files.writeString(cursorKeys, "{\"id\":\"2\",\"key\":\"" + "n".repeat(64) + "\",\"previous\":[" + current + "]}");
            QueryApiHandler rotated = new QueryApiHandler(env);
            Answer resumed = get(rotated, "/v1/grid", "project=project%2335e9&field=3812&pageSize=1&cursor=" + old, null);
            String fresh = resumed.body().get("nextCursor").asText();
            // and then the old key is dropped
            Files.writeString(cursorKeys, "{\"id\":\"2\",\"key\":\"" + "n".repeat(64) + "\"}");
            QueryApiHandler dropped = new QueryApiHandler(env);

            // then
            assertThat(resumed.status()).isEqualTo(200);
            assertThat(Base64.getUrlDecoder().decode(fresh)[2]).as("sealed under the new key").isEqualTo((byte) '2');
            Answer refused = get(dropped, "/v1/grid", "project=project%2335e9&field=3812&pageSize=1&cursor=" + old, null);
            assertThat(refused.status()).isEqualTo(400);
            assertThat(refused.body().get("parameter").asText()).isEqualTo("cursor");
            assertThat(get(dropped, "/v1/grid", "project=project%2335e9&field=3812&pageSize=1&cursor=" + fresh, null).status())
                    .isEqualTo(200);
        } finally {
            Files.writeString(cursorKeys, before);
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
    void cursor_carriesNoReadableKey_ofItsOwnProjectOrAnother() throws Exception {
        // when: a page of project#mine that ends where the Query stopped evaluating, among project#theirs' items
        Answer page = get(jwt, "/v1/grid", "project=project%23mine&field=9999&pageSize=1", "[project#mine]");
        String text = page.body().get("nextCursor").asText();
        byte[] decoded = Base64.getUrlDecoder().decode(text);
        String latin = new String(decoded, StandardCharsets.ISO_8859_1);
        String hex = HexFormat.of().formatHex(decoded);

        // then: no value, num, issue id, field or key material of either project, in any spelling (each at least four
        // bytes long, which random bytes hold by chance too rarely to matter)
        assertThat(ids(page.body())).containsExactly("issue#mine1");
        JsonNode keys = JSON.readTree(Files.readString(cursorKeys, StandardCharsets.UTF_8));
        List<String> secretsAndKeys = new ArrayList<>(List.of("theirs", "secret", "mine", "issue#", "9999", "b-secret", "project",
                "sortKey", "attribId", "{\"part"));
        secretsAndKeys.add(keys.get("key").asText().substring(0, 8));
        for (String part : secretsAndKeys) {
            assertThat(latin).as(part).doesNotContain(part);
            assertThat(text).as(part).doesNotContain(part);
            assertThat(hex).as(part).doesNotContain(HexFormat.of().formatHex(part.getBytes(StandardCharsets.UTF_8)));
        }
        // what it does show: version 1 and the key's id, then a nonce and the sealed content
        assertThat(decoded[0]).isEqualTo((byte) 1);
        assertThat(new String(decoded, 2, decoded[1], StandardCharsets.US_ASCII)).isEqualTo(keys.get("id").asText());
    }

    @Test
    void listField_valueIsTheElementTheItemIsListedUnder_notTheWholeList() {
        // when
        Answer ascending = get("/v1/grid", "project=project%23lists&field=tags");
        Answer descending = get("/v1/grid", "project=project%23lists&field=tags&order=desc");
        Answer index = get("/v1/indexes/custom_fields/items", "group=project%23lists&entry=tags&order=desc");

        // then: numbers < strings < booleans
        assertThat(ids(ascending.body())).containsExactly("issue#list1", "issue#list2");
        assertThat(values(ascending.body())).containsExactly("-1", "\"alpha\"");
        assertThat(ids(descending.body())).containsExactly("issue#list1", "issue#list2");
        assertThat(values(descending.body())).containsExactly("true", "\"alpha\"");
        assertThat(values(index.body())).isEqualTo(values(descending.body()));
        assertThat(ascending.body().at("/items/0/item/custom_fields/tags").size()).isEqualTo(3);
    }

    private static List<String> values(JsonNode page) {
        List<String> values = new ArrayList<>();
        page.get("items").forEach(item -> values.add(item.get("value").toString()));
        return values;
    }

    @Test
    void indexRoute_withoutTheEntry_namesEntry_andTheGridRoute_namesField() {
        // when
        Answer index = get("/v1/indexes/custom_fields/items", "group=project%231");
        Answer grid = get("/v1/grid", "project=project%231&field=");

        // then
        assertThat(index.status()).isEqualTo(400);
        assertThat(index.body().get("parameter").asText()).isEqualTo("entry");
        assertThat(grid.status()).isEqualTo(400);
        assertThat(grid.body().get("parameter").asText()).isEqualTo("field");
    }

    @Test
    void logLine_namesTheRouteTheStatusAndTheItemCount_only() throws Exception {
        // given
        LOG_LINES.reset();

        // when
        get("/v1/grid", "project=project%23lists&field=tags");
        get("/v1/grid", "project=project%23lists&field=tags&pageSize=0");

        // then
        List<JsonNode> lines = new ArrayList<>();
        for (String line : LOG_LINES.toString(StandardCharsets.UTF_8).split("\n")) {
            lines.add(JSON.readTree(line));
        }
        assertThat(lines).hasSize(2);
        assertThat(lines.get(0).get("route").asText()).isEqualTo("/v1/grid");
        assertThat(lines.get(0).get("status").asInt()).isEqualTo(200);
        assertThat(lines.get(0).get("items").asInt()).isEqualTo(2);
        assertThat(lines.get(1).get("status").asInt()).isEqualTo(400);
        assertThat(lines.get(1).get("items").asInt()).isEqualTo(0);
        assertThat(LOG_LINES.toString(StandardCharsets.UTF_8)).doesNotContain("project#lists").doesNotContain("tags");
    }
    /** {@code where=} each predicate, percent-encoded (spaces as %20), in order. */
    private static String where(String... predicates) {
        StringBuilder query = new StringBuilder();
        for (String predicate : predicates) {
            query.append("&where=").append(java.net.URLEncoder.encode(predicate, StandardCharsets.UTF_8).replace("+", "%20"));
        }
        return query.toString();
    }

    /** The ids of every page of a request, from the first to the one without a next cursor. */
    private static List<List<String>> pagesToTheEnd(String path, String query) {
        List<List<String>> pages = new ArrayList<>();
        String cursor = null;
        do {
            Answer page = get(path, query + (cursor == null ? "" : "&cursor=" + cursor));
            assertThat(page.status()).as(page.body().toString()).isEqualTo(200);
            pages.add(ids(page.body()));
            cursor = page.body().get("nextCursor").isNull() ? null : page.body().get("nextCursor").asText();
            assertThat(pages).as("pages of " + query).hasSizeLessThan(100);
        } while (cursor != null);
        return pages;
    }

    @Test
    void where_severalPredicates_listTheMatchingItemsInOrder_andPagingToTheEnd_losesAndRepeatsNothing() {
        // given: open or triage issues of team core with a severity below 5, sorted by severity (then num, id), num 3 and up
        List<String> expected = PLANNED.stream()
                .filter(i -> List.of("open", "triage").contains(i.status()) && i.team().equals("core") && i.severity() != null
                        && i.severity() < 5 && i.num() >= 3)
                .sorted(java.util.Comparator.comparing(Planned::severity).thenComparing(Planned::num)).map(Planned::id).toList();
        String predicates = where("status in (open, triage)", "team = core", "severity < 5", "@num >= 3");

        // when
        List<List<String>> grid = pagesToTheEnd("/v1/grid", "project=project%23plan&field=severity&pageSize=2" + predicates);
        List<List<String>> index = pagesToTheEnd("/v1/indexes/custom_fields/items", "group=project%23plan&entry=severity&pageSize=3"
                + predicates);
        Answer first = get("/v1/grid", "project=project%23plan&field=severity&pageSize=2" + predicates);

        // then
        assertThat(expected).hasSizeGreaterThan(4);
        assertThat(grid.stream().flatMap(List::stream).toList()).isEqualTo(expected);
        assertThat(grid.subList(0, grid.size() - 1)).allSatisfy(page -> assertThat(page).hasSize(2));
        assertThat(index.stream().flatMap(List::stream).toList()).isEqualTo(expected);
        assertThat(first.body().get("examined").asInt()).isPositive();
        assertThat(first.body().get("budgetSpent").asBoolean()).isFalse();
        assertThat(first.body().has("explain")).isFalse();
    }

    @Test
    void where_orAndNotWithParentheses_listTheMatchingItemsInOrder_andPagingToTheEnd_losesAndRepeatsNothing() {
        // given: closed issues or team core's, not of severity 1..2, sorted by severity (then num)
        List<String> expected = PLANNED.stream()
                .filter(i -> (i.status().equals("closed") || i.team().equals("core"))
                        && !(i.severity() != null && i.severity() >= 1 && i.severity() <= 2))
                .filter(i -> i.severity() != null)
                .sorted(java.util.Comparator.comparing(Planned::severity).thenComparing(Planned::num)).map(Planned::id).toList();
        String predicates = where("status = closed OR team = core", "not (severity >= 1 and severity <= 2)");

        // when
        List<List<String>> grid = pagesToTheEnd("/v1/grid", "project=project%23plan&field=severity&pageSize=2" + predicates);

        // then
        assertThat(expected).hasSizeGreaterThan(2);
        assertThat(grid.stream().flatMap(List::stream).toList()).isEqualTo(expected);
    }

    @Test
    void where_anExpressionThatDoesNotParse_isA400NamingWhere_itsPosition_andTheOffendingTokensOffset() {
        // when
        Answer answer = get("/v1/grid", "project=project%23plan&field=severity" + where("team = core", "status = open or (team = core"));

        // then
        assertThat(answer.status()).isEqualTo(400);
        assertThat(answer.headers()).containsEntry("content-type", "application/problem+json");
        assertThat(answer.body().get("parameter").asText()).isEqualTo("where");
        assertThat(answer.body().get("position").asInt()).isEqualTo(1);
        assertThat(answer.body().get("predicate").asText()).isEqualTo("status = open or (team = core");
        assertThat(answer.body().get("detail").asText()).isEqualTo("predicate 1 at character 17: has a '(' that does not close");
    }

    @Test
    void where_descending_andOnTheSortedFieldAlone_keepTheOrder() {
        List<String> expected = PLANNED.stream().filter(i -> i.severity() != null && i.severity() >= 2 && i.severity() <= 4)
                .sorted(java.util.Comparator.comparing(Planned::severity).reversed().thenComparing(Planned::num)).map(Planned::id).toList();

        List<List<String>> pages = pagesToTheEnd("/v1/grid", "project=project%23plan&field=severity&order=desc&pageSize=4"
                + where("severity >= 2", "severity <= 4"));

        // descending: value, then num, highest first, as the grid's own order reversed
        List<String> listed = pages.stream().flatMap(List::stream).toList();
        assertThat(listed).containsExactlyInAnyOrderElementsOf(expected);
        assertThat(listed).doesNotHaveDuplicates();
        assertThat(listed.stream().map(id -> PLANNED.stream().filter(i -> i.id().equals(id)).findFirst().orElseThrow().severity()).toList())
                .isSortedAccordingTo(java.util.Comparator.reverseOrder());
    }

    @Test
    void budget_aPageThatReadsItsBudget_comesBackShort_andItsCursorContinues() {
        // given
        String query = "project=project%23plan&field=severity&pageSize=5" + where("team = core", "status = closed");
        List<String> whole = pagesToTheEnd("/v1/grid", query).stream().flatMap(List::stream).toList();

        // when: the same pages, each allowed 16 items
        List<JsonNode> pages = new ArrayList<>();
        String cursor = null;
        do {
            Answer page = get("/v1/grid", query + "&budget=16" + (cursor == null ? "" : "&cursor=" + cursor));
            assertThat(page.status()).as(page.body().toString()).isEqualTo(200);
            pages.add(page.body());
            cursor = page.body().get("nextCursor").isNull() ? null : page.body().get("nextCursor").asText();
        } while (cursor != null && pages.size() < 50);

        // then: some came back short, said so, and went on; together they list what the unbounded pages list
        assertThat(whole).isNotEmpty();
        assertThat(pages).anySatisfy(page -> assertThat(page.get("budgetSpent").asBoolean()).isTrue());
        assertThat(pages).allSatisfy(page -> {
            assertThat(page.get("examined").asInt()).isLessThanOrEqualTo(16);
            if (page.get("budgetSpent").asBoolean()) {
                assertThat(page.get("items").size()).isLessThan(5);
                assertThat(page.get("nextCursor").isTextual()).isTrue();
            }
        });
        assertThat(pages.stream().flatMap(page -> ids(page).stream()).toList()).isEqualTo(whole);
    }

    @Test
    void budget_smallerThanTheSortedIndexsFirstRead_stillMovesTheCursorOn() {
        // given: pages allowed 5 items, which the first Query on the sorted field's index spends before any item is tested
        String query = "project=project%23plan&field=severity&pageSize=5&budget=5" + where("team = core", "status = closed");

        // when
        List<String> cursors = new ArrayList<>();
        String cursor = null;
        do {
            JsonNode page = get("/v1/grid", query + (cursor == null ? "" : "&cursor=" + cursor)).body();
            cursor = page.get("nextCursor").isNull() ? null : page.get("nextCursor").asText();
            cursors.add(cursor);
        } while (cursor != null && cursors.size() < 40);

        // then: the result ends (26 index items, each page reading 5, need at most 6 pages to get past them all)
        assertThat(cursors).as("the cursors of pages of budget 5: a page that spends its budget on the index alone must still end "
                + "past what it read, else the next page reads the same items again").hasSizeLessThan(40).last().isNull();
    }

    @Test
    void explain_true_givesThePlanWhyTheAlternativesAndWhatWasRead() {
        // when
        Answer page = get("/v1/grid", "project=project%23plan&field=severity&pageSize=2&explain=true"
                + where("team = core", "status = open"));

        // then: the document's shape (checked on every answer), and its parts filled
        JsonNode explain = page.body().get("explain");
        assertThat(page.status()).isEqualTo(200);
        assertThat(explain.get("plan").asText()).matches("sort-index\\(.*\\)|drive\\(where\\[[0-9]]: .*\\)");
        assertThat(explain.get("reason").asText()).isNotBlank();
        assertThat(explain.get("alternatives").size()).isPositive();
        assertThat(explain.get("alternatives").findValuesAsText("plan")).contains(explain.get("plan").asText());
        JsonNode read = explain.get("read");
        assertThat(read.get("queries").asInt() + read.get("batchGets").asInt()).isPositive();
        assertThat(read.get("indexItems").asInt() + read.get("tableItems").asInt()).isEqualTo(page.body().get("examined").asInt());
    }

    @Test
    void where_thatCannotBeParsedOrEvaluated_isA400NamingWhere_withThePredicatesPositionAndText() {
        record Case(String path, String query, int position, String predicate) {
        }
        List<String> nine = new ArrayList<>();
        for (int i = 0; i < 9; i++) {
            nine.add("@num != " + i);
        }
        List<Case> cases = List.of(
                new Case("/v1/grid", "project=project%23plan&field=severity" + where("status = open", "severity >="), 1, "severity >="),
                new Case("/v1/grid", "project=project%23plan&field=severity" + where("status is open"), 0, "status is open"),
                new Case("/v1/grid", "project=project%23plan&field=severity" + where("title beginsWith 3"), 0, "title beginsWith 3"),
                new Case("/v1/grid", "project=project%2335e9&field=3812" + where("3812 present", "nope = 1"), 1, "nope = 1"),
                new Case("/v1/grid", "project=project%23plan&field=severity" + where("team = core", "severity >= 5", "severity < 3"), 2,
                        "severity < 3"),
                new Case("/v1/grid", "project=project%23plan&field=severity" + where(nine.toArray(String[]::new)), 8, "@num != 8"),
                new Case("/v1/indexes/custom_fields/items", "group=project%23plan&entry=severity" + where("@a..b = 1"), 0, "@a..b = 1"),
                new Case("/v1/indexes/custom_fields/items", "group=project%23plan&entry=severity" + where("x = N:1e999"), 0, "x = N:1e999"));

        for (Case each : cases) {
            // when
            Answer answer = get(each.path(), each.query());
            // then
            assertThat(answer.status()).as(each.query()).isEqualTo(400);
            assertThat(answer.headers()).containsEntry("content-type", "application/problem+json");
            assertThat(answer.body().get("parameter").asText()).as(each.query()).isEqualTo("where");
            assertThat(answer.body().get("position").asInt()).as(each.query()).isEqualTo(each.position());
            assertThat(answer.body().get("predicate").asText()).as(each.query()).isEqualTo(each.predicate());
            assertThat(answer.body().get("detail").asText()).as(each.query()).startsWith("predicate " + each.position() + " ");
        }
    }

    @Test
    void budgetOrExplain_thatCannotBeUsed_isA400NamingIt() {
        Map<String, String> cases = new LinkedHashMap<>();
        cases.put("budget=0", "budget");
        cases.put("budget=x", "budget");
        cases.put("budget=-5", "budget");
        cases.put("budget=1e3", "budget");
        cases.put("budget=", "budget");
        cases.put("budget=20001", "budget");
        cases.put("budget=9999999999", "budget");
        cases.put("budget=5&budget=6", "budget");
        cases.put("explain=yes", "explain");

        cases.forEach((query, parameter) -> {
            Answer answer = get("/v1/grid", "project=project%23plan&field=severity&" + query + where("team = core"));
            assertThat(answer.status()).as(query).isEqualTo(400);
            assertThat(answer.body().get("parameter").asText()).as(query).isEqualTo(parameter);
        });
        // the template's maximum (QueryApiMaxReadBudget), and any budget on a page without predicates
        assertThat(get("/v1/grid", "project=project%23plan&field=severity&budget=20000" + where("team = core")).status()).isEqualTo(200);
        assertThat(get("/v1/grid", "project=project%23plan&field=severity&budget=7").status()).isEqualTo(200);
    }

    /**
     * docs/read-api.md, the OpenAPI document and the library agree on the least budget: 2, an index item and its item (a
     * page of budget 1 could read an index item but never its item, so it could not move on). The document's minimum is
     * accepted, and pages of it go on to the end; one less is a 400 naming budget that says the least.
     */
    @Test
    void budget_theOpenApiDocumentsMinimumIsAccepted_andPagesOfItMoveOn_whileOneLessIsA400() throws Exception {
        // given
        int minimum = JSON.readTree(QueryApi.openApiDocument()).at("/components/parameters/budget/schema/minimum").asInt();
        String query = "project=project%23plan&field=severity&pageSize=5" + where("team = core");

        // when
        Answer below = get("/v1/grid", query + "&budget=" + (minimum - 1));
        List<String> ids = new ArrayList<>();
        String cursor = null;
        for (int n = 0; n < 200; n++) {
            Answer page = get("/v1/grid", query + "&budget=" + minimum + (cursor == null ? "" : "&cursor=" + cursor));
            assertThat(page.status()).as(page.body().toString()).isEqualTo(200);
            assertThat(page.body().get("examined").asInt()).isLessThanOrEqualTo(minimum);
            ids.addAll(ids(page.body()));
            cursor = page.body().get("nextCursor").isNull() ? null : page.body().get("nextCursor").asText();
            if (cursor == null) {
                break;
            }
        }

        // then
        assertThat(minimum).isEqualTo(2);
        assertThat(below.status()).isEqualTo(400);
        assertThat(below.body().get("parameter").asText()).isEqualTo("budget");
        assertThat(below.body().get("detail").asText()).contains("at least 2");
        assertThat(cursor).as("pages of budget %d reach the end", minimum).isNull();
        assertThat(ids).isEqualTo(ids(get("/v1/grid", "project=project%23plan&field=severity&pageSize=100" + where("team = core")).body()));
    }

    /** The budget variables (template parameters QueryApiReadBudget, QueryApiMaxReadBudget) start at 2 too, named when below. */
    @Test
    void readBudgetVariables_below2_areRefusedNamingTheVariable() {
        for (Map<String, String> variables : List.of(Map.of("READ_BUDGET", "1"), Map.of("MAX_READ_BUDGET", "1"))) {
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> QueryApiHandler.readBudget(variables)).as(variables.toString())
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(variables.keySet().iterator().next())
                    .hasMessageContaining("from 2");
        }
    }

    @Test
    void readBudget_isTheTemplatesUnlessSet_andAHandlerWithALowerMaximumRefusesMore() {
        // given
        Map<String, String> small = new HashMap<>(env);
        small.put("READ_BUDGET", "4");
        small.put("MAX_READ_BUDGET", "10");
        QueryApiHandler handler = new QueryApiHandler(small);

        // when
        Answer above = get(handler, "/v1/grid", "project=project%23plan&field=severity&budget=11" + where("team = core"), null);
        Answer within = get(handler, "/v1/grid", "project=project%23plan&field=severity&budget=10" + where("team = core"), null);
        Answer standard = get(handler, "/v1/grid", "project=project%23plan&field=severity&pageSize=20" + where("team = core"), null);

        // then
        assertThat(env).containsEntry("READ_BUDGET", "2000").containsEntry("MAX_READ_BUDGET", "20000");
        assertThat(above.status()).isEqualTo(400);
        assertThat(above.body().get("parameter").asText()).isEqualTo("budget");
        assertThat(within.status()).isEqualTo(200);
        assertThat(standard.body().get("budgetSpent").asBoolean()).as(standard.body().toString()).isTrue();
        assertThat(standard.body().get("examined").asInt()).isLessThanOrEqualTo(4 + 20);
    }

    @Test
    void readBudgetVariables_wholeNumbersFrom1To100000_theFirstAtMostTheSecond() {
        assertThat(QueryApiHandler.readBudget(Map.of())).isEqualTo(com.multikey.query.ReadBudget.DEFAULT);
        assertThat(QueryApiHandler.readBudget(Map.of("READ_BUDGET", "50", "MAX_READ_BUDGET", "100")))
                .isEqualTo(new com.multikey.query.ReadBudget(50, 100));
        List<Map<String, String>> bad = List.of(Map.of("READ_BUDGET", "0"), Map.of("READ_BUDGET", "x"),
                Map.of("MAX_READ_BUDGET", "100001"), Map.of("READ_BUDGET", "30000"), Map.of("READ_BUDGET", "5", "MAX_READ_BUDGET", "4"));
        for (Map<String, String> variables : bad) {
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> QueryApiHandler.readBudget(variables)).as(variables.toString())
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("READ_BUDGET");
        }
    }

    @Test
    void cursor_ofAnotherRequestsPredicates_isA400NamingTheCursor() {
        // given
        String base = "project=project%23plan&field=severity&pageSize=1";
        String cursor = get("/v1/grid", base + where("team = core", "status = open")).body().get("nextCursor").asText();

        // then: other predicates, the same in another order, one less, none
        for (String other : List.of(where("team = core", "status = closed"), where("status = open", "team = core"), where("team = core"),
                "")) {
            Answer answer = get("/v1/grid", base + other + "&cursor=" + cursor);
            assertThat(answer.status()).as(other).isEqualTo(400);
            assertThat(answer.body().get("parameter").asText()).as(other).isEqualTo("cursor");
        }
        assertThat(get("/v1/grid", base + where("team = core", "status = open") + "&cursor=" + cursor).status()).isEqualTo(200);
    }

    @Test
    void jwt_predicatesNeverWidenTheGroupsATokenReads() {
        // given: a token for project#plan
        String claim = "[project#plan]";

        // when: a predicate on another project's attribute value, and a request for that project
        Answer narrowed = get(jwt, "/v1/grid", "project=project%23plan&field=severity" + where("@project = project#35e9"), claim);
        Answer other = get(jwt, "/v1/grid", "project=project%2335e9&field=3812" + where("@project = project#35e9"), claim);

        // then
        assertThat(narrowed.status()).isEqualTo(200);
        assertThat(ids(narrowed.body())).isEmpty();
        assertThat(other.status()).isEqualTo(403);
    }

    // ---------------------------------------------------------------------------------------------------------------
    // counts: a page's total (total=true) and the facets routes, against a count of the seeded issues

    @Test
    void total_true_saysHowManyTheRequestMatches_exactWithinTheBudget_andABoundPastIt() {
        // given: project#plan's 30 issues, 15 of team core; severity is missing from every seventh
        long core = PLANNED.stream().filter(p -> p.team().equals("core")).count();
        long severityCore = PLANNED.stream().filter(p -> p.team().equals("core") && p.severity() != null).count();

        // when
        Answer all = get("/v1/grid", "project=project%23plan&field=status&pageSize=5&total=true");
        Answer filtered = get("/v1/grid", "project=project%23plan&field=severity&pageSize=5&total=true" + where("team = core"));
        Answer bounded = get("/v1/grid", "project=project%23plan&field=severity&pageSize=2&total=true&budget=4" + where("team = core"));
        Answer without = get("/v1/grid", "project=project%23plan&field=status&pageSize=5");

        // then
        assertThat(all.body().get("total").get("value").asLong()).isEqualTo(PLANNED.size());
        assertThat(all.body().get("total").get("relation").asText()).isEqualTo("eq");
        assertThat(filtered.body().get("total").get("value").asLong()).isEqualTo(severityCore);
        assertThat(filtered.body().get("total").get("relation").asText()).isEqualTo("eq");
        assertThat(bounded.body().get("total").get("relation").asText()).isEqualTo("gte");
        assertThat(bounded.body().get("total").get("value").asLong()).isLessThan(severityCore).isLessThanOrEqualTo(core);
        assertThat(without.body().has("total")).isFalse();
    }

    @Test
    void facets_countEachValueOfEachField_mostFrequentFirst_andOfTheItemsMatchingWhere() {
        // when
        Answer answer = get("/v1/grid/facets", "project=project%23plan&field=status&field=severity&top=2");
        Answer matching = get("/v1/grid/facets", "project=project%23plan&field=status" + where("team = web"));

        // then
        assertThat(answer.status()).as(answer.body().toString()).isEqualTo(200);
        JsonNode status = answer.body().get("facets").get(0);
        assertThat(status.get("field").asText()).isEqualTo("status");
        assertThat(status.get("relation").asText()).isEqualTo("eq");
        Map<String, Long> expectedStatus = new java.util.TreeMap<>();
        PLANNED.forEach(p -> expectedStatus.merge(p.status(), 1L, Long::sum));
        assertThat(status.get("values")).hasSize(2);
        assertThat(status.get("otherValues").asLong()).isEqualTo(expectedStatus.size() - 2);
        long shown = 0;
        for (JsonNode value : status.get("values")) {
            assertThat(value.get("count").asLong()).isEqualTo(expectedStatus.get(value.get("value").asText()));
            shown += value.get("count").asLong();
        }
        assertThat(shown + status.get("otherCount").asLong()).isEqualTo(PLANNED.size());
        JsonNode severity = answer.body().get("facets").get(1);
        Map<Integer, Long> expectedSeverity = new java.util.TreeMap<>();
        PLANNED.stream().filter(p -> p.severity() != null).forEach(p -> expectedSeverity.merge(p.severity(), 1L, Long::sum));
        long top = expectedSeverity.values().stream().mapToLong(Long::longValue).max().orElseThrow();
        assertThat(severity.get("values").get(0).get("count").asLong()).isEqualTo(top);
        Map<String, Long> web = new java.util.TreeMap<>();
        PLANNED.stream().filter(p -> p.team().equals("web")).forEach(p -> web.merge(p.status(), 1L, Long::sum));
        Map<String, Long> got = new java.util.TreeMap<>();
        matching.body().get("facets").get(0).get("values").forEach(v -> got.put(v.get("value").asText(), v.get("count").asLong()));
        assertThat(got).isEqualTo(web);
    }

    @Test
    void facets_badRequests_areProblemsNamingTheParameter() {
        Map<String, String> cases = new LinkedHashMap<>();
        cases.put("project=project%23plan", "field");
        cases.put("project=project%23plan&field=status&top=0", "top");
        cases.put("project=project%23plan&field=status&top=101", "top");
        cases.put("project=project%23plan&field=status&top=ten", "top");
        cases.put("project=project%23plan&field=status&budget=1", "budget");
        cases.put("project=project%23plan&field=status&field=status", "field");
        cases.put("project=project%23plan&field=status" + where("status is open"), "where");
        cases.put("project=project%2335e9&field=3812&field=nope", "field");
        cases.put("project=project%23plan&field=status&pageSize=5", "pageSize");
        cases.put("field=status", "project");
        for (Map.Entry<String, String> each : cases.entrySet()) {
            Answer answer = get("/v1/grid/facets", each.getKey());
            assertThat(answer.status()).as(each.getKey()).isEqualTo(400);
            assertThat(answer.body().get("parameter").asText()).as(each.getKey()).isEqualTo(each.getValue());
        }
        Answer total = get("/v1/grid", "project=project%23plan&field=status&total=yes");
        assertThat(total.status()).isEqualTo(400);
        assertThat(total.body().get("parameter").asText()).isEqualTo("total");
        Answer index = get("/v1/indexes/custom_fields/facets", "field=status");
        assertThat(index.status()).isIn(400, 404);
    }
}

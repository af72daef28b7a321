package com.multikey.queryapi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.multikey.index.definition.DefinitionsYaml;
import com.multikey.index.definition.IndexDefinitions;
import com.multikey.query.Page;
import com.multikey.query.PageRequest;
import com.multikey.testkit.OpenApiResponses;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Several groups in one request: {@code groups} once per group (its values joined by {@code /}, as a token names it) or
 * repeated {@code project} on the grid, every one checked against the token before anything is read.
 */
class QueryApiSeveralGroupsTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final OpenApiResponses OPENAPI = OpenApiResponses.of(QueryApi.openApiDocument());
    private static final IndexDefinitions DEFINITIONS = DefinitionsYaml.parse("""
            version: 1
            table: {partitionKey: {name: pk, type: S}, sortKey: {name: sk, type: S}}
            indexes:
              - name: incidents-by-team
                group: team
                values: {attribute: created}
                orderBy: num
              - name: by-team-and-state
                group: [team, state]
                values: {attribute: created}
                orderBy: num
            """);

    private final List<PageRequest> asked = new ArrayList<>();
    private final QueryApi api = new QueryApi(request -> {
        asked.add(request);
        return new Page(List.of(), null, 1);
    }, DEFINITIONS);

    private QueryApi.Response get(String path, Map<String, List<String>> parameters, Set<String> token) {
        QueryApi.Response response = api.handle(new QueryApi.Request("GET", path, parameters, Optional.ofNullable(token)));
        OPENAPI.check("GET", path, response.status(), response.headers(), response.body());
        return response;
    }

    @Test
    void groups_givenForEachOfSeveralGroups_readsThemInOneRequest_andThePageNamesThem() throws Exception {
        // when
        QueryApi.Response response = get("/v1/indexes/incidents-by-team/items",
                Map.of("groups", List.of("sre", "payments", "mobile", "sre"), "order", List.of("desc"), "where", List.of("state = closed")),
                Set.of("incidents-by-team:*"));

        // then
        assertThat(response.status()).as(response.body()).isEqualTo(200);
        assertThat(asked).singleElement().extracting(PageRequest::groups).isEqualTo(List.of(List.of(s("sre")), List.of(s("payments")),
                List.of(s("mobile"))));
        JsonNode body = JSON.readTree(response.body());
        assertThat(body.get("groups").toString()).isEqualTo("[[\"sre\"],[\"payments\"],[\"mobile\"]]");
        assertThat(body.get("group").toString()).isEqualTo("[\"sre\"]");
    }

    @Test
    void groups_oneNumberSpelledFiftyOneWays_isOneGroup_readOnce() throws Exception {
        // given: equal numbers name one group (N:100 = N:1E+2), so these are one group named 51 times
        List<String> spellings = new ArrayList<>(List.of("N:100", "N:1E+2"));
        for (int i = 0; spellings.size() <= PageRequest.MAX_GROUPS; i++) {
            spellings.add("N:100." + "0".repeat(i + 1));
        }

        // when
        QueryApi.Response response = get("/v1/indexes/incidents-by-team/items", Map.of("groups", spellings), Set.of("incidents-by-team:N:100"));

        // then
        assertThat(response.status()).as(response.body()).isEqualTo(200);
        assertThat(asked).singleElement().extracting(PageRequest::groups).isEqualTo(List.of(List.of(AttributeValue.fromN("100"))));
        assertThat(JSON.readTree(response.body()).has("groups")).isFalse();
        assertThat(JSON.readTree(response.body()).get("group").toString()).isEqualTo("[100]");
    }

    @Test
    void groups_ofAnIndexOfTwoGroupAttributes_joinsEachGroupsValuesBySlash() {
        QueryApi.Response two = get("/v1/indexes/by-team-and-state/items", Map.of("groups", List.of("sre/closed", "S:a%2Fb/N:1")), null);
        QueryApi.Response short1 = get("/v1/indexes/by-team-and-state/items", Map.of("groups", List.of("sre/closed", "web")), null);
        QueryApi.Response both = get("/v1/indexes/by-team-and-state/items", Map.of("groups", List.of("sre/closed"),
                "group", List.of("sre", "closed")), null);
        QueryApi.Response repeatedGroup = get("/v1/indexes/incidents-by-team/items", Map.of("group", List.of("sre", "web")), null);

        assertThat(two.status()).as(two.body()).isEqualTo(200);
        assertThat(asked).singleElement().extracting(PageRequest::groups)
                .isEqualTo(List.of(List.of(s("sre"), s("closed")), List.of(s("a/b"), AttributeValue.fromN("1"))));
        assertThat(short1.status()).isEqualTo(400);
        assertThat(short1.body()).contains("\"parameter\":\"groups\"").contains("joined by /");
        assertThat(both.status()).isEqualTo(400);
        assertThat(both.body()).contains("\"parameter\":\"groups\"");
        // group keeps naming the values of one group: two values of a one-attribute group are refused as before
        assertThat(repeatedGroup.status()).isEqualTo(400);
        assertThat(repeatedGroup.body()).contains("\"parameter\":\"group\"");
    }

    @Test
    void oneGroup_isReadAsToday_andThePageHasNoGroups() throws Exception {
        QueryApi.Response response = get("/v1/indexes/incidents-by-team/items", Map.of("group", List.of("sre")), null);

        assertThat(response.status()).isEqualTo(200);
        assertThat(asked.getFirst().groups()).containsExactly(List.of(s("sre")));
        assertThat(JSON.readTree(response.body()).has("groups")).isFalse();
    }

    @Test
    void aTokenScopedToSomeOfTheGroups_isA403NamingTheOthers_beforeAnythingIsRead() throws Exception {
        // when
        QueryApi.Response response = get("/v1/indexes/incidents-by-team/items", Map.of("groups", List.of("sre", "payments", "mobile")),
                Set.of("incidents-by-team:sre", "incidents-by-team:web"));

        // then
        assertThat(response.status()).isEqualTo(403);
        assertThat(response.headers()).containsEntry("content-type", "application/problem+json");
        String detail = JSON.readTree(response.body()).path("detail").asText();
        assertThat(detail).contains("2 of the 3 groups").contains("payments").contains("mobile").doesNotContain("sre");
        assertThat(asked).isEmpty();
    }

    @Test
    void project_givenSeveralTimesOnTheGrid_readsEveryProject_eachCheckedAgainstTheToken() {
        QueryApi grid = new QueryApi(request -> {
            asked.add(request);
            return new Page(List.of(), 0, null, 2);
        }, IndexDefinitions.packaged());
        Map<String, List<String>> parameters = Map.of("project", List.of("project#1", "project#2"), "field", List.of("f1"));

        QueryApi.Response allowed = grid.handle(new QueryApi.Request("GET", "/v1/grid", parameters, Optional.of(Set.of("project#1", "project#2"))));
        QueryApi.Response refused = grid.handle(new QueryApi.Request("GET", "/v1/grid", parameters, Optional.of(Set.of("project#1"))));

        OPENAPI.check("GET", "/v1/grid", allowed.status(), allowed.headers(), allowed.body());
        OPENAPI.check("GET", "/v1/grid", refused.status(), refused.headers(), refused.body());
        assertThat(allowed.status()).as(allowed.body()).isEqualTo(200);
        assertThat(asked).singleElement().extracting(PageRequest::groups).isEqualTo(List.of(List.of(s("project#1")), List.of(s("project#2"))));
        assertThat(refused.status()).isEqualTo(403);
        assertThat(refused.body()).contains("project#2");
        assertThat(asked).hasSize(1);
    }

    @Test
    void moreGroupsThanTheMost_isA400NamingTheParameter() {
        List<String> teams = new ArrayList<>();
        List<String> projects = new ArrayList<>();
        for (int i = 0; i <= PageRequest.MAX_GROUPS; i++) {
            teams.add("team-" + i);
            projects.add("project#" + i);
        }

        QueryApi.Response groups = get("/v1/indexes/incidents-by-team/items", Map.of("groups", teams), null);
        QueryApi.Response grid = new QueryApi(request -> new Page(List.of(), 0, null, 2), IndexDefinitions.packaged())
                .handle(new QueryApi.Request("GET", "/v1/grid", Map.of("project", projects, "field", List.of("f1")), Optional.empty()));

        assertThat(groups.status()).isEqualTo(400);
        assertThat(groups.body()).contains("\"parameter\":\"groups\"").contains("at most 50 groups");
        assertThat(grid.status()).isEqualTo(400);
        assertThat(grid.body()).contains("\"parameter\":\"project\"");
        assertThat(asked).isEmpty();
    }

    @Test
    void theLibrarysRefusalOfAGroup_ofARequestOfSeveral_namesGroups() throws Exception {
        QueryApi refusing = new QueryApi(request -> {
            throw new com.multikey.query.QueryException(com.multikey.query.QueryException.Subject.GROUP, "no group of that value");
        }, DEFINITIONS);

        QueryApi.Response several = refusing.handle(new QueryApi.Request("GET", "/v1/indexes/incidents-by-team/items",
                Map.of("groups", List.of("sre", "web")), Optional.empty()));
        QueryApi.Response one = refusing.handle(new QueryApi.Request("GET", "/v1/indexes/incidents-by-team/items",
                Map.of("group", List.of("sre")), Optional.empty()));

        OPENAPI.check("GET", "/v1/indexes/incidents-by-team/items", several.status(), several.headers(), several.body());
        assertThat(JSON.readTree(several.body()).path("parameter").asText()).isEqualTo("groups");
        assertThat(JSON.readTree(one.body()).path("parameter").asText()).isEqualTo("group");
    }

    private static AttributeValue s(String value) {
        return AttributeValue.fromS(value);
    }
}

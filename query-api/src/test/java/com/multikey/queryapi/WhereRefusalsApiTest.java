package com.multikey.queryapi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.multikey.index.definition.IndexDefinitions;
import com.multikey.query.FacetRequest;
import com.multikey.query.Facets;
import com.multikey.query.Page;
import com.multikey.query.PageRequest;
import com.multikey.testkit.OpenApiResponses;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A {@code where} the grammar refuses, on a page route and on a facets route alike: a 400 whose problem names the
 * parameter, the {@code where} by its position and the offending token by its character offset, as members a client
 * reads without parsing {@code detail}; nothing is read.
 */
class WhereRefusalsApiTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final IndexDefinitions DEFINITIONS = IndexDefinitions.packaged();
    private static final OpenApiResponses OPENAPI = OpenApiResponses.of(QueryApi.openApiDocument());
    /** Five predicates, then four: the ninth of the request is the last of the second {@code where}, at character 27. */
    private static final List<String> NINE = List.of("a = 1 or b = 2 or c = 3 or d = 4 or e = 5", "f = 6 or g = 7 or h = 8 or i = 9");

    private final List<Object> read = new ArrayList<>();
    private final QueryApi api = new QueryApi(this::page, new QueryApi.Counting() {
        @Override
        public Page pageWithTotal(PageRequest request) {
            return page(request);
        }

        @Override
        public Facets facets(FacetRequest request) {
            read.add(request);
            return new Facets(List.of(), 0, 0);
        }
    }, DEFINITIONS, () -> DEFINITIONS);

    private Page page(PageRequest request) {
        read.add(request);
        return new Page(List.of(), null, 1);
    }

    private JsonNode refused(String path, Map<String, List<String>> parameters) throws Exception {
        QueryApi.Response response = api.handle(new QueryApi.Request("GET", path, parameters, Optional.empty()));
        assertThat(response.status()).as(response.body()).isEqualTo(400);
        OPENAPI.check("GET", path, response.status(), response.headers(), response.body());
        return JSON.readTree(response.body());
    }

    @Test
    void gridFacets_whenTheNinthPredicateIsInTheSecondWhere_isRefusedAtItsOffset_asThePageRouteRefusesIt() throws Exception {
        // when
        JsonNode facets = refused("/v1/grid/facets", Map.of("project", List.of("project#1"), "field", List.of("status"), "where", NINE));
        JsonNode page = refused("/v1/grid", Map.of("project", List.of("project#1"), "field", List.of("status"), "where", NINE));

        // then
        assertThat(facets.get("detail").asText()).isEqualTo("predicate 1 at character 27: is one predicate too many: at most 8 in "
                + "one request");
        assertThat(facets.get("detail")).isEqualTo(page.get("detail"));
        assertThat(facets.get("parameter").asText()).isEqualTo("where");
        assertThat(facets.get("position").asInt()).isEqualTo(1);
        assertThat(facets.get("offset").asInt()).isEqualTo(27);
        assertThat(read).isEmpty();
    }

    @Test
    void indexFacets_whenTheNinthPredicateIsInTheSecondWhere_isRefusedAtItsOffset() throws Exception {
        // when
        JsonNode facets = refused("/v1/indexes/custom_fields/facets", Map.of("group", List.of("project#1"), "field", List.of("status"),
                "where", NINE));

        // then
        assertThat(facets.get("detail").asText()).startsWith("predicate 1 at character 27: ");
        assertThat(facets.get("offset").asInt()).isEqualTo(27);
        assertThat(read).isEmpty();
    }

    @Test
    void aWhereTheGrammarRefuses_namesItsOffsetAsAMember_besideTheParameterAndPosition() throws Exception {
        for (String path : List.of("/v1/grid", "/v1/grid/facets")) {
            // when
            JsonNode problem = refused(path, Map.of("project", List.of("project#1"), "field", List.of("status"),
                    "where", List.of("status = open", "team = core and (severity = 1")));

            // then
            assertThat(problem.get("parameter").asText()).as(path).isEqualTo("where");
            assertThat(problem.get("position").asInt()).as(path).isEqualTo(1);
            assertThat(problem.get("predicate").asText()).as(path).isEqualTo("team = core and (severity = 1");
            assertThat(problem.get("offset").asInt()).as(path).isEqualTo(16);
            assertThat(problem.get("detail").asText()).as(path).isEqualTo("predicate 1 at character 16: has a '(' that does not close");
        }
        assertThat(read).isEmpty();
    }

    @Test
    void aPredicateRefusedAsAWhole_hasNoOffset() throws Exception {
        // when
        JsonNode problem = refused("/v1/grid", Map.of("project", List.of("project#1"), "field", List.of("status"),
                "where", List.of("status is open")));

        // then
        assertThat(problem.get("position").asInt()).isZero();
        assertThat(problem.has("offset")).isFalse();
    }
}

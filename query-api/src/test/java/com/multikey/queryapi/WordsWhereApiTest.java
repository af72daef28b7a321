package com.multikey.queryapi;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.multikey.index.definition.IndexDefinitions;
import com.multikey.query.Predicate;
import com.multikey.testkit.OpenApiResponses;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code has} and {@code has prefix} in the read API's {@code where}: read as the library reads them, refused as a 400 naming where. */
class WordsWhereApiTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final OpenApiResponses OPENAPI = OpenApiResponses.of(QueryApi.openApiDocument());

    private static QueryApi.Response gridWhere(QueryApi.Pages pages, List<String> where) {
        Map<String, List<String>> parameters = new HashMap<>(Map.of("project", List.of("project#1"), "field", List.of("3812"),
                "where", where));
        QueryApi.Response response = new QueryApi(pages, IndexDefinitions.packaged()).handle(new QueryApi.Request("GET", "/v1/grid",
                parameters, Optional.empty()));
        OPENAPI.check("GET", "/v1/grid", response.status(), response.headers(), response.body());
        return response;
    }

    @Test
    void where_hasAndHasPrefix_reachTheLibraryAsWordPredicates() {
        List<Predicate> asked = new java.util.ArrayList<>();
        QueryApi.Pages pages = request -> {
            asked.addAll(request.predicates());
            throw new com.multikey.query.InvalidPredicateException(0, "stop here");
        };

        gridWhere(pages, List.of("@title has \"Timeout\"", "@title has prefix tim"));

        assertThat(asked).containsExactly(new Predicate.Has("@title", "timeout"), new Predicate.HasPrefix("@title", "tim"));
    }

    @Test
    void where_hasOfSeveralWords_isA400NamingWhereAndItsPosition() throws Exception {
        QueryApi.Response response = gridWhere(request -> {
            throw new AssertionError("not read");
        }, List.of("status = open", "@title has \"time out\""));

        assertThat(response.status()).isEqualTo(400);
        assertThat(JSON.readTree(response.body()).get("parameter").asText()).isEqualTo("where");
        assertThat(JSON.readTree(response.body()).get("position").asInt()).isEqualTo(1);
        assertThat(JSON.readTree(response.body()).get("detail").asText()).contains("has takes one word");
    }
}

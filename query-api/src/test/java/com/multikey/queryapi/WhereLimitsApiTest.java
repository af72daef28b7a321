package com.multikey.queryapi;

import com.multikey.index.definition.DefinitionsYaml;
import com.multikey.index.definition.IndexDefinitions;
import com.multikey.query.Page;
import com.multikey.query.PageRequest;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/** The read API's where and groups at their limits: refused with a 400 naming the parameter, nothing read. */
class WhereLimitsApiTest {

    private static final IndexDefinitions DEFINITIONS = DefinitionsYaml.parse("""
            version: 1
            table: {partitionKey: {name: pk, type: S}, sortKey: {name: sk, type: S}}
            indexes:
              - name: incidents-by-team
                group: team
                values: {attribute: created}
                orderBy: num
            """);

    private final List<PageRequest> asked = new ArrayList<>();
    private final QueryApi api = new QueryApi(request -> {
        asked.add(request);
        return new Page(List.of(), null, 1);
    }, DEFINITIONS);

    private QueryApi.Response get(Map<String, List<String>> parameters) {
        return api.handle(new QueryApi.Request("GET", "/v1/indexes/incidents-by-team/items", parameters, Optional.empty()));
    }

    @Test
    void ninePredicatesOverSeveralWheres_areA400NamingWhere_whicheverWhereHoldsTheNinth() {
        for (List<String> wheres : List.of(
                List.of("a = 1 or b = 2", "not (c = 3 and d = 4)", "e = 5", "f = 6 or g = 7", "h = 8", "i = 9"),
                List.of("i = 9", "a = 1 or b = 2", "not (c = 3 and d = 4)", "e = 5", "f = 6 or g = 7", "h = 8"),
                List.of("a = 1", "b = 2", "c = 3", "d = 4", "e = 5", "f = 6", "g = 7", "h = 8", "(i = 9)"))) {
            QueryApi.Response response = get(Map.of("group", List.of("sre"), "where", wheres));
            assertThat(response.status()).as("%s: %s", wheres, response.body()).isEqualTo(400);
            assertThat(response.body()).as("%s", wheres).contains("\"parameter\":\"where\"");
        }
        assertThat(asked).isEmpty();
    }

    @Test
    void depthFive_emptyParentheses_andANotAlone_areA400() {
        for (String where : List.of("not not not not not a = 1", "(((((a = 1)))))", "()", "not", "a = 1 or", "(a = 1")) {
            QueryApi.Response response = get(Map.of("group", List.of("sre"), "where", List.of(where)));
            assertThat(response.status()).as("%s: %s", where, response.body()).isEqualTo(400);
        }
        assertThat(asked).isEmpty();
    }

    @Test
    void fiftyGroups_withDuplicates_areRead_fiftyOneDistinctAreA400() {
        List<String> fifty = new ArrayList<>(IntStream.range(0, 50).mapToObj(i -> "team" + i).toList());
        fifty.add("team0");
        fifty.add("S:team1");
        assertThat(get(Map.of("groups", fifty)).status()).isEqualTo(200);
        assertThat(asked).singleElement().extracting(r -> r.groups().size()).isEqualTo(50);
        List<String> fiftyOne = new ArrayList<>(fifty);
        fiftyOne.add("team50");
        QueryApi.Response refused = get(Map.of("groups", fiftyOne));
        assertThat(refused.status()).isEqualTo(400);
        assertThat(refused.body()).contains("\"parameter\":\"groups\"");
    }
}

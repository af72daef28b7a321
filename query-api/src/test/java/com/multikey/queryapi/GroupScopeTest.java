package com.multikey.queryapi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.multikey.index.definition.DefinitionsYaml;
import com.multikey.index.definition.IndexDefinitions;
import com.multikey.query.Page;
import com.multikey.query.PageRequest;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Per-caller access for every index: a token reads the groups its claim names — index-qualified group patterns, the grid's
 * projects unqualified as before, {@code *} everything — and a request for any other group is a 403 with nothing read.
 */
class GroupScopeTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final IndexDefinitions DEFINITIONS = DefinitionsYaml.parse("""
            version: 1
            table:
              partitionKey: {name: id, type: S}
            entityTypes:
              - keyPrefix: {attribute: id, separator: "#"}
            indexes:
              - name: custom_fields
                layout: field-partitioned
                covers: [{attribute: id, beginsWith: "issue#"}]
                group: project
                values: {entriesOf: custom_fields}
                orderBy: num
              - name: issue-grid
                covers: [{attribute: id, beginsWith: "issue#"}]
                group: project
                values: {entriesOf: custom_fields}
                orderBy: num
              - name: layers
                covers: [{attribute: id, beginsWith: "layer#"}]
                group: region
                values: {attribute: status}
              - name: by-state
                covers: [{attribute: id, beginsWith: "issue#"}]
                group: [project, state]
                values: {attribute: name}
              - name: by-size
                covers: [{attribute: id, beginsWith: "issue#"}]
                group: size
                values: {attribute: name}
              - name: every-layer
                covers: [{attribute: id, beginsWith: "layer#"}]
                values: {attribute: status}
            """);

    /** What the API read: a request reaches the index only when the token may read its group. */
    private final List<PageRequest> read = new ArrayList<>();
    private final QueryApi api = new QueryApi(request -> {
        read.add(request);
        return new Page(List.of(), 0, null, 2);
    }, DEFINITIONS);

    private int status(String path, String query, String... claim) {
        Map<String, List<String>> parameters = new LinkedHashMap<>();
        for (String pair : query.split("&")) {
            String[] parts = pair.split("=", 2);
            parameters.computeIfAbsent(parts[0], name -> new ArrayList<>()).add(parts[1]);
        }
        int before = read.size();
        QueryApi.Response response = api.handle(new QueryApi.Request("GET", path, parameters, Optional.of(Set.of(claim))));
        if (response.status() == 403) {
            assertThat(read).as("a refused request reads nothing").hasSize(before);
            try {
                JsonNode body = JSON.readTree(response.body());
                assertThat(body.has("items")).isFalse();
                assertThat(response.headers()).containsEntry("content-type", "application/problem+json");
            } catch (java.io.IOException e) {
                throw new AssertionError(e);
            }
        }
        return response.status();
    }

    @Test
    void anUnqualifiedProject_readsTheGridsProject_asBefore_andNoOtherIndex() {
        assertThat(status("/v1/grid", "project=project#1&field=f1", "project#1")).isEqualTo(200);
        assertThat(status("/v1/indexes/custom_fields/items", "group=project#1&entry=f1", "project#1")).isEqualTo(200);
        assertThat(status("/v1/grid", "project=project#2&field=f1", "project#1")).isEqualTo(403);
        // a grouped index keyed by the same project is not the grid: it needs its own name
        assertThat(status("/v1/indexes/issue-grid/items", "group=project#1&entry=f1", "project#1")).isEqualTo(403);
        assertThat(status("/v1/indexes/by-state/items", "group=project#1&group=open", "project#1")).isEqualTo(403);
    }

    @Test
    void anIndexQualifiedGroup_readsThatGroupOfThatIndex_only() {
        assertThat(status("/v1/indexes/issue-grid/items", "group=project#1&entry=f1", "issue-grid:project#1")).isEqualTo(200);
        assertThat(status("/v1/indexes/issue-grid/items", "group=project#2&entry=f1", "issue-grid:project#1")).isEqualTo(403);
        assertThat(status("/v1/indexes/issue-grid/items", "group=project#10&entry=f1", "issue-grid:project#1")).isEqualTo(403);
        assertThat(status("/v1/indexes/custom_fields/items", "group=project#1&entry=f1", "issue-grid:project#1")).isEqualTo(403);
        assertThat(status("/v1/grid", "project=project#1&field=f1", "issue-grid:project#1")).isEqualTo(403);
        assertThat(status("/v1/grid", "project=project#1&field=f1", "custom_fields:project#1")).isEqualTo(200);
        assertThat(status("/v1/indexes/layers/items", "group=us-east-1", "issue-grid:us-east-1")).isEqualTo(403);
    }

    @Test
    void anIndexQualifiedGroup_ofTheGroupedGridThatReplacesTheOldLayout_isReadAsThatIndexsGroup() {
        // the repository's definitions: issue-grid replaces custom_fields, and a file read alone is in the old layout's state
        QueryApi packaged = new QueryApi(request -> new Page(List.of(), 0, null, 2), IndexDefinitions.packaged());
        Map<String, List<String>> parameters = Map.of("group", List.of("project#1"), "entry", List.of("f1"));

        QueryApi.Response named = packaged.handle(new QueryApi.Request("GET", "/v1/indexes/issue-grid/items", parameters,
                Optional.of(Set.of("issue-grid:project#1"))));
        QueryApi.Response other = packaged.handle(new QueryApi.Request("GET", "/v1/indexes/issue-grid/items",
                Map.of("group", List.of("project#2"), "entry", List.of("f1")), Optional.of(Set.of("issue-grid:project#1"))));

        assertThat(named.status()).as(named.body()).isEqualTo(200);
        assertThat(other.status()).isEqualTo(403);
    }

    @Test
    void aPatternEndingInAStar_readsTheGroupsThatStartWithWhatPrecedesIt() {
        String token = "layers:us-*";
        assertThat(status("/v1/indexes/layers/items", "group=us-east-1", token)).isEqualTo(200);
        assertThat(status("/v1/indexes/layers/items", "group=us-west-2", token)).isEqualTo(200);
        assertThat(status("/v1/indexes/layers/items", "group=eu-west-1", token)).isEqualTo(403);
        assertThat(status("/v1/indexes/layers/items", "group=eu-west-1", "layers:*")).isEqualTo(200);
        // a star elsewhere is a character of the group, not a wildcard
        assertThat(status("/v1/indexes/layers/items", "group=us-east-1", "layers:*-east-1")).isEqualTo(403);
        assertThat(status("/v1/grid", "project=project#1&field=f1", "project#*")).isEqualTo(403);
    }

    @Test
    void aGroupOfSeveralValues_orANumber_isNamedAsItsGroupParametersSpellIt() {
        assertThat(status("/v1/indexes/by-state/items", "group=project#1&group=open", "by-state:project#1/open")).isEqualTo(200);
        assertThat(status("/v1/indexes/by-state/items", "group=project#1&group=closed", "by-state:project#1/open")).isEqualTo(403);
        assertThat(status("/v1/indexes/by-state/items", "group=project#1&group=closed", "by-state:project#1/*")).isEqualTo(200);
        // a slash inside a value is %2F: "a/b" then "c" is not "a" then "b/c"
        assertThat(status("/v1/indexes/by-state/items", "group=a/b&group=c", "by-state:a%2Fb/c")).isEqualTo(200);
        assertThat(status("/v1/indexes/by-state/items", "group=a&group=b/c", "by-state:a%2Fb/c")).isEqualTo(403);
        assertThat(status("/v1/indexes/by-size/items", "group=N:1.50", "by-size:N:1.5")).isEqualTo(200);
        assertThat(status("/v1/indexes/by-size/items", "group=N:2", "by-size:N:1.5")).isEqualTo(403);
        assertThat(status("/v1/indexes/by-size/items", "group=S:N:1.5", "by-size:N:1.5")).isEqualTo(403);
        assertThat(status("/v1/indexes/by-size/items", "group=S:N:1.5", "by-size:S:N:1.5")).isEqualTo(200);
    }

    @Test
    void aGroupNumberDynamoDbCannotHold_isA400NamingGroup_atOnce_whateverTheTokenNames() {
        // its plain form would be a hundred million digits long (1e999999999: a billion, more than the function's memory)
        for (String number : List.of("N:1e99999999", "N:-1e-99999999", "N:1e126", "N:1e-131")) {
            int status = org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(1),
                    () -> status("/v1/indexes/by-size/items", "group=" + number, "by-size:N:1"));
            assertThat(status).as(number).isEqualTo(400);
        }
        assertThat(status("/v1/indexes/by-size/items", "group=N:9.9999e125", "by-size:*")).isEqualTo(200);
        assertThat(status("/v1/indexes/by-size/items", "group=N:-1e-130", "by-size:*")).isEqualTo(200);
    }

    @Test
    void anIndexWithoutAGroup_isReadWithAStarOnly_andStarReadsEverything() {
        assertThat(status("/v1/indexes/every-layer/items", "order=asc", "layers:*", "project#1")).isEqualTo(403);
        assertThat(status("/v1/indexes/every-layer/items", "order=asc", "every-layer:*")).isEqualTo(200);
        for (String[] request : List.of(new String[] {"/v1/grid", "project=project#9&field=f1"},
                new String[] {"/v1/indexes/layers/items", "group=eu-west-1"}, new String[] {"/v1/indexes/every-layer/items", "order=asc"},
                new String[] {"/v1/indexes/by-state/items", "group=p&group=s"})) {
            assertThat(status(request[0], request[1], "*")).as(request[0]).isEqualTo(200);
        }
    }

    @Test
    void anIndexWithoutAGroup_isNotReadByAnEmptyPattern_asThe403Says() {
        assertThat(status("/v1/indexes/every-layer/items", "order=asc", "every-layer:")).isEqualTo(403);
        assertThat(status("/v1/indexes/layers/items", "group=", "layers:")).as("the empty group of an index with one").isEqualTo(200);
    }

    @Test
    void aTokenNamingNothing_readsNothing_andAnUndeclaredIndexNameIsAProjectOfTheGrid() {
        assertThat(status("/v1/grid", "project=project#1&field=f1")).isEqualTo(403);
        assertThat(status("/v1/grid", "project=nope:p&field=f1", "nope:p")).isEqualTo(200);
        assertThat(status("/v1/indexes/layers/items", "group=p", "nope:p")).isEqualTo(403);
    }
}

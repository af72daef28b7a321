package com.multikey.queryapi;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.multikey.index.definition.IndexDefinitions;
import com.multikey.query.Explain;
import com.multikey.query.InvalidPredicateException;
import com.multikey.query.Page;
import com.multikey.query.QueryException;
import com.multikey.query.RetryableQueryException;
import com.multikey.testkit.OpenApiResponses;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The answers the API gives when DynamoDB cannot be read, which the integration test cannot provoke, as its OpenAPI
 * document describes them; and the document's refusal of answers that stray from it, so that the check every test of
 * this module makes can fail.
 */
class QueryApiOpenApiTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final IndexDefinitions DEFINITIONS = IndexDefinitions.packaged();
    private static final OpenApiResponses OPENAPI = OpenApiResponses.of(QueryApi.openApiDocument());
    private static final Map<String, AttributeValue> ISSUE = Map.of("id", AttributeValue.fromS("issue#1"), "project",
            AttributeValue.fromS("project#1"), "num", AttributeValue.fromN("1"), "custom_fields",
            AttributeValue.fromM(Map.of("3812", AttributeValue.fromS("2023-05-01"))));

    private static QueryApi.Response grid(QueryApi.Pages pages) {
        QueryApi.Response response = new QueryApi(pages, DEFINITIONS).handle(new QueryApi.Request("GET", "/v1/grid",
                Map.of("project", List.of("project#1"), "field", List.of("3812")), Optional.empty()));
        OPENAPI.check("GET", "/v1/grid", response.status(), response.headers(), response.body());
        return response;
    }

    private static List<String> problems(QueryApi.Response response) {
        return OPENAPI.problems("GET", "/v1/grid", response.status(), response.headers(), response.body());
    }

    private static QueryApi.Response withBody(QueryApi.Response response, String body) {
        return new QueryApi.Response(response.status(), response.headers(), body);
    }

    @Test
    void grid_whenDynamoDbThrottles_is429WithRetryAfter() {
        QueryApi.Response response = grid(request -> {
            throw DynamoDbException.builder().statusCode(429).message("Rate exceeded").build();
        });

        assertThat(response.status()).isEqualTo(429);
        assertThat(response.headers()).containsEntry("retry-after", Problem.RETRY_AFTER_SECONDS);
    }

    @Test
    void grid_whenThePageCannotBeReadInTime_orDynamoDbFails_is503WithRetryAfter() {
        List<RuntimeException> failures = List.of(new RetryableQueryException("unprocessed keys"),
                DynamoDbException.builder().statusCode(500).message("Internal").build(), SdkClientException.create("connection reset"));

        for (RuntimeException failure : failures) {
            QueryApi.Response response = grid(request -> {
                throw failure;
            });

            assertThat(response.status()).as(failure.toString()).isEqualTo(503);
            assertThat(response.headers()).as(failure.toString()).containsEntry("retry-after", Problem.RETRY_AFTER_SECONDS);
        }
    }

    @Test
    void theLibrarysRefusalOfAMissingTailNoSourceLists_isA400NamingMissing_notTheGroup() throws Exception {
        // the library's refusal for an index not grouped by the table's partition key (the packaged definitions have none):
        // its subject names the parameter, whatever its words say ("group")
        QueryApi.Response response = new QueryApi(request -> {
            throw new QueryException(QueryException.Subject.MISSING, "the items lacking the field are listed for the issue grid (from its ByProject index) and for an"
                    + " index grouped by the table's partition key (id); index 'custom_fields' is grouped by [region]: no source lists"
                    + " its group's items but the index itself");
        }, DEFINITIONS).handle(new QueryApi.Request("GET", "/v1/indexes/custom_fields/items", Map.of("group", List.of("project#1"),
                "entry", List.of("3812"), "missing", List.of("true")), Optional.empty()));

        OPENAPI.check("GET", "/v1/indexes/custom_fields/items", response.status(), response.headers(), response.body());
        assertThat(response.status()).isEqualTo(400);
        assertThat(JSON.readTree(response.body()).path("parameter").asText()).isEqualTo("missing");
    }

    @Test
    void document_refusesAPageMissingARequiredProperty() throws Exception {
        // given
        QueryApi.Response page = grid(request -> new Page(List.of(ISSUE), null, 2));
        ObjectNode body = (ObjectNode) JSON.readTree(page.body());
        body.remove("nextCursor");

        // then
        assertThat(problems(withBody(page, body.toString()))).singleElement().asString().contains("nextCursor");
    }

    @Test
    void document_refusesAPropertyOfTheWrongType_orOneItDoesNotDeclare() throws Exception {
        // given
        QueryApi.Response page = grid(request -> new Page(List.of(ISSUE), "next", 2));
        ObjectNode wrongType = (ObjectNode) JSON.readTree(page.body());
        ((ObjectNode) wrongType.at("/items/0")).put("missing", "false");
        ObjectNode undeclared = (ObjectNode) JSON.readTree(page.body());
        undeclared.put("count", 1);

        // then
        assertThat(problems(withBody(page, wrongType.toString()))).singleElement().asString().contains("/items/0/missing").contains("boolean");
        assertThat(problems(withBody(page, undeclared.toString()))).singleElement().asString().contains("count");
    }

    @Test
    void document_refusesAnUndocumentedStatus_orContentType() {
        QueryApi.Response page = grid(request -> new Page(List.of(ISSUE), null, 2));

        assertThat(problems(new QueryApi.Response(500, page.headers(), page.body()))).singleElement().asString().contains("status 500");
        assertThat(problems(new QueryApi.Response(200, Map.of("content-type", "text/plain"), page.body()))).singleElement().asString()
                .contains("text/plain");
    }

    @Test
    void document_refusesABadRequestProblemWithoutItsParameter_andAThrottlingOneWithoutRetryAfter() throws Exception {
        // given
        QueryApi.Response bad = new QueryApi(request -> new Page(List.of(), null, 1), DEFINITIONS).handle(new QueryApi.Request("GET",
                "/v1/grid", Map.of("project", List.of("project#1"), "field", List.of("3812"), "order", List.of("up")), Optional.empty()));
        ObjectNode withoutParameter = (ObjectNode) JSON.readTree(bad.body());
        withoutParameter.remove("parameter");
        QueryApi.Response throttled = Problem.throttled().response();

        // then
        assertThat(problems(bad)).isEmpty();
        assertThat(problems(withBody(bad, withoutParameter.toString()))).singleElement().asString().contains("parameter");
        assertThat(problems(new QueryApi.Response(429, Map.of("content-type", "application/problem+json"), throttled.body())))
                .singleElement().asString().contains("Retry-After");
    }
    @Test
    void document_refusesAProblemMemberItDoesNotDeclare_onEveryKindOfProblem() throws Exception {
        // given: a 400 naming a where's token, and a 429, each with one member more than the document declares
        QueryApi.Response refused = gridWhere(request -> new Page(List.of(), null, 1), Map.of("where", List.of("a = 1 or (b = 2")));
        ObjectNode refusedWithMore = (ObjectNode) JSON.readTree(refused.body());
        refusedWithMore.put("hint", "close the '('");
        QueryApi.Response throttled = Problem.throttled().response();
        ObjectNode throttledWithMore = (ObjectNode) JSON.readTree(throttled.body());
        throttledWithMore.put("instance", "/v1/grid");

        // then: every member the API sends is one the document declares, and any other is refused
        assertThat(JSON.readTree(refused.body()).has("offset")).isTrue();
        assertThat(problems(withBody(refused, refusedWithMore.toString()))).singleElement().asString().contains("hint");
        assertThat(problems(withBody(throttled, throttledWithMore.toString()))).singleElement().asString().contains("instance");
    }

    private static QueryApi.Response gridWhere(QueryApi.Pages pages, Map<String, List<String>> more) {
        Map<String, List<String>> parameters = new java.util.HashMap<>(Map.of("project", List.of("project#1"), "field", List.of("3812")));
        parameters.putAll(more);
        QueryApi.Response response = new QueryApi(pages, DEFINITIONS).handle(new QueryApi.Request("GET", "/v1/grid", parameters,
                Optional.empty()));
        OPENAPI.check("GET", "/v1/grid", response.status(), response.headers(), response.body());
        return response;
    }

    @Test
    void aPlannedPage_withItsExplanation_isAsTheDocumentSays_andItsExplanationWithoutWhatItReadIsNot() throws Exception {
        // given
        Explain explain = new Explain("drive(where[1]: status = open)", "the predicate's index holds fewest items",
                List.of(new Explain.Alternative("sort-index(3812)", 400, "the yield of a sort read"),
                        new Explain.Alternative("drive(where[1]: status = open)", 12, "a count read")),
                new Explain.Reads(2, 1, 12, 3), Optional.of("- name: by-status\n"));
        QueryApi.Pages pages = request -> {
            assertThat(request.predicates()).hasSize(2);
            assertThat(request.readBudget()).isEqualTo(50);
            assertThat(request.explain()).isTrue();
            return new Page(List.of(ISSUE), List.of(), 1, "next", 3, 15, true, explain);
        };

        // when
        QueryApi.Response page = gridWhere(pages, Map.of("where", List.of("3812 >= 2023", "status = open"), "budget", List.of("50"),
                "explain", List.of("true")));
        ObjectNode body = (ObjectNode) JSON.readTree(page.body());
        ObjectNode withoutRead = body.deepCopy();
        ((ObjectNode) withoutRead.get("explain")).remove("read");

        // then
        assertThat(page.status()).isEqualTo(200);
        assertThat(body.get("examined").asInt()).isEqualTo(15);
        assertThat(body.get("budgetSpent").asBoolean()).isTrue();
        assertThat(body.at("/explain/plan").asText()).isEqualTo("drive(where[1]: status = open)");
        assertThat(body.at("/explain/alternatives/0/estimatedItems").asLong()).isEqualTo(400);
        assertThat(body.at("/explain/read/indexItems").asInt()).isEqualTo(12);
        assertThat(body.at("/explain/suggestion").asText()).isEqualTo("- name: by-status\n");
        assertThat(problems(withBody(page, withoutRead.toString()))).singleElement().asString().contains("read");
    }

    @Test
    void aPageOfAWhereWithOrNotAndParentheses_andItsRefusalNamingTheOffset_areAsTheDocumentSays() throws Exception {
        // given
        QueryApi.Pages pages = request -> {
            assertThat(request.expressions()).singleElement().isInstanceOf(com.multikey.query.Expression.Or.class);
            return new Page(List.of(ISSUE), List.of(), 1, null, 2, 4, false, null);
        };

        // when
        QueryApi.Response page = gridWhere(pages, Map.of("where", List.of("status = open or not (team = core and severity >= 3)")));
        QueryApi.Response refused = gridWhere(pages, Map.of("where", List.of("status = open or not")));

        // then
        assertThat(page.status()).isEqualTo(200);
        assertThat(refused.status()).isEqualTo(400);
        assertThat(JSON.readTree(refused.body()).get("position").asInt()).isZero();
        assertThat(JSON.readTree(refused.body()).get("detail").asText()).startsWith("predicate 0 at character 20: ");
    }

    @Test
    void theLibrarysRefusalOfAPredicate_isA400NamingWhere_withItsPositionAndText_whateverItsWords() throws Exception {
        // given: the reader refuses the second predicate, in words that name neither a cursor nor a group
        QueryApi.Pages pages = request -> {
            throw new InvalidPredicateException(1, "names field 'cursor group', which project project#1 does not define");
        };

        // when
        QueryApi.Response response = gridWhere(pages, Map.of("where", List.of("status = open", "\"cursor group\" present")));

        // then
        assertThat(response.status()).isEqualTo(400);
        assertThat(JSON.readTree(response.body()).get("parameter").asText()).isEqualTo("where");
        assertThat(JSON.readTree(response.body()).get("position").asInt()).isEqualTo(1);
        assertThat(JSON.readTree(response.body()).get("predicate").asText()).isEqualTo("\"cursor group\" present");
    }

    @Test
    void aPageOfSeveralProjects_namesThemAsTheDocumentSays_andGroupsOfOneGroupAreNot() throws Exception {
        // given
        QueryApi.Pages pages = request -> {
            assertThat(request.groups()).hasSize(2);
            return new Page(List.of(ISSUE), List.of(), 1, "next", 4, 8, false, new Explain("merge(2 groups: sort-index(3812))",
                    "2 groups, each read by its plan and merged in page order, each item once", List.of(), new Explain.Reads(2, 2, 5, 3),
                    Optional.empty()));
        };

        // when
        QueryApi.Response page = gridWhere(pages, Map.of("project", List.of("project#1", "project#2"), "explain", List.of("true")));
        ObjectNode body = (ObjectNode) JSON.readTree(page.body());
        ObjectNode oneGroup = body.deepCopy();
        oneGroup.putArray("groups").addArray().add("project#1");

        // then
        assertThat(page.status()).as(page.body()).isEqualTo(200);
        assertThat(body.get("groups").toString()).isEqualTo("[[\"project#1\"],[\"project#2\"]]");
        assertThat(body.at("/explain/plan").asText()).startsWith("merge(2 groups");
        assertThat(problems(withBody(page, oneGroup.toString()))).singleElement().asString().contains("groups");
    }

    /** Counting that answers with these, checking the requests it is given. */
    private static QueryApi.Counting counting(com.multikey.query.Total total, com.multikey.query.Facets facets) {
        return new QueryApi.Counting() {
            @Override
            public Page pageWithTotal(com.multikey.query.PageRequest request) {
                return new Page(List.of(ISSUE), "next", 2).withTotal(total);
            }

            @Override
            public com.multikey.query.Facets facets(com.multikey.query.FacetRequest request) {
                assertThat(request.fields()).containsExactly("3812", "status");
                assertThat(request.top()).isEqualTo(3);
                return facets;
            }
        };
    }

    @Test
    void aPageWithItsTotal_andFacets_areAsTheDocumentSays_andATotalOfAnotherRelationIsNot() throws Exception {
        // given
        com.multikey.query.Total total = new com.multikey.query.Total(10_000, com.multikey.query.Total.Relation.GTE,
                com.multikey.query.Total.Source.COUNTED, 80, 10_000);
        com.multikey.query.Facets facets = new com.multikey.query.Facets(List.of(new com.multikey.query.Facets.Facet("3812",
                List.of(new com.multikey.query.Facets.ValueCount(AttributeValue.fromS("2023-05-01"), "s", 42),
                        new com.multikey.query.Facets.ValueCount(null, "t", 7)), 3, 9, com.multikey.query.Total.Relation.EQ,
                com.multikey.query.Total.Source.KEPT), new com.multikey.query.Facets.Facet("status", List.of(), 0, 0,
                com.multikey.query.Total.Relation.GTE, com.multikey.query.Total.Source.COUNTED)), 2, 0);
        QueryApi api = new QueryApi(request -> {
            throw new AssertionError("a page with its total is read by the counts");
        }, counting(total, facets), DEFINITIONS, () -> DEFINITIONS);

        // when
        QueryApi.Response page = api.handle(new QueryApi.Request("GET", "/v1/grid", Map.of("project", List.of("project#1"),
                "field", List.of("3812"), "total", List.of("true")), Optional.empty()));
        QueryApi.Response counts = api.handle(new QueryApi.Request("GET", "/v1/grid/facets", Map.of("project", List.of("project#1"),
                "field", List.of("3812", "status"), "top", List.of("3")), Optional.empty()));
        ObjectNode otherRelation = (ObjectNode) JSON.readTree(page.body());
        ((ObjectNode) otherRelation.get("total")).put("relation", "about");
        ObjectNode withoutRelation = (ObjectNode) JSON.readTree(counts.body());
        ((ObjectNode) withoutRelation.at("/facets/0")).remove("relation");

        // then
        OPENAPI.check("GET", "/v1/grid", page.status(), page.headers(), page.body());
        OPENAPI.check("GET", "/v1/grid/facets", counts.status(), counts.headers(), counts.body());
        assertThat(JSON.readTree(page.body()).get("total").toString()).isEqualTo("{\"value\":10000,\"relation\":\"gte\",\"source\":\"counted\"}");
        assertThat(JSON.readTree(counts.body()).at("/facets/0/values/1/value").isNull()).isTrue();
        assertThat(JSON.readTree(counts.body()).at("/facets/0/otherCount").asLong()).isEqualTo(9);
        assertThat(problems(withBody(page, otherRelation.toString()))).singleElement().asString().contains("relation");
        assertThat(OPENAPI.problems("GET", "/v1/grid/facets", counts.status(), counts.headers(), withoutRelation.toString()))
                .singleElement().asString().contains("relation");
    }

    @Test
    void facets_whenDynamoDbThrottles_is429() {
        // given
        QueryApi api = new QueryApi(request -> new Page(List.of(ISSUE), null, 2), new QueryApi.Counting() {
            @Override
            public Page pageWithTotal(com.multikey.query.PageRequest request) {
                throw new AssertionError();
            }

            @Override
            public com.multikey.query.Facets facets(com.multikey.query.FacetRequest request) {
                throw DynamoDbException.builder().statusCode(429).message("Rate exceeded").build();
            }
        }, DEFINITIONS, () -> DEFINITIONS);

        // when
        QueryApi.Response throttled = api.handle(new QueryApi.Request("GET", "/v1/grid/facets", Map.of("project", List.of("project#1"),
                "field", List.of("3812")), Optional.empty()));

        // then
        OPENAPI.check("GET", "/v1/grid/facets", throttled.status(), throttled.headers(), throttled.body());
        assertThat(throttled.status()).isEqualTo(429);
    }
}

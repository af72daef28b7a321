package com.multikey.testkit;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The response checks against a small OpenAPI 3.1 document: what it accepts, and each way a response can stray from it. */
class OpenApiResponsesTest {

    private static final OpenApiResponses SAMPLE = OpenApiResponses.fromClasspath("/openapi-sample.json");
    private static final Map<String, String> JSON = Map.of("Content-Type", "application/json");
    private static final Map<String, String> PROBLEM = Map.of("content-type", "application/problem+json");

    @Test
    void problems_whenTheDocumentDescribesTheResponse_isEmpty() {
        assertThat(SAMPLE.problems("GET", "/things", 200, JSON, "{\"things\":[{\"id\":\"a\",\"count\":1,\"note\":null}]}")).isEmpty();
        assertThat(SAMPLE.problems("GET", "/things/a", 200, Map.of("content-type", "application/json; charset=utf-8"),
                "{\"id\":\"a\",\"count\":0}")).isEmpty();
        assertThat(SAMPLE.problems("GET", "/things/a", 204, Map.of(), "")).isEmpty();
        assertThat(SAMPLE.problems("GET", "/things/a", 429, Map.of("content-type", "application/problem+json", "retry-after", "1"),
                "{\"title\":\"Too Many Requests\",\"status\":429}")).isEmpty();
    }

    @Test
    void problems_whenARequiredPropertyIsMissing_namesIt() {
        List<String> problems = SAMPLE.problems("GET", "/things/a", 200, JSON, "{\"id\":\"a\"}");

        assertThat(problems).singleElement().asString().contains("count").contains("required");
    }

    @Test
    void problems_whenAPropertyHasTheWrongType_namesWhere() {
        List<String> problems = SAMPLE.problems("GET", "/things", 200, JSON, "{\"things\":[{\"id\":\"a\",\"count\":\"1\"}]}");

        assertThat(problems).singleElement().asString().contains("/things/0/count").contains("integer");
    }

    @Test
    void problems_whenAPropertyIsNotDeclared_andAdditionalOnesAreNotAllowed_namesIt() {
        assertThat(SAMPLE.problems("GET", "/things/a", 200, JSON, "{\"id\":\"a\",\"count\":1,\"extra\":true}"))
                .singleElement().asString().contains("extra");
    }

    @Test
    void problems_whenTheStatusIsNotDocumented_saysSo() {
        assertThat(SAMPLE.problems("GET", "/things/a", 500, PROBLEM, "{\"title\":\"Oops\",\"status\":500}"))
                .singleElement().asString().contains("status 500");
    }

    @Test
    void problems_whenTheStatusIsInADocumentedRange_checksThatRangesResponse() {
        assertThat(SAMPLE.problems("GET", "/things", 418, PROBLEM, "{\"title\":\"Teapot\",\"status\":418}")).isEmpty();
        assertThat(SAMPLE.problems("GET", "/things", 418, PROBLEM, "{\"title\":\"Teapot\"}")).singleElement().asString().contains("status");
    }

    @Test
    void problems_whenTheContentTypeIsNotDocumented_orMissing_saysSo() {
        assertThat(SAMPLE.problems("GET", "/things/a", 200, PROBLEM, "{\"id\":\"a\",\"count\":1}"))
                .singleElement().asString().contains("application/problem+json");
        assertThat(SAMPLE.problems("GET", "/things/a", 200, Map.of(), "{\"id\":\"a\",\"count\":1}"))
                .singleElement().asString().contains("no content-type");
    }

    @Test
    void problems_whenTheBodyIsNotJson_orIsMissing_saysSo() {
        assertThat(SAMPLE.problems("GET", "/things/a", 200, JSON, "{\"id\":")).singleElement().asString().contains("not JSON");
        assertThat(SAMPLE.problems("GET", "/things/a", 200, JSON, "")).singleElement().asString().contains("empty");
        assertThat(SAMPLE.problems("GET", "/things/a", 204, JSON, "{}")).singleElement().asString().contains("has no content");
    }

    @Test
    void problems_whenARequiredHeaderIsMissing_namesIt() {
        assertThat(SAMPLE.problems("GET", "/things/a", 429, PROBLEM, "{\"title\":\"Too Many Requests\",\"status\":429}"))
                .singleElement().asString().contains("Retry-After");
    }

    @Test
    void problems_ofARequestNoOperationDescribes_areCheckedAgainstTheOtherRequestsResponses() {
        assertThat(SAMPLE.problems("GET", "/nothing/here", 404, PROBLEM, "{\"title\":\"Not Found\",\"status\":404}")).isEmpty();
        assertThat(SAMPLE.problems("POST", "/things", 404, PROBLEM, "{\"title\":\"Not Found\",\"status\":404}")).isEmpty();
        assertThat(SAMPLE.problems("GET", "/things/a/b", 405, PROBLEM, "{\"title\":\"Method Not Allowed\",\"status\":405}"))
                .singleElement().asString().contains("status 405");
    }

    @Test
    void problems_ofARequestNoOperationDescribes_withoutOtherRequestsResponses_isAProblem() throws Exception {
        // given
        ObjectNode document = (ObjectNode) new ObjectMapper().readTree(getClass().getResourceAsStream("/openapi-sample.json"));
        document.remove(OpenApiResponses.OTHER_REQUESTS);
        OpenApiResponses strict = OpenApiResponses.of(document.toString());

        // then
        assertThat(strict.problems("GET", "/nothing/here", 404, PROBLEM, "{\"title\":\"Not Found\",\"status\":404}"))
                .singleElement().asString().contains("no operation GET /nothing/here");
        assertThat(strict.problems("DELETE", "/things", 404, PROBLEM, "{\"title\":\"Not Found\",\"status\":404}")).hasSize(1);
    }

    @Test
    void check_whenTheResponseStrays_failsListingEveryProblem() {
        assertThatThrownBy(() -> SAMPLE.check("GET", "/things", 200, JSON, "{\"things\":[{\"id\":1,\"count\":-1}]}"))
                .isInstanceOf(AssertionError.class).hasMessageContaining("/things/0/id").hasMessageContaining("/things/0/count");
        SAMPLE.check("GET", "/things", 200, JSON, "{\"things\":[]}");
    }

    @Test
    void schemaProblems_ofValidSchemas_isEmpty_andNamesAnInvalidOne() throws Exception {
        // given
        ObjectNode document = (ObjectNode) new ObjectMapper().readTree(getClass().getResourceAsStream("/openapi-sample.json"));
        ((ObjectNode) document.at("/components/schemas/Thing/properties/count")).put("type", "whole");
        ((ObjectNode) document.at("/paths/~1things~1{id}/get/responses/429/headers/Retry-After/schema")).put("minLength", -1);

        // then
        assertThat(SAMPLE.schemaProblems()).isEmpty();
        assertThat(OpenApiResponses.of(document.toString()).schemaProblems())
                .allSatisfy(problem -> assertThat(problem).containsAnyOf("/properties/count/type", "/Retry-After/schema/minLength"))
                .anySatisfy(problem -> assertThat(problem).startsWith("#/components/schemas/Thing").contains("/properties/count/type"))
                .anySatisfy(problem -> assertThat(problem).startsWith("#/paths/~1things~1{id}/get/responses/429/headers/Retry-After/schema"));
    }

    @Test
    void of_whenTheDocumentIsNotOpenApi31_refusesIt() {
        assertThatThrownBy(() -> OpenApiResponses.of("{\"openapi\":\"3.0.3\",\"paths\":{}}")).hasMessageContaining("3.0.3");
        assertThatThrownBy(() -> OpenApiResponses.of("{\"openapi\":")).hasMessageContaining("not JSON");
        assertThatThrownBy(() -> OpenApiResponses.of("{\"openapi\":\"3.1.0\",\"jsonSchemaDialect\":\"http://json-schema.org/draft-07/schema#\","
                + "\"paths\":{}}")).hasMessageContaining("draft-07");
        assertThatThrownBy(() -> OpenApiResponses.fromClasspath("/no-such.json")).hasMessageContaining("/no-such.json");
    }
}

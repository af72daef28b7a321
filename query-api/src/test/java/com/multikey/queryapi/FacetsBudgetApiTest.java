package com.multikey.queryapi;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.multikey.index.definition.IndexDefinitions;
import com.multikey.query.FacetRequest;
import com.multikey.query.Facets;
import com.multikey.query.FilterParameters;
import com.multikey.query.Page;
import com.multikey.query.PageParameters;
import com.multikey.query.PageRequest;
import com.multikey.testkit.OpenApiResponses;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The facets routes' {@code budget} is bounded as a page's is: from 2 to the deployment's maximum
 * ({@code QueryApiMaxReadBudget}, which the query library holds and checks), not to the library's default maximum.
 */
class FacetsBudgetApiTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final IndexDefinitions DEFINITIONS = IndexDefinitions.packaged();
    private static final OpenApiResponses OPENAPI = OpenApiResponses.of(QueryApi.openApiDocument());
    /** The deployment's maximum in these tests: above the library's default (20,000), as QueryApiMaxReadBudget may be. */
    private static final int DEPLOYMENT_MAX = 50_000;

    private final List<FacetRequest> counted = new ArrayList<>();
    private final QueryApi api = new QueryApi(request -> new Page(List.of(), null, 1), new QueryApi.Counting() {
        @Override
        public Page pageWithTotal(PageRequest request) {
            throw new AssertionError("no page is asked");
        }

        @Override
        public Facets facets(FacetRequest request) {
            // the library's check: the deployment's maximum
            if (request.readBudget() > DEPLOYMENT_MAX) {
                throw new FilterParameters.InvalidParameterException(PageParameters.Parameter.BUDGET, "at most " + DEPLOYMENT_MAX
                        + " items, got " + request.readBudget());
            }
            counted.add(request);
            return new Facets(List.of(), 0, 0);
        }
    }, DEFINITIONS, () -> DEFINITIONS);

    private QueryApi.Response facets(String budget) {
        QueryApi.Response response = api.handle(new QueryApi.Request("GET", "/v1/grid/facets", Map.of("project", List.of("project#1"),
                "field", List.of("3812"), "budget", List.of(budget)), Optional.empty()));
        OPENAPI.check("GET", "/v1/grid/facets", response.status(), response.headers(), response.body());
        return response;
    }

    @Test
    void facets_aBudgetAboveTheLibrarysDefaultMaximum_withinTheDeployments_isCounted() {
        // when
        QueryApi.Response response = facets("30000");

        // then
        assertThat(response.status()).as(response.body()).isEqualTo(200);
        assertThat(counted).singleElement().extracting(FacetRequest::readBudget).isEqualTo(30_000);
    }

    @Test
    void facets_aBudgetAboveTheDeploymentsMaximum_orBelowTwo_orNotWrittenInAsciiDigits_isA400NamingBudget() throws Exception {
        for (String budget : List.of("50001", "1", "0", "-3", "+5", "\u0663\u0663", "2e3", "")) {
            QueryApi.Response response = facets(budget);

            assertThat(response.status()).as(budget).isEqualTo(400);
            assertThat(JSON.readTree(response.body()).get("parameter").asText()).as(budget).isEqualTo("budget");
        }
        assertThat(counted).isEmpty();
    }
}

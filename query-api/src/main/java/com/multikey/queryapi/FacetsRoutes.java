package com.multikey.queryapi;

import com.multikey.index.definition.IndexDefinition;
import com.multikey.index.definition.IndexDefinitions;
import com.multikey.query.CountParameters;
import com.multikey.query.ExpressionText;
import com.multikey.query.FacetRequest;
import com.multikey.query.Facets;
import com.multikey.query.InvalidCountException;
import com.multikey.query.InvalidPredicateException;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The facets routes: {@code GET /v1/grid/facets?project=P&field=F} and {@code GET /v1/indexes/{index}/facets?group=G&field=F},
 * each value of one or more fields with how many items of the group carry it ({@code top}, {@code where}, {@code budget}).
 * The {@code where}s are read as the page routes read them ({@link ExpressionText#parseAll}: the same limits over all of
 * a request's {@code where}s, the same refusals).
 */
final class FacetsRoutes {

    private static final Pattern INDEX_FACETS = Pattern.compile("/v1/indexes/([A-Za-z0-9_.-]{1,64})/facets");
    /** The parameters of a facets request beside the group's (and the grid's field, repeatable there too). */
    private static final Set<String> FACET_PARAMETERS = Set.of("field", "top", "where", "budget");
    /** A facets request names each of its fields with a {@code field} parameter. */
    private static final Set<String> REPEATABLE_ON_FACETS = Set.of("group", "where", "field");

    private final QueryApi.Counting counting;
    private final IndexDefinitions definitions;
    private final GroupAccess access;

    FacetsRoutes(QueryApi.Counting counting, IndexDefinitions definitions, GroupAccess access) {
        this.counting = counting;
        this.definitions = definitions;
        this.access = access;
    }

    /** Whether the path is one of the facets routes'. */
    static boolean routes(String path) {
        return path.equals("/v1/grid/facets") || INDEX_FACETS.matcher(path).matches();
    }

    /** The answer to a GET on one of the facets routes ({@link #routes}). */
    QueryApi.Response answer(QueryApi.Request request) {
        if (request.path().equals("/v1/grid/facets")) {
            RequestParameters parameters = RequestParameters.of(request, RequestParameters.union(FACET_PARAMETERS, Set.of("project")),
                    REPEATABLE_ON_FACETS);
            IndexDefinition grid = access.grid().orElseThrow(() -> new Problem(404, "Not Found", "no issue grid is declared: "
                    + "count a declared index under /v1/indexes", null));
            List<AttributeValue> group = List.of(AttributeValue.fromS(parameters.required("project")));
            access.authorize(request, List.of(group), grid);
            return facets(grid, group, parameters);
        }
        Matcher facets = INDEX_FACETS.matcher(request.path());
        if (!facets.matches()) {
            throw new IllegalArgumentException("not a facets route");
        }
        IndexDefinition index = definitions.index(facets.group(1)).orElseThrow(() ->
                new Problem(404, "Not Found", "no index named '" + facets.group(1) + "' is declared (GET /v1/indexes lists them)", null));
        RequestParameters parameters = RequestParameters.of(request, RequestParameters.union(FACET_PARAMETERS, Set.of("group")),
                REPEATABLE_ON_FACETS);
        List<AttributeValue> group = GroupParameters.oneGroup(index, parameters);
        access.authorize(request, List.of(group), index);
        return facets(index, group, parameters);
    }

    /** The counts of one or more fields' values within a group, of the items matching the {@code where}s. */
    private QueryApi.Response facets(IndexDefinition index, List<AttributeValue> group, RequestParameters parameters) {
        List<String> where = parameters.all("where");
        List<String> fields = parameters.all("field");
        if (fields.isEmpty()) {
            throw Problem.badRequest("field", "required: name each field to count with a field parameter");
        }
        int top = parameters.optional("top").map(text -> wholeNumber("top", text, FacetRequest.MAX_TOP)).orElse(FacetRequest.DEFAULT_TOP);
        // up to the deployment's maximum, which the query library holds and checks (Counts)
        int budget = parameters.optional("budget").map(text -> {
            try {
                return CountParameters.budget(text, QueryApiHandler.MAX_READ_BUDGET_LIMIT);
            } catch (InvalidCountException e) {
                throw Problem.badRequest(e.parameter(), e.detail());
            }
        }).orElse(0);
        try {
            Facets counted = counting.facets(new FacetRequest(index.name(), group, fields, top, ExpressionText.parseAll(where), budget));
            return new QueryApi.Response(200, Map.of("content-type", "application/json"),
                    PageDocuments.facets(index, group, counted).toString());
        } catch (InvalidPredicateException e) {
            throw Problem.badPredicate(e, where);
        }
    }

    private static int wholeNumber(String parameter, String text, int max) {
        try {
            // the one parser of a count's whole numbers, the CLI's too
            return CountParameters.wholeNumber(parameter, text, max);
        } catch (InvalidCountException e) {
            throw Problem.badRequest(e.parameter(), e.detail());
        }
    }
}

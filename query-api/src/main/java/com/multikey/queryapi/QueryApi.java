package com.multikey.queryapi;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.multikey.index.definition.IndexDefinition;
import com.multikey.index.definition.IndexDefinitions;
import com.multikey.index.definition.ValueSource;
import com.multikey.query.FilterParameters;
import com.multikey.query.InvalidPredicateException;
import com.multikey.query.Page;
import com.multikey.query.PageParameters;
import com.multikey.query.PageRequest;
import com.multikey.query.PredicateText;
import com.multikey.query.QueryException;
import com.multikey.query.RetryableQueryException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.exception.SdkServiceException;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The HTTP read API over the query library, without HTTP plumbing: a {@link Request} (method, path, query
 * parameters, the groups the caller may read) becomes a {@link Response} (status, headers, JSON body). Routes:
 * <ul>
 *   <li>{@code GET /v1/grid?project=P&field=F}: a page of the grid, as {@code operator-cli query --project};</li>
 *   <li>{@code GET /v1/indexes}: the indexes a client can read in the stack's grid layout state, and what a request on each
 *   names;</li>
 *   <li>{@code GET /v1/indexes/{index}/items?group=G&entry=E}: a page of any declared index;</li>
 *   <li>{@code GET /v1/grid/facets?project=P&field=F} and {@code GET /v1/indexes/{index}/facets?group=G&field=F}: each value of
 *   one or more fields with how many items carry it ({@code top}, {@code where}, {@code budget});</li>
 *   <li>{@code GET /openapi.json}: the OpenAPI document of these routes.</li>
 * </ul>
 * Page parameters, read by the query library's one parser ({@link PageParameters}, the CLI's too): {@code order}
 * (asc|desc), {@code pageSize} (1-100, default 25), {@code cursor}, {@code missing} (true: then the items lacking the
 * field), and a filter ({@link FilterParameters}: {@code type}, {@code equals}, {@code beginsWith},
 * {@code lt}/{@code le}/{@code gt}/{@code ge}) on the sorted field; {@code where}, once per predicate on any field
 * ({@link PredicateText}), {@code budget} (the items the page may read), {@code explain=true} (the page says how it
 * was read) and {@code total=true} (the page says how many items its request matches). Errors are RFC 9457 problem details naming the parameter at fault (for a predicate,
 * also its position and text, and the offending token's offset where the grammar refuses one); none carries a DynamoDB message, a
 * table name or a key. The facets routes are {@link FacetsRoutes}'; the group parameters are read by {@link GroupParameters} and
 * checked against the caller's token by {@link GroupAccess}.
 */
public final class QueryApi {

    /** Reads one page: the query library's {@code IndexQuery::page}. */
    @FunctionalInterface
    public interface Pages {
        Page page(PageRequest request);
    }

    /** Counts: the query library's {@link com.multikey.query.Counts}; {@link #NONE} where no counts are served. */
    public interface Counting {
        /** A page with its request's total ({@code Counts::pageWithTotal}). */
        Page pageWithTotal(PageRequest request);

        /** The values of fields with their counts ({@code Counts::facets}). */
        com.multikey.query.Facets facets(com.multikey.query.FacetRequest request);

        /** Serves no counts: a request for them is refused. */
        Counting NONE = new Counting() {
            @Override
            public Page pageWithTotal(PageRequest request) {
                throw Problem.badRequest("total", "this API serves no counts");
            }

            @Override
            public com.multikey.query.Facets facets(com.multikey.query.FacetRequest request) {
                throw new Problem(404, "Not Found", "this API serves no counts", null);
            }
        };

        /** Over the query library's counts. */
        static Counting of(com.multikey.query.Counts counts) {
            return new Counting() {
                @Override
                public Page pageWithTotal(PageRequest request) {
                    return counts.pageWithTotal(request);
                }

                @Override
                public com.multikey.query.Facets facets(com.multikey.query.FacetRequest request) {
                    return counts.facets(request);
                }
            };
        }
    }

    /**
     * An HTTP request as the API sees it.
     *
     * @param parameters     the query string's parameters, each with every value it was given
     * @param readableGroups the values of the caller's token's claim: the groups it may read ({@link GroupScope}); empty:
     *                       any (IAM authorization)
     */
    public record Request(String method, String path, Map<String, List<String>> parameters, Optional<Set<String>> readableGroups) {
        public Request {
            parameters = Map.copyOf(parameters);
        }
    }

    /** An HTTP response: status, headers, body (JSON), and how many items the body lists (for the log line). */
    public record Response(int status, Map<String, String> headers, String body, int items) {

        /** A response that lists no items. */
        public Response(int status, Map<String, String> headers, String body) {
            this(status, headers, body, 0);
        }
    }

    /** The claim value that lets a caller read every group of every index, and the indexes without one. */
    public static final String ANY_GROUP = "*";

    private static final Pattern INDEX_ITEMS = Pattern.compile("/v1/indexes/([A-Za-z0-9_.-]{1,64})/items");
    private static final Set<String> PAGE_PARAMETERS = java.util.Arrays.stream(PageParameters.Parameter.values())
            .map(PageParameters.Parameter::apiName).collect(java.util.stream.Collectors.toUnmodifiableSet());
    /** The parameters a request may give more than once, each value in its place. */
    private static final Set<String> REPEATABLE = Set.of("group", "groups", "project", "where");

    private final Pages pages;
    private final Counting counting;
    private final IndexDefinitions definitions;
    private final Supplier<IndexDefinitions> current;
    private final PageDocuments documents;
    private final GroupAccess access;
    private final FacetsRoutes facets;
    private final String openApi;

    /** Over definitions that are read as they are (no grid layout state). */
    public QueryApi(Pages pages, IndexDefinitions definitions) {
        this(pages, definitions, () -> definitions);
    }

    /**
     * @param current the definitions in the stack's grid layout state, asked for each list of the indexes (the query
     *                library's {@code IndexQuery::currentDefinitions}): which of the grid's layouts a page reads
     */
    public QueryApi(Pages pages, IndexDefinitions definitions, Supplier<IndexDefinitions> current) {
        this(pages, Counting.NONE, definitions, current);
    }

    /**
     * @param counting the totals ({@code total=true}) and facets ({@code GET …/facets}) this API serves
     * @param current  as {@link #QueryApi(Pages, IndexDefinitions, Supplier)}
     */
    public QueryApi(Pages pages, Counting counting, IndexDefinitions definitions, Supplier<IndexDefinitions> current) {
        this.pages = pages;
        this.counting = java.util.Objects.requireNonNull(counting, "counting");
        this.definitions = definitions;
        this.current = current;
        this.documents = new PageDocuments(definitions);
        this.access = new GroupAccess(definitions);
        this.facets = new FacetsRoutes(this.counting, definitions, access);
        this.openApi = openApiDocument();
    }

    /** The OpenAPI 3.1 document of this API, as packaged. */
    public static String openApiDocument() {
        try (InputStream in = QueryApi.class.getResourceAsStream("/openapi.json")) {
            if (in == null) {
                throw new IllegalStateException("openapi.json is not packaged");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public Response handle(Request request) {
        try {
            return route(request);
        } catch (Problem problem) {
            return problem.response();
        } catch (FilterParameters.InvalidParameterException e) {
            return Problem.badRequest(e.parameter(), e.getMessage()).response();
        } catch (com.multikey.query.InvalidCountException e) {
            return Problem.badRequest(e.parameter(), e.getMessage()).response();
        } catch (QueryException e) {
            // the library's refusals name the part of the request at fault (their messages never a table or a key)
            // the groups of a request of several are given as groups (the grid's, as its projects); the facets routes name the
            // fields they count (an entry of a map) field, as the grid's route does
            boolean facets = request.path().endsWith("/facets") && e.subject() == QueryException.Subject.ENTRY;
            String parameter = e.subject() == QueryException.Subject.GROUP && request.parameters().containsKey("groups") ? "groups"
                    : facets ? "field" : parameterOf(e.subject(), request.path().startsWith("/v1/grid"));
            return Problem.badRequest(parameter, e.getMessage()).response();
        } catch (RetryableQueryException e) {
            return Problem.unavailable("the page could not be read in time; retry").response();
        } catch (SdkServiceException e) {
            if (e.isThrottlingException()) {
                return Problem.throttled().response();
            }
            return Problem.unavailable("the index could not be read; retry").response();
        } catch (SdkException e) {
            return Problem.unavailable("the index could not be read; retry").response();
        }
    }

    private Response route(Request request) {
        String path = request.path();
        if (!request.method().equals("GET")) {
            throw new Problem(405, "Method Not Allowed", "this API answers GET only", null);
        }
        if (path.equals("/openapi.json")) {
            return new Response(200, Map.of("content-type", "application/json"), openApi);
        }
        if (path.equals("/v1/indexes")) {
            parameters(request, Set.of());
            return json(PageDocuments.indexes(current.get()));
        }
        if (path.equals("/v1/grid")) {
            RequestParameters parameters = parameters(request, RequestParameters.union(PAGE_PARAMETERS, Set.of("project", "field", "total")));
            IndexDefinition grid = access.grid().orElseThrow(() -> new Problem(404, "Not Found", "no issue grid is declared: "
                            + "read a declared index under /v1/indexes", null));
            List<List<AttributeValue>> groups = GroupParameters.projects(parameters);
            String field = parameters.required("field");
            GroupParameters.atMostMaxGroups("project", groups);
            access.authorize(request, groups, grid);
            return page(grid, groups, field, "field", parameters);
        }
        Matcher items = INDEX_ITEMS.matcher(path);
        if (items.matches()) {
            IndexDefinition index = definitions.index(items.group(1)).orElseThrow(() ->
                    new Problem(404, "Not Found", "no index named '" + items.group(1) + "' is declared (GET /v1/indexes lists them)", null));
            RequestParameters parameters = parameters(request, RequestParameters.union(PAGE_PARAMETERS, Set.of("group", "groups", "entry", "total")));
            List<List<AttributeValue>> groups = GroupParameters.ofIndex(index, parameters);
            String entry = parameters.optional("entry").orElse("");
            access.authorize(request, groups, index);
            return page(index, groups, entry, "entry", parameters);
        }
        if (FacetsRoutes.routes(path)) {
            return facets.answer(request);
        }
        throw new Problem(404, "Not Found", "no such route: GET /v1/grid, /v1/grid/facets, /v1/indexes, /v1/indexes/{index}/items, "
                + "/v1/indexes/{index}/facets or /openapi.json", null);
    }

    /** @param entryParameter the parameter that names the entry on this route: {@code field} on the grid's, else {@code entry} */
    private Response page(IndexDefinition index, List<List<AttributeValue>> groups, String entry, String entryParameter,
                          RequestParameters parameters) {
        List<AttributeValue> group = groups.get(0);
        List<String> where = parameters.all("where");
        try {
            // the page parameters through the one parser the CLI's options go through too
            Map<PageParameters.Parameter, String> given = new EnumMap<>(PageParameters.Parameter.class);
            for (PageParameters.Parameter parameter : PageParameters.Parameter.values()) {
                if (parameter != PageParameters.Parameter.WHERE) {
                    parameters.optional(parameter.apiName()).ifPresent(text -> given.put(parameter, text));
                }
            }
            PageParameters page = PageParameters.parse(given, where);
            boolean entries = index.values() instanceof ValueSource.MapEntries;
            if (entries && entry.isEmpty()) {
                throw Problem.badRequest(entryParameter,
                        "index '" + index.name() + "' indexes the entries of " + index.values().path() + ": name the entry");
            }
            if (!entries && !entry.isEmpty()) {
                throw Problem.badRequest(entryParameter, "index '" + index.name() + "' indexes " + index.values().path() + " itself: it has no entries");
            }
            PageRequest asked = groups.size() == 1 ? page.request(index.name(), group, entry)
                    : page.requestOfGroups(index.name(), groups, entry);
            Page read = total(parameters) ? counting.pageWithTotal(asked) : pages.page(asked);
            ObjectNode body = documents.page(index, group, entry, page.order(), read);
            if (groups.size() > 1) {
                PageDocuments.groups(body, groups);
            }
            return new Response(200, Map.of("content-type", "application/json"), body.toString(), read.items().size());
        } catch (InvalidPredicateException e) {
            throw Problem.badPredicate(e, where);
        }
    }

    /** Whether the request asks for its total ({@code total=true}; {@code false} or absent: not). */
    private static boolean total(RequestParameters parameters) {
        return switch (parameters.optional("total").orElse("false")) {
            case "true" -> true;
            case "false" -> false;
            default -> throw Problem.badRequest("total", "true or false");
        };
    }

    /** The parameter of this API a library refusal is about: the grid route names the group its project, the entry its field. */
    static String parameterOf(QueryException.Subject subject, boolean grid) {
        return switch (subject) {
            case INDEX -> "index";
            case GROUP -> grid ? "project" : "group";
            case ENTRY -> grid ? "field" : "entry";
            case MISSING -> "missing";
            case PREDICATE -> "where";
            case CURSOR -> "cursor";
            case REQUEST -> "query";
        };
    }

    private static Response json(ObjectNode body) {
        return new Response(200, Map.of("content-type", "application/json"), body.toString());
    }

    private static RequestParameters parameters(Request request, Set<String> known) {
        return RequestParameters.of(request, known, REPEATABLE);
    }
}

package com.multikey.queryapi;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.multikey.index.definition.IndexDefinition;
import com.multikey.index.definition.IndexDefinitions;
import com.multikey.index.definition.ValueSource;
import com.multikey.query.FilterParameters;
import com.multikey.query.GroupValue;
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
import java.util.ArrayList;
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
 * also its position and text); none carries a DynamoDB message, a table name or a key.
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
    private static final Pattern INDEX_FACETS = Pattern.compile("/v1/indexes/([A-Za-z0-9_.-]{1,64})/facets");
    /** The parameters of a facets request beside the group's (and the grid's field, repeatable there too). */
    private static final Set<String> FACET_PARAMETERS = Set.of("field", "top", "where", "budget");
    private static final Set<String> PAGE_PARAMETERS = java.util.Arrays.stream(PageParameters.Parameter.values())
            .map(PageParameters.Parameter::apiName).collect(java.util.stream.Collectors.toUnmodifiableSet());
    /** The parameters a request may give more than once, each value in its place. */
    private static final Set<String> REPEATABLE = Set.of("group", "groups", "project", "where");
    /** A facets request names each of its fields with a {@code field} parameter. */
    private static final Set<String> REPEATABLE_ON_FACETS = Set.of("group", "where", "field");

    private final Pages pages;
    private final Counting counting;
    private final IndexDefinitions definitions;
    private final Supplier<IndexDefinitions> current;
    private final PageDocuments documents;
    private final Set<String> indexNames;
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
        // every declared name a token may qualify a group with: both of the grid's, whichever layout the stack's state keeps
        this.indexNames = definitions.declared().stream().map(IndexDefinition::name).collect(java.util.stream.Collectors.toUnmodifiableSet());
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
            Parameters parameters = parameters(request, union(PAGE_PARAMETERS, Set.of("project", "field", "total")));
            IndexDefinition grid = gridIndex().orElseThrow(() -> new Problem(404, "Not Found", "no issue grid is declared: "
                            + "read a declared index under /v1/indexes", null));
            parameters.required("project");
            List<String> projects = parameters.all("project");
            if (projects.stream().anyMatch(String::isEmpty)) {
                throw Problem.badRequest("project", "required: a project's id each time it is given");
            }
            String field = parameters.required("field");
            List<List<AttributeValue>> groups = projects.stream().distinct().map(project -> List.of(AttributeValue.fromS(project))).toList();
            requireAtMostMaxGroups("project", groups);
            authorize(request, groups, grid);
            return page(grid, groups, field, "field", parameters);
        }
        Matcher items = INDEX_ITEMS.matcher(path);
        if (items.matches()) {
            IndexDefinition index = definitions.index(items.group(1)).orElseThrow(() ->
                    new Problem(404, "Not Found", "no index named '" + items.group(1) + "' is declared (GET /v1/indexes lists them)", null));
            Parameters parameters = parameters(request, union(PAGE_PARAMETERS, Set.of("group", "groups", "entry", "total")));
            List<AttributeValue> group = parameters.all("group").stream().map(QueryApi::groupValue).toList();
            List<String> several = parameters.all("groups");
            if (!several.isEmpty() && !group.isEmpty()) {
                throw Problem.badRequest("groups", "give group (the values of one group) or groups (several groups), not both");
            }
            if (several.isEmpty() && group.size() != index.group().size()) {
                throw Problem.badRequest("group", "index '" + index.name() + "' runs within " + index.group() + ": give "
                        + index.group().size() + " group value(s), got " + group.size());
            }
            List<List<AttributeValue>> groups = several.isEmpty() ? List.of(group)
                    : several.stream().map(text -> groupOfText(index, text)).distinct().toList();
            requireAtMostMaxGroups("groups", groups);
            String entry = parameters.optional("entry").orElse("");
            authorize(request, groups, index);
            return page(index, groups, entry, "entry", parameters);
        }
        if (path.equals("/v1/grid/facets")) {
            Parameters parameters = parameters(request, union(FACET_PARAMETERS, Set.of("project")), REPEATABLE_ON_FACETS);
            IndexDefinition grid = gridIndex().orElseThrow(() -> new Problem(404, "Not Found", "no issue grid is declared: "
                    + "count a declared index under /v1/indexes", null));
            List<AttributeValue> group = List.of(AttributeValue.fromS(parameters.required("project")));
            authorize(request, List.of(group), grid);
            return facets(grid, group, parameters);
        }
        Matcher facets = INDEX_FACETS.matcher(path);
        if (facets.matches()) {
            IndexDefinition index = definitions.index(facets.group(1)).orElseThrow(() ->
                    new Problem(404, "Not Found", "no index named '" + facets.group(1) + "' is declared (GET /v1/indexes lists them)", null));
            Parameters parameters = parameters(request, union(FACET_PARAMETERS, Set.of("group")), REPEATABLE_ON_FACETS);
            List<AttributeValue> group = parameters.all("group").stream().map(QueryApi::groupValue).toList();
            if (group.size() != index.group().size()) {
                throw Problem.badRequest("group", "index '" + index.name() + "' runs within " + index.group() + ": give "
                        + index.group().size() + " group value(s), got " + group.size());
            }
            authorize(request, List.of(group), index);
            return facets(index, group, parameters);
        }
        throw new Problem(404, "Not Found", "no such route: GET /v1/grid, /v1/grid/facets, /v1/indexes, /v1/indexes/{index}/items, "
                + "/v1/indexes/{index}/facets or /openapi.json", null);
    }

    /**
     * A group of {@code groups}: its values joined by {@code /} as a token names the group ({@link GroupScope#parse}), as many
     * as the index has group attributes.
     */
    private static List<AttributeValue> groupOfText(IndexDefinition index, String text) {
        if (index.group().isEmpty()) {
            throw Problem.badRequest("groups", "index '" + index.name() + "' has no group");
        }
        List<AttributeValue> group;
        try {
            group = GroupScope.parse(text);
        } catch (IllegalArgumentException e) {
            throw Problem.badRequest("groups", e.getMessage());
        }
        if (group.size() != index.group().size()) {
            throw Problem.badRequest("groups", "index '" + index.name() + "' runs within " + index.group() + ": each groups value is "
                    + index.group().size() + " group value(s) joined by /, got " + group.size());
        }
        return group;
    }

    /** A group value in a parameter, spelled as {@link GroupValue} reads it (S:, N:, BOOL:, B:, or plain text). */
    private static AttributeValue groupValue(String text) {
        try {
            return GroupValue.parse(text);
        } catch (IllegalArgumentException e) {
            throw Problem.badRequest("group", e.getMessage());
        }
    }

    private static void requireAtMostMaxGroups(String parameter, List<List<AttributeValue>> groups) {
        if (groups.size() > PageRequest.MAX_GROUPS) {
            throw Problem.badRequest(parameter, "at most " + PageRequest.MAX_GROUPS + " groups a request, got " + groups.size());
        }
    }

    /**
     * Refuses, before anything is read, a group the caller's token does not name ({@link GroupScope}: {@value #ANY_GROUP},
     * index-qualified group patterns, or projects of the grid); of several groups, every one is checked, and the refusal
     * names those the token does not.
     */
    private void authorize(Request request, List<List<AttributeValue>> groups, IndexDefinition index) {
        if (request.readableGroups().isEmpty()) {
            return;
        }
        GroupScope scope = GroupScope.of(request.readableGroups().get(), indexNames);
        // both of the grid's layouts are the grid: a token's unqualified projects read it whichever the stack reads
        List<List<AttributeValue>> refused = groups.stream().filter(group -> !scope.permits(index, group, definitions.isGrid(index))).toList();
        if (refused.isEmpty()) {
            return;
        }
        if (groups.size() > 1) {
            throw new Problem(403, "Forbidden", "the token does not name " + refused.size() + " of the " + groups.size()
                    + " groups of index '" + index.name() + "': " + refused.stream().map(GroupScope::text).toList(), null);
        }
        List<AttributeValue> group = groups.get(0);
        throw new Problem(403, "Forbidden", group.isEmpty()
                ? "index '" + index.name() + "' has no group: it is readable by tokens that name " + ANY_GROUP + " or "
                + index.name() + ":" + ANY_GROUP + " only"
                : "the token does not name this group of index '" + index.name() + "'", null);
    }

    /**
     * The grid: the index {@code GET /v1/grid} names, whose projects a token names without an index (the query
     * library reads it in the layout the stack's grid state reads).
     */
    private Optional<IndexDefinition> gridIndex() {
        return definitions.fieldPartitionedGrid().or(definitions::groupedGrid);
    }

    /** @param entryParameter the parameter that names the entry on this route: {@code field} on the grid's, else {@code entry} */
    private Response page(IndexDefinition index, List<List<AttributeValue>> groups, String entry, String entryParameter,
                          Parameters parameters) {
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
            int position = e.position();
            throw Problem.badPredicate(position, position < where.size() ? where.get(position) : null, e.getMessage());
        }
    }

    /** Whether the request asks for its total ({@code total=true}; {@code false} or absent: not). */
    private static boolean total(Parameters parameters) {
        return switch (parameters.optional("total").orElse("false")) {
            case "true" -> true;
            case "false" -> false;
            default -> throw Problem.badRequest("total", "true or false");
        };
    }

    /** The counts of one or more fields' values within a group, of the items matching the {@code where} predicates. */
    private Response facets(IndexDefinition index, List<AttributeValue> group, Parameters parameters) {
        List<String> where = parameters.all("where");
        List<String> fields = parameters.all("field");
        if (fields.isEmpty()) {
            throw Problem.badRequest("field", "required: name each field to count with a field parameter");
        }
        int top = parameters.optional("top").map(text -> wholeNumber("top", text, com.multikey.query.FacetRequest.MAX_TOP))
                .orElse(com.multikey.query.FacetRequest.DEFAULT_TOP);
        int budget = parameters.optional("budget").map(text -> wholeNumber("budget", text, com.multikey.query.ReadBudget.DEFAULT.max()))
                .orElse(0);
        if (budget == 1) {
            throw Problem.badRequest("budget", "at least 2 items (an index item and its item), got 1");
        }
        try {
            List<com.multikey.query.Expression> predicates = new ArrayList<>();
            for (int i = 0; i < where.size(); i++) {
                predicates.add(com.multikey.query.ExpressionText.parse(where.get(i), i));
            }
            com.multikey.query.Facets counted = counting.facets(new com.multikey.query.FacetRequest(index.name(), group, fields, top,
                    predicates, budget));
            return new Response(200, Map.of("content-type", "application/json"), PageDocuments.facets(index, group, counted).toString());
        } catch (InvalidPredicateException e) {
            int position = e.position();
            throw Problem.badPredicate(position, position < where.size() ? where.get(position) : null, e.getMessage());
        }
    }

    private static int wholeNumber(String parameter, String text, int max) {
        int value;
        try {
            value = Integer.parseInt(text);
        } catch (NumberFormatException e) {
            throw Problem.badRequest(parameter, "a whole number from 1 to " + max + ", got '" + text + "'");
        }
        if (value < 1 || value > max) {
            throw Problem.badRequest(parameter, "from 1 to " + max + ", got " + value);
        }
        return value;
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

    private static Set<String> union(Set<String> a, Set<String> b) {
        Set<String> all = new java.util.HashSet<>(a);
        all.addAll(b);
        return all;
    }

    private static Parameters parameters(Request request, Set<String> known) {
        return parameters(request, known, REPEATABLE);
    }

    private static Parameters parameters(Request request, Set<String> known, Set<String> repeatable) {
        for (Map.Entry<String, List<String>> parameter : request.parameters().entrySet()) {
            if (!known.contains(parameter.getKey())) {
                throw Problem.badRequest(parameter.getKey(), "unknown parameter" + (known.isEmpty() ? "" : "; known: "
                        + known.stream().sorted().toList()));
            }
            if (!repeatable.contains(parameter.getKey()) && parameter.getValue().size() > 1) {
                throw Problem.badRequest(parameter.getKey(), "given more than once");
            }
        }
        return new Parameters(request.parameters());
    }

    private record Parameters(Map<String, List<String>> values) {
        Optional<String> optional(String name) {
            List<String> given = values.getOrDefault(name, List.of());
            return given.isEmpty() ? Optional.empty() : Optional.of(given.get(0));
        }

        String required(String name) {
            return optional(name).filter(value -> !value.isEmpty()).orElseThrow(() -> Problem.badRequest(name, "required"));
        }

        List<String> all(String name) {
            return new ArrayList<>(values.getOrDefault(name, List.of()));
        }
    }
}

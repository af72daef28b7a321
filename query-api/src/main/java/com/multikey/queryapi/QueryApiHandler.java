package com.multikey.queryapi;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import com.multikey.common.ClientFactory;
import com.multikey.common.Environment;
import com.multikey.common.StructuredLog;
import com.multikey.index.definition.IndexDefinitions;
import com.multikey.query.Counts;
import com.multikey.query.CursorSealer;
import com.multikey.query.IndexQuery;
import com.multikey.query.ReadBudget;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Lambda entry point of the HTTP read API (API Gateway HTTP API, payload format 2.0): the event becomes a
 * {@link QueryApi.Request}, its answer the response. With {@code AUTH_MODE=JWT} the groups a caller may read come
 * from the claim {@code PROJECTS_CLAIM} of the token API Gateway's JWT authorizer has verified; with {@code IAM}
 * (the default) API Gateway has checked the caller's signature and IAM policy, and every group is readable. Cursors are
 * sealed under the keys of the secret {@code CURSOR_KEY_SECRET_ARN} (read once per container, and again after a
 * rotation) and live {@code CURSOR_LIFETIME_SECONDS} (default a day). A page reads at most {@code READ_BUDGET} items
 * unless its request names a budget, up to {@code MAX_READ_BUDGET} ({@link #readBudget}).
 * Logs one line a request: the route, the status and the item count; never a parameter, a claim or an item.
 */
public final class QueryApiHandler implements RequestHandler<APIGatewayV2HTTPEvent, APIGatewayV2HTTPResponse> {

    /** The SnapStart priming hook, registered (and held: a CRaC context may keep it weakly) when Lambda loads the class. */
    static final QueryApiPriming PRIMING = QueryApiPriming.register(System.getenv());

    private final StructuredLog log;
    private final QueryApi api;
    private final boolean jwt;
    private final String claim;

    public QueryApiHandler() {
        this(System.getenv());
    }

    /** Configured from the given environment instead of the process's (local runners, tests). */
    public QueryApiHandler(Map<String, String> env) {
        this(env, StructuredLog.forClass(QueryApiHandler.class));
    }

    /** Configured from the given environment, logging to {@code log} (tests). */
    QueryApiHandler(Map<String, String> env, StructuredLog log) {
        this(env, log, new ClientFactory(env).dynamoDb(), stackCursors(env));
    }

    /**
     * Configured from the given environment, logging to {@code log}, reading through {@code dynamoDb}, sealing cursors
     * with {@code cursors} (priming, with a key of its own that is never the stack's; tests).
     */
    QueryApiHandler(Map<String, String> env, StructuredLog log, DynamoDbClient dynamoDb, CursorSealer cursors) {
        this.log = log;
        IndexDefinitions definitions = IndexDefinitions.fromEnvironment(env);
        IndexQuery query = IndexQuery.of(dynamoDb, Environment.required(env, "APP_TABLE_NAME"),
                Environment.required(env, "INDEX_TABLE_NAME"), definitions).withCursorSealer(cursors).withReadBudget(readBudget(env));
        Counts counts = new Counts(query, dynamoDb, Environment.required(env, "INDEX_TABLE_NAME"), definitions);
        this.api = new QueryApi(query::page, QueryApi.Counting.of(counts), definitions, query::currentDefinitions);
        String mode = env.getOrDefault("AUTH_MODE", "IAM");
        if (!mode.equals("IAM") && !mode.equals("JWT")) {
            throw new IllegalArgumentException("AUTH_MODE must be IAM or JWT, got " + mode);
        }
        this.jwt = mode.equals("JWT");
        this.claim = env.getOrDefault("PROJECTS_CLAIM", "projects");
    }

    /**
     * Cursors sealed under the stack's keys, read from the secret {@code CURSOR_KEY_SECRET_ARN} at the first cursor (so a
     * SnapStart snapshot holds no key) and again after a rotation.
     */
    static CursorSealer stackCursors(Map<String, String> env) {
        SecretsManagerClient secretsManager = new ClientFactory(env).configure(SecretsManagerClient.builder(), "SECRETS_MANAGER")
                .httpClient(ClientFactory.httpClient()).build();
        return CursorSealer.reloading(new SecretsManagerCursorKeys(secretsManager,
                Environment.required(env, "CURSOR_KEY_SECRET_ARN")), cursorLifetime(env), Clock.systemUTC());
    }

    /**
     * {@code READ_BUDGET}, the items a page reads when its request names no budget, and {@code MAX_READ_BUDGET}, the
     * most a request may name: whole numbers from 2 (an index item and its item, the least a page moves on with) to
     * {@value #MAX_READ_BUDGET_LIMIT}, the first at most the second;
     * unset, {@link ReadBudget#DEFAULT}'s.
     */
    static ReadBudget readBudget(Map<String, String> env) {
        int standard = budgetVariable(env, "READ_BUDGET", ReadBudget.DEFAULT.standard());
        int max = budgetVariable(env, "MAX_READ_BUDGET", ReadBudget.DEFAULT.max());
        if (standard > max) {
            throw new IllegalArgumentException("READ_BUDGET (" + standard + ") must not be above MAX_READ_BUDGET (" + max + ")");
        }
        return new ReadBudget(standard, max);
    }

    /** The largest value {@code READ_BUDGET} and {@code MAX_READ_BUDGET} may hold. */
    static final int MAX_READ_BUDGET_LIMIT = 100_000;

    private static int budgetVariable(Map<String, String> env, String name, int unset) {
        String text = env.get(name);
        if (text == null || text.isBlank()) {
            return unset;
        }
        if (!text.strip().matches("[0-9]{1,6}") || Integer.parseInt(text.strip()) < 2 || Integer.parseInt(text.strip()) > MAX_READ_BUDGET_LIMIT) {
            throw new IllegalArgumentException(name + " must be a whole number from 2 to " + MAX_READ_BUDGET_LIMIT + ", got " + text);
        }
        return Integer.parseInt(text.strip());
    }

    /** {@code CURSOR_LIFETIME_SECONDS}: 60 to 2592000 (30 days), default a day. */
    static Duration cursorLifetime(Map<String, String> env) {
        String text = env.get("CURSOR_LIFETIME_SECONDS");
        if (text == null || text.isBlank()) {
            return CursorSealer.DEFAULT_LIFETIME;
        }
        long seconds;
        try {
            seconds = Long.parseLong(text.strip());
        } catch (NumberFormatException e) {
            seconds = -1;
        }
        if (seconds < 60 || seconds > 2_592_000) {
            throw new IllegalArgumentException("CURSOR_LIFETIME_SECONDS must be a whole number from 60 to 2592000, got " + text);
        }
        return Duration.ofSeconds(seconds);
    }

    @Override
    public APIGatewayV2HTTPResponse handleRequest(APIGatewayV2HTTPEvent event, Context context) {
        String method = event.getRequestContext() != null && event.getRequestContext().getHttp() != null
                ? event.getRequestContext().getHttp().getMethod() : "GET";
        String path = event.getRawPath() == null ? "/" : event.getRawPath();
        QueryApi.Response response;
        try {
            response = api.handle(new QueryApi.Request(method, path, parameters(event.getRawQueryString()),
                    jwt ? Optional.of(groups(event)) : Optional.empty()));
        } catch (MalformedParameter malformed) {
            response = Problem.badRequest(malformed.parameter, "malformed percent-encoding in "
                    + (malformed.parameter.equals("query") ? "the query string" : "the value of " + malformed.parameter)).response();
        }
        log.info("request", Map.of("route", route(path), "status", response.status(), "items", response.items()));
        return APIGatewayV2HTTPResponse.builder().withStatusCode(response.status()).withHeaders(response.headers())
                .withBody(response.body()).withIsBase64Encoded(false).build();
    }

    /** The groups the verified token's claim lists; none when the request carries no verified claims. */
    private Set<String> groups(APIGatewayV2HTTPEvent event) {
        var context = event.getRequestContext();
        if (context == null || context.getAuthorizer() == null || context.getAuthorizer().getJwt() == null
                || context.getAuthorizer().getJwt().getClaims() == null) {
            return Set.of();
        }
        return claimValues(context.getAuthorizer().getJwt().getClaims().get(claim));
    }

    /**
     * A claim's values as API Gateway passes them: a string, or an array written as {@code [a b c]} (HTTP APIs
     * flatten array claims so); values separated by spaces or commas.
     */
    static Set<String> claimValues(String claim) {
        if (claim == null || claim.isBlank()) {
            return Set.of();
        }
        String text = claim.strip();
        if (text.startsWith("[") && text.endsWith("]")) {
            text = text.substring(1, text.length() - 1);
        }
        Set<String> values = new LinkedHashSet<>();
        Arrays.stream(text.split("[,\\s]+")).map(value -> value.replaceAll("^\"|\"$", "")).filter(value -> !value.isEmpty())
                .forEach(values::add);
        return Set.copyOf(values);
    }

    /** The raw query string's parameters, URL-decoded, each with every value it was given (repeats kept, in order). */
    static Map<String, List<String>> parameters(String rawQuery) {
        Map<String, List<String>> parameters = new LinkedHashMap<>();
        if (rawQuery == null || rawQuery.isEmpty()) {
            return parameters;
        }
        for (String pair : rawQuery.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int equals = pair.indexOf('=');
            String name = decode(equals < 0 ? pair : pair.substring(0, equals), "query");
            String value = equals < 0 ? "" : decode(pair.substring(equals + 1), name);
            parameters.computeIfAbsent(name, n -> new ArrayList<>()).add(value);
        }
        return parameters;
    }

    /** Decodes a name or value, or names what cannot be decoded: the parameter whose value it is, else the query. */
    private static String decode(String text, String parameter) {
        try {
            return URLDecoder.decode(text, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw new MalformedParameter(parameter);
        }
    }

    /** A query string that is not valid percent-encoding, in the value of {@code parameter} (or in a name: "query"). */
    static final class MalformedParameter extends RuntimeException {

        final String parameter;

        MalformedParameter(String parameter) {
            super(null, null, false, false);
            this.parameter = parameter;
        }
    }

    /** The route a path matched, without anything the caller chose but the index name. */
    private static String route(String path) {
        if (path.startsWith("/v1/indexes/") && path.endsWith("/items")) {
            return "/v1/indexes/{index}/items";
        }
        if (path.startsWith("/v1/indexes/") && path.endsWith("/facets")) {
            return "/v1/indexes/{index}/facets";
        }
        return switch (path) {
            case "/v1/grid", "/v1/grid/facets", "/v1/indexes", "/openapi.json" -> path;
            default -> "(other)";
        };
    }
}

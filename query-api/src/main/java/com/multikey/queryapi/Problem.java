package com.multikey.queryapi;

import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * An RFC 9457 problem detail ({@code application/problem+json}): the status, its title, what is wrong in words
 * a caller can act on, and for a bad request the parameter at fault. Its text is the API's own: never a message of
 * DynamoDB's, a table name or a key.
 */
final class Problem extends RuntimeException {

    /** Seconds a throttled or unavailable caller waits before it retries. */
    static final String RETRY_AFTER_SECONDS = "1";

    private final int status;
    private final String title;
    private final String parameter;
    /** For a {@code where} predicate at fault: its place among the request's {@code where} values (from 0); else -1. */
    private final int position;
    /** For a {@code where} predicate at fault: its text as given, when the request gave one at that place; else null. */
    private final String predicate;
    /** For a token of a {@code where} the grammar refuses: its character offset in that text (from 0); else -1. */
    private final int offset;

    Problem(int status, String title, String detail, String parameter) {
        this(status, title, detail, parameter, -1, null, -1);
    }

    private Problem(int status, String title, String detail, String parameter, int position, String predicate, int offset) {
        super(detail, null, false, false);
        this.status = status;
        this.title = title;
        this.parameter = parameter;
        this.position = position;
        this.predicate = predicate;
        this.offset = offset;
    }

    static Problem badRequest(String parameter, String detail) {
        return new Problem(400, "Bad Request", detail, parameter);
    }

    /**
     * A {@code where} that cannot be used, as the query library refused it: its place among the request's {@code where}
     * values, its text (none when the fault is a predicate beyond those given) and, for a token the grammar refuses, the
     * token's character offset in that text (RFC 9457 extension members: a client points at it without reading
     * {@code detail}).
     */
    static Problem badPredicate(com.multikey.query.InvalidPredicateException refusal, java.util.List<String> where) {
        int position = refusal.position();
        return new Problem(400, "Bad Request", refusal.getMessage(), "where", position, position < where.size() ? where.get(position) : null,
                refusal.offset());
    }

    static Problem throttled() {
        return new Problem(429, "Too Many Requests", "the index is being read faster than its capacity allows; retry after "
                + RETRY_AFTER_SECONDS + " s", null);
    }

    static Problem unavailable(String detail) {
        return new Problem(503, "Service Unavailable", detail, null);
    }

    int status() {
        return status;
    }

    QueryApi.Response response() {
        ObjectNode body = PageDocuments.NODES.objectNode();
        body.put("type", "about:blank");
        body.put("title", title);
        body.put("status", status);
        body.put("detail", getMessage());
        if (parameter != null) {
            body.put("parameter", parameter);
        }
        if (position >= 0) {
            body.put("position", position);
        }
        if (predicate != null) {
            body.put("predicate", predicate);
        }
        if (offset >= 0) {
            body.put("offset", offset);
        }
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("content-type", "application/problem+json");
        if (status == 429 || status == 503) {
            headers.put("retry-after", RETRY_AFTER_SECONDS);
        }
        return new QueryApi.Response(status, Map.copyOf(headers), body.toString());
    }
}

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

    Problem(int status, String title, String detail, String parameter) {
        this(status, title, detail, parameter, -1, null);
    }

    private Problem(int status, String title, String detail, String parameter, int position, String predicate) {
        super(detail, null, false, false);
        this.status = status;
        this.title = title;
        this.parameter = parameter;
        this.position = position;
        this.predicate = predicate;
    }

    static Problem badRequest(String parameter, String detail) {
        return new Problem(400, "Bad Request", detail, parameter);
    }

    /**
     * A {@code where} predicate that cannot be used: its place among the request's {@code where} values, and its text
     * (null when the fault is a predicate beyond those given, e.g. one too many).
     */
    static Problem badPredicate(int position, String predicate, String detail) {
        return new Problem(400, "Bad Request", detail, "where", position, predicate);
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
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("content-type", "application/problem+json");
        if (status == 429 || status == 503) {
            headers.put("retry-after", RETRY_AFTER_SECONDS);
        }
        return new QueryApi.Response(status, Map.copyOf(headers), body.toString());
    }
}

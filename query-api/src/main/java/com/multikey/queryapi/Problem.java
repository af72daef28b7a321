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

    Problem(int status, String title, String detail, String parameter) {
        super(detail, null, false, false);
        this.status = status;
        this.title = title;
        this.parameter = parameter;
    }

    static Problem badRequest(String parameter, String detail) {
        return new Problem(400, "Bad Request", detail, parameter);
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
        ObjectNode body = ApiJson.NODES.objectNode();
        body.put("type", "about:blank");
        body.put("title", title);
        body.put("status", status);
        body.put("detail", getMessage());
        if (parameter != null) {
            body.put("parameter", parameter);
        }
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("content-type", "application/problem+json");
        if (status == 429 || status == 503) {
            headers.put("retry-after", RETRY_AFTER_SECONDS);
        }
        return new QueryApi.Response(status, Map.copyOf(headers), body.toString());
    }
}

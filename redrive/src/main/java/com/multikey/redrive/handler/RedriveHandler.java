package com.multikey.redrive.handler;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.multikey.redrive.QueueKind;
import com.multikey.redrive.Redrives;

import java.util.Map;

/**
 * Lambda entry point: {@code {"queue": "indexer|router|delete-layer", "dryRun": true, "maxMessages": n}}
 * works through that queue and answers the report as JSON. {@code dropGone: true} also deletes messages
 * whose records are gone from the stream, after reporting them.
 */
public final class RedriveHandler implements RequestHandler<Map<String, Object>, String> {

    /** Messages a run handles unless the request says otherwise. */
    static final int DEFAULT_MAX_MESSAGES = 10;

    private final Redrives redrives;

    public RedriveHandler() {
        this(System.getenv());
    }

    /** Configured from the given environment instead of the process's (local runners). */
    public RedriveHandler(Map<String, String> environment) {
        this(Redrives.fromEnvironment(environment));
    }

    RedriveHandler(Redrives redrives) {
        this.redrives = redrives;
    }

    @Override
    public String handleRequest(Map<String, Object> request, Context context) {
        Request parsed = Request.of(request);
        return redrives.forQueue(parsed.queue()).run(parsed.dryRun(), parsed.maxMessages(), parsed.dropGone()).toJson();
    }

    /** The invocation's request, checked. */
    record Request(QueueKind queue, boolean dryRun, int maxMessages, boolean dropGone) {
        static Request of(Map<String, Object> request) {
            if (request == null || !(request.get("queue") instanceof String queue)) {
                throw new IllegalArgumentException("the request needs \"queue\": \"indexer\", \"router\" or \"delete-layer\"");
            }
            Object max = request.getOrDefault("maxMessages", DEFAULT_MAX_MESSAGES);
            if (!(max instanceof Number number) || number.intValue() < 1) {
                throw new IllegalArgumentException("\"maxMessages\" must be a number of at least 1");
            }
            return new Request(QueueKind.of(queue), flag(request, "dryRun"), number.intValue(), flag(request, "dropGone"));
        }

        private static boolean flag(Map<String, Object> request, String name) {
            Object value = request.get(name);
            if (value != null && !(value instanceof Boolean)) {
                throw new IllegalArgumentException("\"" + name + "\" must be true or false");
            }
            return Boolean.TRUE.equals(value);
        }
    }
}

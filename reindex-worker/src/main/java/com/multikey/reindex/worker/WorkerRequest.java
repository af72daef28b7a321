package com.multikey.reindex.worker;

import com.multikey.reindex.JobSpec;

import java.util.Map;

/**
 * What the worker is asked to do, read from the invocation's JSON object: {@code {"action":"start", "jobId",
 * "kind", "totalSegments", "writeUnitsPerSecond", "concurrency", "pageSize"}} (the last four optional) or
 * {@code {"action":"segment", "jobId", "segment"}} (what the worker sends itself).
 */
sealed interface WorkerRequest {

    /**
     * Segments one start may create: it writes one item and makes one asynchronous Invoke per segment, about
     * 20 ms each, well within one invocation.
     */
    int MAX_SEGMENTS_PER_JOB = 10_000;

    /** Starts a job, or resumes it when one with that id exists. */
    record Start(JobSpec spec) implements WorkerRequest {
    }

    /** Works one segment of a job from its checkpoint. */
    record Segment(String jobId, int segment) implements WorkerRequest {
    }

    /** Defaults of the optional start fields. */
    record Defaults(int totalSegments, double writeUnitsPerSecond, int concurrency, int pageSize) {
    }

    /** @throws IllegalArgumentException naming what is wrong */
    static WorkerRequest of(Map<String, Object> event, Defaults defaults) {
        if (event == null) {
            throw new IllegalArgumentException("the request must be a JSON object with an \"action\"");
        }
        Object action = event.get("action");
        if (!"start".equals(action) && !"segment".equals(action)) {
            throw new IllegalArgumentException("\"action\" must be \"start\" or \"segment\", got " + action);
        }
        String jobId = text(event, "jobId");
        if ("start".equals(action)) {
            int segments = (int) number(event, "totalSegments", defaults.totalSegments());
            if (segments > MAX_SEGMENTS_PER_JOB) {
                throw new IllegalArgumentException("a job has at most " + MAX_SEGMENTS_PER_JOB
                        + " segments (its start writes and invokes every one within one invocation), got " + segments);
            }
            return new Start(new JobSpec(jobId, JobSpec.Kind.of(text(event, "kind")), segments,
                    number(event, "writeUnitsPerSecond", defaults.writeUnitsPerSecond()),
                    (int) number(event, "concurrency", defaults.concurrency()),
                    (int) number(event, "pageSize", defaults.pageSize())));
        }
        if (!(event.get("segment") instanceof Number segment) || segment.intValue() < 0) {
            throw new IllegalArgumentException("\"segment\" must be a number of 0 or more");
        }
        return new Segment(jobId, segment.intValue());
    }

    /** The request the worker sends itself for a segment. */
    static Map<String, Object> segment(String jobId, int segment) {
        return Map.of("action", "segment", "jobId", jobId, "segment", segment);
    }

    private static String text(Map<String, Object> event, String name) {
        if (!(event.get(name) instanceof String value) || value.isBlank()) {
            throw new IllegalArgumentException("\"" + name + "\" must be a non-empty string");
        }
        return value;
    }

    private static double number(Map<String, Object> event, String name, double fallback) {
        Object value = event.get(name);
        if (value == null) {
            return fallback;
        }
        if (!(value instanceof Number number)) {
            throw new IllegalArgumentException("\"" + name + "\" must be a number, got " + value);
        }
        return number.doubleValue();
    }
}

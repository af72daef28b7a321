package com.multikey.reindex.worker;

import com.multikey.reindex.JobSpec;

import java.util.Map;

/**
 * What the worker is asked to do, read from the invocation's JSON object: {@code {"action":"start", "jobId",
 * "kind", "totalSegments", "writeUnitsPerSecond", "concurrency", "pageSize"}} (the last four optional) or
 * {@code {"action":"segment", "jobId", "segment"}} (what the worker sends itself). A scheduled start names
 * {@code "jobIdPrefix"} and {@code "scheduledTime"} (EventBridge Scheduler's {@code <aws.scheduler.scheduled-time>})
 * instead of a {@code "jobId"}: the job id is the prefix and the time's digits, so a retried delivery of one
 * scheduled run resumes that run's job rather than starting another.
 */
sealed interface WorkerRequest {

    /**
     * Segments one start may create: it makes one asynchronous Invoke per segment, about 20 ms each, well within
     * one invocation.
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
        if ("start".equals(action)) {
            String jobId = event.containsKey("jobId") || !event.containsKey("scheduledTime") ? text(event, "jobId") : scheduledJobId(event);
            int segments = (int) number(event, "totalSegments", defaults.totalSegments());
            if (segments > MAX_SEGMENTS_PER_JOB) {
                throw new IllegalArgumentException("a job has at most " + MAX_SEGMENTS_PER_JOB
                        + " segments (its start writes and invokes every one within one invocation), got " + segments);
            }
            return new Start(new JobSpec(jobId, JobSpec.Kind.of(text(event, "kind")), segments,
                    number(event, "writeUnitsPerSecond", defaults.writeUnitsPerSecond()),
                    (int) number(event, "concurrency", defaults.concurrency()),
                    (int) number(event, "pageSize", defaults.pageSize()),
                    event.get("index") instanceof String index ? java.util.Optional.of(index) : java.util.Optional.empty()));
        }
        if (!(event.get("segment") instanceof Number segment) || segment.intValue() < 0) {
            throw new IllegalArgumentException("\"segment\" must be a number of 0 or more");
        }
        return new Segment(text(event, "jobId"), segment.intValue());
    }

    /** The request the worker sends itself for a segment. */
    static Map<String, Object> segment(String jobId, int segment) {
        return Map.of("action", "segment", "jobId", jobId, "segment", segment);
    }

    /** {@code drift} and {@code 2026-11-22T03:00:00Z} → {@code drift-20261122T030000Z}. */
    private static String scheduledJobId(Map<String, Object> event) {
        String time = text(event, "scheduledTime");
        try {
            java.time.Instant.parse(time);
        } catch (java.time.format.DateTimeParseException e) {
            throw new IllegalArgumentException("\"scheduledTime\" must be an ISO-8601 instant such as 2026-11-22T03:00:00Z, got " + time);
        }
        return text(event, "jobIdPrefix") + "-" + time.replaceAll("[^0-9TZ]", "");
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

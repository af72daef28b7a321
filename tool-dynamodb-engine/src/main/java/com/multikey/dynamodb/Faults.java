package com.multikey.dynamodb;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * Faults on demand, for tests of the paths AWS takes under load: throttling errors on chosen operations, items
 * and keys left unprocessed by BatchWriteItem and BatchGetItem, and latency. Operations are named as in the
 * API ("PutItem", "GetRecords"). Thread-safe.
 */
public final class Faults {

    private record Throttle(int remaining, String type) {
    }

    private final Map<String, Throttle> throttles = new HashMap<>();
    private final Map<String, Duration> latencies = new HashMap<>();
    private int unprocessed;

    /** The next {@code times} calls of the operation fail with ProvisionedThroughputExceededException (400). */
    public Faults throttleNext(String operation, int times) {
        return throttleNext(operation, times, "ProvisionedThroughputExceededException");
    }

    /** The next {@code times} calls of the operation fail with this error type, e.g. ThrottlingException (400). */
    public synchronized Faults throttleNext(String operation, int times, String errorType) {
        throttles.put(operation, new Throttle(times, errorType));
        return this;
    }

    /** The next {@code items} write requests or keys of BatchWriteItem and BatchGetItem come back unprocessed. */
    public synchronized Faults unprocessNext(int items) {
        unprocessed = items;
        return this;
    }

    /** Every call of the operation ("*" for all) waits this long before it is served. */
    public synchronized Faults latency(String operation, Duration latency) {
        latencies.put(operation, latency);
        return this;
    }

    public synchronized void clear() {
        throttles.clear();
        latencies.clear();
        unprocessed = 0;
    }

    /** Called by the engine before it serves an operation: waits, then throws a throttling error if one is due. */
    public void beforeOperation(String operation) {
        Duration latency;
        EngineException throttle = null;
        synchronized (this) {
            latency = latencies.getOrDefault(operation, latencies.get("*"));
            Throttle due = throttles.get(operation);
            if (due != null && due.remaining() > 0) {
                throttles.put(operation, new Throttle(due.remaining() - 1, due.type()));
                throttle = new EngineException(due.type(), 400, due.type().equals("ThrottlingException")
                        ? "Rate of requests exceeds the allowed throughput."
                        : "The level of configured provisioned throughput for the table was exceeded. "
                                + "Consider increasing your provisioning level with the UpdateTable API.");
            }
        }
        if (latency != null && !latency.isZero()) {
            try {
                Thread.sleep(latency);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (throttle != null) {
            throw throttle;
        }
    }

    /** Whether the next batch item is to be left unprocessed (and counts it). */
    public synchronized boolean takeUnprocessed() {
        if (unprocessed > 0) {
            unprocessed--;
            return true;
        }
        return false;
    }
}

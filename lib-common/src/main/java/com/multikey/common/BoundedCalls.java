package com.multikey.common;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * Runs the independent API calls of one invocation at most {@link #maxInFlight()} at a time and answers their
 * results in the order the calls were given, so what a caller makes of them (which records fail) does not
 * depend on which call finished first.
 *
 * <p>With a bound of 1 every call runs on the caller's thread, one after the other. Otherwise the calls run on
 * daemon platform threads that live for one {@link #map} only (platform rather than virtual threads: the SDK's
 * URL-connection client may block while holding monitors, which would pin a virtual thread's carrier and undo
 * the concurrency); they inherit the caller's context class loader, and none outlives the call to {@code map}.
 * A call must handle the SDK's exceptions itself; anything it throws ends {@code map} with that exception
 * once every started call has finished.
 */
public final class BoundedCalls {

    /**
     * The functions' default bound: the SDK's
     * URL-connection client keeps at most {@code http.maxConnections} (5 by default, per the JDK's networking
     * properties) connections alive per host, so up to 5 calls in flight reuse their connections and more
     * would open (and TLS-handshake) new ones.
     */
    public static final int DEFAULT_IN_FLIGHT = 4;

    /** The largest bound accepted, a guard against a mistyped setting. */
    public static final int MAX_IN_FLIGHT = 16;

    private static final AtomicInteger THREADS = new AtomicInteger();

    private final int maxInFlight;

    public BoundedCalls(int maxInFlight) {
        if (maxInFlight < 1 || maxInFlight > MAX_IN_FLIGHT) {
            throw new IllegalArgumentException("calls in flight must be between 1 and " + MAX_IN_FLIGHT + ", got " + maxInFlight);
        }
        this.maxInFlight = maxInFlight;
    }

    /** One call at a time, on the caller's thread. */
    public static BoundedCalls sequential() {
        return new BoundedCalls(1);
    }

    /**
     * The bound an environment variable sets, or {@code fallback} when it is not set.
     *
     * @throws IllegalStateException naming the variable, when it is not a whole number from 1 to {@link #MAX_IN_FLIGHT}
     */
    public static BoundedCalls fromEnvironment(Map<String, String> environment, String name, int fallback) {
        String value = environment.get(name);
        if (value == null || value.isBlank()) {
            return new BoundedCalls(fallback);
        }
        try {
            return new BoundedCalls(Integer.parseInt(value.strip()));
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException(name + " must be a whole number from 1 to " + MAX_IN_FLIGHT + ", got '" + value + "'");
        }
    }

    public int maxInFlight() {
        return maxInFlight;
    }

    /**
     * Applies {@code call} to every input, at most {@link #maxInFlight()} at once.
     *
     * @return the results, in the order of {@code inputs}
     */
    public <T, R> List<R> map(List<T> inputs, Function<? super T, ? extends R> call) {
        if (maxInFlight == 1 || inputs.size() <= 1) {
            List<R> results = new ArrayList<>(inputs.size());
            for (T input : inputs) {
                results.add(call.apply(input));
            }
            return results;
        }
        int threads = Math.min(maxInFlight, inputs.size());
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        List<Future<R>> futures = new ArrayList<>(inputs.size());
        RuntimeException failure = null;
        try (ExecutorService executor = Executors.newFixedThreadPool(threads, daemon(loader))) {
            for (T input : inputs) {
                futures.add(executor.submit(() -> call.apply(input)));
            }
            List<R> results = new ArrayList<>(inputs.size());
            for (Future<R> future : futures) {
                try {
                    results.add(future.get());
                } catch (ExecutionException e) {
                    if (failure == null) {
                        failure = asRuntime(e.getCause());
                    }
                }
            }
            if (failure == null) {
                return results;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            futures.forEach(f -> f.cancel(true));
            throw new IllegalStateException("interrupted while calls were in flight", e);
        }
        throw failure;
    }

    private static RuntimeException asRuntime(Throwable cause) {
        if (cause instanceof RuntimeException runtime) {
            return runtime;
        }
        if (cause instanceof Error error) {
            throw error;
        }
        return new IllegalStateException(cause);
    }

    private static ThreadFactory daemon(ClassLoader loader) {
        return runnable -> {
            Thread thread = new Thread(runnable, "calls-" + THREADS.incrementAndGet());
            thread.setDaemon(true);
            thread.setContextClassLoader(loader);
            return thread;
        };
    }
}

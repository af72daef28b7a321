package com.multikey.emulator.services.bus;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Hands each event the local bus accepts to the template's rules ({@link BusRules}) on a thread of its own, and
 * counts the events not handled yet, so that a caller can wait for the bus's targets.
 */
public final class BusDispatcher implements AutoCloseable {

    private final ExecutorService dispatcher = Executors.newSingleThreadExecutor(runnable -> {
        Thread thread = new Thread(runnable, "local-bus");
        thread.setDaemon(true);
        return thread;
    });
    private final AtomicInteger dispatching = new AtomicInteger();

    /** Routes every event {@code bus} accepts from now on through {@code rules}. */
    public BusDispatcher(LocalEventBridge bus, BusRules rules) {
        bus.onAccepted(event -> {
            dispatching.incrementAndGet();
            dispatcher.submit(() -> {
                try {
                    rules.route(event);
                } finally {
                    dispatching.decrementAndGet();
                }
            });
        });
    }

    /** Whether an accepted event is still queued or with its targets. */
    public boolean busy() {
        return dispatching.get() > 0;
    }

    /** Waits until no accepted event is queued or with its targets, or until {@code timeout} passed. */
    public void awaitIdle(Duration timeout) throws InterruptedException {
        Instant end = Instant.now().plus(timeout);
        while (busy() && Instant.now().isBefore(end)) {
            Thread.sleep(50);
        }
    }

    @Override
    public void close() {
        dispatcher.shutdownNow();
    }
}

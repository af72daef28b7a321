package com.multikey.reindex;

import java.util.function.LongSupplier;

/** Spaces out permits to at most {@code perSecond}, shared by every thread of a backfill. */
final class RateLimiter {

    private final double nanosPerPermit;
    private final LongSupplier nanoClock;
    private long nextFree;

    RateLimiter(double perSecond, LongSupplier nanoClock) {
        if (perSecond <= 0) {
            throw new IllegalArgumentException("rate must be positive, got " + perSecond);
        }
        this.nanosPerPermit = 1e9 / perSecond;
        this.nanoClock = nanoClock;
        this.nextFree = nanoClock.getAsLong();
    }

    /** Waits until {@code permits} more may go. */
    void acquire(int permits) throws InterruptedException {
        long wait;
        synchronized (this) {
            long now = nanoClock.getAsLong();
            long start = Math.max(now, nextFree);
            nextFree = start + (long) (permits * nanosPerPermit);
            wait = start - now;
        }
        if (wait > 0) {
            Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
        }
    }
}

package com.multikey.common;

import java.time.Duration;
import java.util.random.RandomGenerator;

/**
 * Exponential backoff with full jitter: attempt {@code n} waits a random time in
 * {@code [0, min(cap, base * 2^n))}.
 */
public record Backoff(Duration base, Duration cap, RandomGenerator random) {

    public Backoff {
        if (base.isNegative() || base.isZero() || cap.compareTo(base) < 0) {
            throw new IllegalArgumentException("need 0 < base <= cap, got base=" + base + " cap=" + cap);
        }
    }

    public static Backoff standard() {
        return new Backoff(Duration.ofMillis(50), Duration.ofSeconds(5), RandomGenerator.getDefault());
    }

    /** The wait before retry number {@code attempt} (0 for the first retry). */
    public Duration delay(int attempt) {
        long ceiling = base.toMillis() << Math.min(attempt, 20);
        long bound = Math.min(cap.toMillis(), ceiling);
        return Duration.ofMillis(random.nextLong(bound + 1));
    }
}

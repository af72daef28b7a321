package com.multikey.common;

import java.security.SecureRandom;
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

    /**
     * 50 ms doubling up to 5 s, drawn from a {@link SecureRandom}: Lambda's Java runtime keeps SecureRandom
     * unique across environments restored from one SnapStart snapshot, which a seeded generator built during
     * initialisation is not (every restored copy would draw the same delays and retry in step).
     */
    public static Backoff standard() {
        return new Backoff(Duration.ofMillis(50), Duration.ofSeconds(5), new SecureRandom());
    }

    /** The wait before retry number {@code attempt} (0 for the first retry). */
    public Duration delay(int attempt) {
        long ceiling = base.toMillis() << Math.min(attempt, 20);
        long bound = Math.min(cap.toMillis(), ceiling);
        return Duration.ofMillis(random.nextLong(bound + 1));
    }
}

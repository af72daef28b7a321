package com.multikey.common;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

class BackoffTest {

    @Test
    void delay_growsExponentiallyUpToTheCap_withJitterBelowTheCeiling() {
        Backoff backoff = new Backoff(Duration.ofMillis(50), Duration.ofSeconds(1), new Random(1));

        for (int attempt = 0; attempt < 30; attempt++) {
            long ceiling = Math.min(1000, 50L << Math.min(attempt, 20));
            for (int i = 0; i < 50; i++) {
                assertThat(backoff.delay(attempt).toMillis()).isBetween(0L, ceiling);
            }
        }
    }

    @Test
    void deadline_whenBudgetSpent_hasNoRoom() {
        long[] now = {0};
        Deadline deadline = Deadline.after(Duration.ofMillis(100), () -> now[0]);

        assertThat(deadline.hasRoomFor(Duration.ofMillis(50))).isTrue();
        now[0] = Duration.ofMillis(80).toNanos();
        assertThat(deadline.hasRoomFor(Duration.ofMillis(50))).isFalse();
        now[0] = Duration.ofMillis(200).toNanos();
        assertThat(deadline.remaining()).isZero();
    }
}

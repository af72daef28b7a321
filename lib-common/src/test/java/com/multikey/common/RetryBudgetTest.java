package com.multikey.common;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

class RetryBudgetTest {

    private final List<Duration> sleeps = new ArrayList<>();
    private final Backoff backoff = new Backoff(Duration.ofMillis(10), Duration.ofMillis(100), new Random(3));

    @Test
    void retryAfterFailure_allowsTheConfiguredFailuresInARow_thenStops() {
        RetryBudget budget = new RetryBudget(backoff, sleeps::add, Deadline.after(Duration.ofMinutes(1)), 3);

        assertThat(budget.retryAfterFailure()).isTrue();
        assertThat(budget.retryAfterFailure()).isTrue();
        assertThat(budget.retryAfterFailure()).isTrue();
        assertThat(budget.retryAfterFailure()).isFalse();
        assertThat(sleeps).hasSize(3);
    }

    @Test
    void progressed_startsTheCountAgain() {
        RetryBudget budget = new RetryBudget(backoff, sleeps::add, Deadline.after(Duration.ofMinutes(1)), 2);

        for (int i = 0; i < 20; i++) {
            assertThat(budget.retryAfterFailure()).isTrue();
            budget.progressed();
        }
        assertThat(budget.failedAttempts()).isZero();
        assertThat(sleeps).hasSize(20);
    }

    @Test
    void retryAfterFailure_whenTheWaitWouldPassTheDeadline_stopsWithoutSleeping() {
        AtomicLong now = new AtomicLong();
        Deadline deadline = Deadline.after(Duration.ofMillis(5), now::get);
        RetryBudget budget = new RetryBudget(new Backoff(Duration.ofSeconds(1), Duration.ofSeconds(1), new Random(1) {
            @Override
            public long nextLong(long bound) {
                return bound - 1;
            }
        }), sleeps::add, deadline, 10);

        assertThat(budget.retryAfterFailure()).isFalse();
        assertThat(sleeps).isEmpty();
    }

    @Test
    void callTimeout_isTheRemainingTime_andNeverZero() {
        AtomicLong now = new AtomicLong();
        Deadline deadline = Deadline.after(Duration.ofSeconds(3), now::get);
        RetryBudget budget = new RetryBudget(backoff, sleeps::add, deadline);

        assertThat(budget.callTimeout().apiCallTimeout()).contains(Duration.ofSeconds(3));
        now.set(Duration.ofSeconds(5).toNanos());
        assertThat(budget.hasTime()).isFalse();
        assertThat(budget.callTimeout().apiCallTimeout()).contains(Duration.ofMillis(1));
    }
}

package com.multikey.common;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class BoundedCallsTest {

    @Test
    void map_whenCallsFinishOutOfOrder_answersInTheOrderGiven() {
        List<Integer> inputs = IntStream.range(0, 20).boxed().toList();
        CountDownLatch lastStarted = new CountDownLatch(1);

        List<Integer> results = new BoundedCalls(4).map(inputs, n -> {
            if (n == 19) {
                lastStarted.countDown();
            } else if (n < 3) {
                // the first calls finish only after the last one started
                await(lastStarted);
            }
            return n * 10;
        });

        assertThat(results).containsExactlyElementsOf(inputs.stream().map(n -> n * 10).toList());
    }

    @Test
    void map_neverHasMoreThanTheBoundInFlight_andDoesOverlapCalls() {
        AtomicInteger inFlight = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        CountDownLatch threeTogether = new CountDownLatch(3);

        new BoundedCalls(3).map(IntStream.range(0, 30).boxed().toList(), n -> {
            most.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
            threeTogether.countDown();
            // the first three wait for each other: they can only all pass when three run at once
            await(threeTogether);
            inFlight.decrementAndGet();
            return n;
        });

        assertThat(most.get()).isEqualTo(3);
    }

    @Test
    void map_withBoundOne_runsOnTheCallersThread() {
        Thread caller = Thread.currentThread();

        List<Boolean> onCaller = BoundedCalls.sequential().map(List.of(1, 2, 3), n -> Thread.currentThread() == caller);

        assertThat(onCaller).containsOnly(true);
    }

    @Test
    void map_whenACallThrows_throwsItAfterTheOthersFinished() {
        AtomicInteger finished = new AtomicInteger();

        assertThatThrownBy(() -> new BoundedCalls(4).map(IntStream.range(0, 8).boxed().toList(), n -> {
            if (n == 2) {
                throw new IllegalArgumentException("call 2 failed");
            }
            finished.incrementAndGet();
            return n;
        })).isInstanceOf(IllegalArgumentException.class).hasMessage("call 2 failed");
        assertThat(finished.get()).isEqualTo(7);
    }

    @Test
    void map_givesTheCallsTheCallersContextClassLoader() {
        ClassLoader loader = new ClassLoader(getClass().getClassLoader()) {
        };
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(loader);
        try {
            List<ClassLoader> seen = new BoundedCalls(2).map(List.of(1, 2, 3), n -> Thread.currentThread().getContextClassLoader());
            assertThat(seen).containsOnly(loader);
        } finally {
            thread.setContextClassLoader(previous);
        }
    }

    @Test
    void fromEnvironment_validatesTheSetting() {
        assertThat(BoundedCalls.fromEnvironment(Map.of(), "X", 4).maxInFlight()).isEqualTo(4);
        assertThat(BoundedCalls.fromEnvironment(Map.of("X", " 7 "), "X", 4).maxInFlight()).isEqualTo(7);
        assertThatThrownBy(() -> BoundedCalls.fromEnvironment(Map.of("X", "0"), "X", 4))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("X must be a whole number from 1 to 16");
        assertThatThrownBy(() -> BoundedCalls.fromEnvironment(Map.of("X", "many"), "X", 4))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("'many'");
        assertThatThrownBy(() -> new BoundedCalls(17)).isInstanceOf(IllegalArgumentException.class);
    }

    private static void await(CountDownLatch latch) {
        try {
            if (!latch.await(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the calls never ran together");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}

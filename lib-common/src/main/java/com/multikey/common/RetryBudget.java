package com.multikey.common;

import software.amazon.awssdk.awscore.AwsRequestOverrideConfiguration;

import java.time.Duration;

/**
 * The one re-send policy for what an API hands back unprocessed ({@code UnprocessedItems},
 * {@code UnprocessedKeys}, failed PutEvents entries). Throttling and 5xx of a whole call are the SDK's to
 * retry (its retry strategy is set once in {@link ClientFactory}); this budget counts only the attempts that
 * came back with something left over, waits with backoff between them, and stops when the attempts or the
 * invocation's time run out. Every call made under it carries an {@code apiCallTimeout} bounded by the
 * remaining time, so one slow call cannot run past the deadline. The budget counts failed attempts in a
 * row: an attempt that got part of the work through ({@link #progressed()}) starts the count again, so a
 * long run of partial successes is never cut short while a run of plain failures is.
 *
 * <p>Not thread-safe: one budget per unit of work (a chunk, a batch of events, a page).
 */
public final class RetryBudget {

    /** Failed attempts a unit of work may retry by default: with the standard backoff about 10 s of waiting. */
    public static final int DEFAULT_MAX_FAILED_ATTEMPTS = 10;

    private final Backoff backoff;
    private final Sleeper sleeper;
    private final Deadline deadline;
    private final int maxFailedAttempts;
    private int failedAttempts;

    public RetryBudget(Backoff backoff, Sleeper sleeper, Deadline deadline, int maxFailedAttempts) {
        if (maxFailedAttempts < 0) {
            throw new IllegalArgumentException("maxFailedAttempts must be >= 0, got " + maxFailedAttempts);
        }
        this.backoff = backoff;
        this.sleeper = sleeper;
        this.deadline = deadline;
        this.maxFailedAttempts = maxFailedAttempts;
    }

    public RetryBudget(Backoff backoff, Sleeper sleeper, Deadline deadline) {
        this(backoff, sleeper, deadline, DEFAULT_MAX_FAILED_ATTEMPTS);
    }

    /**
     * Counts one failed attempt (one that left work over) and, when the budget and the deadline allow another, waits the backoff.
     *
     * @return whether to try again; {@code false} means give up and report what is left
     */
    public boolean retryAfterFailure() {
        failedAttempts++;
        if (failedAttempts > maxFailedAttempts) {
            return false;
        }
        Duration wait = backoff.delay(failedAttempts - 1);
        if (!deadline.hasRoomFor(wait)) {
            return false;
        }
        try {
            sleeper.sleep(wait);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** The last attempt got some of the work through: the count of failures in a row starts again. */
    public void progressed() {
        failedAttempts = 0;
    }

    /** Whether there is time left for a call at all. */
    public boolean hasTime() {
        return !deadline.remaining().isZero();
    }

    public int failedAttempts() {
        return failedAttempts;
    }

    /** Per-request override: the whole call, SDK retries included, must end within the remaining time. */
    public AwsRequestOverrideConfiguration callTimeout() {
        return deadline.callOverride();
    }
}

package com.multikey.common;

import software.amazon.awssdk.awscore.AwsRequestOverrideConfiguration;

import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * The point in time by which an invocation must have answered, so that retries stop early enough to
 * report what is left as batch item failures instead of timing out.
 */
public final class Deadline {

    private final LongSupplier nanoClock;
    private final long deadlineNanos;

    private Deadline(LongSupplier nanoClock, long deadlineNanos) {
        this.nanoClock = nanoClock;
        this.deadlineNanos = deadlineNanos;
    }

    /** A deadline {@code budget} from now on the given monotonic clock (nanoseconds). */
    public static Deadline after(Duration budget, LongSupplier nanoClock) {
        return new Deadline(nanoClock, nanoClock.getAsLong() + budget.toNanos());
    }

    public static Deadline after(Duration budget) {
        return after(budget, System::nanoTime);
    }

    /**
     * The Lambda invocation's remaining time less a reserve for answering.
     *
     * @param remainingMillis what {@code Context.getRemainingTimeInMillis()} returned
     */
    public static Deadline forInvocation(long remainingMillis, Duration reserve) {
        long budget = Math.max(0, remainingMillis - reserve.toMillis());
        return after(Duration.ofMillis(budget));
    }

    public Duration remaining() {
        return Duration.ofNanos(Math.max(0, deadlineNanos - nanoClock.getAsLong()));
    }

    /**
     * A request override whose {@code apiCallTimeout} (the whole call, the SDK's own retries included) ends
     * at this deadline, so a slow or throttled call gives up in time to answer a partial batch response.
     * At least one millisecond: a call made with no time left fails at once instead of waiting forever.
     */
    public AwsRequestOverrideConfiguration callOverride() {
        Duration left = remaining();
        return AwsRequestOverrideConfiguration.builder()
                .apiCallTimeout(left.compareTo(Duration.ofMillis(1)) < 0 ? Duration.ofMillis(1) : left)
                .build();
    }

    public boolean hasRoomFor(Duration wait) {
        return remaining().compareTo(wait) > 0;
    }
}

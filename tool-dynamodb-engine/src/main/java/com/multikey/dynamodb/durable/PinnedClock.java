package com.multikey.dynamodb.durable;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;

/**
 * The durable engine's clock: another clock's time, except while a change runs, when it reads the instant the change
 * was logged (or, on replay, was logged with), so that a replayed change stamps what the original stamped.
 */
final class PinnedClock extends Clock {

    private final Clock base;
    private volatile Instant pinned;

    PinnedClock(Clock base) {
        this.base = base;
    }

    /** The base clock's time, now: the instant a change is stamped with. */
    Instant live() {
        return base.instant();
    }

    void pin(Instant at) {
        pinned = at;
    }

    void unpin() {
        pinned = null;
    }

    @Override
    public Instant instant() {
        Instant at = pinned;
        return at != null ? at : base.instant();
    }

    @Override
    public ZoneId getZone() {
        return base.getZone();
    }

    @Override
    public Clock withZone(ZoneId zone) {
        throw new UnsupportedOperationException("the engine's clock keeps its zone");
    }
}

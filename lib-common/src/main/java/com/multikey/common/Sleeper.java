package com.multikey.common;

import java.time.Duration;

/** Waits between retries; a seam so tests do not sleep. */
@FunctionalInterface
public interface Sleeper {

    void sleep(Duration duration) throws InterruptedException;

    Sleeper SYSTEM = duration -> Thread.sleep(duration.toMillis());
}

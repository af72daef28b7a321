package com.multikey.common;

import org.crac.Context;
import org.crac.Core;
import org.crac.Resource;

import java.io.OutputStream;
import java.io.PrintStream;
import java.util.Map;

/**
 * A function's SnapStart runtime hook (docs/decisions/0015): before Lambda snapshots the initialised function,
 * {@link #prime} runs the function's own code on samples, without a call to AWS and without resolving
 * credentials, so a restored environment starts with those classes loaded and compiled. Priming keeps no
 * connection, credentials, clock reading or random seed, so {@link #afterRestore} has nothing to renew.
 *
 * @param <R> what a priming run answers (proof that the work was done)
 */
public abstract class SnapStartPriming<R> implements Resource {

    /** Where priming's log and metric lines go: nowhere. */
    protected static final PrintStream SINK = new PrintStream(OutputStream.nullOutputStream());

    protected final Map<String, String> environment;

    /** Keeps the environment only: a run without SnapStart (or a local one) never primes. */
    protected SnapStartPriming(Map<String, String> environment) {
        this.environment = Map.copyOf(environment);
    }

    /** Registers {@code priming} with the global CRaC context (Lambda's, under SnapStart; a no-op elsewhere). */
    public static <P extends SnapStartPriming<?>> P register(P priming) {
        Core.getGlobalContext().register(priming);
        return priming;
    }

    /** Runs the function's code on its samples, calling nothing outside the process. */
    public abstract R prime();

    @Override
    public final void beforeCheckpoint(Context<? extends Resource> context) {
        prime();
    }

    @Override
    public final void afterRestore(Context<? extends Resource> context) {
        // nothing to renew: priming keeps no connection, credentials, clock reading or random seed
    }
}

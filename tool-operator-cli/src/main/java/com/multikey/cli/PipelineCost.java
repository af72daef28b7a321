package com.multikey.cli;

/**
 * The stream consumers' own cost a month, whatever the indexes: the indexer and the router invoked once per batch
 * of {@value #BATCH} records (the template's BatchSize), each batch taking {@value #MILLISECONDS_PER_BATCH} ms of both
 * at 1 GB, as docs/cost.md measured them for issues of 20 custom fields (51.7 + 39.3 ms). The router's EventBridge
 * events are left out: they are the change events' cost, not the indexes'.
 */
record PipelineCost(long changesPerMonth, Prices prices) {

    static final int BATCH = 100;
    static final double MILLISECONDS_PER_BATCH = 91.0;

    double requests() {
        return 2.0 * Math.ceil(changesPerMonth / (double) BATCH);
    }

    double gbSeconds() {
        return Math.ceil(changesPerMonth / (double) BATCH) * MILLISECONDS_PER_BATCH / 1000.0;
    }

    double monthlyDollars() {
        return requests() / 1e6 * prices.lambdaRequestPerMillion() + gbSeconds() * prices.lambdaGbSecond();
    }
}

package com.multikey.benchmarks;

import java.io.PrintStream;
import java.util.List;

/**
 * Runs the benchmarks: {@code indexer}, {@code grid}, {@code reindex} (verify's heap at 10k and 100k index
 * items; {@code reindex-1m} adds 1M), or the first two (no argument).
 */
public final class Benchmarks {

    private Benchmarks() {
    }

    public static void main(String[] args) throws Exception {
        PrintStream out = System.out;
        List<String> which = args.length == 0 ? List.of("indexer", "grid") : List.of(args);
        out.printf("multikey benchmarks (Java %s, %d cores)%n%n", Runtime.version(), Runtime.getRuntime().availableProcessors());
        if (which.contains("indexer")) {
            IndexerBenchmark.run(out);
        }
        if (which.contains("grid")) {
            out.println();
            GridBenchmark.run(out);
        }
        if (which.contains("reindex") || which.contains("reindex-1m")) {
            out.println();
            ReindexBenchmark.run(out, which.contains("reindex-1m") ? List.of(10_000, 100_000, 1_000_000) : List.of(10_000, 100_000));
        }
        out.flush();
        // DynamoDB Local leaves non-daemon threads behind after shutdown
        System.exit(0);
    }
}

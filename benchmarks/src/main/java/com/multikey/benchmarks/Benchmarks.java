package com.multikey.benchmarks;

import java.io.PrintStream;
import java.util.List;

/** Runs the benchmarks: {@code indexer}, {@code concurrency}, {@code grid}, or all (no argument). */
public final class Benchmarks {

    private Benchmarks() {
    }

    public static void main(String[] args) throws Exception {
        PrintStream out = System.out;
        List<String> which = args.length == 0 ? List.of("indexer", "concurrency", "grid") : List.of(args);
        out.printf("multikey benchmarks (Java %s, %d cores)%n%n", Runtime.version(), Runtime.getRuntime().availableProcessors());
        if (which.contains("indexer")) {
            IndexerBenchmark.run(out);
        }
        if (which.contains("concurrency")) {
            out.println();
            IndexerBenchmark.runConcurrency(out);
        }
        if (which.contains("grid")) {
            out.println();
            GridBenchmark.run(out);
        }
        out.flush();
        // DynamoDB Local leaves non-daemon threads behind after shutdown
        System.exit(0);
    }
}

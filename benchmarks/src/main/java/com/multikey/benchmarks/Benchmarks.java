package com.multikey.benchmarks;

import java.io.PrintStream;
import java.util.List;

/** Runs the benchmarks: {@code indexer}, {@code grid}, {@code cost}, {@code cold-start [runs]}, or the first two (no argument). */
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
        if (which.contains("cost")) {
            out.println();
            CostModel.run(out);
        }
        if (which.contains("cold-start")) {
            out.println();
            ColdStart.run(out, args.length > 1 ? Integer.parseInt(args[1]) : 7);
        }
        out.flush();
        // DynamoDB Local leaves non-daemon threads behind after shutdown
        System.exit(0);
    }
}

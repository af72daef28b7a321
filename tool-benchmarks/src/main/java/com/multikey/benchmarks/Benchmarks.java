package com.multikey.benchmarks;

import java.io.PrintStream;
import java.util.List;

/**
 * Runs the benchmarks: {@code indexer}, {@code concurrency}, {@code definitions} (1, 5 and 20 declared indexes), {@code grid},
 * {@code planner} (predicates and a sort over 100,000 issues), {@code planner-or} (an or of two predicates over the
 * same issues), {@code words} (has and has prefix over 100,000 titles), {@code reindex} (segmented backfill;
 * verify's heap at 10k and 100k index items; {@code reindex-1m} adds 1M), {@code indexer-throughput} (the indexer's (3) alone),
 * {@code verify [index items]} (verify alone, 300,000 index items unless given), {@code heap-1m} (the engine's heap
 * holding a million small items), {@code counts} (kept counts: write cost, a hot value's shards, the reader on a group of
 * 1,000,000 items), {@code durability [writes]} (PutItem in memory against with a data directory, and the replay),
 * {@code groups} (several groups merged into one page stream, against one request per group merged by hand),
 * {@code counts-read} (read-side counts: a count at read time against {@code Select=COUNT}, a
 * page's total at 50%, 5% and 0.05% selectivity, kept facets on 1,000,000 items), {@code cost}, {@code cold-start [runs]},
 * {@code freshness [writes]} (write to index answering it, on the emulator, for each stream source),
 * or the first three (no argument).
 */
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
        if (which.contains("indexer-throughput")) {
            IndexerBenchmark.runThroughput(out);
        }
        if (which.contains("concurrency")) {
            out.println();
            IndexerBenchmark.runConcurrency(out);
        }
        if (which.contains("definitions")) {
            out.println();
            IndexerBenchmark.runDefinitions(out);
        }
        if (which.contains("grid")) {
            out.println();
            GridBenchmark.run(out);
        }
        if (which.contains("planner")) {
            out.println();
            PlannerBenchmark.run(out);
        }
        if (which.contains("words")) {
            out.println();
            WordsBenchmark.run(out);
        }
        if (which.contains("planner-or")) {
            out.println();
            PlannerBenchmark.runOr(out);
        }
        if (which.contains("read-api")) {
            out.println();
            ReadApiBenchmark.run(out);
        }
        if (which.contains("cost")) {
            out.println();
            CostModel.run(out);
        }
        if (which.contains("cold-start")) {
            out.println();
            int at = which.indexOf("cold-start");
            ColdStart.run(out, at + 1 < which.size() && which.get(at + 1).matches("[0-9]+") ? Integer.parseInt(which.get(at + 1)) : 7);
        }
        if (which.contains("reindex") || which.contains("reindex-1m")) {
            out.println();
            ReindexBenchmark.run(out, which.contains("reindex-1m") ? List.of(10_000, 100_000, 1_000_000) : List.of(10_000, 100_000));
        }
        if (which.contains("verify")) {
            out.println();
            int at = which.indexOf("verify");
            ReindexBenchmark.runVerify(out, List.of(at + 1 < which.size() && which.get(at + 1).matches("[0-9]+")
                    ? Integer.parseInt(which.get(at + 1)) : 300_000));
        }
        if (which.contains("freshness")) {
            out.println();
            int at = which.indexOf("freshness");
            FreshnessBenchmark.run(out, at + 1 < which.size() && which.get(at + 1).matches("[0-9]+") ? Integer.parseInt(which.get(at + 1)) : 200);
        }
        if (which.contains("counts")) {
            out.println();
            CountsBenchmark.run(out);
        }
        if (which.contains("durability")) {
            out.println();
            int at = which.indexOf("durability");
            DurabilityBenchmark.run(out, at + 1 < which.size() && which.get(at + 1).matches("[0-9]+") ? Integer.parseInt(which.get(at + 1)) : 5_000,
                    java.nio.file.Path.of("target"));
        }
        if (which.contains("groups")) {
            out.println();
            GroupsBenchmark.run(out);
        }
        if (which.contains("counts-read")) {
            out.println();
            CountsReadBenchmark.run(out);
        }
        if (which.contains("heap-1m")) {
            out.println();
            HeapBenchmark.run(out, 1_000_000);
        }
        out.flush();
        // the JVM ends now, whatever pools the benchmarked code left running
        System.exit(0);
    }
}

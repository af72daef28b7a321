package com.multikey.benchmarks;

import com.multikey.dynamodb.DynamoDbEngine;
import com.multikey.dynamodb.durable.DurableEngine;
import com.multikey.dynamodb.server.EngineServer;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;

/**
 * (11) the write cost of durability: PutItem through the engine's server (an SDK client, as an application calls it),
 * in memory against with a data directory (every change forced to the disk before its answer), from 1 and from 8
 * client threads (the log's group commit lets one force serve the writes that wait together); then how long a restart
 * takes to replay the log, how long compacting it into a snapshot takes, and a restart from the snapshot.
 */
final class DurabilityBenchmark {

    private static final int WARM_UP = 1_000;

    private DurabilityBenchmark() {
    }

    static void run(PrintStream out, int writes, Path under) throws Exception {
        Path dir = Files.createTempDirectory(Files.createDirectories(under), "durability-");
        try {
            out.printf("(11) the write cost of durability: PutItem through the server, %,d writes a run after %,d to warm up; "
                    + "data directory on %s (%s)%n", writes, WARM_UP, dir, Files.getFileStore(dir).type());
            out.printf("| client threads | in memory (writes/s) | --data-dir (writes/s) | data-dir / in memory |%n|---|---|---|---|%n");
            int round = 0;
            for (int threads : List.of(1, 8)) {
                double memory;
                try (EngineServer server = EngineServer.start(new DynamoDbEngine(), 0)) {
                    memory = measure(server, threads, writes);
                }
                double durable;
                try (EngineServer server = EngineServer.start(DurableEngine.open(dir.resolve("run-" + round++)), "127.0.0.1", 0)) {
                    durable = measure(server, threads, writes);
                }
                out.printf("| %d | %,.0f | %,.0f | %.2f |%n", threads, memory, durable, durable / memory);
            }
            Path last = dir.resolve("run-" + (round - 1));
            long bytes = Files.size(last.resolve(DurableEngine.LOG_FILE));
            long start = System.nanoTime();
            try (DurableEngine reopened = DurableEngine.open(last)) {
                double seconds = (System.nanoTime() - start) / 1e9;
                out.printf("restart: %,d changes (%,.1f MB of log, %.0f bytes a write) replayed in %.2f s (%,.0f changes/s)%n",
                        reopened.startup().replayed(), bytes / 1e6, bytes / (double) reopened.startup().replayed(), seconds,
                        reopened.startup().replayed() / seconds);
                // the log compacted into a snapshot of the same state, and a restart that loads it instead
                long compacting = System.nanoTime();
                reopened.compact();
                double compacted = (System.nanoTime() - compacting) / 1e9;
                long snapshot = Files.size(last.resolve(DurableEngine.SNAPSHOT_FILE));
                out.printf("compaction: a snapshot of that state (%,.1f MB) written and a new log started in %.2f s%n", snapshot / 1e6, compacted);
            }
            start = System.nanoTime();
            try (DurableEngine fromSnapshot = DurableEngine.open(last)) {
                out.printf("restart from the snapshot: %.2f s (%d changes replayed after it)%n", (System.nanoTime() - start) / 1e9,
                        fromSnapshot.startup().replayed());
            }
        } finally {
            try (Stream<Path> files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            } catch (IOException e) {
                out.println("could not delete " + dir + ": " + e.getMessage());
            }
        }
    }

    /** Writes/s of {@code writes} PutItems from {@code threads} threads, after a warm-up. */
    private static double measure(EngineServer server, int threads, int writes) throws Exception {
        try (DynamoDbClient dynamoDb = DynamoDbClient.builder().endpointOverride(server.endpoint()).region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("bench", "bench")))
                .httpClient(UrlConnectionHttpClient.create()).build()) {
            dynamoDb.createTable(t -> t.tableName("Durability").billingMode(BillingMode.PAY_PER_REQUEST)
                    .keySchema(k -> k.attributeName("id").keyType("HASH"))
                    .attributeDefinitions(a -> a.attributeName("id").attributeType(ScalarAttributeType.S))
                    .streamSpecification(s -> s.streamEnabled(true).streamViewType("NEW_AND_OLD_IMAGES")));
            put(dynamoDb, threads, 0, WARM_UP);
            long start = System.nanoTime();
            put(dynamoDb, threads, WARM_UP, writes);
            return writes / ((System.nanoTime() - start) / 1e9);
        }
    }

    private static void put(DynamoDbClient dynamoDb, int threads, int first, int count) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> writers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int offset = t;
                writers.add(pool.submit(() -> {
                    for (int i = first + offset; i < first + count; i += threads) {
                        int n = i;
                        dynamoDb.putItem(p -> p.tableName("Durability").item(Map.of("id", AttributeValue.fromS("issue#" + n),
                                "project", AttributeValue.fromS("project#" + (n % 10)), "num", AttributeValue.fromN(Integer.toString(n)),
                                "title", AttributeValue.fromS("A title of about forty characters, #" + n))));
                    }
                    return null;
                }));
            }
            for (Future<?> writer : writers) {
                writer.get();
            }
        } finally {
            pool.shutdownNow();
        }
    }
}

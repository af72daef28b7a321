package com.multikey.benchmarks;

import com.multikey.emulator.services.dynamodb.LocalDynamoDb;
import com.multikey.emulator.template.SamTemplate;
import com.multikey.emulator.template.TemplateTables;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * (10) the heap a local stack holds for a million small items: the template's tables on the project's engine in
 * this JVM, a million issues of four attributes (about 60 bytes of data each) written to the app table (its
 * {@code ByProject} index projects every attribute, its stream keeps a {@code NEW_AND_OLD_IMAGES} record of each
 * write), then the live heap after a full collection, above what it was with the tables empty. Run it under the
 * heap it is meant to fit, e.g. {@code java -Xmx1g -jar benchmarks.jar heap-1m}.
 */
final class HeapBenchmark {

    private static final int THREADS = 2;

    private HeapBenchmark() {
    }

    static void run(PrintStream out, int count) throws Exception {
        PrintStream console = System.out;
        System.setOut(new PrintStream(OutputStream.nullOutputStream()));
        try (LocalDynamoDb local = LocalDynamoDb.start(); DynamoDbClient dynamoDb = local.client()) {
            System.setOut(console);
            Map<String, String> tables = TemplateTables.create(SamTemplate.ofRepository(), dynamoDb);
            String appTable = tables.get("AppTable");
            long before = liveHeapAfterGc();
            long start = System.nanoTime();
            ExecutorService pool = Executors.newFixedThreadPool(THREADS);
            try {
                List<Future<?>> writers = new ArrayList<>();
                for (int t = 0; t < THREADS; t++) {
                    int first = t;
                    writers.add(pool.submit(() -> {
                        List<WriteRequest> batch = new ArrayList<>(25);
                        for (int i = first; i < count; i += THREADS) {
                            batch.add(WriteRequest.builder().putRequest(PutRequest.builder().item(item(i)).build()).build());
                            if (batch.size() == 25) {
                                write(dynamoDb, appTable, batch);
                            }
                        }
                        write(dynamoDb, appTable, batch);
                        return null;
                    }));
                }
                for (Future<?> writer : writers) {
                    writer.get();
                }
            } finally {
                pool.shutdownNow();
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            long after = liveHeapAfterGc();
            long max = Runtime.getRuntime().maxMemory();
            out.printf("(10) a million small items on the engine: the stack's app table (ByProject index, NEW_AND_OLD_IMAGES stream)%n");
            out.printf("| items | written in (s) | items/s | max heap (MB) | live heap, tables empty (MB) | live heap, items in (MB) | above empty (MB) | bytes an item |%n"
                    + "|---|---|---|---|---|---|---|---|%n");
            out.printf("| %,d | %.1f | %,.0f | %,.0f | %.1f | %.1f | %.1f | %.0f |%n", count, seconds, count / seconds, max / 1e6, before / 1e6,
                    after / 1e6, (after - before) / 1e6, (after - before) / (double) count);
            long scanned = dynamoDb.describeTable(b -> b.tableName(appTable)).table().itemCount();
            out.printf("items the table reports: %,d%n", scanned);
        } finally {
            System.setOut(console);
        }
    }

    /** Four attributes, about 60 bytes of names and values. */
    private static Map<String, AttributeValue> item(int i) {
        return Map.of("id", AttributeValue.fromS(String.format("issue#%07d", i)),
                "project", AttributeValue.fromS("project#" + (i % 50)),
                "num", AttributeValue.fromN(Integer.toString(i + 1)),
                "title", AttributeValue.fromS(String.format("title %07d", i)));
    }

    private static void write(DynamoDbClient dynamoDb, String table, List<WriteRequest> batch) {
        if (!batch.isEmpty()) {
            List<WriteRequest> chunk = List.copyOf(batch);
            var unprocessed = dynamoDb.batchWriteItem(b -> b.requestItems(Map.of(table, chunk))).unprocessedItems();
            if (!unprocessed.isEmpty()) {
                throw new IllegalStateException("unprocessed items: " + unprocessed.get(table).size());
            }
            batch.clear();
        }
    }

    private static long liveHeapAfterGc() {
        System.gc();
        long used = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP && pool.getCollectionUsage() != null) {
                used += pool.getCollectionUsage().getUsed();
            }
        }
        return used;
    }
}

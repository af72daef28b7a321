package com.multikey.benchmarks;

import com.multikey.emulator.services.dynamodb.LocalDynamoDb;
import com.multikey.emulator.template.SamTemplate;
import com.multikey.emulator.template.TemplateTables;
import com.multikey.index.IndexItem;
import com.multikey.index.IndexProjector;
import com.multikey.index.ItemKey;
import com.multikey.index.definition.IndexDefinitions;
import com.multikey.query.IndexQuery;
import com.multikey.query.Order;
import com.multikey.query.Page;
import com.multikey.query.PageRequest;
import com.multikey.reindex.Backfill;
import com.multikey.reindex.CheckpointStore;
import com.multikey.reindex.IndexScope;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

import java.io.OutputStream;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * (4) page latency and API calls per page of the grid query, pages of 25 and 100, on embedded DynamoDB
 * Local; (5) backfill items per second as a ratio to a raw Scan + BatchWriteItem of the same index items on
 * the same local DynamoDB engine.
 */
final class GridBenchmark {

    private static final int ISSUES = 2000;

    private GridBenchmark() {
    }

    static void run(PrintStream out) throws InterruptedException {
        PrintStream console = System.out;
        System.setOut(new PrintStream(OutputStream.nullOutputStream()));
        try (LocalDynamoDb local = LocalDynamoDb.start(); DynamoDbClient dynamoDb = local.client()) {
            System.setOut(console);
            TemplateTables.create(SamTemplate.ofRepository(), dynamoDb);
            putIssues(dynamoDb, "AppTable", ISSUES);
            IndexDefinitions config = IndexDefinitions.packaged();

            out.println("(5) backfill vs raw Scan + BatchWriteItem of the same index items (" + ISSUES + " issues, 10 fields each)");
            long start = System.nanoTime();
            Backfill.Progress done = new Backfill(dynamoDb, "AppTable", "IssueAttribIndexTable", IndexScope.all(config), 1_000_000)
                    .run(CheckpointStore.open(null, 4), 4, p -> { }, Duration.ofSeconds(5));
            double backfillSeconds = (System.nanoTime() - start) / 1e9;
            start = System.nanoTime();
            long rawItems = rawScanAndWrite(dynamoDb, config);
            double rawSeconds = (System.nanoTime() - start) / 1e9;
            out.printf("| path | issues | index items | seconds | issues/s |%n|---|---|---|---|---|%n");
            out.printf("| backfill (4 segments, conditional transactions) | %d | %d | %.2f | %,.0f |%n", done.itemsIndexed(),
                    done.indexWrites(), backfillSeconds, done.itemsIndexed() / backfillSeconds);
            out.printf("| raw Scan + BatchWriteItem (1 segment) | %d | %d | %.2f | %,.0f |%n", ISSUES, rawItems, rawSeconds, ISSUES / rawSeconds);
            out.printf("backfill / raw throughput ratio: %.2f%n%n", rawSeconds / backfillSeconds);

            out.println("(4) grid pages: project#bench sorted by estimate, every page of the result");
            out.printf("| page size | pages | median ms | p95 ms | API calls per page |%n|---|---|---|---|---|%n");
            IndexQuery query = IndexQuery.of(dynamoDb, "AppTable", "IssueAttribIndexTable");
            for (int round = 0; round < 2; round++) {
                for (int pageSize : new int[] {25, 100}) {
                    List<Double> millis = new ArrayList<>();
                    long calls = 0;
                    PageRequest request = PageRequest.first("project#bench", "estimate", Order.ASC, pageSize);
                    while (true) {
                        long t = System.nanoTime();
                        Page page = query.page(request);
                        millis.add((System.nanoTime() - t) / 1e6);
                        calls += page.apiCalls();
                        if (page.nextCursor().isEmpty()) {
                            break;
                        }
                        request = request.after(page.nextCursor().get());
                    }
                    if (round == 1) {
                        double[] sorted = millis.stream().mapToDouble(Double::doubleValue).sorted().toArray();
                        out.printf("| %d | %d | %.1f | %.1f | %.2f |%n", pageSize, sorted.length, sorted[sorted.length / 2],
                                sorted[(int) Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)],
                                (double) calls / sorted.length);
                    }
                }
            }
        } finally {
            System.setOut(console);
        }
    }


    /** {@code count} issues of project#bench, each with an estimate (number), a due date and eight text fields. */
    static void putIssues(DynamoDbClient dynamoDb, String appTable, int count) {
        Random random = new Random(11);
        for (int i = 0; i < count; i++) {
            Map<String, AttributeValue> fields = new LinkedHashMap<>();
            fields.put("estimate", AttributeValue.fromN(Integer.toString(random.nextInt(1000))));
            fields.put("due", AttributeValue.fromS(String.format("2026-%02d-%02d", 1 + random.nextInt(12), 1 + random.nextInt(28))));
            for (int f = 0; f < 8; f++) {
                fields.put("f" + f, AttributeValue.fromS("value " + random.nextInt(100)));
            }
            Map<String, AttributeValue> item = Map.of("id", AttributeValue.fromS(String.format("issue#%05d", i)),
                    "project", AttributeValue.fromS("project#bench"), "num", AttributeValue.fromN(Integer.toString(i + 1)),
                    "name", AttributeValue.fromS("benchmark issue " + i), "custom_fields", AttributeValue.fromM(fields));
            dynamoDb.putItem(b -> b.tableName(appTable).item(item));
        }
    }

    /** Scan the app table and BatchWriteItem each issue's index items (under another attribute id), no conditions. */
    private static long rawScanAndWrite(DynamoDbClient dynamoDb, IndexDefinitions config) {
        IndexProjector indexer = new IndexProjector(config);
        long written = 0;
        List<WriteRequest> pending = new ArrayList<>();
        for (ScanResponse page : dynamoDb.scanPaginator(b -> b.tableName("AppTable").limit(100))) {
            for (Map<String, AttributeValue> item : page.items()) {
                for (IndexItem index : indexer.project(ItemKey.ofString("id", item.get("id").s()), item).items()) {
                    Map<String, AttributeValue> copy = new LinkedHashMap<>(index.toItem());
                    copy.put("attribId", AttributeValue.fromS("raw-" + index.attribId()));
                    pending.add(WriteRequest.builder().putRequest(PutRequest.builder().item(copy).build()).build());
                    if (pending.size() == 25) {
                        List<WriteRequest> chunk = List.copyOf(pending);
                        dynamoDb.batchWriteItem(b -> b.requestItems(Map.of("IssueAttribIndexTable", chunk)));
                        written += chunk.size();
                        pending.clear();
                    }
                }
            }
        }
        if (!pending.isEmpty()) {
            List<WriteRequest> chunk = List.copyOf(pending);
            dynamoDb.batchWriteItem(b -> b.requestItems(Map.of("IssueAttribIndexTable", chunk)));
            written += chunk.size();
        }
        return written;
    }

}

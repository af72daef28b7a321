package com.multikey.benchmarks;

import com.multikey.emulator.services.dynamodb.LocalDynamoDb;
import com.multikey.emulator.template.SamTemplate;
import com.multikey.emulator.template.TemplateTables;
import com.multikey.index.IndexItem;
import com.multikey.index.IndexProjector;
import com.multikey.index.ItemKey;
import com.multikey.index.definition.IndexDefinitions;
import com.multikey.reindex.IndexScope;
import com.multikey.reindex.JobSpec;
import com.multikey.reindex.JobStore;
import com.multikey.reindex.PageCounts;
import com.multikey.reindex.PageOutcome;
import com.multikey.reindex.SegmentBackfill;
import com.multikey.reindex.SegmentVerifier;
import com.multikey.reindex.SegmentWork;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * (6) the reindex worker's backfill over N segments (each page checkpointed in the jobs table, as the worker
 * does; 4 segments at a time, as a reserved concurrency of 4) as a ratio to a raw Scan + BatchWriteItem of the
 * same index items; (7) live heap of a verify over 10k, 100k (and, when asked, 1M) index items: the most the
 * heap held after a collection while verify ran, above what it held before (the DynamoDB engine's in-memory
 * tables, on the same heap, are in that baseline).
 */
final class ReindexBenchmark {

    private static final IndexScope SCHEMA = IndexScope.all(IndexDefinitions.packaged());
    private static final int FIELDS = 10;
    private static final int CONCURRENCY = 4;

    private ReindexBenchmark() {
    }

    static void run(PrintStream out, List<Integer> verifySizes) throws Exception {
        PrintStream console = System.out;
        System.setOut(new PrintStream(OutputStream.nullOutputStream()));
        try (LocalDynamoDb local = LocalDynamoDb.start(); DynamoDbClient dynamoDb = local.client()) {
            System.setOut(console);
            int issues = 2000;
            out.printf("(6) backfill by segments (%d at once, a checkpoint a page of 100) vs raw Scan + BatchWriteItem, %d issues, %d fields each%n",
                    CONCURRENCY, issues, FIELDS);
            out.printf("| path | segments | index items | seconds | items/s | ratio to raw |%n|---|---|---|---|---|---|%n");
            fresh(dynamoDb);
            putIssues(dynamoDb, issues, false);
            long start = System.nanoTime();
            long raw = rawScanAndWrite(dynamoDb);
            double rawSeconds = (System.nanoTime() - start) / 1e9;
            out.printf("| raw Scan + BatchWriteItem | 1 | %d | %.2f | %,.0f | 1.00 |%n", raw, rawSeconds, raw / rawSeconds);
            for (int segments : new int[] {1, 4, 16, 64}) {
                fresh(dynamoDb);
                putIssues(dynamoDb, issues, false);
                JobSpec spec = new JobSpec("bench-" + segments, JobSpec.Kind.BACKFILL, segments, 1e9, CONCURRENCY, 100);
                start = System.nanoTime();
                PageCounts done = runJob(dynamoDb, spec,
                        new SegmentBackfill(dynamoDb, "AppTable", "IssueAttribIndexTable", SCHEMA, spec.writeUnitsPerSegment(), 100));
                double seconds = (System.nanoTime() - start) / 1e9;
                out.printf("| backfill | %d | %d | %.2f | %,.0f | %.2f |%n", segments, done.writes(), seconds, done.writes() / seconds,
                        (done.writes() / seconds) / (raw / rawSeconds));
            }

            verify(out, dynamoDb, verifySizes);
        } finally {
            System.setOut(console);
        }
    }

    /** (7) alone, on a fresh engine. */
    static void runVerify(PrintStream out, List<Integer> verifySizes) throws Exception {
        PrintStream console = System.out;
        System.setOut(new PrintStream(OutputStream.nullOutputStream()));
        try (LocalDynamoDb local = LocalDynamoDb.start(); DynamoDbClient dynamoDb = local.client()) {
            System.setOut(console);
            verify(out, dynamoDb, verifySizes);
        } finally {
            System.setOut(console);
        }
    }

    private static void verify(PrintStream out, DynamoDbClient dynamoDb, List<Integer> verifySizes) throws Exception {
        {
            long start;
            out.printf("%n(7) verify's live heap by index size (%d fields an issue, 4 segments, pages of 100)%n", FIELDS);
            out.printf("| index items | seconds | heap before (MB, after GC) | most above it while verifying (MB, after GC) |%n|---|---|---|---|%n");
            for (int items : verifySizes) {
                fresh(dynamoDb);
                putIssues(dynamoDb, items / FIELDS, true);
                long before = liveHeapAfterGc();
                AtomicBoolean running = new AtomicBoolean(true);
                AtomicLong peak = new AtomicLong(before);
                Thread sampler = new Thread(() -> {
                    while (running.get()) {
                        peak.accumulateAndGet(liveHeapAfterGc(), Math::max);
                        try {
                            Thread.sleep(250);
                        } catch (InterruptedException e) {
                            return;
                        }
                    }
                });
                sampler.setDaemon(true);
                start = System.nanoTime();
                sampler.start();
                JobSpec spec = new JobSpec("verify-" + items, JobSpec.Kind.VERIFY, 4, 1e9, 4, 100);
                PageCounts found = runJob(dynamoDb, spec, new SegmentVerifier(dynamoDb, "AppTable", "IssueAttribIndexTable", SCHEMA,
                        false, 1e9, 100, d -> { }));
                running.set(false);
                sampler.join();
                double seconds = (System.nanoTime() - start) / 1e9;
                if (found.drift() != 0) {
                    throw new IllegalStateException("the benchmark's index should be exact, verify found " + found);
                }
                out.printf("| %,d | %.1f | %.1f | %.1f |%n", items, seconds, before / 1e6, (peak.get() - before) / 1e6);
                out.flush();
            }
        }
    }

    /** Heap in use right after a full collection. */
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

    /** The worker's loop without Lambda: each segment claimed, worked page by page, every page checkpointed. */
    private static PageCounts runJob(DynamoDbClient dynamoDb, JobSpec spec, SegmentWork work) throws Exception {
        JobStore jobs = new JobStore(dynamoDb, "ReindexJobsTable");
        jobs.create(spec, Instant.now());
        ExecutorService pool = Executors.newFixedThreadPool(spec.concurrency());
        try {
            List<Future<PageCounts>> segments = new ArrayList<>();
            for (int segment = 0; segment < spec.totalSegments(); segment++) {
                int s = segment;
                segments.add(pool.submit(() -> {
                    JobStore.Claim claim = jobs.claim(spec.jobId(), s, Instant.now()).orElseThrow();
                    PageCounts total = PageCounts.NONE;
                    for (var at = claim.position(); !at.done(); ) {
                        PageOutcome page = work.page(s, spec.totalSegments(), at);
                        if (!jobs.checkpoint(spec.jobId(), claim, page.next(), page.counts(), Instant.now())) {
                            throw new IllegalStateException("segment " + s + " claimed by another");
                        }
                        total = total.plus(page.counts());
                        at = page.next();
                    }
                    return total;
                }));
            }
            PageCounts total = PageCounts.NONE;
            for (Future<PageCounts> segment : segments) {
                total = total.plus(segment.get());
            }
            return total;
        } finally {
            pool.shutdownNow();
        }
    }

    private static void fresh(DynamoDbClient dynamoDb) {
        dynamoDb.listTables().tableNames().forEach(name -> dynamoDb.deleteTable(b -> b.tableName(name)));
        TemplateTables.create(SamTemplate.ofRepository(), dynamoDb);
    }

    /** Issues with {@value #FIELDS} fields each, and (when {@code indexed}) their exact index, written in batches. */
    private static void putIssues(DynamoDbClient dynamoDb, int count, boolean indexed) {
        Random random = new Random(13);
        IndexProjector projector = new IndexProjector(SCHEMA.definitions());
        List<WriteRequest> issues = new ArrayList<>();
        List<WriteRequest> index = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            Map<String, AttributeValue> fields = new LinkedHashMap<>();
            for (int f = 0; f < FIELDS; f++) {
                fields.put("f" + f, f % 2 == 0 ? AttributeValue.fromN(Integer.toString(random.nextInt(1000)))
                        : AttributeValue.fromS("value " + random.nextInt(100)));
            }
            String id = String.format("issue#%07d", i);
            Map<String, AttributeValue> issue = Map.of("id", AttributeValue.fromS(id), "project", AttributeValue.fromS("project#" + (i % 7)),
                    "num", AttributeValue.fromN(Integer.toString(i + 1)), "custom_fields", AttributeValue.fromM(fields));
            issues.add(put(issue));
            flush(dynamoDb, "AppTable", issues);
            if (indexed) {
                for (IndexItem item : projector.project(ItemKey.ofString("id", id), issue).items()) {
                    index.add(put(item.toItem()));
                    flush(dynamoDb, "IssueAttribIndexTable", index);
                }
            }
        }
        flushAll(dynamoDb, "AppTable", issues);
        flushAll(dynamoDb, "IssueAttribIndexTable", index);
    }

    private static WriteRequest put(Map<String, AttributeValue> item) {
        return WriteRequest.builder().putRequest(PutRequest.builder().item(item).build()).build();
    }

    private static void flush(DynamoDbClient dynamoDb, String table, List<WriteRequest> pending) {
        if (pending.size() == 25) {
            flushAll(dynamoDb, table, pending);
        }
    }

    private static void flushAll(DynamoDbClient dynamoDb, String table, List<WriteRequest> pending) {
        if (!pending.isEmpty()) {
            List<WriteRequest> chunk = List.copyOf(pending);
            dynamoDb.batchWriteItem(b -> b.requestItems(Map.of(table, chunk)));
            pending.clear();
        }
    }

    /** Scan the app table and BatchWriteItem each issue's index items, no conditions, no checkpoints. */
    private static long rawScanAndWrite(DynamoDbClient dynamoDb) {
        IndexProjector projector = new IndexProjector(SCHEMA.definitions());
        long written = 0;
        List<WriteRequest> pending = new ArrayList<>();
        for (ScanResponse page : dynamoDb.scanPaginator(b -> b.tableName("AppTable").limit(100))) {
            for (Map<String, AttributeValue> item : page.items()) {
                for (IndexItem index : projector.project(ItemKey.ofString("id", item.get("id").s()), item).items()) {
                    pending.add(put(index.toItem()));
                    written++;
                    flush(dynamoDb, "IssueAttribIndexTable", pending);
                }
            }
        }
        flushAll(dynamoDb, "IssueAttribIndexTable", pending);
        return written;
    }
}

package com.multikey.reindex;

import com.multikey.index.IndexChange;
import com.multikey.index.IssueProjector;
import com.multikey.index.IssueSchema;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * Builds the index of items that existed before the stream (or repairs a lost one): a parallel Scan of the
 * app table, each issue through the same projection as the stream indexer, its items written under a
 * condition that the issue is unchanged (see {@link ConditionalIndexWriter}), so it is correct while the
 * stream indexer runs. Resumable from per-segment checkpoints; index writes limited to a rate.
 */
public final class Backfill {

    /** Counts so far, for progress lines. */
    public record Progress(long itemsScanned, long issuesIndexed, long indexWrites, long retriedIssues, double itemsPerSecond,
                           Duration eta) {
    }

    private static final int MAX_ATTEMPTS_PER_ISSUE = 5;

    private final DynamoDbClient dynamoDb;
    private final String appTable;
    private final IssueSchema schema;
    private final IssueProjector issues;
    private final ConditionalIndexWriter writer;
    private final RateLimiter rate;
    private final AtomicLong scanned = new AtomicLong();
    private final AtomicLong indexed = new AtomicLong();
    private final AtomicLong writes = new AtomicLong();
    private final AtomicLong retried = new AtomicLong();

    public Backfill(DynamoDbClient dynamoDb, String appTable, String indexTable, IssueSchema schema, double writesPerSecond) {
        this.dynamoDb = dynamoDb;
        this.appTable = appTable;
        this.schema = schema;
        this.issues = new IssueProjector(schema);
        this.writer = new ConditionalIndexWriter(dynamoDb, appTable, indexTable, schema);
        this.rate = new RateLimiter(writesPerSecond, System::nanoTime);
    }

    /** Scans every segment not yet done, {@code segments} in parallel; calls {@code progress} about every {@code every}. */
    public Progress run(CheckpointStore checkpoints, int segments, Consumer<Progress> progress, Duration every)
            throws InterruptedException {
        long total = Math.max(1, dynamoDb.describeTable(b -> b.tableName(appTable)).table().itemCount());
        long started = System.nanoTime();
        ExecutorService pool = Executors.newFixedThreadPool(segments);
        try {
            List<Future<?>> running = new ArrayList<>();
            for (int segment = 0; segment < segments; segment++) {
                int s = segment;
                running.add(pool.submit(() -> {
                    scanSegment(s, segments, checkpoints);
                    return null;
                }));
            }
            for (Future<?> future : running) {
                while (true) {
                    try {
                        future.get(every.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
                        break;
                    } catch (java.util.concurrent.TimeoutException stillRunning) {
                        progress.accept(progress(started, total));
                    } catch (java.util.concurrent.ExecutionException e) {
                        throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
                    }
                }
            }
        } finally {
            pool.shutdownNow();
        }
        Progress done = progress(started, total);
        progress.accept(done);
        return done;
    }

    private Progress progress(long started, long total) {
        double seconds = Math.max(1e-3, (System.nanoTime() - started) / 1e9);
        double perSecond = scanned.get() / seconds;
        long left = Math.max(0, total - scanned.get());
        Duration eta = perSecond > 0 ? Duration.ofSeconds((long) (left / perSecond)) : Duration.ZERO;
        return new Progress(scanned.get(), indexed.get(), writes.get(), retried.get(), perSecond, eta);
    }

    private void scanSegment(int segment, int segments, CheckpointStore checkpoints) throws InterruptedException {
        CheckpointStore.Position position = checkpoints.position(segment);
        Map<String, AttributeValue> startKey = position.startKey();
        while (!position.done()) {
            ScanRequest.Builder scan = ScanRequest.builder().tableName(appTable).segment(segment).totalSegments(segments)
                    .limit(100).consistentRead(true);
            if (!startKey.isEmpty()) {
                scan.exclusiveStartKey(startKey);
            }
            ScanResponse page = dynamoDb.scan(scan.build());
            for (Map<String, AttributeValue> item : page.items()) {
                scanned.incrementAndGet();
                AttributeValue id = item.get(schema.keyAttribute());
                if (id != null && id.s() != null && schema.isIssue(id.s())) {
                    indexIssue(id.s(), item);
                }
            }
            startKey = page.hasLastEvaluatedKey() ? page.lastEvaluatedKey() : Map.of();
            position = new CheckpointStore.Position(startKey.isEmpty(), startKey);
            checkpoints.save(segment, position);
        }
    }

    private void indexIssue(String issueId, Map<String, AttributeValue> item) throws InterruptedException {
        Map<String, AttributeValue> version = item;
        for (int attempt = 1; version != null; attempt++) {
            List<IndexChange> puts = issues.project(issueId, version).items().stream().<IndexChange>map(IndexChange.Put::new).toList();
            rate.acquire(Math.max(1, puts.size()));
            if (writer.write(issueId, version, puts) == ConditionalIndexWriter.Outcome.WRITTEN) {
                indexed.incrementAndGet();
                writes.addAndGet(puts.size());
                return;
            }
            retried.incrementAndGet();
            if (attempt >= MAX_ATTEMPTS_PER_ISSUE) {
                // it keeps changing: the stream indexer is handling it, and verify will check it
                return;
            }
            version = writer.currentVersion(issueId);
        }
    }
}

package com.multikey.reindex;

import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

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
 * Builds the index of items that existed before the stream (or repairs a lost one) from one machine: the
 * segments of the app table's parallel Scan worked on threads, each a page at a time by {@link SegmentBackfill}
 * (the reindex worker's own page: each item through the stream indexer's projection, its items written under
 * a condition that the item is unchanged, so it is correct while the stream indexer runs). Resumable from
 * per-segment checkpoints; index writes limited to a rate shared by the segments.
 */
public final class Backfill {

    /**
     * Counts so far, for progress lines; {@code itemsTotal} is the app table's item count as DynamoDB last reported
     * it (it lags by hours, so the items scanned may pass it), at least 1.
     */
    public record Progress(long itemsScanned, long itemsTotal, long itemsIndexed, long indexWrites, double itemsPerSecond,
                           Duration eta) {
    }

    private static final int PAGE_SIZE = 100;

    private final DynamoDbClient dynamoDb;
    private final String appTable;
    private final SegmentBackfill pages;
    private final AtomicLong scanned = new AtomicLong();
    private final AtomicLong indexed = new AtomicLong();
    private final AtomicLong writes = new AtomicLong();

    /** @param writesPerSecond index item writes a second at most, over all segments */
    public Backfill(DynamoDbClient dynamoDb, String appTable, String indexTable, IndexScope scope, double writesPerSecond) {
        this.dynamoDb = dynamoDb;
        this.appTable = appTable;
        this.pages = new SegmentBackfill(dynamoDb, appTable, indexTable, scope,
                writesPerSecond * WriteCost.UNITS_PER_TRANSACTIONAL_WRITE, PAGE_SIZE);
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
        return new Progress(scanned.get(), total, indexed.get(), writes.get(), perSecond, eta);
    }

    private void scanSegment(int segment, int segments, CheckpointStore checkpoints) throws InterruptedException {
        CheckpointStore.Position position = checkpoints.position(segment);
        while (!position.done()) {
            PageOutcome page = pages.page(segment, segments, new SegmentPosition(SegmentPosition.Phase.APP, position.startKey()));
            scanned.addAndGet(page.counts().items());
            indexed.addAndGet(page.counts().sourceItems());
            writes.addAndGet(page.counts().writes());
            position = page.next().done() ? new CheckpointStore.Position(true, Map.of())
                    : new CheckpointStore.Position(false, page.next().startKey());
            checkpoints.save(segment, position);
        }
    }
}

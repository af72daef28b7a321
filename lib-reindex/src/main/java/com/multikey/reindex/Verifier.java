package com.multikey.reindex;

import com.multikey.index.IndexKey;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;

/**
 * Verify (and repair) in this process: every segment of a {@link SegmentVerifier} run to its end, in
 * parallel, in memory bounded by segments × page size (a few samples of each kind kept, counts for the rest).
 * Missing items (the table implies them, the index lacks them), stale items (the source item exists but implies
 * another item at that key, or none), orphaned items (their source item no longer exists); repairs are conditional
 * on the source item's version, so safe while the stream indexer runs.
 */
public final class Verifier {

    /** One wrong index entry: the source item's key as text (empty when it names none), the index key. */
    public record Discrepancy(String itemKey, IndexKey key) {
    }

    /**
     * What a verification found, with up to {@value #SAMPLES} samples of each kind, and what it repaired
     * ({@code repairedItems}: conditional writes that fixed an item's entries; an item wrong on both the
     * table's and the index's side counts twice).
     */
    public record Report(long items, long indexItems, long missingCount, long staleCount, long orphanedCount,
                         List<Discrepancy> missing, List<Discrepancy> stale, List<Discrepancy> orphaned, long repairedItems) {
        public boolean clean() {
            return missingCount == 0 && staleCount == 0 && orphanedCount == 0;
        }
    }

    static final int SAMPLES = 5;
    static final int PAGE_SIZE = 100;
    private static final double UNLIMITED = 1e9;

    private final DynamoDbClient dynamoDb;
    private final String appTable;
    private final String indexTable;
    private final IndexScope scope;

    public Verifier(DynamoDbClient dynamoDb, String appTable, String indexTable, IndexScope scope) {
        this.dynamoDb = dynamoDb;
        this.appTable = appTable;
        this.indexTable = indexTable;
        this.scope = scope;
    }

    public Report verify(boolean repair) {
        return verify(repair, 1, UNLIMITED);
    }

    /** Over {@code segments} parallel scan segments, repairs held to {@code writeUnitsPerSecond} (see {@link WriteCost}). */
    public Report verify(boolean repair, int segments, double writeUnitsPerSecond) {
        return verify(repair, segments, writeUnitsPerSecond, page -> { });
    }

    /**
     * As {@link #verify(boolean, int, double)}, telling {@code onPage} the counts of every page done (from the
     * segments' threads, so it must be thread-safe): items read of both tables add up to the app table's item count
     * plus the index table's, which a progress display can use as its total.
     */
    public Report verify(boolean repair, int segments, double writeUnitsPerSecond, Consumer<PageCounts> onPage) {
        List<Discrepancy> missing = new ArrayList<>();
        List<Discrepancy> stale = new ArrayList<>();
        List<Discrepancy> orphaned = new ArrayList<>();
        SegmentVerifier verifier = new SegmentVerifier(dynamoDb, appTable, indexTable, scope, repair, writeUnitsPerSecond,
                PAGE_SIZE, found -> {
                    List<Discrepancy> samples = switch (found.kind()) {
                        case MISSING -> missing;
                        case STALE -> stale;
                        case ORPHANED -> orphaned;
                    };
                    synchronized (samples) {
                        if (samples.size() < SAMPLES) {
                            samples.add(new Discrepancy(found.itemKey(), found.key()));
                        }
                    }
                });
        ExecutorService pool = Executors.newFixedThreadPool(segments);
        try {
            List<Future<Totals>> running = new ArrayList<>();
            for (int segment = 0; segment < segments; segment++) {
                int s = segment;
                running.add(pool.submit(() -> runSegment(verifier, s, segments, onPage)));
            }
            Totals all = new Totals(PageCounts.NONE, 0);
            for (Future<Totals> future : running) {
                all = all.plus(future.get());
            }
            PageCounts c = all.counts();
            return new Report(c.sourceItems(), all.indexItems(), c.missing(), c.stale(), c.orphaned(), List.copyOf(missing), List.copyOf(stale),
                    List.copyOf(orphaned), c.repaired());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("verify interrupted", e);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        } finally {
            pool.shutdownNow();
        }
    }

    /** A segment's counts, and the index items among the items it read. */
    private record Totals(PageCounts counts, long indexItems) {
        Totals plus(Totals other) {
            return new Totals(counts.plus(other.counts), indexItems + other.indexItems);
        }
    }

    private static Totals runSegment(SegmentWork work, int segment, int segments, Consumer<PageCounts> onPage)
            throws InterruptedException {
        Totals totals = new Totals(PageCounts.NONE, 0);
        for (SegmentPosition at = SegmentPosition.START; !at.done(); ) {
            PageOutcome page = work.page(segment, segments, at);
            totals = totals.plus(new Totals(page.counts(), at.phase() == SegmentPosition.Phase.INDEX ? page.counts().items() : 0));
            onPage.accept(page.counts());
            at = page.next();
        }
        return totals;
    }
}

package com.multikey.reindex;

import com.multikey.common.Sleeper;
import com.multikey.index.GridLayoutStore;
import com.multikey.index.IndexChange;
import com.multikey.index.IndexItem;
import com.multikey.index.ItemKey;
import com.multikey.index.definition.GridState;
import com.multikey.index.definition.IndexDefinitions;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Moves a stack's issue grid from the field-partitioned layout to the grouped one beside the running stream, one
 * recorded step at a time (see {@code docs/decisions/0019-grid-layout-migration.md}):
 *
 * <ol>
 *   <li>{@code field-partitioned → migrating}: the indexer writes both layouts (after the functions' cache has passed);</li>
 *   <li>backfill the grouped grid (conditional writes, correct beside the indexer), recorded as {@code backfilled};</li>
 *   <li>verify it, repairing what differs (conditional on each issue's version) until a verify finds it clean;</li>
 *   <li>{@code migrating → switched}: readers read the grouped grid, both still written;</li>
 *   <li>{@code switched → grouped}: once no reader reads the old layout, the indexer writes the grouped one alone;</li>
 *   <li>once no writer writes the old layout, its items are removed, recorded as {@code oldItemsRemoved}.</li>
 * </ol>
 *
 * Every step starts from the state recorded in the index table and is idempotent, so a run stopped anywhere is resumed
 * by running it again; the state only moves forward, with a conditional write, so two runs cannot pass each other.
 */
public final class GridMigration {

    /** The heavy steps, worked in this process or as jobs of the stack's reindex worker. */
    public interface Work {
        /** Backfills one index of these definitions. */
        void backfill(IndexDefinitions definitions, String index, Listener listener) throws InterruptedException;

        /** Verifies one index whole, repairing what differs (each repair conditional on the issue's version); what it found. */
        Found verify(IndexDefinitions definitions, String index, Listener listener) throws InterruptedException;

        /**
         * Looks at each of {@code found} again as it is now, repairing what is still wrong (conditional on the issue's version);
         * those whose repair the issue's changes kept refusing.
         */
        List<SegmentVerifier.Discrepancy> recheck(IndexDefinitions definitions, String index, List<SegmentVerifier.Discrepancy> found);

        /** Removes the field-partitioned layout's items (the definitions no longer keep it); how many. */
        long removeFieldPartitioned(IndexDefinitions definitions, Listener listener) throws InterruptedException;
    }

    /**
     * What a verify found: how many differences, and (when {@code complete}) every one of them, to be looked at again
     * once the stream has caught up.
     */
    public record Found(long count, List<SegmentVerifier.Discrepancy> discrepancies, boolean complete) {
        public Found {
            discrepancies = List.copyOf(discrepancies);
        }
    }

    /** The most differences a verify keeps to look at again; with more, another whole verify follows. */
    public static final int MAX_KEPT = 10_000;

    /** The heavy steps in this process: parallel scans of {@code segments} segments, writes held to {@code rate} a second. */
    public record InProcess(DynamoDbClient dynamoDb, String appTable, String indexTable, int segments, double rate) implements Work {

        @Override
        public void backfill(IndexDefinitions definitions, String index, Listener listener) throws InterruptedException {
            new Backfill(dynamoDb, appTable, indexTable, IndexScope.of(definitions, Optional.of(index)), rate)
                    .run(CheckpointStore.open(null, segments), segments, p -> listener.progress(p.itemsScanned(), p.itemsTotal(),
                            p.itemsIndexed() + " issues indexed, " + p.indexWrites() + " index writes"), Duration.ofSeconds(1));
        }

        @Override
        public Found verify(IndexDefinitions definitions, String index, Listener listener) throws InterruptedException {
            List<SegmentVerifier.Discrepancy> kept = Collections.synchronizedList(new ArrayList<>());
            AtomicLong count = new AtomicLong();
            SegmentVerifier verifier = new SegmentVerifier(dynamoDb, appTable, indexTable, IndexScope.of(definitions, Optional.of(index)),
                    true, rate, Verifier.PAGE_SIZE, found -> {
                        if (count.incrementAndGet() <= MAX_KEPT) {
                            kept.add(found);
                        }
                    });
            AtomicReference<PageCounts> sofar = new AtomicReference<>(PageCounts.NONE);
            ExecutorService pool = Executors.newFixedThreadPool(segments);
            try {
                List<Future<?>> running = new ArrayList<>();
                for (int segment = 0; segment < segments; segment++) {
                    int s = segment;
                    running.add(pool.submit(() -> {
                        for (SegmentPosition at = SegmentPosition.START; !at.done(); ) {
                            PageOutcome page = verifier.page(s, segments, at);
                            PageCounts now = sofar.accumulateAndGet(page.counts(), PageCounts::plus);
                            listener.progress(now.items(), 0, now.missing() + " missing, " + now.stale() + " stale, "
                                    + now.orphaned() + " orphaned");
                            at = page.next();
                        }
                        return null;
                    }));
                }
                for (Future<?> segment : running) {
                    segment.get();
                }
            } catch (ExecutionException e) {
                throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
            } finally {
                pool.shutdownNow();
            }
            return new Found(count.get(), kept, count.get() <= MAX_KEPT);
        }

        @Override
        public List<SegmentVerifier.Discrepancy> recheck(IndexDefinitions definitions, String index,
                                                         List<SegmentVerifier.Discrepancy> found) {
            IndexScope scope = IndexScope.of(definitions, Optional.of(index));
            ConditionalIndexWriter writer = new ConditionalIndexWriter(dynamoDb, appTable, indexTable, scope);
            List<SegmentVerifier.Discrepancy> still = new ArrayList<>();
            for (SegmentVerifier.Discrepancy discrepancy : found) {
                Map<String, AttributeValue> stored = dynamoDb.getItem(b -> b.tableName(indexTable).consistentRead(true)
                        .key(discrepancy.key().toKey())).item();
                boolean present = stored != null && !stored.isEmpty() && scope.owns(stored);
                if (discrepancy.itemKey().isEmpty()) {
                    if (present) {
                        still.add(discrepancy); // names no issue: the next whole verify deletes it
                    }
                    continue;
                }
                ItemKey issue = ItemKey.ofString(definitions.table().partitionKey().name(), discrepancy.itemKey());
                Map<String, AttributeValue> version = writer.currentVersion(issue);
                Optional<IndexItem> wanted = version == null ? Optional.empty() : scope.project(issue, version).items().stream()
                        .filter(item -> item.key().equals(discrepancy.key())).findFirst();
                boolean right = wanted.map(item -> present && IndexItem.normalized(stored).equals(item.toItem())).orElse(!present);
                if (right) {
                    continue;
                }
                IndexChange change = wanted.<IndexChange>map(IndexChange.Put::new).orElseGet(() -> new IndexChange.Delete(discrepancy.key()));
                if (writer.write(issue, version, List.of(change)) != ConditionalIndexWriter.Outcome.WRITTEN) {
                    still.add(discrepancy);
                }
            }
            return still;
        }

        @Override
        public long removeFieldPartitioned(IndexDefinitions definitions, Listener listener) throws InterruptedException {
            return new IndexRemoval(dynamoDb, indexTable, definitions, IndexRemoval.FIELD_PARTITIONED, rate, 100).run(segments);
        }
    }

    /** What the run tells its operator. */
    public interface Listener {
        /** A step begins, or a state is recorded. */
        void step(String message);

        /** Progress of the current heavy step. */
        default void progress(long done, long total, String detail) {
        }
    }

    /** How a run ended: the state recorded, and whether anything is left to do. */
    public record Outcome(GridState state, boolean done) {
    }

    /** Whole verify-and-repair rounds before the run stops and leaves the switch to a later run. */
    static final int VERIFY_ROUNDS = 3;
    /** Looks again at what a whole verify found, each after the stream's lag, before another whole verify. */
    static final int RECHECKS = 10;

    private final GridLayoutStore store;
    private final IndexDefinitions definitions;
    private final Work work;
    private final Duration settle;
    private final Sleeper sleeper;

    /**
     * @param settle how long after a state is recorded every function has read it and finished what it began before:
     *               the functions' state cache plus the longest invocation of a writer or reader
     */
    public GridMigration(GridLayoutStore store, IndexDefinitions definitions, Work work, Duration settle, Sleeper sleeper) {
        this.store = store;
        this.definitions = Objects.requireNonNull(definitions, "definitions");
        this.work = work;
        this.settle = settle;
        this.sleeper = sleeper;
        if (definitions.groupedGrid().isEmpty()) {
            throw new IllegalArgumentException("the definitions declare no grouped index that replaces the field-partitioned "
                    + "issue grid (index-definitions.yaml: replaces: custom_fields); there is nothing to migrate to");
        }
    }

    /** Runs every step not yet done, from the recorded state on. */
    public Outcome run(Listener listener) throws InterruptedException {
        String grid = definitions.groupedGrid().orElseThrow().name();
        while (true) {
            GridLayoutStore.Control control = store.control();
            switch (control.state()) {
                case FIELD_PARTITIONED -> {
                    listener.step("state field-partitioned: recording migrating (the indexer writes both layouts)");
                    move(control, new GridLayoutStore.Control(GridState.MIGRATING, false, false));
                }
                case MIGRATING -> {
                    if (!control.backfilled()) {
                        settle(listener, "writers");
                        listener.step("backfilling " + grid + " beside the stream");
                        work.backfill(definitions.withGridState(GridState.MIGRATING), grid, listener);
                        move(control, new GridLayoutStore.Control(GridState.MIGRATING, true, false));
                        listener.step("backfilled " + grid);
                    } else {
                        if (!verified(grid, listener)) {
                            listener.step(grid + " still differs after " + VERIFY_ROUNDS + " verify and repair rounds; "
                                    + "state stays migrating (readers read the old layout): run again");
                            return new Outcome(GridState.MIGRATING, false);
                        }
                        listener.step("verified " + grid + ": recording switched (readers read " + grid + ")");
                        move(control, new GridLayoutStore.Control(GridState.SWITCHED, true, false));
                    }
                }
                case SWITCHED -> {
                    settle(listener, "readers");
                    listener.step("recording grouped (the indexer writes " + grid + " alone)");
                    move(control, new GridLayoutStore.Control(GridState.GROUPED, true, false));
                }
                case GROUPED -> {
                    if (control.oldItemsRemoved()) {
                        listener.step("state grouped, the old layout's items removed: the grid is migrated");
                        return new Outcome(GridState.GROUPED, true);
                    }
                    settle(listener, "writers");
                    listener.step("removing the field-partitioned layout's items");
                    long removed = work.removeFieldPartitioned(definitions.withGridState(GridState.GROUPED), listener);
                    move(control, new GridLayoutStore.Control(GridState.GROUPED, control.backfilled(), true));
                    listener.step("removed " + removed + " item(s) of the field-partitioned layout");
                }
            }
        }
    }

    /**
     * Whether the grouped grid holds what the table implies, apart from the stream's lag: a whole verify repairs what it
     * finds, then each difference is looked at again once the stream has caught up, until none is left (a difference
     * the lag explains is gone by itself; one the backfill left is repaired). While issues keep changing a whole verify
     * always finds some; what matters is that each is then found right.
     */
    private boolean verified(String grid, Listener listener) throws InterruptedException {
        IndexDefinitions migrating = definitions.withGridState(GridState.MIGRATING);
        for (int round = 1; round <= VERIFY_ROUNDS; round++) {
            listener.step("verifying " + grid + (round > 1 ? " again (round " + round + ")" : ""));
            Found found = work.verify(migrating, grid, listener);
            if (found.count() == 0) {
                return true;
            }
            listener.step(found.count() + " difference(s) found and repaired where the issue had not changed since");
            if (!found.complete()) {
                continue;
            }
            List<SegmentVerifier.Discrepancy> pending = found.discrepancies();
            for (int recheck = 1; recheck <= RECHECKS && !pending.isEmpty(); recheck++) {
                settle(listener, "change in the stream");
                pending = work.recheck(migrating, grid, pending);
                listener.step("looked again: " + pending.size() + " difference(s) left");
            }
            if (pending.isEmpty()) {
                return true;
            }
        }
        return false;
    }

    private void move(GridLayoutStore.Control from, GridLayoutStore.Control to) {
        if (!store.transition(from, to)) {
            throw new IllegalStateException("the grid layout state changed under this run (another migrate-grid?); run it again");
        }
    }

    private void settle(Listener listener, String who) throws InterruptedException {
        if (settle.isZero()) {
            return;
        }
        listener.step("waiting " + settle.toSeconds() + " s for every " + who + " to follow the recorded state");
        sleeper.sleep(settle);
    }
}

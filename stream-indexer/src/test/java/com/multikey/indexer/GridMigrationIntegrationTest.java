package com.multikey.indexer;

import com.amazonaws.services.lambda.runtime.events.StreamsEventResponse;
import com.multikey.common.Backoff;
import com.multikey.common.Deadline;
import com.multikey.common.Sleeper;
import com.multikey.common.StructuredLog;
import com.multikey.emulator.services.dynamodb.LocalDynamoDb;
import com.multikey.emulator.services.streams.LambdaEvents;
import com.multikey.emulator.services.streams.StreamTail;
import com.multikey.index.GridLayoutStore;
import com.multikey.index.definition.GridState;
import com.multikey.index.definition.IndexDefinitions;
import com.multikey.query.CursorKeys;
import com.multikey.query.CursorSealer;
import com.multikey.query.GridSettings;
import com.multikey.query.IndexQuery;
import com.multikey.query.Order;
import com.multikey.query.Page;
import com.multikey.query.PageRequest;
import com.multikey.reindex.GridMigration;
import com.multikey.reindex.IndexScope;
import com.multikey.reindex.SegmentVerifier;
import com.multikey.reindex.Verifier;
import com.multikey.testkit.IssueFixtures;
import com.multikey.testkit.LocalTables;
import com.multikey.testkit.LocalTablesExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.Record;

import java.io.OutputStream;
import java.io.PrintStream;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code migrate-grid}'s steps ({@link GridMigration}) on a populated table on the local DynamoDB engine, while random updates
 * stream through this indexer (which follows the recorded grid state for every batch) and a reader pages through the
 * grid of a project the updates leave alone, in both orders, over and over, through every state.
 */
@ExtendWith(LocalTablesExtension.class)
class GridMigrationIntegrationTest {

    private static final IndexDefinitions DEFINITIONS = IndexDefinitions.packaged();
    private static final StructuredLog QUIET = new StructuredLog("t", new PrintStream(OutputStream.nullOutputStream()), Clock.systemUTC());
    private static final String APP = "AppTable";
    private static final String INDEX = "IssueAttribIndexTable";
    private static final String WATCHED = "project#watched";

    private final LocalDynamoDb local;
    private final DynamoDbClient dynamoDb;

    GridMigrationIntegrationTest(LocalTables tables) {
        this.local = tables.local();
        this.dynamoDb = tables.dynamoDb();
    }

    private GridLayoutStore store(boolean records) {
        return new GridLayoutStore(dynamoDb, INDEX, DEFINITIONS, records, Duration.ZERO, System::nanoTime);
    }

    @Test
    void current_onANewStack_isGrouped_andRecorded() {
        // when
        IndexDefinitions current = store(true).current();

        // then
        assertThat(current.gridState()).isEqualTo(GridState.GROUPED);
        assertThat(current.grid()).get().extracting(i -> i.name()).isEqualTo("issue-grid");
        assertThat(store(false).read()).get().extracting(GridLayoutStore.Control::state).isEqualTo(GridState.GROUPED);
    }

    @Test
    void newStack_indexesTheGridGroupedByProject_andAPageIsOneQueryAndOneBatchGet() {
        // given: a new stack's indexer and two projects sharing a field
        StreamTail tail = new StreamTail(dynamoDb, local.streamsClient(), APP);
        StreamIndexer indexer = indexer(store(true));
        for (int i = 0; i < 40; i++) {
            int n = i;
            dynamoDb.putItem(b -> b.tableName(APP).item(issue("issue#" + n, n < 30 ? "project#big" : "project#small", n, n % 7)));
        }
        deliver(indexer, tail.poll());

        // when
        Page page = reader().page(PageRequest.first("project#small", "f0", Order.ASC, 5));

        // then
        assertThat(IssueFixtures.storedIndex(dynamoDb, INDEX)).allSatisfy(item -> assertThat(
                item.containsKey("control") || item.get("attribId").s().startsWith("issue-grid|")).isTrue());
        assertThat(page.items()).extracting(i -> i.get("id").s()).containsExactly("issue#35", "issue#36", "issue#30", "issue#37", "issue#31");
        assertThat(page.apiCalls()).isEqualTo(2);
    }

    @Test
    void migrateGrid_besideRandomStreamUpdatesAndAPagingReader_endsGroupedWithZeroDrift_andNoPageLostOrRepeated() throws Exception {
        // given: a stack that had the grid before (field-partitioned items, no recorded state), with a watched project
        IssueFixtures.putRandomIssues(dynamoDb, APP, 150, new Random(23));
        for (int i = 0; i < 45; i++) {
            int n = 1000 + i;
            dynamoDb.putItem(b -> b.tableName(APP).item(issue("issue#w" + n, WATCHED, n, n % 9)));
        }
        StreamTail tail = new StreamTail(dynamoDb, local.streamsClient(), APP);
        deliver(new StreamIndexer(new BatchPlanner(new IndexerConfig(INDEX, "", DEFINITIONS)),
                new DynamoDbIndexWriter(dynamoDb, INDEX, Backoff.standard(), Sleeper.SYSTEM, QUIET), summary -> { }, QUIET), tail.poll());
        assertThat(store(true).control().state()).as("an upgraded stack keeps its layout").isEqualTo(GridState.FIELD_PARTITIONED);
        List<String> ascending = watchedInOrder();

        // when: the migration runs while issues of the other projects change and a reader pages the watched project
        AtomicBoolean migrating = new AtomicBoolean(true);
        AtomicInteger pagesRead = new AtomicInteger();
        AtomicInteger pageOfPass = new AtomicInteger();
        List<String> failures = new CopyOnWriteArrayList<>();
        List<List<GridState>> passStates = new CopyOnWriteArrayList<>();
        Thread reader = new Thread(() -> {
            IndexQuery grid = reader();
            boolean asc = true;
            while (migrating.get()) {
                List<String> listed = new ArrayList<>();
                GridState startedIn = store(false).control().state();
                PageRequest request = PageRequest.first(WATCHED, "f0", asc ? Order.ASC : Order.DESC, 4);
                for (int n = 1; ; n++) {
                    Page page = grid.page(request);
                    pagesRead.incrementAndGet();
                    pageOfPass.set(n);
                    pause(10);
                    page.items().forEach(issue -> listed.add(issue.get("id").s()));
                    if (page.nextCursor().isEmpty()) {
                        break;
                    }
                    request = request.after(page.nextCursor().get());
                }
                List<String> expected = new ArrayList<>(ascending);
                if (!asc) {
                    Collections.reverse(expected);
                }
                if (!listed.equals(expected)) {
                    failures.add((asc ? "asc" : "desc") + " pass from " + startedIn + ": " + listed);
                }
                passStates.add(List.of(startedIn, store(false).control().state()));
                asc = !asc;
            }
        });
        // each wait for the functions to follow a state lets the reader read on, so passes span every switch
        Sleeper readerReadsOn = duration -> {
            int until = pagesRead.get() + 6;
            while (pagesRead.get() < until) {
                Thread.sleep(5);
            }
        };
        // the verify returns (and the readers switch) while the reader is part way through a pass
        GridMigration.InProcess inProcess = new GridMigration.InProcess(dynamoDb, APP, INDEX, 3, 100_000);
        GridMigration.Work switchMidPass = new GridMigration.Work() {
            @Override
            public void backfill(IndexDefinitions definitions, String index, GridMigration.Listener listener) throws InterruptedException {
                inProcess.backfill(definitions, index, listener);
            }

            @Override
            public GridMigration.Found verify(IndexDefinitions definitions, String index, GridMigration.Listener listener)
                    throws InterruptedException {
                GridMigration.Found found = inProcess.verify(definitions, index, listener);
                awaitMidPass(found.count() == 0);
                return found;
            }

            @Override
            public List<SegmentVerifier.Discrepancy> recheck(IndexDefinitions definitions, String index,
                                                             List<SegmentVerifier.Discrepancy> found) {
                List<SegmentVerifier.Discrepancy> still = inProcess.recheck(definitions, index, found);
                awaitMidPass(still.isEmpty());
                return still;
            }

            /** When the readers are about to switch, lets them switch while the reader is part way through a pass. */
            private void awaitMidPass(boolean switching) {
                while (switching && (pageOfPass.get() < 2 || pageOfPass.get() > 5)) {
                    pause(1);
                }
            }

            @Override
            public long removeFieldPartitioned(IndexDefinitions definitions, GridMigration.Listener listener) throws InterruptedException {
                return inProcess.removeFieldPartitioned(definitions, listener);
            }
        };
        AtomicReference<GridMigration.Outcome> outcome = new AtomicReference<>();
        List<String> steps = new CopyOnWriteArrayList<>();
        StreamIndexer indexer = indexer(store(true));
        reader.start();
        besideRandomUpdates(indexer, tail, 31, migrating, () -> outcome.set(new GridMigration(store(true), DEFINITIONS,
                switchMidPass, Duration.ofMillis(1), readerReadsOn).run(steps::add)));
        reader.join();
        deliver(indexer, tail.poll());

        // then
        assertThat(outcome.get()).as(String.join("\n", steps)).isEqualTo(new GridMigration.Outcome(GridState.GROUPED, true));
        assertThat(failures).isEmpty();
        assertThat(passStates).as("a pass that began in the old layout and ended in the grouped one")
                .anyMatch(states -> !states.get(0).readsGrouped() && states.get(1).readsGrouped());
        IndexDefinitions grouped = DEFINITIONS.withGridState(GridState.GROUPED);
        assertThat(withoutControl(IssueFixtures.storedIndex(dynamoDb, INDEX))).isEqualTo(IssueFixtures.expectedIndex(dynamoDb, APP, grouped));
        assertThat(new Verifier(dynamoDb, APP, INDEX, IndexScope.all(grouped)).verify(false).clean()).isTrue();
        assertThat(steps).anyMatch(step -> step.startsWith("backfilling issue-grid")).anyMatch(step -> step.startsWith("verified issue-grid"))
                .anyMatch(step -> step.startsWith("removed "));

        // and: run again, it finds the work done
        assertThat(new GridMigration(store(true), DEFINITIONS, new GridMigration.InProcess(dynamoDb, APP, INDEX, 1, 1000), Duration.ZERO,
                Sleeper.SYSTEM).run(step -> { })).isEqualTo(new GridMigration.Outcome(GridState.GROUPED, true));
    }

    /** The watched project's issues in the grid's ascending order of field f0: value, then num. */
    private List<String> watchedInOrder() {
        List<Map<String, AttributeValue>> issues = new ArrayList<>();
        dynamoDb.scanPaginator(b -> b.tableName(APP)).items().forEach(item -> {
            if (WATCHED.equals(item.get("project").s())) {
                issues.add(item);
            }
        });
        issues.sort(Comparator.<Map<String, AttributeValue>>comparingInt(i -> Integer.parseInt(i.get("custom_fields").m().get("f0").n()))
                .thenComparingInt(i -> Integer.parseInt(i.get("num").n())));
        return issues.stream().map(i -> i.get("id").s()).toList();
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static java.util.Set<Map<String, AttributeValue>> withoutControl(java.util.Set<Map<String, AttributeValue>> items) {
        return items.stream().filter(item -> !GridLayoutStore.isControl(item)).collect(java.util.stream.Collectors.toSet());
    }

    private static Map<String, AttributeValue> issue(String id, String project, int num, int f0) {
        return Map.of("id", AttributeValue.fromS(id), "project", AttributeValue.fromS(project), "num", AttributeValue.fromN(Integer.toString(num)),
                "custom_fields", AttributeValue.fromM(Map.of("f0", AttributeValue.fromN(Integer.toString(f0)))));
    }

    private IndexQuery reader() {
        return new IndexQuery(dynamoDb, APP, INDEX, DEFINITIONS, store(false)::current, Backoff.standard(), Sleeper.SYSTEM,
                Duration.ofSeconds(30), System::nanoTime, CursorSealer.of(CursorKeys.ephemeral()),
                new GridSettings("ByProject", (project, attribute) -> true));
    }

    private StreamIndexer indexer(GridLayoutStore store) {
        return new StreamIndexer(new BatchPlanner(new IndexerConfig(INDEX, "", DEFINITIONS), store::current),
                new DynamoDbIndexWriter(dynamoDb, INDEX, Backoff.standard(), Sleeper.SYSTEM, QUIET), summary -> { }, QUIET);
    }

    private interface Work {
        void run() throws Exception;
    }

    /** Runs {@code work} while random puts and deletes of issues of projects 0 to 2 stream through the indexer; then stops both. */
    private void besideRandomUpdates(StreamIndexer indexer, StreamTail tail, long seed, AtomicBoolean running, Work work) throws Exception {
        AtomicBoolean writing = new AtomicBoolean(true);
        Thread updates = new Thread(() -> {
            Random random = new Random(seed);
            for (int i = 0; i < 200 || running.get(); i++) {
                pause(20); // about fifty changes a second: each issue changes every few seconds
                String id = "issue#" + random.nextInt(170);
                if (random.nextInt(8) == 0) {
                    dynamoDb.deleteItem(b -> b.tableName(APP).key(Map.of("id", AttributeValue.fromS(id))));
                } else {
                    Map<String, AttributeValue> item = IssueFixtures.randomIssue(id, random.nextInt(40), random, random.nextInt(5));
                    dynamoDb.putItem(b -> b.tableName(APP).item(item));
                }
            }
            writing.set(false);
        });
        Thread stream = new Thread(() -> {
            while (writing.get()) {
                deliver(indexer, tail.poll());
            }
        });
        updates.start();
        stream.start();
        try {
            work.run();
        } finally {
            running.set(false);
            updates.join();
            stream.join();
        }
    }

    private static void deliver(StreamIndexer indexer, List<Record> records) {
        for (int from = 0; from < records.size(); from += 100) {
            List<Record> batch = records.subList(from, Math.min(records.size(), from + 100));
            StreamsEventResponse response = indexer.process(LambdaEvents.dynamodbEvent(batch, "arn:stream").getRecords(),
                    Deadline.after(Duration.ofMinutes(1)));
            assertThat(response.getBatchItemFailures()).isEmpty();
        }
    }
}

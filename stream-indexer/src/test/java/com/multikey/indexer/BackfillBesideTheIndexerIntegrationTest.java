package com.multikey.indexer;

import com.amazonaws.services.lambda.runtime.events.StreamsEventResponse;
import com.multikey.common.Backoff;
import com.multikey.common.Deadline;
import com.multikey.common.Sleeper;
import com.multikey.common.StructuredLog;
import com.multikey.emulator.services.dynamodb.LocalDynamoDb;
import com.multikey.emulator.services.streams.LambdaEvents;
import com.multikey.emulator.services.streams.StreamTail;
import com.multikey.index.IndexChange;
import com.multikey.index.IndexItem;
import com.multikey.index.IndexProjector;
import com.multikey.index.ItemKey;
import com.multikey.index.definition.DefinitionsYaml;
import com.multikey.index.definition.IndexDefinitions;
import com.multikey.reindex.Backfill;
import com.multikey.reindex.CheckpointStore;
import com.multikey.reindex.ConditionalIndexWriter;
import com.multikey.reindex.IndexScope;
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
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Backfill and repair (the reindex library) running beside this stream indexer on the local DynamoDB engine: whichever
 * writes first, the index ends as the latest versions imply, because every reindex write is conditioned on
 * the issue's version.
 */
@ExtendWith(LocalTablesExtension.class)
class BackfillBesideTheIndexerIntegrationTest {

    private static final IndexDefinitions CONFIG = IndexDefinitions.packaged();
    private static final StructuredLog QUIET = new StructuredLog("t", new PrintStream(OutputStream.nullOutputStream()), Clock.systemUTC());
    private static final ItemKey ISSUE_1 = ItemKey.ofString("id", "issue#1");
    private final LocalDynamoDb local;
    private final DynamoDbClient dynamoDb;

    BackfillBesideTheIndexerIntegrationTest(LocalTables tables) {
        this.local = tables.local();
        this.dynamoDb = tables.dynamoDb();
    }

    private void populate(int issues, Random random) {
        IssueFixtures.putRandomIssues(dynamoDb, "AppTable", issues, random);
    }

    private Set<Map<String, AttributeValue>> index() {
        return IssueFixtures.storedIndex(dynamoDb, "IssueAttribIndexTable");
    }

    private Set<Map<String, AttributeValue>> expected() {
        return IssueFixtures.expectedIndex(dynamoDb, "AppTable", CONFIG);
    }

    private Backfill backfill() {
        return new Backfill(dynamoDb, "AppTable", "IssueAttribIndexTable", IndexScope.all(CONFIG), 100_000);
    }

    private Verifier verifier() {
        return new Verifier(dynamoDb, "AppTable", "IssueAttribIndexTable", IndexScope.all(CONFIG));
    }

    @Test
    void backfill_concurrentWithRandomStreamUpdates_converges() throws Exception {
        populate(150, new Random(4));
        StreamTail tail = new StreamTail(dynamoDb, local.streamsClient(), "AppTable");
        tail.poll(); // written before the stream indexer existed: only a backfill can index these
        StreamIndexer streamIndexer = new StreamIndexer(new BatchPlanner(new IndexerConfig("IssueAttribIndexTable", "", CONFIG)),
                new DynamoDbIndexWriter(dynamoDb, "IssueAttribIndexTable", Backoff.standard(), Sleeper.SYSTEM, QUIET),
                summary -> { }, QUIET);
        besideRandomUpdates(streamIndexer, tail, 5, 400,
                () -> backfill().run(CheckpointStore.open(null, 3), 3, p -> { }, Duration.ofSeconds(1)));
        deliver(streamIndexer, tail.poll());

        assertThat(index()).isEqualTo(expected());
        assertThat(verifier().verify(false).clean()).isTrue();
    }

    /** The default definitions and a grouped issue grid beside it: the index added to a running stack. */
    private static final IndexDefinitions WITH_GROUPED_GRID = DefinitionsYaml.parse("""
            version: 1
            table: {partitionKey: {name: id, type: S}}
            indexes:
              - {name: custom_fields, layout: field-partitioned, covers: [{attribute: id, beginsWith: "issue#"}],
                 group: project, values: {entriesOf: custom_fields}, orderBy: num}
              - {name: issue-grid, covers: [{attribute: id, beginsWith: "issue#"}], group: project,
                 values: {entriesOf: custom_fields}, orderBy: num}
            """);

    @Test
    void addingAnIndex_backfilledAloneWhileTheStreamRuns_endsWithZeroDriftInEveryIndex() throws Exception {
        // given: a populated table indexed by the stream under the old definitions
        populate(150, new Random(8));
        StreamTail tail = new StreamTail(dynamoDb, local.streamsClient(), "AppTable");
        deliver(indexer(CONFIG), tail.poll());
        Verifier.Report before = new Verifier(dynamoDb, "AppTable", "IssueAttribIndexTable", IndexScope.all(WITH_GROUPED_GRID)).verify(false);
        assertThat(before.missingCount()).as("the added index starts empty").isPositive();
        assertThat(before.staleCount() + before.orphanedCount()).isZero();

        // when: the new definitions are deployed, the stream goes on, and the added index alone is backfilled
        StreamIndexer deployed = indexer(WITH_GROUPED_GRID);
        Backfill.Progress[] backfilled = new Backfill.Progress[1];
        besideRandomUpdates(deployed, tail, 9, 300, () -> backfilled[0] = new Backfill(dynamoDb, "AppTable", "IssueAttribIndexTable",
                IndexScope.of(WITH_GROUPED_GRID, java.util.Optional.of("issue-grid")), 100_000)
                .run(CheckpointStore.open(null, 3), 3, p -> { }, Duration.ofSeconds(1)));
        deliver(deployed, tail.poll());

        // then
        assertThat(backfilled[0].indexWrites()).isPositive();
        assertThat(index()).isEqualTo(IssueFixtures.expectedIndex(dynamoDb, "AppTable", WITH_GROUPED_GRID));
        assertThat(new Verifier(dynamoDb, "AppTable", "IssueAttribIndexTable", IndexScope.all(WITH_GROUPED_GRID)).verify(false).clean())
                .isTrue();
    }

    /** Work that may throw, run while another thread changes issues at random. */
    private interface Work {
        void run() throws Exception;
    }

    /**
     * Runs {@code work} while {@code count} random puts and deletes of issues (seeded) go to the table and the stream
     * indexer follows them from the stream; returns once the updates and the work are done.
     */
    private void besideRandomUpdates(StreamIndexer streamIndexer, StreamTail tail, long seed, int count, Work work) throws Exception {
        AtomicBoolean writing = new AtomicBoolean(true);
        Thread updates = new Thread(() -> {
            Random random = new Random(seed);
            for (int i = 0; i < count; i++) {
                String id = "issue#" + random.nextInt(170);
                if (random.nextInt(8) == 0) {
                    dynamoDb.deleteItem(b -> b.tableName("AppTable").key(Map.of("id", AttributeValue.fromS(id))));
                } else {
                    Map<String, AttributeValue> item = IssueFixtures.randomIssue(id, random.nextInt(40), random, random.nextInt(5));
                    dynamoDb.putItem(b -> b.tableName("AppTable").item(item));
                }
            }
            writing.set(false);
        });
        Thread stream = new Thread(() -> {
            while (writing.get()) {
                deliver(streamIndexer, tail.poll());
            }
        });
        updates.start();
        stream.start();
        work.run();
        updates.join();
        stream.join();
    }

    private StreamIndexer indexer(IndexDefinitions definitions) {
        return new StreamIndexer(new BatchPlanner(new IndexerConfig("IssueAttribIndexTable", "", definitions)),
                new DynamoDbIndexWriter(dynamoDb, "IssueAttribIndexTable", Backoff.standard(), Sleeper.SYSTEM, QUIET),
                summary -> { }, QUIET);
    }

    @Test
    void aWriteDerivedFromAVersionTheStreamHasSinceReplaced_isRefused_andLeavesNothingStale() {
        StreamTail tail = new StreamTail(dynamoDb, local.streamsClient(), "AppTable");
        StreamIndexer streamIndexer = new StreamIndexer(new BatchPlanner(new IndexerConfig("IssueAttribIndexTable", "", CONFIG)),
                new DynamoDbIndexWriter(dynamoDb, "IssueAttribIndexTable", Backoff.standard(), Sleeper.SYSTEM, QUIET),
                summary -> { }, QUIET);
        Map<String, AttributeValue> v1 = IssueFixtures.randomIssue("issue#1", 1, new Random(6), 4);
        dynamoDb.putItem(b -> b.tableName("AppTable").item(v1));
        tail.poll();
        // a backfill has read v1; then the issue changes and the stream indexer handles the change
        Map<String, AttributeValue> v2 = IssueFixtures.randomIssue("issue#1", 2, new Random(7), 3);
        dynamoDb.putItem(b -> b.tableName("AppTable").item(v2));
        deliver(streamIndexer, tail.poll());

        ConditionalIndexWriter.Outcome outcome = new ConditionalIndexWriter(dynamoDb, "AppTable", "IssueAttribIndexTable", IndexScope.all(CONFIG))
                .write(ISSUE_1, v1, new IndexProjector(CONFIG).project(ISSUE_1, v1).items().stream()
                        .<IndexChange>map(IndexChange.Put::new).toList());

        assertThat(outcome).isEqualTo(ConditionalIndexWriter.Outcome.ITEM_CHANGED);
        assertThat(index()).isEqualTo(new IndexProjector(CONFIG).project(ISSUE_1, v2).items().stream()
                .map(IndexItem::toItem).collect(java.util.stream.Collectors.toSet()));
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

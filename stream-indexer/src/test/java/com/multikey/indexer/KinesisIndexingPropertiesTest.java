package com.multikey.indexer;

import com.amazonaws.services.lambda.runtime.events.KinesisEvent.KinesisEventRecord;
import com.amazonaws.services.lambda.runtime.events.StreamsEventResponse;
import com.multikey.common.Deadline;
import com.multikey.index.IndexProjector;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import software.amazon.awssdk.services.dynamodb.model.Record;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The stream indexer's randomized histories (IndexDiffPropertiesTest's) read from a table's Kinesis streaming
 * destination, where AWS documents that a change may appear more than once and out of order: each history's records
 * put on one shard with duplicates and with records moved by a bounded distance, delivered as a Kinesis event source
 * mapping delivers them (batches from the checkpoint, restarting at the lowest reported sequence number), with random
 * index and item-state write failures. The index always ends as the index of every issue's last version.
 */
class KinesisIndexingPropertiesTest {

    private static final IndexProjector PROJECTOR = new IndexProjector(IndexDiffPropertiesTest.CONFIG.definitions());

    @Property(tries = 400)
    void duplicatesAndReordering_inAnyBatching_leaveTheIndexOfTheLastVersions(
            @ForAll("histories") List<IndexDiffPropertiesTest.Step> history,
            @ForAll @IntRange(min = 1, max = 12) int batchSize,
            @ForAll @IntRange(min = 0, max = 8) int displacement,
            @ForAll long seed) {
        IndexDiffPropertiesTest.History h = IndexDiffPropertiesTest.History.of(history);
        Random random = new Random(seed);
        Shard shard = Shard.of(h.records(), random, 0.3, displacement);

        Lambda lambda = new Lambda(batchSize);
        lambda.deliver(shard.records(), random, 0.0);

        assertThat(lambda.index.items()).isEqualTo(h.expectedIndex());
    }

    @Property(tries = 400)
    void partialFailures_onAReorderedShard_converge(@ForAll("histories") List<IndexDiffPropertiesTest.Step> history,
                                                    @ForAll @IntRange(min = 1, max = 12) int batchSize,
                                                    @ForAll @IntRange(min = 0, max = 8) int displacement,
                                                    @ForAll long seed) {
        IndexDiffPropertiesTest.History h = IndexDiffPropertiesTest.History.of(history);
        Random random = new Random(seed);
        Shard shard = Shard.of(h.records(), random, 0.3, displacement);

        Lambda lambda = new Lambda(batchSize);
        lambda.deliver(shard.records(), random, 0.3);

        assertThat(lambda.index.items()).isEqualTo(h.expectedIndex());
    }

    @Property(tries = 200)
    void theShardDeliveredAgain_writesNothing(@ForAll("histories") List<IndexDiffPropertiesTest.Step> history,
                                              @ForAll @IntRange(min = 1, max = 12) int batchSize,
                                              @ForAll @IntRange(min = 0, max = 8) int displacement,
                                              @ForAll long seed) {
        IndexDiffPropertiesTest.History h = IndexDiffPropertiesTest.History.of(history);
        Random random = new Random(seed);
        Shard shard = Shard.of(h.records(), random, 0.3, displacement);
        Lambda lambda = new Lambda(batchSize);
        lambda.deliver(shard.records(), random, 0.0);
        long indexWrites = lambda.index.writes();
        long stateWrites = lambda.states.writes();

        lambda.deliver(shard.records(), random, 0.0);

        assertThat(lambda.index.writes()).as("index writes of a shard delivered again").isEqualTo(indexWrites);
        assertThat(lambda.states.writes()).as("state writes of a shard delivered again").isEqualTo(stateWrites);
        assertThat(lambda.index.items()).isEqualTo(h.expectedIndex());
    }

    @Property(tries = 200)
    void inOrderWithoutDuplicates_writesAtMostTheInOrderIndexersWritesPerRecord(
            @ForAll("histories") List<IndexDiffPropertiesTest.Step> history) {
        IndexDiffPropertiesTest.History h = IndexDiffPropertiesTest.History.of(history);
        Lambda kinesis = new Lambda(1);
        IndexDiffPropertiesTest.Lambda streams = new IndexDiffPropertiesTest.Lambda(new InMemoryIndexWriter(), 1);

        kinesis.deliver(KinesisRecords.inOrder(h.records()), new Random(1), 0.0);
        streams.deliver(h.records(), new Random(1), 0.0);

        assertThat(kinesis.index.writes()).as("index writes: the same diff of images as on a DynamoDB stream")
                .isEqualTo(streams.writer().writes());
        assertThat(kinesis.states.writes()).as("one state write per record at most").isLessThanOrEqualTo(h.records().size());
    }

    @net.jqwik.api.Example
    void aLateInsert_afterItsRemove_doesNotBringTheItemBack() {
        // given: an issue created, then removed; the shard holds the removal first (the diff of images would put it back)
        java.util.Map<String, software.amazon.awssdk.services.dynamodb.model.AttributeValue> v1 = com.multikey.index.IssueImages.issue(
                "issue#a", "project#1", 1, new java.util.HashMap<>(java.util.Map.of("f1",
                        software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromS("x"))));
        Record insert = StreamRecords.change(1, "issue#a", null, v1);
        Record remove = StreamRecords.change(2, "issue#a", v1, null);
        Lambda lambda = new Lambda(10);

        // when
        lambda.deliver(List.of(KinesisRecords.record(remove, 0, KinesisRecords.microsOf(1)),
                KinesisRecords.record(insert, 1, KinesisRecords.microsOf(0))), new Random(1), 0.0);

        // then
        assertThat(lambda.index.items()).isEmpty();
        assertThat(lambda.states.states().values()).singleElement().satisfies(state -> assertThat(state.removed()).isTrue());
    }

    @org.junit.jupiter.api.Test
    void aModifyBeforeItsInsert_withNoStateYet_putsWhatItsNewImageIndexes() {
        // given: an issue created, then written again; the shard holds the second write first, when the item has no
        // state: its old image equals its new one, so a diff of the two would write nothing
        java.util.Map<String, software.amazon.awssdk.services.dynamodb.model.AttributeValue> v1 = com.multikey.index.IssueImages.issue(
                "issue#a", "project#1", 1, new java.util.HashMap<>(java.util.Map.of("f1",
                        software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromS("x"))));
        Record insert = StreamRecords.change(1, "issue#a", null, v1);
        Record modify = StreamRecords.change(2, "issue#a", v1, v1);
        Lambda lambda = new Lambda(1);

        // when
        lambda.deliver(List.of(KinesisRecords.record(modify, 0, KinesisRecords.microsOf(1)),
                KinesisRecords.record(insert, 1, KinesisRecords.microsOf(0))), new Random(1), 0.0);

        // then
        assertThat(lambda.index.items().keySet()).singleElement().satisfies(key -> assertThat(key.attribId()).isEqualTo("f1"));
    }

    @org.junit.jupiter.api.Test
    void aRecordAfterALostRange_whoseItemWasRepairedFromTheTable_leavesTheIndexOfItsNewImage() {
        // given: v1 indexed; v2 lost to the indexer (its batch given up on) and the item's index repaired from the table
        // to v2 (redrive, verify --repair), the item's state still v1's; then v3, whose old image is v2
        java.util.Map<String, software.amazon.awssdk.services.dynamodb.model.AttributeValue> v1 = issueWith("a", "x");
        java.util.Map<String, software.amazon.awssdk.services.dynamodb.model.AttributeValue> v2 = issueWith("b", "y");
        java.util.Map<String, software.amazon.awssdk.services.dynamodb.model.AttributeValue> v3 = issueWith("c", "x");
        Lambda lambda = new Lambda(10);
        lambda.deliver(List.of(KinesisRecords.record(StreamRecords.change(1, "issue#a", null, v1), 0, KinesisRecords.microsOf(0))),
                new Random(1), 0.0);
        com.multikey.index.ItemKey item = PROJECTOR.keyOf(java.util.Map.of("id",
                software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromS("issue#a"))).orElseThrow();
        lambda.index.write(VersionedBatchPlanner.repair(PROJECTOR, item, v1, v2), Deadline.after(Duration.ofMinutes(1)));

        // when
        lambda.deliver(List.of(KinesisRecords.record(StreamRecords.change(3, "issue#a", v2, v3), 2, KinesisRecords.microsOf(2))),
                new Random(1), 0.0);

        // then: v3's index items, none of v2's left behind, none of v3's missing because v1 held them
        assertThat(lambda.index.items().values()).containsExactlyInAnyOrderElementsOf(PROJECTOR.project(item, v3).items());
    }

    private static java.util.Map<String, software.amazon.awssdk.services.dynamodb.model.AttributeValue> issueWith(String f1, String f2) {
        return com.multikey.index.IssueImages.issue("issue#a", "project#1", 1, new java.util.HashMap<>(java.util.Map.of(
                "f1", software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromS(f1),
                "f2", software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromS(f2))));
    }

    /** One shard of the Kinesis stream: the history's changes with duplicates, each moved by at most a bounded distance. */
    record Shard(List<KinesisEventRecord> records) {

        static Shard of(List<Record> changes, Random random, double duplicateRate, int displacement) {
            record Placed(Record change, int historyIndex, double at) {
            }
            List<Placed> placed = new ArrayList<>();
            for (int i = 0; i < changes.size(); i++) {
                placed.add(new Placed(changes.get(i), i, i + random.nextDouble() * (displacement + 1)));
                while (random.nextDouble() < duplicateRate) {
                    placed.add(new Placed(changes.get(i), i, i + random.nextDouble() * (2 * displacement + 1)));
                }
            }
            placed.sort(Comparator.comparingDouble(Placed::at));
            List<KinesisEventRecord> records = new ArrayList<>();
            for (int position = 0; position < placed.size(); position++) {
                Placed p = placed.get(position);
                records.add(KinesisRecords.record(p.change(), position, KinesisRecords.microsOf(p.historyIndex())));
            }
            return new Shard(records);
        }
    }

    /** A Kinesis event source mapping with ReportBatchItemFailures over one shard, and the indexer it invokes. */
    static final class Lambda {
        final InMemoryIndexWriter index = new InMemoryIndexWriter();
        final InMemoryItemStates states = new InMemoryItemStates();
        private final int batchSize;

        Lambda(int batchSize) {
            this.batchSize = batchSize;
        }

        void deliver(List<KinesisEventRecord> all, Random random, double failureRate) {
            int position = 0;
            int attempts = 0;
            while (position < all.size()) {
                List<KinesisEventRecord> batch = all.subList(position, Math.min(all.size(), position + batchSize));
                boolean mayFail = failureRate > 0 && attempts++ < 200;
                index.failWhen(change -> mayFail && random.nextDouble() < failureRate);
                states.failWhen(state -> mayFail && random.nextDouble() < failureRate);
                StreamsEventResponse response = new VersionedStreamIndexer(() -> PROJECTOR, "id", states, index,
                        new RecordingMetrics(), IndexerFixtures.quietLog()).process(batch, Deadline.after(Duration.ofMinutes(1)));
                index.failWhen(change -> false);
                states.failWhen(state -> false);
                if (response.getBatchItemFailures().isEmpty()) {
                    position += batch.size();
                    continue;
                }
                Set<String> failed = response.getBatchItemFailures().stream()
                        .map(StreamsEventResponse.BatchItemFailure::getItemIdentifier).collect(Collectors.toSet());
                int firstFailed = -1;
                for (int i = 0; i < batch.size(); i++) {
                    if (failed.contains(batch.get(i).getKinesis().getSequenceNumber())) {
                        firstFailed = i;
                        break;
                    }
                }
                assertThat(firstFailed).as("reported failures name records of the batch").isNotNegative();
                position += firstFailed;
            }
        }
    }

    @Provide
    Arbitrary<List<IndexDiffPropertiesTest.Step>> histories() {
        return new IndexDiffPropertiesTest().histories();
    }
}

package com.multikey.indexer;

import com.amazonaws.services.lambda.runtime.events.DynamodbEvent.DynamodbStreamRecord;
import com.amazonaws.services.lambda.runtime.events.StreamsEventResponse;
import com.multikey.common.Deadline;
import com.multikey.index.IndexChange;
import com.multikey.index.IndexItem;
import com.multikey.index.IndexKey;
import com.multikey.index.IndexProjector;
import com.multikey.index.IssueImages;
import com.multikey.index.ItemKey;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.Record;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * For random histories of issue versions: the index after the stream records is exactly the index of
 * every issue's last version, whatever the batching, after replays of any suffix, and after partial
 * failures answered the way Lambda answers them.
 */
class IndexDiffPropertiesTest {

    static final List<String> ISSUES = List.of("issue#a", "issue#b", "issue#c");
    static final IndexerConfig CONFIG = new IndexerConfig("index");

    /** One step of a history: an issue gets a new version, or is removed (empty). */
    record Step(int issue, Optional<Map<String, AttributeValue>> version) {
    }

    @Property(tries = 300)
    void records_inAnyBatching_leaveTheIndexOfTheLastVersions(@ForAll("histories") List<Step> history,
                                                              @ForAll @IntRange(min = 1, max = 12) int batchSize) {
        History h = History.of(history);
        InMemoryIndexWriter index = new InMemoryIndexWriter();

        new Lambda(index, batchSize).deliver(h.records, new Random(1), 0.0);

        assertThat(index.items()).isEqualTo(h.expectedIndex());
    }

    @Property(tries = 300)
    void replayingAnySuffix_leavesTheSameIndex(@ForAll("histories") List<Step> history,
                                               @ForAll @IntRange(min = 1, max = 12) int batchSize,
                                               @ForAll @IntRange(max = 60) int replayFrom) {
        History h = History.of(history);
        InMemoryIndexWriter index = new InMemoryIndexWriter();
        Lambda lambda = new Lambda(index, batchSize);
        lambda.deliver(h.records, new Random(1), 0.0);

        lambda.deliver(h.records.subList(Math.min(replayFrom, h.records.size()), h.records.size()), new Random(2), 0.0);

        assertThat(index.items()).isEqualTo(h.expectedIndex());
    }

    @Property(tries = 300)
    void partialFailures_retriedFromTheReportedRecord_converge(@ForAll("histories") List<Step> history,
                                                               @ForAll @IntRange(min = 1, max = 12) int batchSize,
                                                               @ForAll long seed) {
        History h = History.of(history);
        InMemoryIndexWriter index = new InMemoryIndexWriter();

        new Lambda(index, batchSize).deliver(h.records, new Random(seed), 0.3);

        assertThat(index.items()).isEqualTo(h.expectedIndex());
    }

    @Property(tries = 200)
    void unchangedIndexedContent_writesNothing(@ForAll("images") Map<String, AttributeValue> image, @ForAll("strings") String newName) {
        InMemoryIndexWriter index = new InMemoryIndexWriter();
        Map<String, AttributeValue> renamed = IssueImages.with(image, "name", AttributeValue.fromS(newName));

        indexer(index).process(StreamRecords.lambdaRecords(List.of(StreamRecords.change(1, "issue#a", image, renamed))),
                Deadline.after(Duration.ofMinutes(1)));

        assertThat(index.writes()).isZero();
    }

    static StreamIndexer indexer(IndexWriter writer) {
        return new StreamIndexer(new BatchPlanner(CONFIG), writer, new RecordingMetrics(), IndexerFixtures.quietLog());
    }

    /** A history turned into stream records, with the index its last versions imply. */
    record History(List<Record> records, Map<String, Map<String, AttributeValue>> last) {

        static History of(List<Step> steps) {
            Map<String, Map<String, AttributeValue>> current = new LinkedHashMap<>();
            List<Record> records = new ArrayList<>();
            long sequence = 100;
            for (Step step : steps) {
                String id = ISSUES.get(step.issue());
                Map<String, AttributeValue> before = current.get(id);
                Map<String, AttributeValue> after = step.version().map(v -> IssueImages.with(v, "id", AttributeValue.fromS(id))).orElse(null);
                if (before == null && after == null) {
                    continue;
                }
                records.add(StreamRecords.change(sequence++, id, before, after));
                if (after == null) {
                    current.remove(id);
                } else {
                    current.put(id, after);
                }
            }
            return new History(records, current);
        }

        Map<IndexKey, IndexItem> expectedIndex() {
            IndexProjector projector = new IndexProjector(CONFIG.definitions());
            InMemoryIndexWriter expected = new InMemoryIndexWriter();
            List<IndexChange> puts = last.entrySet().stream()
                    .flatMap(e -> projector.project(ItemKey.ofString("id", e.getKey()), e.getValue()).items().stream())
                    .<IndexChange>map(IndexChange.Put::new).toList();
            expected.write(puts, Deadline.after(Duration.ofMinutes(1)));
            return expected.items();
        }
    }

    /**
     * Delivers records the way a Lambda event source mapping does with partial batch responses: batches
     * from the checkpoint, and after a reported failure the next batch starts at the lowest reported
     * sequence number.
     */
    record Lambda(InMemoryIndexWriter writer, int batchSize, IndexerConfig config) {

        Lambda(InMemoryIndexWriter writer, int batchSize) {
            this(writer, batchSize, CONFIG);
        }

        void deliver(List<Record> records, Random random, double failureRate) {
            List<DynamodbStreamRecord> all = StreamRecords.lambdaRecords(records);
            int position = 0;
            int attempts = 0;
            while (position < all.size()) {
                List<DynamodbStreamRecord> batch = all.subList(position, Math.min(all.size(), position + batchSize));
                boolean mayFail = failureRate > 0 && attempts++ < 200;
                writer.failWhen(change -> mayFail && random.nextDouble() < failureRate);
                StreamsEventResponse response = new StreamIndexer(new BatchPlanner(config), writer, new RecordingMetrics(),
                        IndexerFixtures.quietLog()).process(batch, Deadline.after(Duration.ofMinutes(1)));
                writer.failWhen(change -> false);
                if (response.getBatchItemFailures().isEmpty()) {
                    position += batch.size();
                    continue;
                }
                Set<String> failed = response.getBatchItemFailures().stream()
                        .map(StreamsEventResponse.BatchItemFailure::getItemIdentifier).collect(Collectors.toSet());
                int firstFailed = -1;
                for (int i = 0; i < batch.size(); i++) {
                    if (failed.contains(batch.get(i).getDynamodb().getSequenceNumber())) {
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
    Arbitrary<List<Step>> histories() {
        Arbitrary<Step> step = Combinators.combine(
                Arbitraries.integers().between(0, ISSUES.size() - 1),
                images().optional(0.85)).as(Step::new);
        return step.list().ofMinSize(1).ofMaxSize(40);
    }

    @Provide
    Arbitrary<Map<String, AttributeValue>> images() {
        Arbitrary<Map<String, AttributeValue>> fields = Arbitraries.maps(Arbitraries.of("f1", "f2", "f3", "f4"), values())
                .ofMaxSize(4);
        Arbitrary<Map<String, AttributeValue>> image = Combinators.combine(
                Arbitraries.of("project#1", "project#2"), Arbitraries.integers().between(1, 3), fields)
                .as((project, num, f) -> IssueImages.issue("issue#?", project, num, new HashMap<>(f)));
        return Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(20, image),
                net.jqwik.api.Tuple.of(1, image.map(i -> IssueImages.with(i, "custom_fields", AttributeValue.fromS("not a map")))),
                net.jqwik.api.Tuple.of(1, image.map(i -> IssueImages.with(i, "num", AttributeValue.fromS("one")))));
    }

    @Provide
    Arbitrary<String> strings() {
        return Arbitraries.of("", "a", "a\u0001", "ab", "\uD83D\uDE00", "x".repeat(1500) + "1", "x".repeat(1500) + "2");
    }

    Arbitrary<AttributeValue> scalars() {
        return Arbitraries.oneOf(
                strings().map(AttributeValue::fromS),
                Arbitraries.of("1", "1.0", "2", "-3.5", "1e2", "100").map(AttributeValue::fromN),
                Arbitraries.of(true, false).map(AttributeValue::fromBool));
    }

    Arbitrary<AttributeValue> values() {
        return Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(10, scalars()),
                net.jqwik.api.Tuple.of(3, Arbitraries.oneOf(scalars(), Arbitraries.just(AttributeValue.fromNul(true)))
                        .list().ofMaxSize(4).map(AttributeValue::fromL)),
                net.jqwik.api.Tuple.of(2, strings().set().ofMinSize(1).ofMaxSize(3).map(s -> AttributeValue.fromSs(List.copyOf(s)))),
                net.jqwik.api.Tuple.of(2, Arbitraries.of("1", "2", "3.25", "-7").set().ofMinSize(1).ofMaxSize(3)
                        .map(s -> AttributeValue.fromNs(List.copyOf(s)))),
                net.jqwik.api.Tuple.of(1, Arbitraries.just(AttributeValue.fromNul(true))),
                net.jqwik.api.Tuple.of(1, Arbitraries.just(AttributeValue.fromM(Map.of("nested", AttributeValue.fromS("x"))))));
    }
}

package com.multikey.indexer;

import com.amazonaws.services.lambda.runtime.events.DynamodbEvent.DynamodbStreamRecord;
import com.amazonaws.services.lambda.runtime.events.StreamsEventResponse;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.multikey.common.Backoff;
import com.multikey.common.Deadline;
import com.multikey.index.IssueImages;
import com.multikey.index.definition.IndexDefinitions;
import com.multikey.router.ChangeEventFactory;
import com.multikey.router.EventPublisher;
import com.multikey.router.OrderedEventSender;
import com.multikey.router.Router;
import com.multikey.router.RouterConfig;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import software.amazon.awssdk.awscore.AwsRequestOverrideConfiguration;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.eventbridge.model.PutEventsRequestEntry;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.random.RandomGenerator;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The stream indexer's randomized histories (IndexDiffPropertiesTest's) through the one-reader consumer, delivered as
 * Lambda delivers them (from the lowest reported record), with random failures of either job: the index ends exact,
 * every record's event is accepted exactly once and in order per item, and a job never redoes what it finished: a
 * failing route job re-indexes no record, a failing index job re-sends no event.
 */
class StreamConsumerPropertiesTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Property(tries = 300)
    void eitherJobFailing_leavesTheExactIndex_andEveryEventOnceInItemOrder(@ForAll("histories") List<IndexDiffPropertiesTest.Step> history,
                                                                         @ForAll @IntRange(min = 1, max = 12) int batchSize,
                                                                         @ForAll long seed) {
        IndexDiffPropertiesTest.History h = IndexDiffPropertiesTest.History.of(history);
        Pipeline pipeline = new Pipeline(new Random(seed), 0.3, 0.3);

        pipeline.deliver(h.records(), batchSize);

        assertThat(pipeline.index.items()).isEqualTo(h.expectedIndex());
        assertOncePerRecordInItemOrder(pipeline.publisher.acceptedSequences(), h.records());
    }

    @Property(tries = 200)
    void aFailingRouteJob_neverHandsTheIndexJobARecordTwice(@ForAll("histories") List<IndexDiffPropertiesTest.Step> history,
                                                            @ForAll @IntRange(min = 1, max = 12) int batchSize, @ForAll long seed) {
        IndexDiffPropertiesTest.History h = IndexDiffPropertiesTest.History.of(history);
        Pipeline routeFailing = new Pipeline(new Random(seed), 0.0, 0.4);

        routeFailing.deliver(h.records(), batchSize);

        assertThat(routeFailing.indexed).as("each record indexed once: a route failure re-indexes nothing")
                .containsExactlyElementsOf(h.records().stream().map(r -> r.dynamodb().sequenceNumber()).toList());
        assertThat(routeFailing.index.items()).isEqualTo(h.expectedIndex());
        assertOncePerRecordInItemOrder(routeFailing.publisher.acceptedSequences(), h.records());
    }

    @Property(tries = 200)
    void aFailingIndexJob_resendsNoEvent(@ForAll("histories") List<IndexDiffPropertiesTest.Step> history,
                                         @ForAll @IntRange(min = 1, max = 12) int batchSize, @ForAll long seed) {
        IndexDiffPropertiesTest.History h = IndexDiffPropertiesTest.History.of(history);
        Pipeline indexFailing = new Pipeline(new Random(seed), 0.4, 0.0);

        indexFailing.deliver(h.records(), batchSize);

        assertThat(indexFailing.publisher.calls).as("no PutEvents entry ever sent twice").isEqualTo(h.records().size());
        assertThat(indexFailing.index.items()).isEqualTo(h.expectedIndex());
    }

    /**
     * The shape of a counterexample once reported (only the route job failing, the record after the first handed to the
     * index job twice), scripted: the route job fails the second record once; the redelivery, from that record, hands the
     * index job nothing it finished and the route job what it did not.
     */
    @Example
    void aRouteFailureOnTheSecondRecord_redeliversItToTheRouteJobOnly() {
        List<Record> records = List.of(issue("000000000000000000100", "issue#a", 1), issue("000000000000000000101", "issue#b", 1),
                issue("000000000000000000102", "issue#a", 2));
        Scripted scripted = new Scripted(Set.of(), Set.of("000000000000000000101"));

        scripted.deliver(records, 3);

        assertThat(scripted.handedToIndex).as("each record handed to the index job once")
                .containsExactly("000000000000000000100", "000000000000000000101", "000000000000000000102");
        assertThat(scripted.handedToRoute).as("the redelivery from the failed record: only it and the later one of its batch")
                .containsExactly("000000000000000000100", "000000000000000000101", "000000000000000000102",
                        "000000000000000000101", "000000000000000000102");
        assertThat(scripted.routed).containsExactly("000000000000000000100", "000000000000000000101", "000000000000000000102");
    }

    /**
     * Sequence numbers are decimal strings of varying length (21 to 40 digits) and Lambda restarts at the numerically lowest
     * reported record: where a shard's numbers gain a digit, the lowest is not the first as text ("999…" before "1000…").
     * The progress is kept under the record Lambda restarts at, so neither job gets again what it finished.
     */
    @Example
    void failuresAcrossADigitMoreInTheSequenceNumbers_restartAtTheNumericallyLowest() {
        String nines = "9".repeat(21);
        String tenPower = "1" + "0".repeat(21);
        String next = "1" + "0".repeat(20) + "1";
        List<Record> records = List.of(issue(nines, "issue#a", 1), issue(tenPower, "issue#b", 1), issue(next, "issue#c", 1));
        Scripted routeFailing = new Scripted(Set.of(), Set.of(nines, tenPower));

        routeFailing.deliver(records, 3);

        assertThat(routeFailing.handedToIndex).as("each record handed to the index job once").containsExactly(nines, tenPower, next);
        assertThat(routeFailing.routed).as("each event once").containsExactly(nines, tenPower, next);

        Scripted indexFailing = new Scripted(Set.of(nines, tenPower), Set.of());

        indexFailing.deliver(records, 3);

        assertThat(indexFailing.handedToRoute).as("each record handed to the route job once").containsExactly(nines, tenPower, next);
        assertThat(indexFailing.indexed).as("each record indexed once").containsExactly(nines, tenPower, next);
    }

    /** An insert of an issue, as its stream record with this sequence number (event id {@code event-<sequence>}). */
    private static Record issue(String sequence, String id, int num) {
        Record record = StreamRecords.change(1, id, null, IssueImages.issue(id, "project#1", num, Map.of()));
        return record.toBuilder().eventID("event-" + sequence)
                .dynamodb(record.dynamodb().toBuilder().sequenceNumber(sequence).build()).build();
    }

    /**
     * The consumer with scripted jobs, delivered to as Lambda delivers (again from the numerically lowest reported record):
     * each job fails the records it is told to, the first time it is handed each, and keeps what it was handed and what it did.
     */
    static final class Scripted {
        final List<String> handedToIndex = new ArrayList<>();
        final List<String> indexed = new ArrayList<>();
        final List<String> handedToRoute = new ArrayList<>();
        final List<String> routed = new ArrayList<>();
        private final Set<String> indexFailsOnce;
        private final Set<String> routeFailsOnce;
        private final StreamConsumer consumer;

        Scripted(Set<String> indexFailsOnce, Set<String> routeFailsOnce) {
            this.indexFailsOnce = new HashSet<>(indexFailsOnce);
            this.routeFailsOnce = new HashSet<>(routeFailsOnce);
            this.consumer = new StreamConsumer((records, deadline) -> job(records, handedToIndex, indexed, this.indexFailsOnce),
                    (records, deadline) -> job(records, handedToRoute, routed, this.routeFailsOnce), new InMemoryJobCheckpoints(),
                    IndexerFixtures.quietLog());
        }

        /** Fails the records it is told to fail and, not doing them, every later one of the batch. */
        private static StreamsEventResponse job(List<DynamodbStreamRecord> records, List<String> handed, List<String> done,
                                                Set<String> failsOnce) {
            List<StreamsEventResponse.BatchItemFailure> failures = new ArrayList<>();
            for (DynamodbStreamRecord record : records) {
                String sequence = record.getDynamodb().getSequenceNumber();
                handed.add(sequence);
                if (failsOnce.remove(sequence)) {
                    failures.add(new StreamsEventResponse.BatchItemFailure(sequence));
                } else if (failures.isEmpty()) {
                    done.add(sequence);
                } else {
                    failures.add(new StreamsEventResponse.BatchItemFailure(sequence));
                }
            }
            return new StreamsEventResponse(failures);
        }

        void deliver(List<Record> records, int batchSize) {
            List<DynamodbStreamRecord> all = StreamRecords.lambdaRecords(records);
            int position = 0;
            while (position < all.size()) {
                List<DynamodbStreamRecord> batch = all.subList(position, Math.min(all.size(), position + batchSize));
                Set<BigInteger> failed = consumer.process(batch, Deadline.after(Duration.ofMinutes(1))).getBatchItemFailures().stream()
                        .map(f -> new BigInteger(f.getItemIdentifier())).collect(Collectors.toSet());
                if (failed.isEmpty()) {
                    position += batch.size();
                    continue;
                }
                BigInteger lowest = failed.stream().min(Comparator.naturalOrder()).orElseThrow();
                int restart = 0;
                while (!new BigInteger(batch.get(restart).getDynamodb().getSequenceNumber()).equals(lowest)) {
                    restart++;
                }
                position += restart;
            }
        }
    }

    @Provide
    Arbitrary<List<IndexDiffPropertiesTest.Step>> histories() {
        return new IndexDiffPropertiesTest().histories();
    }

    /** Every record's event accepted exactly once, and each item's events in stream order. */
    private static void assertOncePerRecordInItemOrder(List<String> accepted, List<Record> records) {
        assertThat(accepted).as("each record's event once: none lost, none twice")
                .containsExactlyInAnyOrderElementsOf(records.stream().map(r -> r.dynamodb().sequenceNumber()).toList());
        Map<String, String> itemOf = new LinkedHashMap<>();
        records.forEach(r -> itemOf.put(r.dynamodb().sequenceNumber(), r.dynamodb().keys().toString()));
        Map<String, List<String>> byItem = new LinkedHashMap<>();
        accepted.forEach(sequence -> byItem.computeIfAbsent(itemOf.get(sequence), k -> new ArrayList<>()).add(sequence));
        byItem.forEach((item, sequences) -> assertThat(sequences).as("events of " + item + " in stream order").isSorted());
    }

    /** A publisher that refuses entries at random with a transient code, and keeps what it accepted. */
    static final class FlakyPublisher implements EventPublisher {
        private final Random random;
        private final double failureRate;
        final List<String> accepted = new ArrayList<>();
        int calls;
        boolean failing = true;

        FlakyPublisher(Random random, double failureRate) {
            this.random = random;
            this.failureRate = failureRate;
        }

        @Override
        public synchronized List<EntryResult> publish(List<PutEventsRequestEntry> entries, AwsRequestOverrideConfiguration override) {
            List<EntryResult> results = new ArrayList<>();
            for (PutEventsRequestEntry entry : entries) {
                calls++;
                if (failing && random.nextDouble() < failureRate) {
                    results.add(new EntryResult.Failed("ThrottlingException"));
                } else {
                    accepted.add(entry.detail());
                    results.add(EntryResult.ACCEPTED);
                }
            }
            return results;
        }

        List<String> acceptedSequences() {
            return accepted.stream().map(detail -> {
                try {
                    JsonNode node = JSON.readTree(detail);
                    return node.path("sequenceNumber").asText();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }).toList();
        }
    }

    /** The consumer with an in-memory index, a flaky bus and in-memory checkpoints, delivered to as Lambda delivers. */
    static final class Pipeline {
        final InMemoryIndexWriter index = new InMemoryIndexWriter();
        final FlakyPublisher publisher;
        final InMemoryJobCheckpoints checkpoints = new InMemoryJobCheckpoints();
        /** The sequence numbers handed to the index job, in the order it was handed them. */
        final List<String> indexed = new ArrayList<>();
        private final Random random;
        private final double indexFailureRate;
        private final StreamConsumer consumer;

        Pipeline(Random random, double indexFailureRate, double routeFailureRate) {
            this.random = random;
            this.indexFailureRate = indexFailureRate;
            this.publisher = new FlakyPublisher(new Random(random.nextLong()), routeFailureRate);
            StreamIndexer indexer = new StreamIndexer(new BatchPlanner(IndexDiffPropertiesTest.CONFIG), index, new RecordingMetrics(),
                    IndexerFixtures.quietLog());
            Router router = new Router(new ChangeEventFactory(new RouterConfig("bus", "multikey.app-table",
                    "arn:aws:dynamodb:us-east-1:123456789012:table/AppTable", IndexDefinitions.packaged(), true, RouterConfig.DEFAULT_MAX_ENTRY_BYTES)),
                    new OrderedEventSender(publisher, "bus", RouterConfig.DEFAULT_MAX_ENTRY_BYTES,
                            new Backoff(Duration.ofMillis(1), Duration.ofMillis(2), RandomGenerator.of("L64X128MixRandom")), wait -> { }, 1),
                    summary -> { }, IndexerFixtures.quietLog());
            this.consumer = new StreamConsumer((records, deadline) -> {
                records.forEach(r -> indexed.add(r.getDynamodb().getSequenceNumber()));
                return indexer.process(records, deadline);
            }, router::process, checkpoints, IndexerFixtures.quietLog());
        }

        void deliver(List<Record> records, int batchSize) {
            List<DynamodbStreamRecord> all = StreamRecords.lambdaRecords(records);
            int position = 0;
            int attempts = 0;
            while (position < all.size()) {
                List<DynamodbStreamRecord> batch = all.subList(position, Math.min(all.size(), position + batchSize));
                boolean mayFail = attempts++ < 200;
                index.failWhen(change -> mayFail && random.nextDouble() < indexFailureRate);
                publisher.failing = mayFail;
                StreamsEventResponse response = consumer.process(batch, Deadline.after(Duration.ofMinutes(1)));
                Set<String> failed = response.getBatchItemFailures().stream()
                        .map(StreamsEventResponse.BatchItemFailure::getItemIdentifier).collect(Collectors.toSet());
                if (failed.isEmpty()) {
                    position += batch.size();
                    continue;
                }
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
            index.failWhen(change -> false);
        }
    }

}

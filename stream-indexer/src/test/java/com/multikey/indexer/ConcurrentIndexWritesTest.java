package com.multikey.indexer;

import com.amazonaws.services.lambda.runtime.events.StreamsEventResponse;
import com.multikey.common.Backoff;
import com.multikey.common.BoundedCalls;
import com.multikey.common.Deadline;
import com.multikey.index.IndexChange;
import com.multikey.index.IndexItem;
import com.multikey.index.IndexKey;
import com.multikey.index.IndexValue;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import java.util.stream.IntStream;

import static com.multikey.index.IssueImages.issue;
import static com.multikey.index.IssueImages.s;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The BatchWriteItem calls of one batch sent concurrently: they do overlap, never more than the bound, and what
 * fails maps to exactly the records it would map to with one call at a time.
 */
class ConcurrentIndexWritesTest {

    private static final String TABLE = "index";

    /**
     * A thread-safe BatchWriteItem that records how many calls overlap, holds the first calls until
     * {@code holdFirst} of them are in flight together (so the test proves they overlap), and fails the calls
     * holding a request that {@code failing} (a server error, every time) or {@code invalid} (a
     * ValidationException) picks.
     */
    private static final class OverlapRecordingClient implements DynamoDbClient {
        final AtomicInteger inFlight = new AtomicInteger();
        final AtomicInteger mostInFlight = new AtomicInteger();
        final AtomicInteger calls = new AtomicInteger();
        final Set<Map<String, ?>> written = ConcurrentHashMap.newKeySet();
        final CountDownLatch together;
        Predicate<WriteRequest> failing = request -> false;
        Predicate<WriteRequest> invalid = request -> false;

        OverlapRecordingClient(int holdFirst) {
            this.together = new CountDownLatch(holdFirst);
        }

        @Override
        public BatchWriteItemResponse batchWriteItem(BatchWriteItemRequest request) {
            if (request.overrideConfiguration().flatMap(o -> o.apiCallTimeout()).isEmpty()) {
                throw new AssertionError("every call must carry an apiCallTimeout");
            }
            mostInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
            calls.incrementAndGet();
            try {
                together.countDown();
                if (!together.await(30, TimeUnit.SECONDS)) {
                    throw new AssertionError("the calls were never in flight together");
                }
                List<WriteRequest> requests = request.requestItems().get(TABLE);
                if (requests.stream().anyMatch(failing)) {
                    throw error(500, "InternalServerError");
                }
                if (requests.stream().anyMatch(invalid)) {
                    throw error(400, "ValidationException");
                }
                requests.forEach(r -> written.add(r.putRequest() != null ? r.putRequest().item() : r.deleteRequest().key()));
                return BatchWriteItemResponse.builder().build();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            } finally {
                inFlight.decrementAndGet();
            }
        }

        private static DynamoDbException error(int status, String code) {
            return (DynamoDbException) DynamoDbException.builder().statusCode(status)
                    .awsErrorDetails(AwsErrorDetails.builder().errorCode(code).errorMessage("scripted").build())
                    .message("scripted " + code).build();
        }

        @Override
        public String serviceName() {
            return "dynamodb";
        }

        @Override
        public void close() {
        }
    }

    private static DynamoDbIndexWriter writer(DynamoDbClient client, int concurrency) {
        return new DynamoDbIndexWriter(client, TABLE, new Backoff(Duration.ofMillis(1), Duration.ofMillis(2), new Random(1)),
                wait -> { }, IndexerFixtures.quietLog(), new BoundedCalls(concurrency));
    }

    private static IndexChange put(int issue) {
        return new IndexChange.Put(IndexItem.of("f", new IndexValue.Text("v"), "issue#" + issue, "p", BigDecimal.ONE));
    }

    private static boolean isIssue(WriteRequest request, Set<String> issues) {
        return request.putRequest() != null && issues.contains(request.putRequest().item().get("issueId").s());
    }

    private static Deadline plenty() {
        return Deadline.after(Duration.ofMinutes(1));
    }

    @Test
    void write_sendsCallsConcurrently_neverMoreThanTheBound() {
        // given: 200 puts = 8 calls of 25, at most 4 at once
        OverlapRecordingClient client = new OverlapRecordingClient(4);
        List<IndexChange> changes = IntStream.range(0, 200).mapToObj(ConcurrentIndexWritesTest::put).toList();

        // when
        IndexWriter.WriteResult result = writer(client, 4).write(changes, plenty());

        // then
        assertThat(result).isEqualTo(IndexWriter.WriteResult.ALL_WRITTEN);
        assertThat(client.calls.get()).isEqualTo(8);
        assertThat(client.mostInFlight.get()).isEqualTo(4);
        assertThat(client.written).hasSize(200);
    }

    @Test
    void write_whenOneOfSeveralConcurrentCallsFails_reportsExactlyThatCallsKeys() {
        // given: the fourth call (issues 75..99) fails on every attempt; another holds one request DynamoDB refuses
        OverlapRecordingClient client = new OverlapRecordingClient(4);
        client.failing = request -> isIssue(request, Set.of("issue#80"));
        client.invalid = request -> isIssue(request, Set.of("issue#130"));
        List<IndexChange> changes = IntStream.range(0, 200).mapToObj(ConcurrentIndexWritesTest::put).toList();

        // when
        IndexWriter.WriteResult result = writer(client, 4).write(changes, plenty());

        // then: exactly the failing call's keys are unwritten; the refused request alone is refused; the rest is written
        Set<IndexKey> failedCall = IntStream.range(75, 100).mapToObj(i -> changes.get(i).key())
                .collect(java.util.stream.Collectors.toSet());
        assertThat(result.unwritten()).isEqualTo(failedCall);
        assertThat(result.refused()).containsExactly(new IndexWriter.Refused(changes.get(130).key(), "ValidationException"));
        assertThat(client.written).hasSize(200 - 25 - 1 + 1); // the refused put's key is cleared by a delete
        assertThat(client.mostInFlight.get()).isLessThanOrEqualTo(4);
    }

    @Test
    void write_concurrentAndSequential_giveTheSameResult() {
        Set<String> failing = Set.of("issue#3", "issue#111", "issue#199");
        Set<String> invalid = Set.of("issue#40", "issue#41", "issue#160");
        List<IndexChange> changes = IntStream.range(0, 200).mapToObj(ConcurrentIndexWritesTest::put).toList();
        List<IndexWriter.WriteResult> results = new ArrayList<>();
        for (int concurrency : new int[] {1, 6}) {
            OverlapRecordingClient client = new OverlapRecordingClient(concurrency);
            client.failing = request -> isIssue(request, failing);
            client.invalid = request -> isIssue(request, invalid);
            results.add(writer(client, concurrency).write(changes, plenty()));
        }

        assertThat(results.get(1)).isEqualTo(results.get(0));
        assertThat(results.get(0).unwritten()).hasSize(75);
        assertThat(results.get(0).refused()).hasSize(3);
    }

    @Test
    void process_whenOneConcurrentCallFails_reportsTheFirstRecordOfExactlyItsIssues() {
        // given: 60 issues, one record each, one field each: calls of issues 0-24, 25-49, 50-59; the second fails
        OverlapRecordingClient client = new OverlapRecordingClient(3);
        client.failing = request -> isIssue(request, Set.of("issue#30"));
        StreamIndexer indexer = new StreamIndexer(new BatchPlanner(new IndexerConfig(TABLE)),
                writer(client, 3), summary -> { }, IndexerFixtures.quietLog());
        List<software.amazon.awssdk.services.dynamodb.model.Record> records = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            records.add(StreamRecords.change(100 + i, "issue#" + i, null, issue("issue#" + i, "p", i, Map.of("f", s("v" + i)))));
        }

        // when
        StreamsEventResponse response = indexer.process(StreamRecords.lambdaRecords(records), plenty());

        // then
        List<String> expected = IntStream.range(25, 50).mapToObj(i -> String.format("%021d", 100 + i)).toList();
        assertThat(response.getBatchItemFailures()).extracting(StreamsEventResponse.BatchItemFailure::getItemIdentifier)
                .containsExactlyInAnyOrderElementsOf(expected);
        assertThat(client.written).hasSize(35);
        assertThat(client.mostInFlight.get()).isEqualTo(3);
    }
}

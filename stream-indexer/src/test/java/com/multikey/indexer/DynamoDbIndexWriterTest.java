package com.multikey.indexer;

import com.multikey.common.Backoff;
import com.multikey.common.Deadline;
import com.multikey.index.DynamoDbLimits;
import com.multikey.index.IndexChange;
import com.multikey.index.IndexItem;
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
import java.util.function.Predicate;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/** The writer against a scripted client: how refusals are isolated and which failures are retried. */
class DynamoDbIndexWriterTest {

    private static final String TABLE = "index";

    /** Refuses a whole call as AWS does when one request in it is invalid; records what it wrote. */
    private static final class ScriptedClient implements DynamoDbClient {
        final List<Map<String, ?>> written = new ArrayList<>();
        final List<Map<String, ?>> deleted = new ArrayList<>();
        final List<Integer> callSizes = new ArrayList<>();
        Predicate<WriteRequest> invalid = request -> false;
        String wholeCallError;
        int unprocessedCallsLeft;

        @Override
        public BatchWriteItemResponse batchWriteItem(BatchWriteItemRequest request) {
            List<WriteRequest> requests = request.requestItems().get(TABLE);
            callSizes.add(requests.size());
            if (request.overrideConfiguration().flatMap(o -> o.apiCallTimeout()).isEmpty()) {
                throw new AssertionError("every call must carry an apiCallTimeout");
            }
            if (wholeCallError != null) {
                throw error(403, wholeCallError);
            }
            if (requests.stream().anyMatch(invalid)) {
                throw error(400, "ValidationException");
            }
            if (unprocessedCallsLeft > 0) {
                unprocessedCallsLeft--;
                requests.subList(0, requests.size() - 1).forEach(r -> written.add(r.putRequest().item()));
                return BatchWriteItemResponse.builder().unprocessedItems(Map.of(TABLE, List.of(requests.getLast()))).build();
            }
            requests.forEach(r -> {
                if (r.putRequest() != null) {
                    written.add(r.putRequest().item());
                } else {
                    deleted.add(r.deleteRequest().key());
                }
            });
            return BatchWriteItemResponse.builder().build();
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

    private final ScriptedClient client = new ScriptedClient();
    private final List<Duration> sleeps = new ArrayList<>();
    private final DynamoDbIndexWriter writer = new DynamoDbIndexWriter(client, TABLE,
            new Backoff(Duration.ofMillis(1), Duration.ofMillis(10), new Random(1)), sleeps::add, IndexerFixtures.quietLog());

    private static IndexChange put(String issueId) {
        return new IndexChange.Put(IndexItem.of("f", new IndexValue.Text("v"), issueId, "p", BigDecimal.ONE));
    }

    private static Deadline plenty() {
        return Deadline.after(Duration.ofMinutes(1));
    }

    @Test
    void write_whenOneRequestIsInvalid_writesItsNeighbours_andReturnsItAsRefused() {
        // given: 25 puts in one call, the 12th of which AWS refuses
        List<IndexChange> changes = IntStream.range(0, 25).mapToObj(i -> put("issue#" + i)).toList();
        client.invalid = request -> request.putRequest() != null && request.putRequest().item().get("issueId").s().equals("issue#11");

        // when
        IndexWriter.WriteResult result = writer.write(changes, plenty());

        // then
        assertThat(result.unwritten()).isEmpty();
        assertThat(result.refused()).containsExactly(new IndexWriter.Refused(changes.get(11).key(), "ValidationException"));
        assertThat(client.written).hasSize(24);
        // the refused put's key is cleared, so no item of an older image stays under it
        assertThat(client.deleted).containsExactly(changes.get(11).key().toKey());
        assertThat(sleeps).isEmpty();
    }

    @Test
    void write_whenSeveralRequestsAreInvalid_isolatesEachOfThem() {
        List<IndexChange> changes = IntStream.range(0, 25).mapToObj(i -> put("issue#" + i)).toList();
        Set<String> bad = Set.of("issue#0", "issue#7", "issue#24");
        client.invalid = request -> request.putRequest() != null && bad.contains(request.putRequest().item().get("issueId").s());

        IndexWriter.WriteResult result = writer.write(changes, plenty());

        assertThat(result.refused()).extracting(IndexWriter.Refused::key)
                .containsExactlyInAnyOrder(changes.get(0).key(), changes.get(7).key(), changes.get(24).key());
        assertThat(client.written).hasSize(22);
        assertThat(result.unwritten()).isEmpty();
    }

    @Test
    void write_whenTheWholeSetupIsRefused_reportsEveryKeyUnwritten_andRefusesNone() {
        // AccessDeniedException fails every request alike and passes once the role is fixed: retry later
        List<IndexChange> changes = IntStream.range(0, 30).mapToObj(i -> put("issue#" + i)).toList();
        client.wholeCallError = "AccessDeniedException";

        IndexWriter.WriteResult result = writer.write(changes, plenty());

        assertThat(result.refused()).isEmpty();
        assertThat(result.unwritten()).hasSize(30);
        assertThat(client.callSizes).containsExactly(25, 5);
    }

    @Test
    void write_whenItemsComeBackUnprocessed_resendsThem_countingEachFailedAttempt() {
        List<IndexChange> changes = IntStream.range(0, 3).mapToObj(i -> put("issue#" + i)).toList();
        client.unprocessedCallsLeft = 2;

        IndexWriter.WriteResult result = writer.write(changes, plenty());

        assertThat(result).isEqualTo(IndexWriter.WriteResult.ALL_WRITTEN);
        assertThat(client.callSizes).containsExactly(3, 1, 1);
        assertThat(sleeps).hasSize(2);
    }

    @Test
    void write_whenUnprocessedPastTheBudget_returnsWhatIsLeft() {
        List<IndexChange> changes = IntStream.range(0, 2).mapToObj(i -> put("issue#" + i)).toList();
        client.unprocessedCallsLeft = Integer.MAX_VALUE;

        IndexWriter.WriteResult result = writer.write(changes, plenty());

        assertThat(result.unwritten()).containsExactly(changes.get(1).key());
        assertThat(sleeps).hasSize(com.multikey.common.RetryBudget.DEFAULT_MAX_FAILED_ATTEMPTS);
    }

    @Test
    void write_whenNoTimeIsLeft_makesNoCall_andReportsEverything() {
        List<IndexChange> changes = List.of(put("issue#1"));

        IndexWriter.WriteResult result = writer.write(changes, Deadline.after(Duration.ZERO));

        assertThat(result.unwritten()).containsExactly(changes.getFirst().key());
        assertThat(client.callSizes).isEmpty();
    }

    @Test
    void calls_whenItemsAreLarge_keepEachCallWithinSixteenMegabytes() {
        // 25 items of ~390 KB would be ~9.5 MB: within 16 MB, so request count decides; 60 items need 3 calls
        String big = "y".repeat(390 * 1024);
        List<IndexChange> changes = IntStream.range(0, 60).mapToObj(i -> (IndexChange) new IndexChange.Put(
                IndexItem.of("f" + i, new IndexValue.Text(big), "issue#" + i, "p", BigDecimal.ONE))).toList();

        List<List<WriteRequest>> calls = DynamoDbIndexWriter.calls(changes);

        assertThat(calls).extracting(List::size).containsExactly(25, 25, 10);
        for (List<WriteRequest> call : calls) {
            long bytes = call.stream().mapToLong(r -> DynamoDbLimits.itemBytes(r.putRequest().item())).sum();
            assertThat(bytes).isLessThanOrEqualTo(DynamoDbLimits.MAX_BATCH_WRITE_BYTES);
        }
    }
}

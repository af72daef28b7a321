package com.multikey.indexer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.multikey.common.Backoff;
import com.multikey.common.Deadline;
import com.multikey.common.StructuredLog;
import com.multikey.index.DynamoDbLimits;
import com.multikey.index.IndexChange;
import com.multikey.index.IndexItem;
import com.multikey.index.IndexValue;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
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
        /** Thrown by the next calls, one each, before any other behaviour. */
        final Deque<SdkException> nextFailures = new ArrayDeque<>();
        /** The status of the call refused for an invalid request, and whether the answer names an error code. */
        int refusalStatus = 400;
        boolean refusalHasErrorCode = true;

        @Override
        public BatchWriteItemResponse batchWriteItem(BatchWriteItemRequest request) {
            List<WriteRequest> requests = request.requestItems().get(TABLE);
            callSizes.add(requests.size());
            if (request.overrideConfiguration().flatMap(o -> o.apiCallTimeout()).isEmpty()) {
                throw new AssertionError("every call must carry an apiCallTimeout");
            }
            if (!nextFailures.isEmpty()) {
                throw nextFailures.removeFirst();
            }
            if (wholeCallError != null) {
                throw error(403, wholeCallError);
            }
            if (requests.stream().anyMatch(invalid)) {
                throw refusalHasErrorCode ? error(refusalStatus, "ValidationException")
                        : DynamoDbException.builder().statusCode(refusalStatus).message("Request Entity Too Large").build();
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
    private final ByteArrayOutputStream logged = new ByteArrayOutputStream();
    private final DynamoDbIndexWriter writer = new DynamoDbIndexWriter(client, TABLE,
            new Backoff(Duration.ofMillis(1), Duration.ofMillis(10), new Random(1)), sleeps::add,
            new StructuredLog("test", new PrintStream(logged, true, StandardCharsets.UTF_8), Clock.systemUTC()));

    private static IndexChange put(String issueId) {
        return new IndexChange.Put(IndexItem.of("f", new IndexValue.Text("v"), issueId, "p", BigDecimal.ONE));
    }

    private static IndexChange delete(String issueId) {
        return new IndexChange.Delete(put(issueId).key());
    }

    /** A put whose value holds {@code controls} control characters (six bytes each in JSON), then {@code letters} letters. */
    private static IndexChange.Put controlCharacters(int i, int controls, int letters) {
        IndexChange.Put put = new IndexChange.Put(IndexItem.of("f", new IndexValue.Text("\u0002".repeat(controls) + "a".repeat(letters)),
                "issue#" + i, "p", BigDecimal.ONE));
        assertThat(put.item().valueCopied()).as("the value is copied into the item, within 400 KB").isTrue();
        return put;
    }

    /** What a request takes of a call's bytes, as the writer counts it: the item as JSON, in its wrapper. */
    private static long requestBytes(IndexChange change) {
        return DynamoDbLimits.requestJsonBytes(((IndexChange.Put) change).item().toItem()) + DynamoDbIndexWriter.REQUEST_WRAPPER_BYTES;
    }

    private List<JsonNode> logLines() throws IOException {
        List<JsonNode> lines = new ArrayList<>();
        for (String line : logged.toString(StandardCharsets.UTF_8).lines().toList()) {
            lines.add(new ObjectMapper().readTree(line));
        }
        return lines;
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

    @Test
    void write_whenADeleteIsRefused_returnsItAsRefused_andSendsItNoMore() {
        // given: a delete AWS refuses beside a put
        List<IndexChange> changes = List.of(delete("issue#1"), put("issue#2"));
        client.invalid = request -> request.deleteRequest() != null;

        // when
        IndexWriter.WriteResult result = writer.write(changes, plenty());

        // then: the call, then each half alone; a refused delete leaves nothing to clear
        assertThat(result.refused()).containsExactly(new IndexWriter.Refused(changes.get(0).key(), "ValidationException"));
        assertThat(result.unwritten()).isEmpty();
        assertThat(client.callSizes).containsExactly(2, 1, 1);
        assertThat(client.written).containsExactly(((IndexChange.Put) changes.get(1)).item().toItem());
    }

    @Test
    void write_whenACallTooLargeIsRefusedWithoutAnErrorCode_isolatesTheRequest_namingTheExceptionInstead() {
        // a 413 is answered before the body is read, with no error code in it
        List<IndexChange> changes = IntStream.range(0, 4).mapToObj(i -> put("issue#" + i)).toList();
        client.invalid = request -> request.putRequest() != null && request.putRequest().item().get("issueId").s().equals("issue#2");
        client.refusalStatus = 413;
        client.refusalHasErrorCode = false;

        IndexWriter.WriteResult result = writer.write(changes, plenty());

        assertThat(result.refused()).containsExactly(new IndexWriter.Refused(changes.get(2).key(), "DynamoDbException"));
        assertThat(client.written).hasSize(3);
        assertThat(result.unwritten()).isEmpty();
    }

    @Test
    void write_whenACallFailsWithAnInternalServerError_retriesIt() {
        List<IndexChange> changes = List.of(put("issue#1"), put("issue#2"));
        client.nextFailures.add(ScriptedClient.error(500, "InternalServerError"));

        IndexWriter.WriteResult result = writer.write(changes, plenty());

        assertThat(result).isEqualTo(IndexWriter.WriteResult.ALL_WRITTEN);
        assertThat(client.callSizes).containsExactly(2, 2);
        assertThat(client.written).hasSize(2);
        assertThat(sleeps).hasSize(1);
    }

    @Test
    void write_whenTheConnectionFails_retriesTheCall_andRefusesNothing() {
        List<IndexChange> changes = List.of(put("issue#1"), put("issue#2"));
        client.nextFailures.add(SdkClientException.create("Unable to execute HTTP request: Connection reset"));

        IndexWriter.WriteResult result = writer.write(changes, plenty());

        assertThat(result).isEqualTo(IndexWriter.WriteResult.ALL_WRITTEN);
        assertThat(client.callSizes).containsExactly(2, 2);
        assertThat(sleeps).hasSize(1);
    }

    @Test
    void write_whenAFailureIsNeitherRetryableNorARefusal_reportsTheKeysUnwrittenAtOnce_andLogsIt() throws IOException {
        // given: a failure of the SDK that says it is not retryable
        List<IndexChange> changes = List.of(put("issue#1"), put("issue#2"));
        client.nextFailures.add(SdkException.builder().message("not retryable").build());

        // when
        IndexWriter.WriteResult result = writer.write(changes, plenty());

        // then
        assertThat(result.unwritten()).containsExactlyInAnyOrder(changes.get(0).key(), changes.get(1).key());
        assertThat(result.refused()).isEmpty();
        assertThat(client.callSizes).containsExactly(2);
        assertThat(sleeps).isEmpty();
        assertThat(logLines()).singleElement().satisfies(line -> {
            assertThat(line.get("level").asText()).isEqualTo("ERROR");
            assertThat(line.get("message").asText()).isEqualTo("index write failed and will not succeed by retrying now");
            assertThat(line.get("table").asText()).isEqualTo(TABLE);
            assertThat(line.get("requests").asInt()).isEqualTo(2);
            assertThat(line.get("error").asText()).isEqualTo("SdkException");
        });
    }

    @Test
    void write_whenTheWholeSetupIsRefused_logsTheErrorCodeOfEachCall() throws IOException {
        client.wholeCallError = "AccessDeniedException";

        writer.write(IntStream.range(0, 30).mapToObj(i -> put("issue#" + i)).toList(), plenty());

        assertThat(logLines()).extracting(line -> line.get("error").asText() + " " + line.get("requests").asInt())
                .containsExactlyInAnyOrder("AccessDeniedException 25", "AccessDeniedException 5");
    }

    @Test
    void calls_whenValuesAreMadeOfControlCharacters_countTheirJsonEscapes_andKeepEachCallWithinSixteenMegabytes() {
        // 25 items within 400 KB, each over 2.4 MB as JSON (a control character takes six bytes there, escaped): 6 fit in a call
        List<IndexChange> changes = IntStream.range(0, 25).mapToObj(i -> (IndexChange) controlCharacters(i, 400_000, 0)).toList();

        List<List<WriteRequest>> calls = DynamoDbIndexWriter.calls(changes);

        assertThat(calls).extracting(List::size).containsExactly(6, 6, 6, 6, 1);
        for (List<WriteRequest> call : calls) {
            long bytes = call.stream().mapToLong(r -> DynamoDbLimits.requestJsonBytes(r.putRequest().item())).sum();
            assertThat(bytes).isLessThanOrEqualTo(DynamoDbIndexWriter.MAX_CALL_ITEM_BYTES);
        }
    }

    @Test
    void calls_fillACallUpToExactlyItsBytes_andStartAnotherOneByteBeyond() {
        // given: six requests of over 2.4 MB, and a seventh that fills the call's bytes exactly
        List<IndexChange> six = IntStream.range(0, 6).mapToObj(i -> (IndexChange) controlCharacters(i, 400_000, 0)).toList();
        long left = DynamoDbIndexWriter.MAX_CALL_ITEM_BYTES - six.stream().mapToLong(DynamoDbIndexWriterTest::requestBytes).sum();
        // past the part of the value its sort key holds, each control character adds six bytes and each letter one
        long base = requestBytes(controlCharacters(6, 300_000, 0));
        int controls = 300_000 + (int) ((left - base) / 6);
        int letters = (int) ((left - base) % 6);
        IndexChange filling = controlCharacters(6, controls, letters);
        assertThat(requestBytes(filling)).as("the seventh request fills the call exactly").isEqualTo(left);
        List<IndexChange> atTheLimit = new ArrayList<>(six);
        atTheLimit.add(filling);
        List<IndexChange> oneByteOver = new ArrayList<>(six);
        oneByteOver.add(controlCharacters(6, controls, letters + 1));

        // then
        assertThat(DynamoDbIndexWriter.calls(atTheLimit)).extracting(List::size).containsExactly(7);
        assertThat(DynamoDbIndexWriter.calls(oneByteOver)).extracting(List::size).containsExactly(6, 1);
    }
}

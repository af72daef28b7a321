package com.multikey.indexer;

import com.amazonaws.services.lambda.runtime.events.StreamsEventResponse;
import com.multikey.common.Deadline;
import com.multikey.common.Sleeper;
import com.multikey.common.StructuredLog;
import com.multikey.index.DynamoDbLimits;
import com.multikey.index.IndexChange;
import com.multikey.index.IndexItem;
import com.multikey.index.IndexKey;
import com.multikey.index.IndexValue;
import com.multikey.index.IssueImages;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.Record;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static com.multikey.index.IssueImages.n;
import static com.multikey.index.IssueImages.s;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Each kind of item that breaks one of DynamoDB's limits for the index, between good issues in one batch,
 * through the real handler on the local DynamoDB engine: the good issues are indexed, the offender gets what the
 * README says, no batch item failure is reported for it, and a log line and a metric name it.
 */
@ExtendWith(IndexerStackExtension.class)
class PoisonMatrixIntegrationTest {

    private static final String LONG_FIELD = "x".repeat(2100);
    private static final String LONG_ID = "issue#" + "i".repeat(300);
    private static final String SECRET = "secret-value-never-logged";
    private static final String HUGE = "y".repeat(DynamoDbLimits.MAX_ITEM_BYTES - 300);

    private final IndexerStack stack;
    private final ByteArrayOutputStream logged = new ByteArrayOutputStream();
    private final StructuredLog log = new StructuredLog("test", new PrintStream(logged, true, StandardCharsets.UTF_8), Clock.systemUTC());

    PoisonMatrixIntegrationTest(IndexerStack stack) {
        this.stack = stack;
    }

    private static Map<String, AttributeValue> fields(Object... pairs) {
        Map<String, AttributeValue> fields = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            fields.put((String) pairs[i], (AttributeValue) pairs[i + 1]);
        }
        return fields;
    }

    private String logText() {
        return logged.toString(StandardCharsets.UTF_8);
    }

    @Test
    void offendersBetweenGoodIssues_areHandledAsDocumented_andCostNoNeighbour() {
        // given: one batch from the app table's own stream, offenders between good issues
        stack.put(IssueImages.issue("issue#good1", "project#1", 1, fields("f1", s("alpha"), "n", n("5"))));
        stack.put(IssueImages.issue("issue#longfield", "project#1", 2, fields(LONG_FIELD, s(SECRET), "f1", s("beta"))));
        stack.put(IssueImages.issue("issue#good2", "project#1", 3, fields("f1", s("gamma"))));
        stack.put(IssueImages.issue("issue#huge", "project#1", 4, fields("f1", s(HUGE))));
        stack.put(IssueImages.issue(LONG_ID, "project#1", 5, fields("f1", s(SECRET))));
        stack.put(IssueImages.issue("issue#bignum", "project#1", 6, fields(
                "n", AttributeValue.fromNs(List.of("12345678901234567890", "-99999999999999999999999999999999999999",
                        "9.9999999999999999999999999999999999999E+125", "1E-130")))));
        stack.put(IssueImages.issue("issue#map", "project#1", 7, fields("m", AttributeValue.fromM(Map.of("k", s(SECRET))), "f1", s("delta"))));
        stack.put(IssueImages.issue("issue#good3", "project#1", 8, fields("f1", s("zeta"))));
        List<Record> batch = stack.newRecords();
        assertThat(batch).hasSize(8);

        // when
        StreamsEventResponse response = stack.invoke(stack.handler(stack.dynamoDb, Duration.ofMillis(1), Sleeper.SYSTEM, log), batch);

        // then: nothing to redeliver, and the index is exactly what the documented rules imply
        assertThat(response.getBatchItemFailures()).isEmpty();
        assertThat(stack.storedIndex()).isEqualTo(stack.expectedStoredIndex());
        assertThat(stack.query("f1", true)).containsExactly(
                "issue#good1", "issue#longfield", "issue#map", "issue#good2", "issue#huge", "issue#good3");
        // -99..9 (38 digits) < 1E-130 < 5 < 12345678901234567890 < 9.99..E+125
        assertThat(stack.query("n", true)).containsExactly(
                "issue#bignum", "issue#bignum", "issue#good1", "issue#bignum", "issue#bignum");
        assertThat(stack.storedIndex()).noneMatch(item -> item.get(IndexKey.ATTRIB_ID).s().equals(LONG_FIELD));
        assertThat(stack.storedIndex()).noneMatch(item -> item.get(IndexItem.ITEM_ID).s().equals(LONG_ID));

        // the huge value is indexed by its key, without the copy, and flagged
        Map<String, AttributeValue> huge = stack.storedIndex().stream()
                .filter(item -> item.get(IndexItem.ITEM_ID).s().equals("issue#huge")).findFirst().orElseThrow();
        assertThat(huge).doesNotContainKey(IndexItem.VALUE).containsEntry(IndexItem.VALUE_OMITTED, AttributeValue.fromBool(true));

        // metrics and log lines name each offender, by key and reason, never by value
        IndexerMetrics.BatchSummary summary = stack.metrics.last();
        assertThat(summary.rejectedFields()).isEqualTo(3);
        assertThat(summary.valuesNotCopied()).isEqualTo(1);
        assertThat(summary.refusedWrites()).isZero();
        assertThat(summary.failedRecords()).isZero();
        assertThat(logText())
                .contains("\"message\":\"field not indexed\",\"itemKey\":\"issue#longfield\",\"index\":\"custom_fields\",\"attribId\":\"" + LONG_FIELD + "\"")
                .contains("\"message\":\"item not indexed\",\"itemKey\":\"" + LONG_ID + "\"")
                .contains("\"message\":\"field not indexed\",\"itemKey\":\"issue#map\",\"index\":\"custom_fields\",\"attribId\":\"m\"")
                .contains("\"message\":\"field indexed without a copy of its value\",\"itemKey\":\"issue#huge\"")
                .doesNotContain(SECRET).doesNotContain("yyyyyyyyyy");
    }

    @Test
    void dynamoDbLocal_refusesWhatAwsRefuses_soTheseTestsSeeTheRealErrors() {
        String table = stack.config.indexTableName();
        Map<String, AttributeValue> good = IndexItem.of("f", new IndexValue.Text("v"), "issue#1", "p", BigDecimal.ONE).toItem();

        Map<String, AttributeValue> longPartitionKey = new LinkedHashMap<>(good);
        longPartitionKey.put(IndexKey.ATTRIB_ID, s("k".repeat(DynamoDbLimits.MAX_PARTITION_KEY_BYTES + 1)));
        Map<String, AttributeValue> longSortKey = new LinkedHashMap<>(good);
        longSortKey.put(IndexKey.SORT_KEY, s("k".repeat(DynamoDbLimits.MAX_SORT_KEY_BYTES + 1)));
        Map<String, AttributeValue> tooLarge = new LinkedHashMap<>(good);
        tooLarge.put(IndexItem.VALUE, s("v".repeat(DynamoDbLimits.MAX_ITEM_BYTES)));

        for (Map<String, AttributeValue> item : List.of(longPartitionKey, longSortKey, tooLarge)) {
            assertThatThrownBy(() -> stack.dynamoDb.putItem(b -> b.tableName(table).item(item)))
                    .isInstanceOfSatisfying(DynamoDbException.class, e -> {
                        assertThat(e.statusCode()).isEqualTo(400);
                        assertThat(e.awsErrorDetails().errorCode()).isEqualTo("ValidationException");
                    });
        }
    }

    @Test
    void aWriteDynamoDbRefusesInABatch_isIsolated_andItsNeighboursAreWritten() {
        // given: the writer handed an item no validation caught, between good ones (as the first release was)
        IndexItem good1 = IndexItem.of("f", new IndexValue.Text("a"), "issue#1", "p", BigDecimal.ONE);
        IndexItem bad = IndexerStack.unchecked(LONG_FIELD, "Sb\u0001p1311\u0001issue#2", "issue#2", "p", BigDecimal.TWO,
                new IndexValue.Text("b"));
        IndexItem good2 = IndexItem.of("f", new IndexValue.Text("c"), "issue#3", "p", BigDecimal.ONE);
        DynamoDbIndexWriter writer = new DynamoDbIndexWriter(stack.dynamoDb, stack.config.indexTableName(),
                com.multikey.common.Backoff.standard(), Sleeper.SYSTEM, log);

        // when
        IndexWriter.WriteResult result = writer.write(List.of(new IndexChange.Put(good1), new IndexChange.Put(bad),
                new IndexChange.Put(good2)), Deadline.after(Duration.ofSeconds(30)));

        // then
        assertThat(result.unwritten()).isEmpty();
        assertThat(result.refused()).containsExactly(new IndexWriter.Refused(bad.key(), "ValidationException"));
        assertThat(stack.storedIndex()).containsExactlyInAnyOrder(good1.toItem(), good2.toItem());
    }

    @Test
    void throughTheHandler_aRefusedWriteIsSkippedLoggedAndCounted_notRedelivered() {
        // given: DynamoDB refuses every write of one issue for a reason the indexer cannot foresee
        stack.put(IssueImages.issue("issue#a", "project#1", 1, fields("f1", s("a"), "f2", s("a2"))));
        stack.put(IssueImages.issue("issue#refused", "project#1", 2, fields("f1", s("b"), "f2", s("b2"))));
        stack.put(IssueImages.issue("issue#c", "project#1", 3, fields("f1", s("c"))));
        List<Record> batch = stack.newRecords();
        DynamoDbClient refusing = RefusingDynamoDbClient.refusingPuts(stack.dynamoDb, IndexItem.ITEM_ID, "issue#refused");

        // when
        StreamsEventResponse response = stack.invoke(stack.handler(refusing, Duration.ofMillis(1), Sleeper.SYSTEM, log), batch);

        // then
        assertThat(response.getBatchItemFailures()).isEmpty();
        assertThat(stack.query("f1", true)).containsExactly("issue#a", "issue#c");
        assertThat(stack.query("f2", true)).containsExactly("issue#a");
        assertThat(stack.metrics.last().refusedWrites()).isEqualTo(2);
        assertThat(logText()).contains("\"message\":\"index write refused by DynamoDB and skipped\",\"itemKey\":\"issue#refused\"")
                .contains("\"errorCode\":\"ValidationException\"");
    }
}

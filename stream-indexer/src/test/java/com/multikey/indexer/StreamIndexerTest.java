package com.multikey.indexer;

import com.amazonaws.services.lambda.runtime.events.DynamodbEvent.DynamodbStreamRecord;
import com.amazonaws.services.lambda.runtime.events.StreamsEventResponse;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.multikey.common.BatchFailedException;
import com.multikey.common.Deadline;
import com.multikey.common.EmfMetrics;
import com.multikey.common.StructuredLog;
import com.multikey.index.IndexItem;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.Record;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static com.multikey.index.IssueImages.issue;
import static com.multikey.index.IssueImages.s;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class StreamIndexerTest {

    private final ByteArrayOutputStream logged = new ByteArrayOutputStream();
    private final InMemoryIndexWriter index = new InMemoryIndexWriter();
    private final RecordingMetrics metrics = new RecordingMetrics();
    private final StreamIndexer indexer = new StreamIndexer(new BatchPlanner(new IndexerConfig("index")), index, metrics,
            new StructuredLog("test", new PrintStream(logged, true, StandardCharsets.UTF_8), Clock.systemUTC()));

    private StreamIndexer indexerOf(String appTableName) {
        return new StreamIndexer(new BatchPlanner(new IndexerConfig("index")), index, metrics,
                new StructuredLog("test", new PrintStream(logged, true, StandardCharsets.UTF_8), Clock.systemUTC()), appTableName);
    }

    /** The record as a NEW_IMAGE stream delivers it: without its old image. */
    private static Record withoutOldImage(Record record) {
        return record.toBuilder().dynamodb(record.dynamodb().toBuilder().streamViewType("NEW_IMAGE")
                .oldImage((Map<String, AttributeValue>) null).build()).build();
    }

    private StreamsEventResponse process(software.amazon.awssdk.services.dynamodb.model.Record... records) {
        return indexer.process(StreamRecords.lambdaRecords(List.of(records)), Deadline.after(Duration.ofSeconds(30)));
    }

    @Test
    void process_whenFieldUnsupported_indexesTheRestAndLogsKeyAndReasonWithoutContent() {
        var image = issue("issue#1", "p", 1, Map.of("ok", s("visible-value"),
                "bad", AttributeValue.fromM(Map.of("secret", s("top-secret-content")))));

        StreamsEventResponse response = process(StreamRecords.change(1, "issue#1", null, image));

        assertThat(response.getBatchItemFailures()).isEmpty();
        assertThat(index.items()).hasSize(1);
        String log = logged.toString(StandardCharsets.UTF_8);
        assertThat(log).contains("\"message\":\"field not indexed\"", "\"itemKey\":\"issue#1\"", "\"attribId\":\"bad\"",
                "\"reason\":\"value of unsupported type M\"");
        assertThat(log).doesNotContain("top-secret-content", "visible-value", "secret");
        assertThat(metrics.last()).isEqualTo(new IndexerMetrics.BatchSummary(1, 0, 0, 1, 0, 0, 1, 0, 0, 0, 0));
    }

    @Test
    void process_whenTheGridLayoutStateCannotBeRead_writesNothing_andReportsEveryRecord() {
        // given: reading the grid layout state is throttled
        StreamIndexer throttled = new StreamIndexer(new BatchPlanner(new IndexerConfig("index"), () -> {
            throw software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughputExceededException.builder().message("slow down").build();
        }), index, metrics, new StructuredLog("test", new PrintStream(logged, true, StandardCharsets.UTF_8), Clock.systemUTC()));

        // when
        StreamsEventResponse response = throttled.process(StreamRecords.lambdaRecords(List.of(
                StreamRecords.change(20, "issue#a", null, issue("issue#a", "p", 1, Map.of("f", s("1")))),
                StreamRecords.change(21, "issue#b", null, issue("issue#b", "p", 2, Map.of("f", s("1")))))), Deadline.after(Duration.ofSeconds(30)));

        // then
        assertThat(response.getBatchItemFailures()).extracting(StreamsEventResponse.BatchItemFailure::getItemIdentifier)
                .containsExactlyInAnyOrder(String.format("%021d", 20), String.format("%021d", 21));
        assertThat(index.items()).isEmpty();
        assertThat(logged.toString(StandardCharsets.UTF_8)).contains("grid layout state not read",
                "ProvisionedThroughputExceededException").doesNotContain("slow down");
    }

    @Test
    void process_whenWritesOfOneIssueFail_reportsThatIssuesFirstRecordOnly() {
        var a1 = issue("issue#a", "p", 1, Map.of("f", s("1")));
        var b1 = issue("issue#b", "p", 2, Map.of("f", s("1")));
        var b2 = issue("issue#b", "p", 2, Map.of("f", s("2")));
        index.failWhen(change -> change.key().sortKey().endsWith("issue#b"));

        StreamsEventResponse response = process(
                StreamRecords.change(10, "issue#a", null, a1),
                StreamRecords.change(11, "issue#b", null, b1),
                StreamRecords.change(12, "issue#b", b1, b2));

        assertThat(response.getBatchItemFailures()).extracting(StreamsEventResponse.BatchItemFailure::getItemIdentifier)
                .containsExactly(String.format("%021d", 11));
        assertThat(index.items().values()).extracting(IndexItem::itemKeyText).containsExactly("issue#a");
        assertThat(metrics.last().failedRecords()).isEqualTo(1);
        assertThat(logged.toString(StandardCharsets.UTF_8)).contains("\"lowestSequenceNumber\":\"" + String.format("%021d", 11) + "\"");
    }

    @Test
    void process_whenAFailedRecordHasNoSequenceNumber_failsTheWholeBatch() {
        var record = StreamRecords.change(1, "issue#a", null, issue("issue#a", "p", 1, Map.of("f", s("1"))));
        var withoutSequence = record.toBuilder().dynamodb(record.dynamodb().toBuilder().sequenceNumber(null).build()).build();
        index.failWhen(change -> true);

        assertThatThrownBy(() -> process(withoutSequence)).isInstanceOf(BatchFailedException.class)
                .hasMessageContaining("no sequence number");
    }

    @Test
    void process_whenNoRecords_answersWithoutFailures() {
        assertThat(indexer.process(null, Deadline.after(Duration.ofSeconds(1))).getBatchItemFailures()).isEmpty();
        assertThat(metrics.last().records()).isZero();
    }

    @Test
    void process_whenARecordLacksTheOldImageAnIndexNeeds_reportsItAsFailed_logsTableKeyAndViewType_andCountsIt() throws Exception {
        // given: issue#b's modify comes from a stream without old images, between two complete records
        var a1 = issue("issue#a", "p", 1, Map.of("f", s("1")));
        var b1 = issue("issue#b", "p", 2, Map.of("f", s("1")));
        var b2 = issue("issue#b", "p", 2, Map.of("f", s("2")));
        var c1 = issue("issue#c", "p", 3, Map.of("f", s("1")));

        // when
        StreamsEventResponse response = indexerOf("AppTable-prod").process(StreamRecords.lambdaRecords(List.of(
                StreamRecords.change(1, "issue#a", null, a1), withoutOldImage(StreamRecords.change(2, "issue#b", b1, b2)),
                StreamRecords.change(3, "issue#c", null, c1))), Deadline.after(Duration.ofSeconds(30)));

        // then: redelivered (so Lambda's retries and then the on-failure destination take it), never skipped
        assertThat(response.getBatchItemFailures()).extracting(StreamsEventResponse.BatchItemFailure::getItemIdentifier)
                .containsExactly(String.format("%021d", 2));
        assertThat(index.items().values()).extracting(IndexItem::itemKeyText).containsExactlyInAnyOrder("issue#a", "issue#c");
        assertThat(metrics.last()).isEqualTo(new IndexerMetrics.BatchSummary(3, 0, 0, 0, 0, 0, 2, 0, 0, 1, 1));
        JsonNode line = logLine("stream record lacks the images an index needs; reported as failed");
        assertThat(line.get("level").asText()).isEqualTo("WARN");
        assertThat(line.get("table").asText()).isEqualTo("AppTable-prod");
        assertThat(line.get("itemKey").asText()).isEqualTo("issue#b");
        assertThat(line.get("sequenceNumber").asText()).isEqualTo(String.format("%021d", 2));
        assertThat(line.get("reason").asText()).isEqualTo("MODIFY record has no OldImage");
        assertThat(line.get("action").asText()).contains("set the table's StreamViewType to NEW_AND_OLD_IMAGES");
        assertThat(logged.toString(StandardCharsets.UTF_8)).doesNotContain("stream record skipped");
    }

    @Test
    void process_whenARecordLacksItsImagesAndNoTableNameIsSet_namesTheTableOfTheRecordsStream() throws Exception {
        // given: a KEYS_ONLY stream
        Record record = StreamRecords.change(1, "issue#a", null, issue("issue#a", "p", 1, Map.of("f", s("1"))));
        Record keysOnly = record.toBuilder().dynamodb(record.dynamodb().toBuilder().streamViewType("KEYS_ONLY")
                .newImage((Map<String, AttributeValue>) null).build()).build();

        // when
        StreamsEventResponse response = indexerOf("").process(StreamRecords.lambdaRecords(List.of(keysOnly)),
                Deadline.after(Duration.ofSeconds(30)));

        // then
        assertThat(response.getBatchItemFailures()).hasSize(1);
        assertThat(logLine("stream record lacks the images an index needs; reported as failed").get("table").asText())
                .isEqualTo("AppTable");
        assertThat(metrics.last().missingImages()).isEqualTo(1);
        assertThat(index.items()).isEmpty();
    }

    @Test
    void process_logsTheBatchsCounts_andAnUnreadableRecordUnderItsItemKey() throws Exception {
        // given: a change of one value (a put and a delete), and a record of an unknown kind
        var a1 = issue("issue#a", "p", 1, Map.of("f", s("1")));
        var a2 = issue("issue#a", "p", 1, Map.of("f", s("2")));
        List<DynamodbStreamRecord> records = StreamRecords.lambdaRecords(List.of(
                StreamRecords.change(1, "issue#a", a1, a2), StreamRecords.change(2, "issue#b", null, issue("issue#b", "p", 2, Map.of()))));
        records.get(1).setEventName("BOGUS");

        // when
        StreamsEventResponse response = indexer.process(records, Deadline.after(Duration.ofSeconds(30)));

        // then
        assertThat(response.getBatchItemFailures()).isEmpty();
        JsonNode skipped = logLine("stream record skipped");
        assertThat(skipped.get("itemKey").asText()).isEqualTo("issue#b");
        assertThat(skipped.get("eventId").asText()).isEqualTo("event-2");
        assertThat(skipped.get("reason").asText()).isEqualTo("unknown eventName 'BOGUS'");
        JsonNode batch = logLine("batch indexed");
        assertThat(batch.get("level").asText()).isEqualTo("INFO");
        assertThat(batch.get("records").asInt()).isEqualTo(2);
        assertThat(batch.get("puts").asInt()).isEqualTo(1);
        assertThat(batch.get("deletes").asInt()).isEqualTo(1);
        assertThat(batch.get("failedRecords").asInt()).isZero();
    }

    @Test
    void emfMetrics_publishTheMissingImagesCountBesideTheOthers() throws Exception {
        // given
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        IndexerMetrics emf = IndexerMetrics.emf(new EmfMetrics("Multikey", "stream-indexer",
                new PrintStream(out, true, StandardCharsets.UTF_8), Clock.systemUTC()));

        // when
        emf.batchProcessed(new IndexerMetrics.BatchSummary(9, 1, 1, 0, 0, 0, 4, 2, 0, 3, 2));

        // then
        JsonNode line = new ObjectMapper().readTree(out.toString(StandardCharsets.UTF_8).lines().findFirst().orElseThrow());
        assertThat(line.get("MissingImages").asInt()).isEqualTo(2);
        assertThat(line.get("FailedRecords").asInt()).isEqualTo(3);
        assertThat(line.get("_aws").toString()).contains("\"Name\":\"MissingImages\"");
    }

    private JsonNode logLine(String message) throws Exception {
        ObjectMapper json = new ObjectMapper();
        for (String line : logged.toString(StandardCharsets.UTF_8).lines().toList()) {
            JsonNode node = json.readTree(line);
            if (message.equals(node.path("message").asText())) {
                return node;
            }
        }
        throw new AssertionError("no log line '" + message + "' in " + logged.toString(StandardCharsets.UTF_8));
    }
}

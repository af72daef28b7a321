package com.multikey.indexer;

import com.amazonaws.services.lambda.runtime.events.StreamsEventResponse;
import com.multikey.common.BatchFailedException;
import com.multikey.common.Deadline;
import com.multikey.common.StructuredLog;
import com.multikey.index.IndexItem;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

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
        assertThat(index.items().values()).extracting(IndexItem::issueId).containsExactly("issue#a");
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
}

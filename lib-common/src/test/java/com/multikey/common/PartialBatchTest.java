package com.multikey.common;

import com.amazonaws.services.lambda.runtime.events.DynamodbEvent.DynamodbStreamRecord;
import com.amazonaws.services.lambda.runtime.events.StreamsEventResponse.BatchItemFailure;
import com.amazonaws.services.lambda.runtime.events.models.dynamodb.AttributeValue;
import com.amazonaws.services.lambda.runtime.events.models.dynamodb.StreamRecord;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PartialBatchTest {

    private final ByteArrayOutputStream logged = new ByteArrayOutputStream();
    private final PartialBatch<ChangeRecord> batch = new PartialBatch<>(ChangeRecord::from, ChangeRecord::sequenceNumber, "id",
            new StructuredLog("test", new PrintStream(logged, true, StandardCharsets.UTF_8), Clock.systemUTC()));
    private final List<List<ChangeRecord>> handed = new ArrayList<>();

    private static DynamodbStreamRecord record(String eventName, String id, String sequenceNumber) {
        DynamodbStreamRecord record = new DynamodbStreamRecord();
        record.setEventID("event-" + sequenceNumber);
        record.setEventName(eventName);
        StreamRecord stream = new StreamRecord();
        stream.setKeys(Map.of("id", new AttributeValue().withS(id)));
        stream.setNewImage(Map.of("id", new AttributeValue().withS(id)));
        stream.setSequenceNumber(sequenceNumber);
        record.setDynamodb(stream);
        return record;
    }

    private PartialBatch.Result<String> process(List<DynamodbStreamRecord> records, PartialBatch.Logic<ChangeRecord, String> logic) {
        return batch.process(records, Deadline.after(Duration.ofSeconds(5)), logic);
    }

    @Test
    void process_whenARecordCannotBeRead_skipsAndLogsIt_andHandsOnTheRest() {
        // given
        List<DynamodbStreamRecord> records = List.of(record("INSERT", "issue#1", "1"), record("TRUNCATE", "issue#2", "2"),
                record("INSERT", "issue#3", "3"));

        // when
        PartialBatch.Result<String> result = process(records, (readable, deadline) -> {
            handed.add(readable);
            return new PartialBatch.Outcome<>(List.of(), List.of(), "done");
        });

        // then
        assertThat(handed.getFirst()).extracting(ChangeRecord::eventId).containsExactly("event-1", "event-3");
        assertThat(result.response().getBatchItemFailures()).isEmpty();
        assertThat(result.records()).isEqualTo(3);
        assertThat(result.skipped()).isEqualTo(1);
        assertThat(result.report()).isEqualTo("done");
        assertThat(logged.toString(StandardCharsets.UTF_8)).contains("\"message\":\"stream record skipped\",\"itemKey\":\"issue#2\","
                + "\"eventId\":\"event-2\",\"sequenceNumber\":\"2\",\"reason\":\"unknown eventName 'TRUNCATE'\"");
    }

    @Test
    void process_whenAnUnreadableRecordHasACompositeKey_logsEveryKeyAttribute_binaryInBase64() {
        // given
        DynamodbStreamRecord composite = record("TRUNCATE", "ignored", "7");
        composite.getDynamodb().setKeys(Map.of("id", new AttributeValue().withN("12"),
                "ver", new AttributeValue().withB(java.nio.ByteBuffer.wrap(new byte[] {1, 2, (byte) 255}))));

        // when
        PartialBatch.Result<String> result = process(List.of(composite), (readable, deadline) ->
                new PartialBatch.Outcome<>(List.of(), List.of(), ""));

        // then
        assertThat(result.skipped()).isEqualTo(1);
        assertThat(logged.toString(StandardCharsets.UTF_8)).contains("\"itemKey\":\"id=12 ver=AQL/\"");
    }

    @Test
    void process_whenTheLogicSkipsARecord_logsItTheSameWay() {
        PartialBatch.Result<String> result = process(List.of(record("INSERT", "issue#1", "1")), (readable, deadline) ->
                new PartialBatch.Outcome<>(List.of(), List.of(new PartialBatch.Skipped("issue#1", "event-1", "1", "no OldImage")), ""));

        assertThat(result.skipped()).isEqualTo(1);
        assertThat(logged.toString(StandardCharsets.UTF_8)).contains("\"message\":\"stream record skipped\",\"itemKey\":\"issue#1\"")
                .contains("\"reason\":\"no OldImage\"");
    }

    @Test
    void process_reportsTheRecordsToRedeliver_bySequenceNumber_onceEach_inOrder() {
        List<DynamodbStreamRecord> records = List.of(record("INSERT", "issue#1", "10"), record("INSERT", "issue#2", "20"),
                record("INSERT", "issue#3", "30"));

        PartialBatch.Result<String> result = process(records, (readable, deadline) ->
                new PartialBatch.Outcome<>(List.of(readable.get(2), readable.get(0), readable.get(2)), List.of(), ""));

        assertThat(result.response().getBatchItemFailures()).extracting(BatchItemFailure::getItemIdentifier).containsExactly("30", "10");
        assertThat(result.failed()).isEqualTo(2);
    }

    @Test
    void process_whenARecordToRedeliverHasNoSequenceNumber_failsTheWholeBatch() {
        DynamodbStreamRecord withoutSequence = record("INSERT", "issue#1", null);

        assertThatThrownBy(() -> process(List.of(withoutSequence), (readable, deadline) ->
                new PartialBatch.Outcome<>(readable, List.of(), ""))).isInstanceOf(BatchFailedException.class)
                .hasMessageContaining("no sequence number");
    }

    @Test
    void process_whenNoRecords_answersWithoutFailures() {
        PartialBatch.Result<String> result = process(null, (readable, deadline) -> new PartialBatch.Outcome<>(readable, List.of(), ""));

        assertThat(result.records()).isZero();
        assertThat(result.response().getBatchItemFailures()).isEmpty();
    }
}

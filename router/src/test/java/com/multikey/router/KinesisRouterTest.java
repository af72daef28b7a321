package com.multikey.router;

import com.amazonaws.services.lambda.runtime.events.KinesisEvent;
import com.amazonaws.services.lambda.runtime.events.KinesisEvent.KinesisEventRecord;
import com.amazonaws.services.lambda.runtime.events.StreamsEventResponse;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.multikey.common.Backoff;
import com.multikey.common.Deadline;
import com.multikey.common.DynamoDbJson;
import com.multikey.common.StructuredLog;
import com.multikey.index.definition.IndexDefinitions;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.eventbridge.model.PutEventsRequestEntry;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.random.RandomGenerator;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The router on a table's Kinesis streaming destination: the same changes make the same events as on the DynamoDB
 * stream (only {@code sequenceNumber}, the Kinesis record's, and the creation time's precision differ), failures are
 * reported by Kinesis sequence number, and an unreadable Kinesis record is skipped under its item key.
 */
class KinesisRouterTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long BASE_MICROS = 1_793_577_600_000_000L;

    private final ByteArrayOutputStream logged = new ByteArrayOutputStream();

    private Router router(RecordingEventPublisher publisher) {
        return new Router(new ChangeEventFactory(new RouterConfig("bus", "multikey.app-table", RouterFixtures.TABLE_ARN,
                IndexDefinitions.packaged(), true, RouterConfig.DEFAULT_MAX_ENTRY_BYTES)),
                new OrderedEventSender(publisher, "bus", RouterConfig.DEFAULT_MAX_ENTRY_BYTES,
                        new Backoff(Duration.ofMillis(1), Duration.ofMillis(10), RandomGenerator.of("L64X128MixRandom")), wait -> { }, 2),
                summary -> { }, new StructuredLog("test", new PrintStream(logged, true, StandardCharsets.UTF_8), Clock.systemUTC()));
    }

    private static List<Record> changes() {
        return List.of(
                Records.change(1, "issue#a", null, Records.item("issue#a", "a")),
                Records.change(2, "issue#a", Records.item("issue#a", "a"), Records.item("issue#a", "b")),
                Records.change(3, "layer#us-east-1#x#1", Records.layer("layer#us-east-1#x#1", "arn:aws:lambda:us-east-1:1:layer:x:1"), null,
                        Records.TTL),
                Records.change(4, "issue#a", Records.item("issue#a", "b"), null));
    }

    @Test
    void processKinesis_sendsTheEventsOfTheDynamoDbStreamPath_withTheKinesisSequenceNumbers() {
        // given
        RecordingEventPublisher streams = new RecordingEventPublisher();
        RecordingEventPublisher kinesis = new RecordingEventPublisher();

        // when
        router(streams).process(Records.event(changes()).getRecords(), Deadline.after(Duration.ofSeconds(30)));
        router(kinesis).processKinesis(kinesisRecords(changes()), Deadline.after(Duration.ofSeconds(30)));

        // then
        java.util.Map<String, PutEventsRequestEntry> fromStream = byEventId(streams);
        java.util.Map<String, PutEventsRequestEntry> fromKinesis = byEventId(kinesis);
        assertThat(fromKinesis.keySet()).isEqualTo(fromStream.keySet());
        for (int i = 0; i < changes().size(); i++) {
            String eventId = changes().get(i).eventID();
            assertThat(fromKinesis.get(eventId).detailType()).isEqualTo(fromStream.get(eventId).detailType());
            assertThat(fromKinesis.get(eventId).source()).isEqualTo(fromStream.get(eventId).source());
            assertThat(fromKinesis.get(eventId).resources()).isEqualTo(fromStream.get(eventId).resources());
            JsonNode kinesisDetail = read(fromKinesis.get(eventId).detail());
            assertThat(kinesisDetail.get("sequenceNumber").asText()).isEqualTo(sequence(i));
            assertThat(kinesisDetail.get("approximateCreationDateTime").asText())
                    .isEqualTo("2026-11-02T00:00:00.00000" + (i + 1) + "Z");
            assertThat(withoutPosition(kinesisDetail)).isEqualTo(withoutPosition(read(fromStream.get(eventId).detail())));
        }
        assertThat(entries(kinesis).stream().filter(e -> e.detail().contains("issue#a")).map(PutEventsRequestEntry::detailType))
                .as("one item's events in the batch's order").containsExactly("Issue Created", "Issue Updated", "Issue Removed");
        assertThat(fromKinesis.get("event-3").detailType()).isEqualTo("Layer Expired");
    }

    @Test
    void processKinesis_whenAnItemsEventsAreNotAccepted_reportsItsFirstRecordsKinesisSequenceNumber() {
        // given: every entry of issue#a refused with a transient code
        RecordingEventPublisher publisher = new RecordingEventPublisher();
        publisher.behaviour = (call, entries) -> entries.stream()
                .map(e -> e.detail().contains("issue#a") ? Optional.of("ThrottlingException") : Optional.<String>empty()).toList();

        // when
        StreamsEventResponse response = router(publisher).processKinesis(kinesisRecords(changes()), Deadline.after(Duration.ofSeconds(30)));

        // then
        assertThat(response.getBatchItemFailures()).extracting(StreamsEventResponse.BatchItemFailure::getItemIdentifier)
                .contains(sequence(0)).allMatch(id -> !id.equals(sequence(2)));
    }

    @Test
    void processKinesis_skipsARecordThatIsNotAChangeRecord_underItsItemKey() throws IOException {
        // given
        List<KinesisEventRecord> records = kinesisRecords(changes().subList(0, 1));
        KinesisEventRecord garbage = kinesisRecords(changes().subList(0, 1)).getFirst();
        garbage.getKinesis().setData(ByteBuffer.wrap("{\"eventName\":\"BOGUS\",\"dynamodb\":{\"Keys\":{\"id\":{\"S\":\"issue#z\"}}}}"
                .getBytes(StandardCharsets.UTF_8)));
        garbage.getKinesis().setSequenceNumber(sequence(9));
        List<KinesisEventRecord> batch = new ArrayList<>(records);
        batch.add(garbage);
        RecordingEventPublisher publisher = new RecordingEventPublisher();

        // when
        StreamsEventResponse response = router(publisher).processKinesis(batch, Deadline.after(Duration.ofSeconds(30)));

        // then
        assertThat(response.getBatchItemFailures()).isEmpty();
        assertThat(entries(publisher)).hasSize(1);
        JsonNode skipped = logged.toString(StandardCharsets.UTF_8).lines().map(KinesisRouterTest::read)
                .filter(line -> line.path("message").asText().equals("stream record skipped")).findFirst().orElseThrow();
        assertThat(skipped.get("itemKey").asText()).isEqualTo("issue#z");
        assertThat(skipped.get("sequenceNumber").asText()).isEqualTo(sequence(9));
        assertThat(skipped.get("reason").asText()).isEqualTo("unknown eventName 'BOGUS'");
    }

    private static JsonNode withoutPosition(JsonNode detail) {
        ObjectNode copy = detail.deepCopy();
        copy.remove("sequenceNumber");
        copy.remove("approximateCreationDateTime");
        return copy;
    }

    private static java.util.Map<String, PutEventsRequestEntry> byEventId(RecordingEventPublisher publisher) {
        java.util.Map<String, PutEventsRequestEntry> entries = new java.util.HashMap<>();
        entries(publisher).forEach(entry -> entries.put(read(entry.detail()).get("eventId").asText(), entry));
        return entries;
    }

    private static List<PutEventsRequestEntry> entries(RecordingEventPublisher publisher) {
        return publisher.calls.stream().flatMap(List::stream).toList();
    }

    private static String sequence(int position) {
        return String.format("4961%052d", position);
    }

    /** The changes as DynamoDB puts them on its Kinesis destination (MICROSECOND precision), one after another. */
    static List<KinesisEventRecord> kinesisRecords(List<Record> changes) {
        List<KinesisEventRecord> records = new ArrayList<>();
        for (int i = 0; i < changes.size(); i++) {
            Record change = changes.get(i);
            StringBuilder json = new StringBuilder("{\"awsRegion\":\"us-east-1\",\"eventID\":\"").append(change.eventID())
                    .append("\",\"eventName\":\"").append(change.eventNameAsString()).append("\",\"userIdentity\":");
            json.append(change.userIdentity() == null ? "null" : "{\"type\":\"" + change.userIdentity().type()
                    + "\",\"principalId\":\"" + change.userIdentity().principalId() + "\"}");
            json.append(",\"recordFormat\":\"application/json\",\"tableName\":\"AppTable\",\"dynamodb\":{")
                    .append("\"ApproximateCreationDateTime\":").append(BASE_MICROS + i + 1)
                    .append(",\"ApproximateCreationDateTimePrecision\":\"MICROSECOND\",\"Keys\":")
                    .append(DynamoDbJson.image(change.dynamodb().keys()));
            if (change.dynamodb().hasNewImage()) {
                json.append(",\"NewImage\":").append(DynamoDbJson.image(change.dynamodb().newImage()));
            }
            if (change.dynamodb().hasOldImage()) {
                json.append(",\"OldImage\":").append(DynamoDbJson.image(change.dynamodb().oldImage()));
            }
            json.append(",\"SizeBytes\":100},\"eventSource\":\"aws:dynamodb\"}");
            KinesisEvent.Record kinesis = new KinesisEvent.Record();
            kinesis.setData(ByteBuffer.wrap(json.toString().getBytes(StandardCharsets.UTF_8)));
            kinesis.setSequenceNumber(sequence(i));
            kinesis.setPartitionKey("p");
            KinesisEventRecord record = new KinesisEventRecord();
            record.setKinesis(kinesis);
            record.setEventSource("aws:kinesis");
            record.setEventSourceARN("arn:aws:kinesis:us-east-1:123456789012:stream/AppTableChanges");
            records.add(record);
        }
        return records;
    }

    private static JsonNode read(String json) {
        try {
            return JSON.readTree(json);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}

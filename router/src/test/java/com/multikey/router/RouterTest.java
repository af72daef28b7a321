package com.multikey.router;

import com.amazonaws.services.lambda.runtime.events.DynamodbEvent.DynamodbStreamRecord;
import com.amazonaws.services.lambda.runtime.events.StreamsEventResponse;
import com.amazonaws.services.lambda.runtime.events.models.dynamodb.AttributeValue;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.multikey.common.Backoff;
import com.multikey.common.Deadline;
import com.multikey.common.StructuredLog;
import com.multikey.index.definition.IndexDefinitions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.services.eventbridge.model.PutEventsRequestEntry;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.random.RandomGenerator;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The router over an in-memory PutEvents ({@link RecordingEventPublisher}): what a batch's records become, the lines it
 * logs and the counts it reports; and records whose images nest deeper than DynamoDB allows. The router's contract:
 * stream-indexer's tests run these again through the one-reader consumer ({@link #process}).
 */
class RouterTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final RecordingEventPublisher publisher = new RecordingEventPublisher();
    private final List<RouterMetrics.BatchSummary> summaries = new ArrayList<>();
    private final ByteArrayOutputStream logged = new ByteArrayOutputStream();
    private final Router router = new Router(
            new ChangeEventFactory(new RouterConfig("bus", "multikey.app-table", RouterFixtures.TABLE_ARN, IndexDefinitions.packaged(), true,
                    RouterConfig.DEFAULT_MAX_ENTRY_BYTES)),
            new OrderedEventSender(publisher, "bus", RouterConfig.DEFAULT_MAX_ENTRY_BYTES,
                    new Backoff(Duration.ofMillis(1), Duration.ofMillis(10), RandomGenerator.of("L64X128MixRandom")), wait -> { }, 2),
            summaries::add, new StructuredLog("test", new PrintStream(logged, true, StandardCharsets.UTF_8), Clock.systemUTC()));

    private StreamsEventResponse route(List<DynamodbStreamRecord> records) {
        return process(router, records, Deadline.after(Duration.ofSeconds(30)));
    }

    /**
     * The router's own processing of a batch; stream-indexer's tests override it to route through the one-reader consumer,
     * where the same records must give the same events and batch item failures.
     */
    StreamsEventResponse process(Router router, List<DynamodbStreamRecord> records, Deadline deadline) {
        return router.process(records, deadline);
    }

    private List<JsonNode> logLines(String message) throws IOException {
        List<JsonNode> lines = new ArrayList<>();
        for (String line : logged.toString(StandardCharsets.UTF_8).lines().toList()) {
            JsonNode node = JSON.readTree(line);
            if (message.equals(node.path("message").asText())) {
                lines.add(node);
            }
        }
        return lines;
    }

    private List<String> sentIds() {
        return publisher.calls.stream().flatMap(List::stream).map(PutEventsRequestEntry::detail)
                .map(detail -> read(detail).at("/keys/id").asText()).toList();
    }

    private static JsonNode read(String json) {
        try {
            return JSON.readTree(json);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void process_logsTheBatchsCounts_andAnUnreadableRecordUnderItsItemKey() throws IOException {
        // given: two inserts and a record of an unknown kind
        List<DynamodbStreamRecord> records = Records.event(List.of(
                Records.change(1, "issue#a", null, Records.item("issue#a", "a")),
                Records.change(2, "issue#b", null, Records.item("issue#b", "b")),
                Records.change(3, "issue#c", null, Records.item("issue#c", "c")))).getRecords();
        records.get(1).setEventName("BOGUS");

        // when
        StreamsEventResponse response = route(records);

        // then
        assertThat(response.getBatchItemFailures()).isEmpty();
        assertThat(sentIds()).containsExactlyInAnyOrder("issue#a", "issue#c");
        assertThat(logLines("stream record skipped")).singleElement().satisfies(line -> {
            assertThat(line.get("itemKey").asText()).isEqualTo("issue#b");
            assertThat(line.get("reason").asText()).isEqualTo("unknown eventName 'BOGUS'");
        });
        assertThat(logLines("batch routed")).singleElement().satisfies(line -> {
            assertThat(line.get("level").asText()).isEqualTo("INFO");
            assertThat(line.get("records").asInt()).isEqualTo(3);
            assertThat(line.get("events").asInt()).isEqualTo(2);
            assertThat(line.get("skippedRecords").asInt()).isEqualTo(1);
            assertThat(line.get("refusedEvents").asInt()).isZero();
            assertThat(line.get("failedRecords").asInt()).isZero();
        });
        assertThat(logLines("events not accepted by EventBridge in time, their records are batch item failures")).isEmpty();
        assertThat(summaries).containsExactly(new RouterMetrics.BatchSummary(3, 1, 2, 0, 0, 0, 0, 0));
    }

    @Test
    void process_whenOneItemsEventKeepsFailing_countsTheOthersSent_andLogsWhatWasLeftUnsent() throws IOException {
        // given: issue#b's entry fails transiently every time
        publisher.behaviour = (call, entries) -> entries.stream()
                .map(entry -> entry.detail().contains("\"issue#b\"") ? Optional.of("InternalFailure") : Optional.<String>empty()).toList();

        // when
        StreamsEventResponse response = route(Records.event(List.of(
                Records.change(1, "issue#a", null, Records.item("issue#a", "a")),
                Records.change(2, "issue#b", null, Records.item("issue#b", "b")))).getRecords());

        // then: issue#b's record is a batch item failure, issue#a's event is counted sent
        assertThat(response.getBatchItemFailures()).extracting(StreamsEventResponse.BatchItemFailure::getItemIdentifier)
                .containsExactly(String.format("%021d", 2));
        assertThat(summaries).singleElement().satisfies(summary -> {
            assertThat(summary.eventsSent()).isEqualTo(1);
            assertThat(summary.failedRecords()).isEqualTo(1);
        });
        assertThat(logLines("events not accepted by EventBridge in time, their records are batch item failures")).singleElement()
                .satisfies(line -> {
                    assertThat(line.get("level").asText()).isEqualTo("WARN");
                    assertThat(line.get("unsentEvents").asInt()).isEqualTo(1);
                    assertThat(line.get("errorCodes").get("InternalFailure").asInt()).isPositive();
                });
    }

    /** An attribute whose value nests {@code levels} maps deep (levels 0: a string). */
    private static AttributeValue nested(int levels) {
        AttributeValue value = new AttributeValue().withS("leaf");
        for (int level = 0; level < levels; level++) {
            value = new AttributeValue().withM(Map.of("a", value));
        }
        return value;
    }

    /** An insert (or, with {@code oldImage}, a modify) of issue#deep whose image has the attribute {@code deep}. */
    private static DynamodbStreamRecord deepRecord(AttributeValue deep, boolean inOldImage) {
        DynamodbStreamRecord record = Records.event(List.of(Records.change(1, "issue#deep",
                inOldImage ? Records.item("issue#deep", "before") : null, Records.item("issue#deep", "after")))).getRecords().get(0);
        Map<String, AttributeValue> image = new HashMap<>(inOldImage ? record.getDynamodb().getOldImage() : record.getDynamodb().getNewImage());
        image.put("deep", deep);
        if (inOldImage) {
            record.getDynamodb().setOldImage(image);
        } else {
            record.getDynamodb().setNewImage(image);
        }
        return record;
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void process_whenAnImageNestsAsDeepAsDynamoDbAllows_sendsItsImages_andOneLevelDeeper_sendsNone(boolean inOldImage) {
        // DynamoDB stores 32 levels of nested attributes at most
        route(List.of(deepRecord(nested(32), inOldImage)));
        route(List.of(deepRecord(nested(33), inOldImage)));

        List<JsonNode> details = publisher.calls.stream().flatMap(List::stream).map(entry -> read(entry.detail())).toList();
        assertThat(details).hasSize(2);
        assertThat(details.get(0).get("imagesDropped").asBoolean()).isFalse();
        assertThat(details.get(0).has("newImage")).isTrue();
        assertThat(details.get(1).get("imagesDropped").asBoolean()).isTrue();
        assertThat(details.get(1).has("newImage")).isFalse();
        assertThat(details.get(1).has("oldImage")).isFalse();
        assertThat(details.get(1).get("changedAttributesDropped").asBoolean()).isTrue();
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void process_whenAnImageNestsFarDeeperThanAnyStackConverts_routesTheRecordWithoutImages_leavingTheRecordAsItIs(boolean inOldImage) {
        // given: 200,000 levels, which converting recursively would overflow the stack with
        DynamodbStreamRecord record = deepRecord(nested(200_000), inOldImage);

        // when
        StreamsEventResponse response = route(List.of(record));

        // then
        assertThat(response.getBatchItemFailures()).isEmpty();
        assertThat(sentIds()).containsExactly("issue#deep");
        assertThat(read(publisher.calls.getFirst().getFirst().detail()).get("imagesDroppedReason").asText()).isEqualTo("nesting");
        assertThat((inOldImage ? record.getDynamodb().getOldImage() : record.getDynamodb().getNewImage())).containsKey("deep");
    }
}

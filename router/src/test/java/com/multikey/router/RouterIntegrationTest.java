package com.multikey.router;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.events.DynamodbEvent;
import com.amazonaws.services.lambda.runtime.events.StreamsEventResponse;
import com.fasterxml.jackson.databind.JsonNode;
import com.multikey.emulator.functions.LocalContext;
import com.multikey.emulator.services.bus.LocalEventBridge;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.Record;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The real handler, its real EventBridge client, against a local endpoint that speaks PutEvents. The router's contract:
 * stream-indexer's tests run these again with the batch routed through the one-reader consumer ({@link #handler(Map)}).
 */
class RouterIntegrationTest {

    /** A batch's way to the router. */
    @FunctionalInterface
    interface Handler {
        StreamsEventResponse handleRequest(DynamodbEvent event, Context context);
    }

    private LocalEventBridge bus;

    @BeforeEach
    void start() {
        bus = LocalEventBridge.start();
    }

    @AfterEach
    void stop() {
        bus.close();
    }

    /** The router's own handler, configured from {@code env}; overridden to route through another reader of the stream. */
    Handler handler(Map<String, String> env) {
        return new RouterHandler(env)::handleRequest;
    }

    private Handler handler(int maxEntryBytes) {
        Map<String, String> env = new HashMap<>();
        env.put("AWS_REGION", "us-east-1");
        env.put("AWS_ACCESS_KEY_ID", "local");
        env.put("AWS_SECRET_ACCESS_KEY", "local");
        env.put("AWS_ENDPOINT_URL_EVENTBRIDGE", bus.endpoint().toString());
        env.put("EVENT_BUS_NAME", "app-events");
        env.put("TABLE_ARN", RouterFixtures.TABLE_ARN);
        env.put("MAX_ENTRY_BYTES", Integer.toString(maxEntryBytes));
        return handler(env);
    }

    private StreamsEventResponse route(Handler handler, List<Record> records) {
        return handler.handleRequest(Records.event(records), LocalContext.of("RouterFunction"));
    }

    private static List<Record> inserts(int count) {
        List<Record> records = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            records.add(Records.change(i, "issue#" + i, null, Records.item("issue#" + i, "name " + i)));
        }
        return records;
    }

    @Test
    void events_goInCallsOfAtMostTen() {
        StreamsEventResponse response = route(handler(262144), inserts(25));

        assertThat(response.getBatchItemFailures()).isEmpty();
        // the three calls go concurrently: they arrive in any order
        assertThat(bus.callSizes()).containsExactlyInAnyOrder(10, 10, 5);
        assertThat(bus.received()).hasSize(25).allSatisfy(r -> {
            assertThat(r.detailType()).isEqualTo("Issue Created");
            assertThat(r.envelope().get("source").asText()).isEqualTo("multikey.app-table");
            assertThat(r.envelope().get("resources").toString()).isEqualTo("[\"" + RouterFixtures.TABLE_ARN + "\"]");
        });
    }

    @Test
    void calls_stayWithinTheSizeLimit_andOversizedEntriesGoWithoutImages() {
        List<Record> records = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            var item = Map.of("id", AttributeValue.fromS("issue#" + i), "text", AttributeValue.fromS("y".repeat(i == 0 ? 9000 : 1500)));
            records.add(Records.change(i, "issue#" + i, null, item));
        }

        StreamsEventResponse response = route(handler(8192), records);

        assertThat(response.getBatchItemFailures()).isEmpty();
        assertThat(bus.received()).hasSize(6);
        assertThat(bus.callSizes()).hasSizeGreaterThan(1).allSatisfy(size -> assertThat(size).isLessThanOrEqualTo(10));
        JsonNode first = bus.received().stream().filter(r -> r.envelope().at("/detail/keys/id").asText().equals("issue#0"))
                .findFirst().orElseThrow().envelope().get("detail");
        assertThat(first.get("imagesDropped").asBoolean()).isTrue();
        assertThat(first.has("newImage")).isFalse();
        assertThat(bus.received()).filteredOn(r -> r.envelope().at("/detail/imagesDropped").asBoolean()).hasSize(1);
    }

    @Test
    void rejectedEntries_areRetried_andEveryEventArrivesOnce() {
        AtomicInteger rejections = new AtomicInteger();
        bus.faults((call, entry) -> call < 2 && entry.path("Detail").asText().contains("issue#1")
                ? Optional.of(rejections.incrementAndGet() > 0 ? "ThrottlingException" : "") : Optional.empty());
        bus.throttleCalls(1);

        StreamsEventResponse response = route(handler(262144), inserts(15));

        assertThat(response.getBatchItemFailures()).isEmpty();
        assertThat(rejections.get()).isPositive();
        assertThat(bus.received()).hasSize(15);
        assertThat(bus.received().stream().map(r -> r.envelope().at("/detail/keys/id").asText()).distinct()).hasSize(15);
    }

    @Test
    void entriesThatKeepFailing_becomeBatchItemFailuresOfTheirRecords_andLaterEventsOfThatItemWait() {
        List<Record> records = new ArrayList<>(inserts(5));
        records.add(Records.change(5, "issue#2", Records.item("issue#2", "name 2"), Records.item("issue#2", "renamed")));
        records.add(Records.change(6, "issue#4", Records.item("issue#4", "name 4"), Records.item("issue#4", "renamed")));
        bus.faults((call, entry) -> entry.path("Detail").asText().contains("\"issue#2\"")
                ? Optional.of("InternalFailure") : Optional.empty());

        // a short invocation: retries stop at its deadline, in time to answer with the failures
        StreamsEventResponse response = handler(262144).handleRequest(Records.event(records), new LocalContext("RouterFunction", 1024, 3500));

        assertThat(response.getBatchItemFailures()).extracting(StreamsEventResponse.BatchItemFailure::getItemIdentifier)
                .containsExactlyInAnyOrder(String.format("%021d", 2), String.format("%021d", 5));
        assertThat(bus.received()).extracting(r -> r.envelope().at("/detail/keys/id").asText())
                .containsExactlyInAnyOrder("issue#0", "issue#1", "issue#3", "issue#4", "issue#4");
    }

    @Test
    void eventsOfOneItem_leaveInStreamOrder_evenWhenAnEarlierOneIsRetried() {
        List<Record> records = new ArrayList<>();
        var v = new ArrayList<Map<String, AttributeValue>>();
        for (int version = 0; version < 4; version++) {
            v.add(Records.item("issue#a", "version " + version));
        }
        long sequence = 0;
        records.add(Records.change(sequence++, "issue#a", null, v.get(0)));
        for (int version = 1; version < 4; version++) {
            records.add(Records.change(sequence++, "issue#b" + version, null, Records.item("issue#b" + version, "b")));
            records.add(Records.change(sequence++, "issue#a", v.get(version - 1), v.get(version)));
        }
        records.add(Records.change(sequence, "issue#a", v.get(3), null));
        bus.faults((call, entry) -> call == 0 && entry.path("Detail").asText().contains("\"issue#a\"")
                ? Optional.of("ThrottlingException") : Optional.empty());

        StreamsEventResponse response = route(handler(262144), records);

        assertThat(response.getBatchItemFailures()).isEmpty();
        List<String> itemA = bus.received().stream().filter(r -> r.envelope().at("/detail/keys/id").asText().equals("issue#a"))
                .map(r -> r.detailType() + " " + r.envelope().at("/detail/newImage/name").asText()).toList();
        assertThat(itemA).containsExactly("Issue Created version 0", "Issue Updated version 1", "Issue Updated version 2",
                "Issue Updated version 3", "Issue Removed ");
    }

    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(ints = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11})
    void twelveEventsOfOneItem_whenTheEntryAtAnyPositionIsThrottled_allArriveOnceInOrder(int throttled) {
        List<Record> records = new ArrayList<>();
        records.add(Records.change(0, "issue#a", null, Records.item("issue#a", "v0")));
        for (int version = 1; version < 12; version++) {
            records.add(Records.change(version, "issue#a", Records.item("issue#a", "v" + (version - 1)), Records.item("issue#a", "v" + version)));
        }
        AtomicInteger calls = new AtomicInteger();
        bus.faults((call, entry) -> call == throttled && calls.incrementAndGet() == 1 ? Optional.of("ThrottlingException") : Optional.empty());

        StreamsEventResponse response = route(handler(262144), records);

        assertThat(response.getBatchItemFailures()).isEmpty();
        List<String> expected = new ArrayList<>();
        for (int version = 0; version < 12; version++) {
            expected.add("v" + version);
        }
        assertThat(bus.received()).extracting(r -> r.envelope().at("/detail/newImage/name").asText()).containsExactlyElementsOf(expected);
        assertThat(bus.callSizes()).hasSize(13);
    }

    @Test
    void aCallThrottledAsAWhole_isRetriedByTheSdk_andEveryEventArrivesOnce() {
        bus.callFaults((call, request) -> call == 1 ? Optional.of("ThrottlingException") : Optional.empty());

        StreamsEventResponse response = route(handler(262144), inserts(25));

        assertThat(response.getBatchItemFailures()).isEmpty();
        assertThat(bus.received()).extracting(r -> r.envelope().at("/detail/keys/id").asText()).doesNotHaveDuplicates().hasSize(25);
        // three calls (10, 10, 5) sent concurrently, the throttled one sent again by the SDK
        assertThat(bus.callSizes()).hasSize(4);
    }

    @Test
    void anEntryRefusedPermanently_isSentAgainWithoutImagesOnce_thenSkipped_withoutABatchItemFailure() {
        bus.faults((call, entry) -> entry.path("Detail").asText().contains("\"issue#3\"") ? Optional.of("InvalidArgument") : Optional.empty());

        StreamsEventResponse response = route(handler(262144), inserts(6));

        assertThat(response.getBatchItemFailures()).isEmpty();
        assertThat(bus.received()).hasSize(5).noneMatch(r -> r.envelope().at("/detail/keys/id").asText().equals("issue#3"));
        assertThat(bus.callSizes()).containsExactly(6, 1);
    }

    @Test
    void aCallRefusedWithValidationException_isSplitToIsolateTheOffender_andTheRestIsRouted() {
        bus.callFaults((call, request) -> request.toString().contains("issue#4\\\"") ? Optional.of("ValidationException") : Optional.empty());

        StreamsEventResponse response = route(handler(262144), inserts(8));

        assertThat(response.getBatchItemFailures()).isEmpty();
        assertThat(bus.received()).hasSize(7).noneMatch(r -> r.envelope().at("/detail/keys/id").asText().equals("issue#4"));
    }

    @Test
    void accessDenied_isAConfigurationProblem_everyRecordIsABatchItemFailure_noneIsSkipped() {
        bus.callFaults((call, request) -> Optional.of("AccessDeniedException"));

        StreamsEventResponse response = route(handler(262144), inserts(3));

        assertThat(response.getBatchItemFailures()).hasSize(3);
        assertThat(bus.callSizes()).containsExactly(3);
    }
}

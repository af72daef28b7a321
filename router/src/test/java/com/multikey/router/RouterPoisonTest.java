package com.multikey.router;

import com.amazonaws.services.lambda.runtime.events.DynamodbEvent;
import com.amazonaws.services.lambda.runtime.events.StreamsEventResponse;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.multikey.common.EmfMetrics;
import com.multikey.common.StructuredLog;
import com.multikey.emulator.functions.LocalContext;
import com.multikey.emulator.services.bus.LocalEventBridge;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.Record;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every kind of entry PutEvents would refuse, each between good records of one batch, through the real
 * handler and its EventBridge client against the local endpoint, which validates as PutEvents does.
 */
class RouterPoisonTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** In every offender's image: it must never reach a log or metric line. */
    private static final String CONTENT = "IMAGE-CONTENT-MARKER";

    private LocalEventBridge bus;
    private final ByteArrayOutputStream output = new ByteArrayOutputStream();

    @BeforeEach
    void start() {
        bus = LocalEventBridge.start();
    }

    @AfterEach
    void stop() {
        bus.close();
    }

    private RouterHandler handler() {
        Map<String, String> env = new HashMap<>();
        env.put("AWS_REGION", "us-east-1");
        env.put("AWS_ACCESS_KEY_ID", "local");
        env.put("AWS_SECRET_ACCESS_KEY", "local");
        env.put("AWS_ENDPOINT_URL_EVENTBRIDGE", bus.endpoint().toString());
        env.put("EVENT_BUS_NAME", "app-events");
        env.put("TABLE_ARN", RouterFixtures.TABLE_ARN);
        PrintStream out = new PrintStream(output, true, StandardCharsets.UTF_8);
        return new RouterHandler(RouterHandler.fromEnvironment(env, new StructuredLog("Router", out, Clock.systemUTC()),
                new EmfMetrics("Multikey", RouterMetrics.SERVICE, out, Clock.systemUTC())));
    }

    private static Map<String, AttributeValue> item(String id, String attribute, AttributeValue value) {
        return Map.of("id", AttributeValue.fromS(id), attribute, value, "note", AttributeValue.fromS(CONTENT));
    }

    private static com.amazonaws.services.lambda.runtime.events.models.dynamodb.AttributeValue nested(int levels) {
        var value = new com.amazonaws.services.lambda.runtime.events.models.dynamodb.AttributeValue().withS(CONTENT);
        for (int level = 0; level < levels; level++) {
            value = new com.amazonaws.services.lambda.runtime.events.models.dynamodb.AttributeValue().withM(Map.of("a", value));
        }
        return value;
    }

    private List<JsonNode> lines() {
        return output.toString(StandardCharsets.UTF_8).lines().map(line -> {
            try {
                return JSON.readTree(line);
            } catch (Exception e) {
                throw new IllegalStateException("not a JSON line: " + line, e);
            }
        }).toList();
    }

    private List<JsonNode> logLines(String message) {
        return lines().stream().filter(l -> message.equals(l.path("message").asText())).toList();
    }

    private JsonNode routed(String id) {
        return bus.received().stream().map(LocalEventBridge.Received::envelope)
                .filter(e -> id.equals(e.at("/detail/keys/id").asText())).findFirst().orElseThrow(() -> new AssertionError("not routed: " + id));
    }

    @Test
    void handleRequest_whenOffendersAreBetweenGoodRecords_routesTheGoodOnes_handlesEachOffenderAsDocumented_andFailsNone() {
        String longType = "t".repeat(130);
        String noPrefix = "n".repeat(200);
        List<Record> records = new ArrayList<>();
        long seq = 0;
        records.add(Records.change(seq++, "issue#good0", null, Records.item("issue#good0", "g")));
        records.add(Records.change(seq++, "issue#n20", null, item("issue#n20", "n", AttributeValue.fromN("12345678901234567890"))));
        records.add(Records.change(seq++, "issue#good1", null, Records.item("issue#good1", "g")));
        records.add(Records.change(seq++, "issue#n38", null, item("issue#n38", "n", AttributeValue.fromN("12345678901234567890123456789012345678"))));
        records.add(Records.change(seq++, "issue#neg", null, Map.of("id", AttributeValue.fromS("issue#neg"),
                "below", AttributeValue.fromN("-9223372036854775809"), "min", AttributeValue.fromN("-9223372036854775808"),
                "set", AttributeValue.fromNs(List.of("-99999999999999999999999", "1")))));
        records.add(Records.change(seq++, "issue#good2", null, Records.item("issue#good2", "g")));
        records.add(Records.change(seq++, noPrefix, null, item(noPrefix, "x", AttributeValue.fromS("y"))));
        records.add(Records.change(seq++, longType + "#1", null, item(longType + "#1", "x", AttributeValue.fromS("y"))));
        records.add(Records.change(seq++, "issue#good3", null, Records.item("issue#good3", "g")));
        int deepAt = records.size();
        records.add(Records.change(seq++, "issue#deep", null, item("issue#deep", "deep", AttributeValue.fromS("replaced below"))));
        records.add(Records.change(seq++, "issue#big", null, item("issue#big", "text", AttributeValue.fromS("b".repeat(399_000)))));
        records.add(Records.change(seq++, "issue#good4", null, Records.item("issue#good4", "g")));
        records.add(Records.change(seq++, "issue#refused", null, item("issue#refused", "x", AttributeValue.fromS("y"))));
        records.add(Records.change(seq, "issue#good5", null, Records.item("issue#good5", "g")));
        DynamodbEvent event = Records.event(records);
        // DynamoDB caps nesting at 32 levels; a record nested 1,200 levels deep can only be built here
        event.getRecords().get(deepAt).getDynamodb().getNewImage().put("deep", nested(1200));
        bus.faults((call, entry) -> entry.path("Detail").asText().contains("\"issue#refused\"") ? Optional.of("MalformedDetail") : Optional.empty());

        StreamsEventResponse response = handler().handleRequest(event, LocalContext.of("RouterFunction"));

        assertThat(response.getBatchItemFailures()).isEmpty();
        for (int good = 0; good <= 5; good++) {
            assertThat(routed("issue#good" + good).get("detail-type").asText()).isEqualTo("Issue Created");
        }
        // integers outside int64: exact digits as strings; int64's own bounds stay numbers
        assertThat(routed("issue#n20").at("/detail/newImage/n").isTextual()).isTrue();
        assertThat(routed("issue#n20").at("/detail/newImage/n").asText()).isEqualTo("12345678901234567890");
        assertThat(routed("issue#n38").at("/detail/newImage/n").asText()).isEqualTo("12345678901234567890123456789012345678");
        JsonNode negative = routed("issue#neg").get("detail").get("newImage");
        assertThat(negative.get("below").isTextual()).isTrue();
        assertThat(negative.get("below").asText()).isEqualTo("-9223372036854775809");
        assertThat(negative.get("min").isIntegralNumber()).isTrue();
        assertThat(negative.get("min").asLong()).isEqualTo(Long.MIN_VALUE);
        assertThat(negative.get("set").toString()).isEqualTo("[\"-99999999999999999999999\",1]");
        // DetailType: an id without '#' is an Item; a type name too long for DetailType is sent as Item
        assertThat(routed(noPrefix).get("detail-type").asText()).isEqualTo("Item Created");
        assertThat(routed(noPrefix).at("/detail/entityType").asText()).isEqualTo("item");
        assertThat(routed(longType + "#1").get("detail-type").asText()).isEqualTo("Item Created");
        assertThat(routed(longType + "#1").at("/detail/entityType").asText()).isEqualTo(longType);
        // images dropped, and why
        JsonNode deep = routed("issue#deep").get("detail");
        assertThat(deep.has("newImage")).isFalse();
        assertThat(deep.get("imagesDropped").asBoolean()).isTrue();
        assertThat(deep.get("imagesDroppedReason").asText()).isEqualTo("nesting");
        JsonNode big = routed("issue#big").get("detail");
        assertThat(big.has("newImage")).isFalse();
        assertThat(big.get("imagesDroppedReason").asText()).isEqualTo("size");
        // refused even without images: skipped, logged, counted
        assertThat(bus.received()).noneMatch(r -> r.envelope().at("/detail/keys/id").asText().equals("issue#refused"));
        assertThat(bus.received()).hasSize(records.size() - 1);

        assertThat(logLines("event refused by EventBridge, sent again without images")).singleElement()
                .satisfies(line -> assertThat(line.get("eventId").asText()).isEqualTo("event-12"));
        assertThat(logLines("event refused by EventBridge, skipped")).singleElement().satisfies(line -> {
            assertThat(line.get("eventId").asText()).isEqualTo("event-12");
            assertThat(line.get("itemKey").asText()).isEqualTo("{\"id\":\"issue#refused\"}");
            assertThat(line.get("errorCode").asText()).isEqualTo("MalformedDetail");
            assertThat(line.get("reason").asText()).contains("permanent", "without images");
        });
        Map<String, String> adjusted = new HashMap<>();
        logLines("event adjusted to PutEvents limits").forEach(line -> adjusted.put(line.get("eventId").asText(), line.get("reasons").toString()));
        assertThat(adjusted).containsOnlyKeys("event-1", "event-3", "event-4", "event-7", "event-9", "event-10");
        assertThat(adjusted.get("event-1")).contains("integers outside int64");
        assertThat(adjusted.get("event-7")).contains("DetailType");
        assertThat(adjusted.get("event-9")).contains("nested deeper than");
        assertThat(adjusted.get("event-10")).contains("size limit");
        JsonNode metrics = lines().stream().filter(l -> l.has("_aws")).reduce((a, b) -> b).orElseThrow();
        assertThat(metrics.get("service").asText()).isEqualTo("router");
        assertThat(metrics.get("Records").asInt()).isEqualTo(records.size());
        assertThat(metrics.get("EventsSent").asInt()).isEqualTo(records.size() - 1);
        assertThat(metrics.get("EventsRefused").asInt()).isEqualTo(1);
        assertThat(metrics.get("EventsAdjusted").asInt()).isEqualTo(6);
        assertThat(metrics.get("EventsWithoutImages").asInt()).isEqualTo(2);
        assertThat(metrics.get("FailedRecords").asInt()).isZero();
        assertThat(output.toString(StandardCharsets.UTF_8)).doesNotContain(CONTENT, "bbbbbbbb");
    }
}

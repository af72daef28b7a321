package com.multikey.templatechecks;

import com.amazonaws.services.lambda.runtime.events.DynamodbEvent;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.multikey.emulator.functions.LocalContext;
import com.multikey.emulator.services.bus.LocalEventBridge;
import com.multikey.emulator.services.streams.LambdaEvents;
import com.multikey.emulator.template.SamTemplate;
import com.multikey.emulator.template.TemplateEnvironment;
import com.multikey.router.RouterHandler;
import com.multikey.testkit.Fixtures;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.Identity;
import software.amazon.awssdk.services.dynamodb.model.OperationType;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.StreamRecord;
import software.amazon.event.ruler.Machine;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The rules of template.yaml, matched with event-ruler (EventBridge's own matching engine) against the
 * router's real output for the sample events and every external stream fixture.
 */
class RouterRulesTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String STREAM_ARN = "arn:aws:dynamodb:us-east-1:123456789012:table/AppTable/stream/2026-01-01T00:00:00.000";
    private static final Identity TTL = Identity.builder().type("Service").principalId("dynamodb.amazonaws.com").build();
    private final SamTemplate template = SamTemplate.ofRepository();
    private final Path samEvents = SamTemplate.findUp("sam").resolve("events");
    private LocalEventBridge bus;
    private RouterHandler router;

    @BeforeEach
    void start() {
        bus = LocalEventBridge.start();
        Map<String, String> env = TemplateEnvironment.forLocalRun(template, "RouterFunction", localNames(),
                Map.of("EVENTBRIDGE", bus.endpoint()));
        router = new RouterHandler(env);
    }

    @AfterEach
    void stop() {
        bus.close();
    }

    private Map<String, String> localNames() {
        Map<String, String> names = new HashMap<>();
        template.resources().keySet().forEach(id -> names.put(id, id));
        return names;
    }

    private Machine rules() throws Exception {
        Machine machine = new Machine();
        for (String rule : template.resourcesOfType("AWS::Events::Rule")) {
            Object pattern = TemplateEnvironment.resolveAll(template.properties(rule).get("EventPattern"), template, localNames(), rule);
            machine.addRule(rule, JSON.writeValueAsString(pattern));
        }
        return machine;
    }

    private List<ObjectNode> routed(DynamodbEvent event) {
        int before = bus.received().size();
        assertThat(router.handleRequest(event, LocalContext.of("RouterFunction")).getBatchItemFailures()).isEmpty();
        return bus.received().subList(before, bus.received().size()).stream().map(LocalEventBridge.Received::envelope).toList();
    }

    @Test
    void layerExpiredRule_matchesTheRoutersTtlExpiryOfALayer_only() throws Exception {
        Machine rules = rules();

        List<ObjectNode> expiry = routed(LambdaEvents.read(samEvents.resolve("layer-ttl-expiry.json"), DynamodbEvent.class));
        List<ObjectNode> userDelete = routed(LambdaEvents.read(samEvents.resolve("layer-user-delete.json"), DynamodbEvent.class));
        List<ObjectNode> issueExpiry = routed(ttlExpiry(7, "issue#1", Map.of("id", AttributeValue.fromS("issue#1"), "name",
                AttributeValue.fromS("x"))));
        List<ObjectNode> issueChanges = new ArrayList<>();
        for (String sample : List.of("issue-insert.json", "issue-update.json", "issue-remove.json")) {
            issueChanges.addAll(routed(LambdaEvents.read(samEvents.resolve(sample), DynamodbEvent.class)));
        }

        assertThat(expiry).singleElement().satisfies(e -> assertThat(rules.rulesForJSONEvent(e.toString())).containsExactly("LayerExpiredRule"));
        assertThat(userDelete).singleElement().satisfies(e -> {
            assertThat(e.get("detail-type").asText()).isEqualTo("Layer Removed");
            assertThat(rules.rulesForJSONEvent(e.toString())).isEmpty();
        });
        assertThat(issueExpiry).singleElement().satisfies(e -> {
            assertThat(e.get("detail-type").asText()).isEqualTo("Issue Expired");
            assertThat(rules.rulesForJSONEvent(e.toString())).isEmpty();
        });
        assertThat(issueChanges).hasSize(3).allSatisfy(e -> assertThat(rules.rulesForJSONEvent(e.toString())).isEmpty());
    }

    @Test
    void noRule_matchesAnyEventBuiltFromTheExternalStreamFixtures() throws Exception {
        Machine rules = rules();
        List<ObjectNode> events = new ArrayList<>();
        for (Path fixture : Fixtures.externalStreamEvents()) {
            events.addAll(routed(LambdaEvents.read(Fixtures.asLambdaEvent(fixture), DynamodbEvent.class)));
        }

        assertThat(events).hasSizeGreaterThan(25);
        assertThat(events).extracting(e -> e.get("detail-type").asText()).contains("Item Expired", "Item Removed", "Item Created");
        for (ObjectNode event : events) {
            assertThat(rules.rulesForJSONEvent(event.toString())).as(event.get("detail-type").asText()).isEmpty();
        }
    }

    @Test
    void layerExpiredRule_matchesTheSingleTableExamplesLayerExpired_whoseEntityTypeIsDeclaredLayer() throws Exception {
        // given: the router's event for a pk/sk layer version (the router's SingleTableRouterTest keeps the fixture true)
        JsonNode example = JSON.readTree(SamTemplate.findUp("examples").resolve("single-table").resolve("events")
                .resolve("layer-expired-event.json").toFile());
        ObjectNode otherType = example.deepCopy();
        ((ObjectNode) otherType.get("detail")).put("entityType", "Layers");

        // then
        assertThat(example.at("/detail/entityType").asText()).isEqualTo("Layer");
        assertThat(rules().rulesForJSONEvent(example.toString())).containsExactly("LayerExpiredRule");
        assertThat(rules().rulesForJSONEvent(otherType.toString())).isEmpty();
    }

    /** The stream event of DynamoDB's TTL deleting the item {@code before}, read through the Lambda runtime's own reader. */
    private static DynamodbEvent ttlExpiry(long sequence, String id, Map<String, AttributeValue> before) {
        StreamRecord stream = StreamRecord.builder()
                .keys(Map.of("id", AttributeValue.fromS(id)))
                .sequenceNumber(String.format("%021d", sequence))
                .approximateCreationDateTime(Instant.ofEpochSecond(1_793_577_600L + sequence))
                .streamViewType("NEW_AND_OLD_IMAGES")
                .oldImage(before)
                .build();
        Record record = Record.builder().eventID("event-" + sequence).eventName(OperationType.REMOVE).eventVersion("1.1")
                .awsRegion("us-east-1").userIdentity(TTL).dynamodb(stream).build();
        return LambdaEvents.dynamodbEvent(List.of(record), STREAM_ARN);
    }
}

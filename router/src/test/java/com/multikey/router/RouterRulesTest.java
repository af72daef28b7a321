package com.multikey.router;

import com.amazonaws.services.lambda.runtime.events.DynamodbEvent;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.multikey.emulator.functions.LocalContext;
import com.multikey.emulator.services.LambdaEvents;
import com.multikey.emulator.services.LocalEventBridge;
import com.multikey.emulator.template.SamTemplate;
import com.multikey.emulator.template.TemplateEnvironment;
import com.multikey.testkit.Fixtures;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.event.ruler.Machine;

import java.nio.file.Path;
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
        List<ObjectNode> issueExpiry = routed(Records.event(List.of(
                Records.change(7, "issue#1", Records.item("issue#1", "x"), null, Records.TTL))));
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
        // given: the router's event for a pk/sk layer version (SingleTableRouterTest keeps the fixture true)
        JsonNode example = JSON.readTree(SamTemplate.findUp("examples").resolve("single-table").resolve("events")
                .resolve("layer-expired-event.json").toFile());
        ObjectNode otherType = example.deepCopy();
        ((ObjectNode) otherType.get("detail")).put("entityType", "Layers");

        // then
        assertThat(example.at("/detail/entityType").asText()).isEqualTo("Layer");
        assertThat(rules().rulesForJSONEvent(example.toString())).containsExactly("LayerExpiredRule");
        assertThat(rules().rulesForJSONEvent(otherType.toString())).isEmpty();
    }
}

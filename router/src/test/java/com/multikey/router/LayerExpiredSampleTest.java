package com.multikey.router;

import com.amazonaws.services.lambda.runtime.events.DynamodbEvent;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.multikey.emulator.functions.LocalContext;
import com.multikey.emulator.services.bus.LocalEventBridge;
import com.multikey.emulator.services.streams.LambdaEvents;
import com.multikey.emulator.template.SamTemplate;
import com.multikey.emulator.template.TemplateEnvironment;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code sam/events/layer-expired-event.json}, the sample delete-layer is invoked with, is the event the router sends
 * for the sample TTL expiry of a layer ({@code layer-ttl-expiry.json}).
 */
class LayerExpiredSampleTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private final SamTemplate template = SamTemplate.ofRepository();
    private final Path samEvents = SamTemplate.findUp("sam").resolve("events");
    private LocalEventBridge bus;
    private RouterHandler router;

    @BeforeEach
    void start() {
        bus = LocalEventBridge.start();
        Map<String, String> names = new HashMap<>();
        template.resources().keySet().forEach(id -> names.put(id, id));
        Map<String, String> env = TemplateEnvironment.forLocalRun(template, "RouterFunction", names,
                Map.of("EVENTBRIDGE", bus.endpoint()));
        router = new RouterHandler(env);
    }

    @AfterEach
    void stop() {
        bus.close();
    }

    private List<ObjectNode> routed(DynamodbEvent event) {
        int before = bus.received().size();
        assertThat(router.handleRequest(event, LocalContext.of("RouterFunction")).getBatchItemFailures()).isEmpty();
        return bus.received().subList(before, bus.received().size()).stream().map(LocalEventBridge.Received::envelope).toList();
    }

    @Test
    void samLayerExpiredEvent_isWhatTheRouterSendsForTheSampleExpiry() throws Exception {
        ObjectNode routedExpiry = routed(LambdaEvents.read(samEvents.resolve("layer-ttl-expiry.json"), DynamodbEvent.class)).get(0);
        Path sample = samEvents.resolve("layer-expired-event.json");
        if (Boolean.getBoolean("sam.events.write")) {
            ObjectNode event = routedExpiry.deepCopy();
            event.put("id", "7bf73129-1428-4cd3-a780-95db273d1602");
            event.put("account", "123456789012");
            Files.writeString(sample, JSON.enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(event) + "\n");
        }

        JsonNode written = JSON.readTree(sample.toFile());
        for (String field : List.of("source", "detail-type", "resources", "detail", "time")) {
            assertThat(written.get(field)).as(field + " (regenerate with -Dsam.events.write=true)").isEqualTo(routedExpiry.get(field));
        }
    }
}

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
import com.multikey.index.definition.DefinitionsYaml;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The real handler configured with the single-table example's definitions file ({@code INDEX_DEFINITIONS}): the
 * TTL expiry of a pk/sk layer version becomes the {@code Layer Expired} event the example's fixture holds, which is
 * what delete-layer's tests act on.
 */
class SingleTableRouterTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    static final Path EXAMPLE = SamTemplate.findUp("examples").resolve("single-table");

    private LocalEventBridge bus;
    private RouterHandler router;

    @BeforeEach
    void start(@TempDir Path dir) throws Exception {
        bus = LocalEventBridge.start();
        SamTemplate template = SamTemplate.ofRepository();
        Map<String, String> names = new HashMap<>();
        template.resources().keySet().forEach(id -> names.put(id, id));
        Map<String, String> env = new HashMap<>(TemplateEnvironment.forLocalRun(template, "RouterFunction", names,
                Map.of("EVENTBRIDGE", bus.endpoint())));
        Path definitions = Files.writeString(dir.resolve("index-definitions.json"),
                DefinitionsYaml.toJson(EXAMPLE.resolve("index-definitions.yaml")));
        env.put("INDEX_DEFINITIONS", definitions.toString());
        env.put("TABLE_ARN", "arn:aws:dynamodb:ap-southeast-1:123456789012:table/Layers");
        router = new RouterHandler(env);
    }

    @AfterEach
    void stop() {
        bus.close();
    }

    @Test
    void handleRequest_whenAPkSkLayerVersionExpires_sendsTheLayerExpiredEventOfTheExample() throws Exception {
        // given
        DynamodbEvent expiry = LambdaEvents.read(EXAMPLE.resolve("events").resolve("layer-ttl-expiry.json"), DynamodbEvent.class);

        // when
        assertThat(router.handleRequest(expiry, LocalContext.of("RouterFunction")).getBatchItemFailures()).isEmpty();

        // then
        ObjectNode routed = bus.received().get(0).envelope();
        assertThat(bus.received()).hasSize(1);
        assertThat(routed.get("detail-type").asText()).isEqualTo("Layer Expired");
        assertThat(routed.at("/detail/entityType").asText()).isEqualTo("Layer");
        assertThat(routed.at("/detail/keys").toString()).isEqualTo("{\"pk\":\"lyr#ap-southeast-1.requests\",\"sk\":\"lyrVrsn12#\"}");
        assertThat(routed.at("/detail/oldImage/dplySts").asText()).isEqualTo("deprecated");
        Path sample = EXAMPLE.resolve("events").resolve("layer-expired-event.json");
        if (Boolean.getBoolean("sam.events.write")) {
            ObjectNode event = routed.deepCopy();
            event.put("id", "5fe1a1d4-6f0e-4f6c-9a7e-2f4c2b1d9e10");
            event.put("account", "123456789012");
            Files.writeString(sample, JSON.copy().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(event) + "\n");
        }
        JsonNode written = JSON.readTree(sample.toFile());
        for (String field : List.of("source", "detail-type", "resources", "detail", "time")) {
            assertThat(written.get(field)).as(field + " (regenerate with -Dsam.events.write=true)").isEqualTo(routed.get(field));
        }
    }
}

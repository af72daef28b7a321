package com.multikey.templatechecks;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.multikey.emulator.template.SamTemplate;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import static com.multikey.emulator.template.SamTemplate.map;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Updating a stack deployed with the template whose stream mappings were SAM events (DynamoDB path): each explicit
 * {@code AWS::Lambda::EventSourceMapping} on the DynamoDB stream keeps the logical ID SAM generated for the event
 * ({@code <function logical ID><event name>}, SAM's "Generated CloudFormation resources") and the properties SAM gave
 * it, so CloudFormation updates it in place. A new logical ID would make CloudFormation create a new mapping, which
 * starts again at TRIM_HORIZON: up to 24 hours of records delivered a second time, every event sent again.
 */
class StreamMappingUpgradeTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String EXISTING_STREAM = "arn:aws:dynamodb:us-east-1:123456789012:table/Orders/stream/2026-11-24T00:00:00.000";

    private final SamTemplate repository = SamTemplate.ofRepository();

    /** The deploys on the DynamoDB stream: two readers, one reader, an existing table, no indexer filter. */
    static Stream<Map<String, String>> dynamoDbDeploys() {
        return Stream.of(Map.of(), Map.of("StreamReaders", "one"),
                Map.of("ExistingTableName", "Orders", "ExistingTableStreamArn", EXISTING_STREAM),
                Map.of("StreamIndexerFilterPattern", ""),
                Map.of("StreamReaders", "one", "ExistingTableName", "Orders", "ExistingTableStreamArn", EXISTING_STREAM));
    }

    @ParameterizedTest
    @MethodSource("dynamoDbDeploys")
    void dynamoDbStreamMappings_areTheOnesSamGeneratedFromTheEvents_sameLogicalIdSameProperties(Map<String, String> parameters,
                                                                                                @TempDir Path dir) throws IOException {
        // given: the functions' stream events as the earlier template declared them, translated as SAM translates them
        Map<String, Map<String, Object>> generated = samGeneratedMappings(previousTemplate(dir).withParameterOverrides(parameters).deployed());

        // when
        SamTemplate current = repository.withParameterOverrides(parameters).deployed();
        Map<String, Map<String, Object>> explicit = new TreeMap<>();
        for (String mapping : current.resourcesOfType(StreamMappings.TYPE)) {
            explicit.put(mapping, withSamsAliasReference(current, current.properties(mapping)));
        }

        // then
        assertThat(generated).isNotEmpty();
        assertThat(explicit).isEqualTo(generated);
    }

    @ParameterizedTest
    @MethodSource("dynamoDbDeploys")
    void dynamoDbStreamMappings_keepTheLogicalIds_functionThenEventName(Map<String, String> parameters) {
        SamTemplate deployed = repository.withParameterOverrides(parameters).deployed();

        List<String> expected = "one".equals(parameters.get("StreamReaders"))
                ? List.of("StreamIndexerFunctionAppTableStream")
                : List.of("StreamIndexerFunctionAppTableStream", "RouterFunctionAppTableStream");
        assertThat(deployed.resourcesOfType(StreamMappings.TYPE)).containsExactlyInAnyOrderElementsOf(expected);
    }

    /**
     * The earlier template: the repository's, its stream functions replaced by those of
     * {@code previous/stream-events.yaml} (their Events, Condition and AutoPublishAlias), its explicit mappings left out.
     */
    private SamTemplate previousTemplate(Path dir) throws IOException {
        Map<String, Object> previous;
        try (InputStream in = getClass().getResourceAsStream("/previous/stream-events.yaml")) {
            assertThat(in).as("previous/stream-events.yaml on the test class path").isNotNull();
            // the short intrinsic tags as long forms, as the template reader has them
            String text = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            Path file = Files.writeString(dir.resolve("events.yaml"), "Resources:\n" + text.lines()
                    .map(line -> line.startsWith("#") ? line : "  " + line).reduce("", (a, b) -> a + b + "\n"));
            previous = map(SamTemplate.load(file).root().get("Resources"), "Resources");
        }
        Map<String, Object> root = new LinkedHashMap<>(repository.root());
        Map<String, Object> resources = new LinkedHashMap<>(repository.resources());
        resources.keySet().removeIf(id -> StreamMappings.TYPE.equals(repository.typeOf(id)));
        resources.putAll(previous);
        root.put("Resources", resources);
        Path template = Files.writeString(dir.resolve("previous-template.json"), JSON.writeValueAsString(root));
        return SamTemplate.load(template);
    }

    /**
     * SAM's translation of a function's pull events (samtranslator's PullEventSource.to_cloudformation): one
     * {@code AWS::Lambda::EventSourceMapping} each, named {@code <function><event>}, created with the function (its
     * Condition), FunctionName the alias AutoPublishAlias makes ({@code <function>Alias<name>}), EventSourceArn the
     * event's Stream, DestinationConfig.OnFailure without SAM's own Type, the other properties as they are.
     */
    private static Map<String, Map<String, Object>> samGeneratedMappings(SamTemplate deployed) {
        Map<String, Map<String, Object>> mappings = new TreeMap<>();
        for (String function : deployed.resourcesOfType("AWS::Serverless::Function")) {
            Map<String, Object> properties = deployed.properties(function);
            if (!(properties.get("Events") instanceof Map<?, ?> events)) {
                continue;
            }
            map(events, "Events").forEach((event, value) -> {
                Map<String, Object> sam = map(map(value, event).get("Properties"), event + ".Properties");
                Map<String, Object> mapping = new LinkedHashMap<>();
                mapping.put("FunctionName", Map.of("Ref", function + "Alias" + properties.get("AutoPublishAlias")));
                mapping.put("EventSourceArn", sam.get("Stream"));
                sam.forEach((key, property) -> {
                    if (!key.equals("Stream")) {
                        mapping.put(key, property);
                    }
                });
                if (mapping.get("DestinationConfig") instanceof Map<?, ?> config && config.get("OnFailure") instanceof Map<?, ?> onFailure) {
                    Map<String, Object> withoutType = new LinkedHashMap<>(map(onFailure, "OnFailure"));
                    withoutType.remove("Type");
                    mapping.put("DestinationConfig", Map.of("OnFailure", withoutType));
                }
                mappings.put(function + event, new TreeMap<>(mapping));
            });
        }
        return mappings;
    }

    /** The mapping's properties with {@code !Ref <function>.Alias} as SAM resolves it: {@code !Ref <function>Alias<name>}. */
    private static Map<String, Object> withSamsAliasReference(SamTemplate deployed, Map<String, Object> properties) {
        Map<String, Object> out = new TreeMap<>(properties);
        String function = StreamMappings.functionOf(properties);
        out.put("FunctionName", Map.of("Ref", function + "Alias" + deployed.properties(function).get("AutoPublishAlias")));
        return out;
    }
}

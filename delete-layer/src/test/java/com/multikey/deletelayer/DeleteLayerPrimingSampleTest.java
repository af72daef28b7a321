package com.multikey.deletelayer;

import com.amazonaws.services.lambda.runtime.events.ScheduledEvent;
import com.multikey.common.StructuredLog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

/**
 * The sample event priming runs through the processor, and priming itself with nothing outside the process to call
 * (what it calls on AWS, nothing, is {@link DeleteLayerPrimingTest}'s, in its JVM without credentials).
 */
class DeleteLayerPrimingSampleTest {

    private static final String ACCOUNT = "210987654321";
    private static final String SAMPLE_ARN = "arn:aws:lambda:us-east-1:" + ACCOUNT + ":layer:team-priming:1";

    private static Path definitions(Path dir, String sortKey) throws IOException {
        return Files.writeString(dir.resolve("index-definitions.yaml"), """
                version: 1
                table:
                  partitionKey: {name: pk, type: S}
                %s
                entityTypes:
                  - {name: Layer, when: [{attribute: pk, beginsWith: "layer#"}]}
                indexes: []
                """.formatted(sortKey.isEmpty() ? "" : "  sortKey: {name: sk, type: " + sortKey + "}"));
    }

    private static Map<String, String> environment(Path definitions) {
        return Map.of("AWS_REGION", "eu-west-1", "APP_TABLE_NAME", "Layers", "EVENT_SOURCE", "team.layers",
                "ALLOWED_ACCOUNT_ID", ACCOUNT, "LAYER_NAME_PREFIX", "team-", "INDEX_DEFINITIONS", definitions.toString());
    }

    static Stream<Arguments> tables() {
        return Stream.of(
                argumentSet("a partition key alone", "", Map.of("pk", AttributeValue.fromS("layer#us-east-1#priming#1"))),
                argumentSet("a string sort key", "S", Map.of("pk", AttributeValue.fromS("layer#us-east-1#priming#1"),
                        "sk", AttributeValue.fromS("priming"))),
                argumentSet("a number sort key", "N", Map.of("pk", AttributeValue.fromS("layer#us-east-1#priming#1"),
                        "sk", AttributeValue.fromN("1"))),
                argumentSet("a binary sort key", "B", Map.of("pk", AttributeValue.fromS("layer#us-east-1#priming#1"),
                        "sk", AttributeValue.fromB(SdkBytes.fromUtf8String("priming")))));
    }

    @ParameterizedTest
    @MethodSource("tables")
    void sampleEvent_isAnExpiryTheProcessorActsOn_keyedAsTheTableIs(String sortKey, Map<String, AttributeValue> key,
                                                                    @TempDir Path dir) throws IOException {
        // given
        DeleteLayerConfig config = DeleteLayerConfig.fromEnvironment(environment(definitions(dir, sortKey)));
        RecordingLayerDeleter deleter = new RecordingLayerDeleter();
        InMemoryTombstoneWriter tombstones = new InMemoryTombstoneWriter(config.table());
        LayerExpiryProcessor processor = new LayerExpiryProcessor(config, deleter, tombstones, Clock.systemUTC(),
                new StructuredLog("test", new PrintStream(OutputStream.nullOutputStream()), Clock.systemUTC()));

        // when
        ExpiryOutcome outcome = processor.process(DeleteLayerPriming.sampleEvent(config));

        // then: a layer of the allowed account with the allowed prefix, deleted, and its tombstone under the table's key
        assertThat(outcome).isEqualTo(new ExpiryOutcome.Deleted(LayerVersionArn.parse(SAMPLE_ARN), TombstoneWriter.Outcome.WRITTEN));
        assertThat(deleter.deleted).containsExactly(LayerVersionArn.parse(SAMPLE_ARN));
        assertThat(tombstones.items).containsOnlyKeys(key);
    }

    @Test
    void sampleEvent_hasTheEnvelopeOfAnEventTheRouterSends(@TempDir Path dir) throws IOException {
        DeleteLayerConfig config = DeleteLayerConfig.fromEnvironment(environment(definitions(dir, "")));

        ScheduledEvent sample = DeleteLayerPriming.sampleEvent(config);

        assertThat(sample.getId()).isEqualTo("priming");
        assertThat(sample.getSource()).isEqualTo("team.layers");
        assertThat(sample.getDetailType()).isEqualTo("Layer Expired");
        assertThat(sample.getAccount()).isEqualTo(ACCOUNT);
        assertThat(sample.getRegion()).isEqualTo("us-east-1");
        assertThat(sample.getResources()).isEmpty();
        assertThat(sample.getDetail()).containsEntry("entityType", "layer").containsEntry("change", "Expired")
                .containsEntry("eventName", "REMOVE");
    }

    @Test
    void prime_runsTheSampleThroughTheWholePath_withTheEnvironmentItWasRegisteredWith(@TempDir Path dir) throws IOException {
        DeleteLayerPriming priming = DeleteLayerPriming.register(environment(definitions(dir, "N")));

        assertThat(priming.prime()).isEqualTo(new ExpiryOutcome.Deleted(LayerVersionArn.parse(SAMPLE_ARN), TombstoneWriter.Outcome.WRITTEN));
    }
}

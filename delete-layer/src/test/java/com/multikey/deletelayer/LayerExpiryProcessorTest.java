package com.multikey.deletelayer;

import com.amazonaws.services.lambda.runtime.events.ScheduledEvent;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.multikey.common.StructuredLog;
import com.multikey.emulator.services.streams.LambdaEvents;
import com.multikey.index.definition.IndexDefinitions;
import com.multikey.testkit.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static com.multikey.deletelayer.DeleteLayerFixtures.ID;
import static com.multikey.deletelayer.DeleteLayerFixtures.layerExpired;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

/** The processor's decisions, on the sample "Layer Expired" event and its variants, with in-memory Lambda and DynamoDB. */
class LayerExpiryProcessorTest {

    private static final LayerVersionArn ARN = LayerVersionArn.parse(DeleteLayerFixtures.ARN);
    private static final Instant NOW = Instant.parse("2026-11-02T00:05:00Z");
    private static final DeleteLayerConfig CONFIG = new DeleteLayerConfig("AppTable", "multikey.app-table", "123456789012",
            "multikey-", IndexDefinitions.packaged(), "arn", "expiresAt");

    private static final Map<String, AttributeValue> KEY = Map.of("id", AttributeValue.fromS(ID));

    private final RecordingLayerDeleter deleter = new RecordingLayerDeleter();
    private final InMemoryTombstoneWriter tombstones = new InMemoryTombstoneWriter(IndexDefinitions.packaged().table());

    private LayerExpiryProcessor processor(DeleteLayerConfig config) {
        return new LayerExpiryProcessor(config, deleter, tombstones, Clock.fixed(NOW, ZoneOffset.UTC),
                new StructuredLog("test", new PrintStream(OutputStream.nullOutputStream()), Clock.systemUTC()));
    }

    private ExpiryOutcome process(ScheduledEvent event) {
        return processor(CONFIG).process(event);
    }

    private static ObjectNode detail(ObjectNode event) {
        return (ObjectNode) event.get("detail");
    }

    private static ObjectNode oldImage(ObjectNode event) {
        return (ObjectNode) event.at("/detail/oldImage");
    }

    @Test
    void process_whenALayerRecordExpired_deletesThatVersion_andWritesTheOldRecordAsATombstone() {
        ExpiryOutcome outcome = process(layerExpired());

        assertThat(outcome).isEqualTo(new ExpiryOutcome.Deleted(ARN, TombstoneWriter.Outcome.WRITTEN));
        assertThat(deleter.deleted).containsExactly(ARN);
        assertThat(tombstones.items).containsOnlyKeys(KEY);
        assertThat(tombstones.items.get(KEY)).isEqualTo(Map.of(
                "id", AttributeValue.fromS(ID),
                "arn", AttributeValue.fromS(ARN.toString()),
                "status", AttributeValue.fromS("active"),
                "deletedAt", AttributeValue.fromS(NOW.toString())));
    }

    @Test
    void process_whenTheOldImageLacksTheKey_takesItFromTheEventsKeys() {
        ExpiryOutcome outcome = process(layerExpired(e -> oldImage(e).remove("id")));

        assertThat(outcome).isEqualTo(new ExpiryOutcome.Deleted(ARN, TombstoneWriter.Outcome.WRITTEN));
        assertThat(tombstones.items.get(KEY)).containsEntry("id", AttributeValue.fromS(ID));
    }

    @Test
    void process_whenConfiguredWithOtherAttributeNames_readsTheArnAndDropsTheTtlByThem() {
        DeleteLayerConfig renamed = new DeleteLayerConfig("AppTable", "multikey.app-table", "123456789012", "multikey-",
                IndexDefinitions.packaged(), "layerArn", "ttl");

        ExpiryOutcome outcome = processor(renamed).process(layerExpired(e -> {
            oldImage(e).set("layerArn", oldImage(e).remove("arn"));
            oldImage(e).set("ttl", oldImage(e).get("expiresAt"));
        }));

        assertThat(outcome).isEqualTo(new ExpiryOutcome.Deleted(ARN, TombstoneWriter.Outcome.WRITTEN));
        assertThat(tombstones.items.get(KEY)).containsKeys("layerArn", "expiresAt").doesNotContainKey("ttl");
    }

    @Test
    void process_whenASparseIndexCoversActiveVersionsByEquals_theTombstoneLeavesIt(@TempDir Path dir) throws IOException {
        // given: an index of active layer versions by an equals condition, beside one by an exists condition
        Path file = dir.resolve("index-definitions.json");
        Files.writeString(file, """
                {"version": 1, "table": {"partitionKey": {"name": "id", "type": "S"}},
                 "entityTypes": [{"keyPrefix": {"attribute": "id", "separator": "#"}}],
                 "indexes": [
                   {"name": "active_layers", "group": "arn", "values": {"attribute": "status"},
                    "covers": [{"attribute": "id", "beginsWith": "layer#"}, {"attribute": "status", "equals": "active"}]},
                   {"name": "expiring_layers", "group": "arn", "values": {"attribute": "expiresAt"},
                    "covers": [{"attribute": "id", "beginsWith": "layer#"}, {"attribute": "expiresAt", "exists": true}]}]}
                """);
        IndexDefinitions definitions = IndexDefinitions.read(file);
        DeleteLayerConfig config = new DeleteLayerConfig("AppTable", "multikey.app-table", "123456789012", "multikey-",
                definitions, "arn", "expiresAt");

        // when
        ExpiryOutcome outcome = processor(config).process(layerExpired());

        // then
        assertThat(outcome).isEqualTo(new ExpiryOutcome.Deleted(ARN, TombstoneWriter.Outcome.WRITTEN));
        Map<String, AttributeValue> tombstone = tombstones.items.get(KEY);
        assertThat(definitions.indexes()).noneMatch(index -> index.covers(tombstone));
        assertThat(tombstone).containsKeys("id", "arn", "deletedAt").doesNotContainKeys("status", "expiresAt");
    }

    @Test
    void process_whenTheDeleterFails_propagatesTheFailure_andWritesNoTombstone() {
        IllegalStateException throttled = new IllegalStateException("throttled");
        deleter.failWith(throttled);

        assertThatThrownBy(() -> process(layerExpired())).isSameAs(throttled);
        assertThat(tombstones.items).isEmpty();
    }

    static Stream<Arguments> refusals() {
        return Stream.of(
                argumentSet("no event", null, "event has no detail"),
                argumentSet("an event without detail", layerExpired(e -> e.remove("detail")), "event has no detail"),
                argumentSet("another source", layerExpired(e -> e.put("source", "someone.else")), "event source is not multikey.app-table"),
                argumentSet("another detail type", layerExpired(e -> e.put("detail-type", "Layer Removed")),
                        "detail type is not 'Layer Expired'"),
                argumentSet("a user delete", layerExpired(e -> detail(e).put("change", "Removed")),
                        "not a TTL expiry (change must be Expired, eventName REMOVE)"),
                argumentSet("an expiry that is not a REMOVE", layerExpired(e -> detail(e).put("eventName", "MODIFY")),
                        "not a TTL expiry (change must be Expired, eventName REMOVE)"),
                argumentSet("an issue record", layerExpired(e -> detail(e).put("entityType", "issue")), "not a layer record"),
                argumentSet("images dropped for size", layerExpired(e -> {
                    detail(e).remove("oldImage");
                    detail(e).put("imagesDropped", true);
                }), "the event carries no old image (dropped for size); the ARN is unknown"),
                argumentSet("images not sent", layerExpired(e -> {
                    detail(e).remove("oldImage");
                    detail(e).put("imagesIncluded", false);
                }), "the event carries no old image; the ARN is unknown"),
                argumentSet("no ARN in the old image", layerExpired(e -> oldImage(e).remove("arn")), "layer version ARN is missing"),
                argumentSet("an ARN that is not text", layerExpired(e -> oldImage(e).put("arn", 12)), "layer version ARN is missing"),
                argumentSet("a malformed ARN", layerExpired(e -> oldImage(e).put("arn", "arn:aws:lambda:nope")),
                        "not a Lambda layer version ARN (arn:<partition>:lambda:<region>:<account>:layer:<name>:<version>)"),
                argumentSet("another account", layerExpired(e -> oldImage(e).put("arn", "arn:aws:lambda:us-east-1:999999999999:layer:multikey-requests:12")),
                        "layer belongs to another account than 123456789012"),
                argumentSet("another layer name", layerExpired(e -> oldImage(e).put("arn", "arn:aws:lambda:us-east-1:123456789012:layer:billing:12")),
                        "layer name does not start with 'multikey-'"));
    }

    @ParameterizedTest
    @MethodSource("refusals")
    void process_whenTheEventIsNotAnExpiryOfOneOfOurLayers_refusesWithTheReason_andDeletesAndWritesNothing(ScheduledEvent event, String reason) {
        ExpiryOutcome outcome = process(event);

        assertThat(outcome).isEqualTo(new ExpiryOutcome.Refused(reason));
        assertThat(deleter.deleted).isEmpty();
        assertThat(tombstones.items).isEmpty();
    }

    @Test
    void process_whenAnyExternalEventBridgeFixture_refusesIt_withoutAnException() throws IOException {
        List<Path> fixtures;
        try (Stream<Path> files = Files.list(Fixtures.root().resolve("external"))) {
            fixtures = files.filter(f -> f.getFileName().toString().matches(".*(eventbridge|cloudwatch).*\\.json")).sorted().toList();
        }

        assertThat(fixtures).hasSize(6);
        for (Path fixture : fixtures) {
            ScheduledEvent event = LambdaEvents.read(fixture, ScheduledEvent.class);
            assertThat(event.getSource()).as(fixture.toString()).isNotBlank();
            assertThat(process(event)).as(fixture.toString()).isInstanceOf(ExpiryOutcome.Refused.class);
        }
        assertThat(deleter.deleted).isEmpty();
        assertThat(tombstones.items).isEmpty();
    }
}

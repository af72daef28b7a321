package com.multikey.deletelayer;

import com.amazonaws.services.lambda.runtime.events.ScheduledEvent;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
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
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    /** An index of layer versions whose deploy.status (a member of a map) is active. */
    private static final String NESTED_STATUS_DEFINITIONS = """
            {"version": 1, "table": {"partitionKey": {"name": "id", "type": "S"}},
             "entityTypes": [{"keyPrefix": {"attribute": "id", "separator": "#"}}],
             "indexes": [
               {"name": "deployed_layers", "group": "arn", "values": {"attribute": "deploy.stage"},
                "covers": [{"attribute": "id", "beginsWith": "layer#"}, {"attribute": "deploy.status", "equals": "active"}]}]}
            """;

    private final RecordingLayerDeleter deleter = new RecordingLayerDeleter();
    private final InMemoryTombstoneWriter tombstones = new InMemoryTombstoneWriter(IndexDefinitions.packaged().table());
    private final ByteArrayOutputStream logged = new ByteArrayOutputStream();

    private LayerExpiryProcessor processor(DeleteLayerConfig config) {
        return processor(config, tombstones);
    }

    private LayerExpiryProcessor processor(DeleteLayerConfig config, TombstoneWriter writer) {
        Clock clock = Clock.fixed(NOW, ZoneOffset.UTC);
        return new LayerExpiryProcessor(config, deleter, writer, clock,
                new StructuredLog("test", new PrintStream(logged, true, StandardCharsets.UTF_8), clock));
    }

    /** The log lines written, each read as JSON. */
    private List<Map<String, Object>> logLines() throws IOException {
        List<Map<String, Object>> lines = new ArrayList<>();
        for (String line : logged.toString(StandardCharsets.UTF_8).lines().toList()) {
            lines.add(JSON.readValue(line, new TypeReference<>() { }));
        }
        return lines;
    }

    /** A config like {@link #CONFIG} with the definitions of the JSON text. */
    private static DeleteLayerConfig configWith(Path dir, String definitionsJson) throws IOException {
        Path file = Files.writeString(dir.resolve("index-definitions.json"), definitionsJson);
        return new DeleteLayerConfig("AppTable", "multikey.app-table", "123456789012", "multikey-",
                IndexDefinitions.read(file), "arn", "expiresAt");
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
    void process_whenAnIndexCoversLayersByTheirArn_theTombstoneKeepsTheArn_andLeavesTheIndexByTheOtherCondition(@TempDir Path dir)
            throws IOException {
        // given: the ARN is tested by a condition, beside the status
        DeleteLayerConfig config = configWith(dir, """
                {"version": 1, "table": {"partitionKey": {"name": "id", "type": "S"}},
                 "entityTypes": [{"keyPrefix": {"attribute": "id", "separator": "#"}}],
                 "indexes": [
                   {"name": "active_layers", "group": "arn", "values": {"attribute": "status"},
                    "covers": [{"attribute": "id", "beginsWith": "layer#"}, {"attribute": "arn", "beginsWith": "arn:aws:lambda:"},
                               {"attribute": "status", "equals": "active"}]}]}
                """);

        // when
        processor(config).process(layerExpired());

        // then
        Map<String, AttributeValue> tombstone = tombstones.items.get(KEY);
        assertThat(tombstone).isEqualTo(Map.of(
                "id", AttributeValue.fromS(ID),
                "arn", AttributeValue.fromS(ARN.toString()),
                "deletedAt", AttributeValue.fromS(NOW.toString())));
        assertThat(config.definitions().indexes()).noneMatch(index -> index.covers(tombstone));
    }

    private static ScheduledEvent layerExpiredWithDeploy() {
        return layerExpired(e -> oldImage(e).putObject("deploy").put("status", "active").put("stage", "prod"));
    }

    @Test
    void process_whenAnIndexCoversLayersByANestedAttribute_theTombstoneLosesThatMemberAlone(@TempDir Path dir) throws IOException {
        // given
        DeleteLayerConfig config = configWith(dir, NESTED_STATUS_DEFINITIONS);

        // when
        processor(config).process(layerExpiredWithDeploy());

        // then: deploy.status goes, deploy.stage and the top-level status stay
        Map<String, AttributeValue> tombstone = tombstones.items.get(KEY);
        assertThat(tombstone).isEqualTo(Map.of(
                "id", AttributeValue.fromS(ID),
                "arn", AttributeValue.fromS(ARN.toString()),
                "status", AttributeValue.fromS("active"),
                "deploy", AttributeValue.fromM(Map.of("stage", AttributeValue.fromS("prod"))),
                "deletedAt", AttributeValue.fromS(NOW.toString())));
        assertThat(config.definitions().indexes()).noneMatch(index -> index.covers(tombstone));
    }

    @Test
    void process_whenTheMapHoldingASparseIndexsAttributeIsDropped_writesTheTombstoneWithoutIt(@TempDir Path dir) throws IOException {
        // given: deploy.status makes the record indexed, and deploy is dropped from tombstones altogether
        DeleteLayerConfig nested = configWith(dir, NESTED_STATUS_DEFINITIONS);
        DeleteLayerConfig config = new DeleteLayerConfig("AppTable", "multikey.app-table", "123456789012", "multikey-",
                nested.definitions(), "arn", "expiresAt", Set.of("deploy"));

        // when
        ExpiryOutcome outcome = processor(config).process(layerExpiredWithDeploy());

        // then
        assertThat(outcome).isEqualTo(new ExpiryOutcome.Deleted(ARN, TombstoneWriter.Outcome.WRITTEN));
        assertThat(tombstones.items.get(KEY)).isEqualTo(Map.of(
                "id", AttributeValue.fromS(ID),
                "arn", AttributeValue.fromS(ARN.toString()),
                "status", AttributeValue.fromS("active"),
                "deletedAt", AttributeValue.fromS(NOW.toString())));
    }

    @Test
    void process_whenConfiguredToDropAttributes_theTombstoneLeavesThemOut_andKeepsTheRest() {
        DeleteLayerConfig config = new DeleteLayerConfig("AppTable", "multikey.app-table", "123456789012", "multikey-",
                IndexDefinitions.packaged(), "arn", "expiresAt", Set.of("notes", "owner"));

        processor(config).process(layerExpired(e -> oldImage(e).put("notes", "built for requests").put("owner", "team-a").put("size", 3)));

        assertThat(tombstones.items.get(KEY)).isEqualTo(Map.of(
                "id", AttributeValue.fromS(ID),
                "arn", AttributeValue.fromS(ARN.toString()),
                "status", AttributeValue.fromS("active"),
                "size", AttributeValue.fromN("3"),
                "deletedAt", AttributeValue.fromS(NOW.toString())));
    }

    /** Definitions of a table keyed pk (S) and sk of the given type, whose layer records' pk begins with layer#. */
    private static String pkSkDefinitions(String sortKeyType) {
        return """
                {"version": 1, "table": {"partitionKey": {"name": "pk", "type": "S"}, "sortKey": {"name": "sk", "type": "%s"}},
                 "entityTypes": [{"name": "Layer", "when": [{"attribute": "pk", "beginsWith": "layer#"}]}],
                 "indexes": []}
                """.formatted(sortKeyType);
    }

    /** The sample event of a record keyed pk and sk, with the sort key as the router sent it in keys and the old image. */
    private static ScheduledEvent pkSkLayerExpired(JsonNode sortKey) {
        return layerExpired(e -> {
            detail(e).putObject("keys").put("pk", "layer#us-east-1#requests").set("sk", sortKey);
            oldImage(e).remove("id");
            oldImage(e).put("pk", "layer#us-east-1#requests").set("sk", sortKey);
        });
    }

    static Stream<Arguments> typedSortKeys() {
        return Stream.of(
                argumentSet("a number, sent as a number", "N", NODES.numberNode(12), AttributeValue.fromN("12")),
                argumentSet("an integer outside int64, sent as its digits", "N", NODES.textNode("123456789012345678901234567890"),
                        AttributeValue.fromN("123456789012345678901234567890")),
                argumentSet("a binary, sent in base64", "B",
                        NODES.textNode(Base64.getEncoder().encodeToString("v12".getBytes(StandardCharsets.UTF_8))),
                        AttributeValue.fromB(SdkBytes.fromUtf8String("v12"))));
    }

    @ParameterizedTest
    @MethodSource("typedSortKeys")
    void process_whenTheTableHasASortKey_writesTheTombstoneUnderTheKeyTypedAsTheTableTypesIt(String type, JsonNode sent,
                                                                                            AttributeValue stored,
                                                                                            @TempDir Path dir) throws IOException {
        // given
        DeleteLayerConfig config = configWith(dir, pkSkDefinitions(type));
        InMemoryTombstoneWriter writer = new InMemoryTombstoneWriter(config.table());

        // when
        ExpiryOutcome outcome = processor(config, writer).process(pkSkLayerExpired(sent));

        // then
        assertThat(outcome).isEqualTo(new ExpiryOutcome.Deleted(ARN, TombstoneWriter.Outcome.WRITTEN));
        Map<String, AttributeValue> key = Map.of("pk", AttributeValue.fromS("layer#us-east-1#requests"), "sk", stored);
        assertThat(writer.items).containsOnlyKeys(key);
        assertThat(writer.items.get(key)).containsEntry("sk", stored).containsEntry("arn", AttributeValue.fromS(ARN.toString()));
    }

    static Stream<Arguments> untypedSortKeys() {
        return Stream.of(
                argumentSet("a number key sent as other text", "N", NODES.textNode("twelve")),
                argumentSet("a number key sent as a boolean", "N", NODES.booleanNode(true)),
                argumentSet("a binary key sent as text that is not base64", "B", NODES.textNode("not base64!")),
                argumentSet("a binary key sent as a number", "B", NODES.numberNode(12)));
    }

    @ParameterizedTest
    @MethodSource("untypedSortKeys")
    void process_whenAKeyIsNotOfTheTablesType_refusesNamingTheKey_andDeletesNothing(String type, JsonNode sent, @TempDir Path dir)
            throws IOException {
        // given
        DeleteLayerConfig config = configWith(dir, pkSkDefinitions(type));
        InMemoryTombstoneWriter writer = new InMemoryTombstoneWriter(config.table());

        // when
        ExpiryOutcome outcome = processor(config, writer).process(pkSkLayerExpired(sent));

        // then
        assertThat(outcome).isEqualTo(new ExpiryOutcome.Refused("the event names no item of the table: its keys lack pk (S) and sk (" + type + ")"));
        assertThat(deleter.deleted).isEmpty();
        assertThat(writer.items).isEmpty();
    }

    @Test
    void process_logsEachOutcome_withTheEventIdAndWhatWasDoneOrWhy() throws IOException {
        process(layerExpired());
        process(layerExpired(e -> e.put("source", "someone.else")));
        process(null);

        String eventId = "7bf73129-1428-4cd3-a780-95db273d1602";
        assertThat(logLines()).containsExactly(
                Map.of("timestamp", NOW.toString(), "level", "INFO", "logger", "test", "message", "layer version deleted",
                        "eventId", eventId, "layerVersionArn", ARN.toString(), "tombstone", "WRITTEN"),
                Map.of("timestamp", NOW.toString(), "level", "WARN", "logger", "test", "message", "event refused; nothing deleted",
                        "eventId", eventId, "reason", "event source is not multikey.app-table"),
                Map.of("timestamp", NOW.toString(), "level", "WARN", "logger", "test", "message", "event refused; nothing deleted",
                        "eventId", "null", "reason", "event has no detail"));
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
                        "layer name does not start with 'multikey-'"),
                argumentSet("no key in the keys or the old image", layerExpired(e -> {
                    detail(e).putObject("keys");
                    oldImage(e).remove("id");
                }), "the event names no item of the table: its keys lack id (S)"),
                argumentSet("a key of another type", layerExpired(e -> detail(e).putObject("keys").put("id", 12)),
                        "the event names no item of the table: its keys lack id (S)"));
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

package com.multikey.deletelayer;

import com.amazonaws.services.lambda.runtime.events.ScheduledEvent;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.multikey.local.runtime.LambdaEvents;
import com.multikey.local.runtime.LocalContext;
import com.multikey.local.runtime.LocalDynamoDb;
import com.multikey.local.runtime.LocalLambdaApi;
import com.multikey.local.runtime.SamTemplate;
import com.multikey.local.runtime.TemplateEnvironment;
import com.multikey.local.runtime.TemplateTables;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The real handler and its real SDK clients: DeleteLayerVersion against a local endpoint for the Lambda
 * API, tombstones in embedded DynamoDB Local with the template's app table.
 */
class DeleteLayerIntegrationTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String ID = "layer#us-east-1#requests#12";
    private static final String ARN = "arn:aws:lambda:us-east-1:123456789012:layer:multikey-requests:12";
    private static LocalDynamoDb dynamoDbLocal;
    private static DynamoDbClient dynamoDb;
    private static final SamTemplate TEMPLATE = SamTemplate.ofRepository();
    private LocalLambdaApi lambdaApi;
    private DeleteLayerHandler handler;

    @BeforeAll
    static void startDynamoDb() {
        dynamoDbLocal = LocalDynamoDb.start();
        dynamoDb = dynamoDbLocal.client();
    }

    @AfterAll
    static void stopDynamoDb() {
        dynamoDb.close();
        dynamoDbLocal.close();
    }

    @BeforeEach
    void start() {
        dynamoDb.listTables().tableNames().forEach(name -> dynamoDb.deleteTable(b -> b.tableName(name)));
        Map<String, String> names = TemplateTables.create(TEMPLATE, dynamoDb);
        lambdaApi = LocalLambdaApi.start();
        Map<String, String> env = new HashMap<>(TemplateEnvironment.forLocalRun(TEMPLATE, "DeleteLayerFunction", allNames(names),
                Map.of("DYNAMODB", dynamoDbLocal.endpoint(), "LAMBDA", lambdaApi.endpoint())));
        env.put("ALLOWED_ACCOUNT_ID", "123456789012");
        handler = new DeleteLayerHandler(env);
    }

    @AfterEach
    void stop() {
        lambdaApi.close();
    }

    private static Map<String, String> allNames(Map<String, String> tables) {
        Map<String, String> names = new HashMap<>();
        TEMPLATE.resources().keySet().forEach(id -> names.put(id, id));
        names.putAll(tables);
        return names;
    }

    /** The sample "Layer Expired" event (what the router sends for sam/events/layer-ttl-expiry.json), changed by {@code edit}. */
    private static ScheduledEvent event(Consumer<ObjectNode> edit) throws IOException {
        ObjectNode event = (ObjectNode) JSON.readTree(SamTemplate.findUp("sam").resolve("events/layer-expired-event.json").toFile());
        edit.accept(event);
        return LambdaEvents.read(event.toString(), ScheduledEvent.class);
    }

    private String handle(ScheduledEvent event) {
        return handler.handleRequest(event, LocalContext.of("DeleteLayerFunction"));
    }

    private Map<String, AttributeValue> stored(String id) {
        return dynamoDb.getItem(b -> b.tableName("AppTable").key(Map.of("id", AttributeValue.fromS(id)))).item();
    }

    @Test
    void expiry_deletesThatLayerVersionInItsRegion_andWritesATombstone() throws IOException {
        String result = handle(event(e -> { }));

        assertThat(result).isEqualTo("deleted " + ARN + " (tombstone WRITTEN)");
        assertThat(lambdaApi.calls()).containsExactly(
                new LocalLambdaApi.Call("DELETE", "/2018-10-31/layers/multikey-requests/versions/12", "us-east-1", 204));
        Map<String, AttributeValue> tombstone = stored(ID);
        assertThat(tombstone).containsKeys("id", "arn", "status", "deletedAt").doesNotContainKey("expiresAt");
        assertThat(tombstone.get("arn").s()).isEqualTo(ARN);
        assertThat(tombstone.get("status").s()).isEqualTo("active");
    }

    @Test
    void expiry_ofALayerInAnotherRegion_isDeletedThere() throws IOException {
        String otherRegion = "arn:aws:lambda:eu-west-1:123456789012:layer:multikey-requests:3";

        handle(event(e -> ((ObjectNode) e.at("/detail/oldImage")).put("arn", otherRegion)));

        assertThat(lambdaApi.calls()).singleElement().satisfies(call -> {
            assertThat(call.path()).isEqualTo("/2018-10-31/layers/multikey-requests/versions/3");
            assertThat(call.region()).isEqualTo("eu-west-1");
        });
    }

    @Test
    void redelivery_succeedsWithoutHarm() throws IOException {
        handle(event(e -> { }));
        Map<String, AttributeValue> first = stored(ID);

        String second = handle(event(e -> { }));

        assertThat(second).isEqualTo("deleted " + ARN + " (tombstone KEPT_EXISTING)");
        assertThat(lambdaApi.calls()).extracting(LocalLambdaApi.Call::status).containsExactly(204, 404);
        assertThat(stored(ID)).isEqualTo(first);
    }

    @Test
    void aNewerRecordWithTheSameId_isNeverOverwritten() throws IOException {
        Map<String, AttributeValue> newer = Map.of("id", AttributeValue.fromS(ID),
                "arn", AttributeValue.fromS("arn:aws:lambda:us-east-1:123456789012:layer:multikey-requests:13"),
                "status", AttributeValue.fromS("active"), "expiresAt", AttributeValue.fromN("1893456000"));
        dynamoDb.putItem(b -> b.tableName("AppTable").item(newer));

        String result = handle(event(e -> { }));

        assertThat(result).endsWith("(tombstone KEPT_EXISTING)");
        assertThat(lambdaApi.calls()).extracting(LocalLambdaApi.Call::path)
                .containsExactly("/2018-10-31/layers/multikey-requests/versions/12");
        assertThat(stored(ID)).isEqualTo(newer);
    }

    static Stream<Object[]> refusals() {
        return Stream.of(
                new Object[] {"a user delete", (Consumer<ObjectNode>) e -> ((ObjectNode) e.get("detail")).put("change", "Removed"),
                        "not a TTL expiry (change must be Expired, eventName REMOVE)"},
                new Object[] {"another detail type", (Consumer<ObjectNode>) e -> e.put("detail-type", "Layer Removed"),
                        "detail type is not 'Layer Expired'"},
                new Object[] {"another source", (Consumer<ObjectNode>) e -> e.put("source", "someone.else"),
                        "event source is not multikey.app-table"},
                new Object[] {"an issue record", (Consumer<ObjectNode>) e -> ((ObjectNode) e.get("detail")).put("entityType", "issue"),
                        "not a layer record"},
                new Object[] {"a malformed ARN", (Consumer<ObjectNode>) e -> ((ObjectNode) e.at("/detail/oldImage")).put("arn", "arn:aws:lambda:nope"),
                        "not a Lambda layer version ARN (arn:<partition>:lambda:<region>:<account>:layer:<name>:<version>)"},
                new Object[] {"another account", (Consumer<ObjectNode>) e -> ((ObjectNode) e.at("/detail/oldImage"))
                        .put("arn", "arn:aws:lambda:us-east-1:999999999999:layer:multikey-requests:12"),
                        "layer belongs to another account than 123456789012"},
                new Object[] {"another layer name", (Consumer<ObjectNode>) e -> ((ObjectNode) e.at("/detail/oldImage"))
                        .put("arn", "arn:aws:lambda:us-east-1:123456789012:layer:billing:12"),
                        "layer name does not start with 'multikey-'"},
                new Object[] {"images dropped for size", (Consumer<ObjectNode>) e -> {
                    ((ObjectNode) e.get("detail")).remove("oldImage");
                    ((ObjectNode) e.get("detail")).put("imagesDropped", true);
                }, "the event carries no old image (dropped for size); the ARN is unknown"});
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refusals")
    void refused_withAClearReason_andNothingDeletedOrWritten(String what, Consumer<ObjectNode> edit, String reason) throws IOException {
        String result = handle(event(edit));

        assertThat(result).isEqualTo("refused: " + reason);
        assertThat(lambdaApi.calls()).isEmpty();
        assertThat(stored(ID)).isEmpty();
    }

    @Test
    void lambdaThrottlingThatOutlastsTheSdkRetries_propagatesSoEventBridgeRetries_andTheRetrySucceeds() throws IOException {
        lambdaApi.throttleCalls(10);

        assertThatThrownBy(() -> handle(event(e -> { }))).isInstanceOf(SdkException.class);
        assertThat(stored(ID)).isEmpty();

        lambdaApi.throttleCalls(0);
        assertThat(handle(event(e -> { }))).endsWith("(tombstone WRITTEN)");
    }

    @Test
    void everyExternalEventBridgeFixture_isReadAndRefusedWithoutAnException() throws IOException {
        Path external = SamTemplate.findUp("fixtures").resolve("external");
        List<Path> fixtures;
        try (Stream<Path> files = Files.list(external)) {
            fixtures = files.filter(f -> f.getFileName().toString().matches(".*(eventbridge|cloudwatch).*\\.json")).sorted().toList();
        }

        assertThat(fixtures).hasSize(6);
        for (Path fixture : fixtures) {
            ScheduledEvent event = LambdaEvents.read(fixture, ScheduledEvent.class);
            assertThat(event.getSource()).as(fixture.toString()).isNotBlank();
            assertThat(handle(event)).as(fixture.toString()).startsWith("refused: ");
        }
        assertThat(lambdaApi.calls()).isEmpty();
    }
}

package com.multikey.deletelayer;

import com.amazonaws.services.lambda.runtime.events.ScheduledEvent;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.multikey.emulator.functions.LocalContext;
import com.multikey.emulator.services.lambda.LocalLambdaApi;
import com.multikey.emulator.template.TemplateEnvironment;
import com.multikey.testkit.LocalTables;
import com.multikey.testkit.LocalTablesExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.HashMap;
import java.util.Map;

import static com.multikey.deletelayer.DeleteLayerFixtures.ARN;
import static com.multikey.deletelayer.DeleteLayerFixtures.ID;
import static com.multikey.deletelayer.DeleteLayerFixtures.layerExpired;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The real handler and its real SDK clients on the wire: DeleteLayerVersion against a local endpoint for
 * the Lambda API, tombstones in the embedded DynamoDB engine with the template's app table. What the processor
 * decides (every refusal, the tombstone's content) is {@link LayerExpiryProcessorTest}'s.
 */
@ExtendWith(LocalTablesExtension.class)
class DeleteLayerIntegrationTest {

    private final DynamoDbClient dynamoDb;
    private final LocalLambdaApi lambdaApi = LocalLambdaApi.start();
    private final DeleteLayerHandler handler;

    DeleteLayerIntegrationTest(LocalTables tables) {
        dynamoDb = tables.dynamoDb();
        Map<String, String> names = new HashMap<>();
        tables.template().resources().keySet().forEach(id -> names.put(id, id));
        names.putAll(tables.names());
        Map<String, String> env = new HashMap<>(TemplateEnvironment.forLocalRun(tables.template(), "DeleteLayerFunction", names,
                Map.of("DYNAMODB", tables.local().endpoint(), "LAMBDA", lambdaApi.endpoint())));
        env.put("ALLOWED_ACCOUNT_ID", "123456789012");
        handler = new DeleteLayerHandler(env);
    }

    @AfterEach
    void stopLambdaApi() {
        lambdaApi.close();
    }

    private String handle(ScheduledEvent event) {
        return handler.handleRequest(event, LocalContext.of("DeleteLayerFunction"));
    }

    private Map<String, AttributeValue> stored(String id) {
        return dynamoDb.getItem(b -> b.tableName("AppTable").key(Map.of("id", AttributeValue.fromS(id)))).item();
    }

    @Test
    void handleRequest_whenALayerExpired_deletesThatVersionInItsRegion_andStoresTheTombstone() {
        String result = handle(layerExpired());

        assertThat(result).isEqualTo("deleted " + ARN + " (tombstone WRITTEN)");
        assertThat(lambdaApi.calls()).containsExactly(
                new LocalLambdaApi.Call("DELETE", "/2018-10-31/layers/multikey-requests/versions/12", "us-east-1", 204));
        assertThat(stored(ID)).containsEntry("arn", AttributeValue.fromS(ARN)).containsKey("deletedAt");
    }

    @Test
    void handleRequest_whenTheLayerIsInAnotherRegion_signsTheDeleteForThatRegion() {
        String otherRegion = "arn:aws:lambda:eu-west-1:123456789012:layer:multikey-requests:3";

        handle(layerExpired(e -> ((ObjectNode) e.at("/detail/oldImage")).put("arn", otherRegion)));

        assertThat(lambdaApi.calls()).singleElement().satisfies(call -> {
            assertThat(call.path()).isEqualTo("/2018-10-31/layers/multikey-requests/versions/3");
            assertThat(call.region()).isEqualTo("eu-west-1");
        });
    }

    @Test
    void handleRequest_whenRedelivered_findsTheVersionGone_andKeepsTheFirstTombstone() {
        handle(layerExpired());
        Map<String, AttributeValue> first = stored(ID);

        String second = handle(layerExpired());

        assertThat(second).isEqualTo("deleted " + ARN + " (tombstone KEPT_EXISTING)");
        assertThat(lambdaApi.calls()).extracting(LocalLambdaApi.Call::status).containsExactly(204, 404);
        assertThat(stored(ID)).isEqualTo(first);
    }

    @Test
    void handleRequest_whenANewerRecordHasTheSameId_neverOverwritesIt() {
        Map<String, AttributeValue> newer = Map.of("id", AttributeValue.fromS(ID),
                "arn", AttributeValue.fromS("arn:aws:lambda:us-east-1:123456789012:layer:multikey-requests:13"),
                "status", AttributeValue.fromS("active"), "expiresAt", AttributeValue.fromN("1893456000"));
        dynamoDb.putItem(b -> b.tableName("AppTable").item(newer));

        String result = handle(layerExpired());

        assertThat(result).endsWith("(tombstone KEPT_EXISTING)");
        assertThat(lambdaApi.calls()).extracting(LocalLambdaApi.Call::path)
                .containsExactly("/2018-10-31/layers/multikey-requests/versions/12");
        assertThat(stored(ID)).isEqualTo(newer);
    }

    @Test
    void handleRequest_whenLambdaThrottlesBeyondTheSdkRetries_propagatesSoEventBridgeRetries_andTheRetrySucceeds() {
        lambdaApi.throttleCalls(10);

        assertThatThrownBy(() -> handle(layerExpired())).isInstanceOf(SdkException.class);
        assertThat(stored(ID)).isEmpty();

        lambdaApi.throttleCalls(0);
        assertThat(handle(layerExpired())).endsWith("(tombstone WRITTEN)");
    }
}

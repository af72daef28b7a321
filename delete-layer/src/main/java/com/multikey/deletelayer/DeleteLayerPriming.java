package com.multikey.deletelayer;

import com.amazonaws.services.lambda.runtime.events.ScheduledEvent;
import com.multikey.common.ClientFactory;
import com.multikey.common.SnapStartPriming;
import com.multikey.common.StructuredLog;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.lambda.LambdaClient;

import java.time.Clock;
import java.util.List;
import java.util.Map;

/**
 * delete-layer's SnapStart runtime hook (docs/decisions/0015): before Lambda snapshots the initialised
 * function, it loads and runs what the first event would otherwise pay for — the Lambda and DynamoDB
 * clients built through {@link ClientFactory}, the event's detail read with Jackson, the checks, the ARN
 * parsing and the tombstone of a sample "Layer Expired" event — without a call to AWS: the sample's
 * deletion and tombstone go to stand-ins that keep nothing, its log line to a sink. No credentials are
 * resolved (the SDK resolves them at a client's first call) and nothing unique is kept, so
 * {@link #afterRestore} has nothing to renew.
 */
public final class DeleteLayerPriming extends SnapStartPriming<ExpiryOutcome> {


    DeleteLayerPriming(Map<String, String> environment) {
        super(environment);
    }

    /** Registers a priming hook with the global CRaC context (Lambda's, under SnapStart; a no-op elsewhere). */
    static DeleteLayerPriming register(Map<String, String> environment) {
        return SnapStartPriming.register(new DeleteLayerPriming(environment));
    }

    /**
     * Runs the sample event through the real processor with nothing deleted or written.
     *
     * @return the outcome for the sample (a deletion: the whole path ran)
     */
    @Override
    public ExpiryOutcome prime() {
        DeleteLayerConfig config = DeleteLayerConfig.fromEnvironment(environment);
        ClientFactory clients = new ClientFactory(environment);
        // built as the handler builds them and closed, never called: loads the clients' classes and endpoint rules
        try (LambdaClient lambda = clients.configure(LambdaClient.builder(), "LAMBDA").httpClient(ClientFactory.httpClient()).build();
             DynamoDbClient dynamoDb = clients.dynamoDb()) {
            lambda.serviceName();
            dynamoDb.serviceName();
        }
        LayerExpiryProcessor processor = new LayerExpiryProcessor(config, arn -> { }, tombstone -> TombstoneWriter.Outcome.WRITTEN,
                Clock.systemUTC(), new StructuredLog(LayerExpiryProcessor.class.getName(), SINK, Clock.systemUTC()));
        ExpiryOutcome outcome = processor.process(sampleEvent(config));
        if (!(outcome instanceof ExpiryOutcome.Deleted)) {
            throw new IllegalStateException("priming event did not run through: " + outcome);
        }
        return outcome;
    }

    /** A "Layer Expired" event for a layer of the allowed account whose name has the allowed prefix. */
    static ScheduledEvent sampleEvent(DeleteLayerConfig config) {
        String id = "layer#us-east-1#priming#1";
        String arn = "arn:aws:lambda:us-east-1:" + config.allowedAccountId() + ":layer:" + config.layerNamePrefix() + "priming:1";
        ScheduledEvent event = new ScheduledEvent();
        event.setId("priming");
        event.setSource(config.eventSource());
        event.setDetailType(LayerExpiryProcessor.DETAIL_TYPE);
        event.setAccount(config.allowedAccountId());
        event.setRegion("us-east-1");
        event.setResources(List.of());
        event.setDetail(Map.of(
                "entityType", "layer",
                "change", "Expired",
                "eventName", "REMOVE",
                "keys", Map.of(config.keyAttribute(), id),
                "oldImage", Map.of(config.keyAttribute(), id, config.arnAttribute(), arn, config.ttlAttribute(), 1,
                        "status", "active"),
                "changedAttributes", List.of(config.arnAttribute(), config.ttlAttribute(), config.keyAttribute(), "status")));
        return event;
    }
}

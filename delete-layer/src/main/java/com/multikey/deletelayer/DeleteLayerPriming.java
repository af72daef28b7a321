package com.multikey.deletelayer;

import com.amazonaws.services.lambda.runtime.events.ScheduledEvent;
import com.multikey.common.ClientFactory;
import com.multikey.common.SnapStartPriming;
import com.multikey.common.StructuredLog;
import com.multikey.index.definition.KeySchema;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.lambda.LambdaClient;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

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

    /**
     * A "Layer Expired" event for a layer of the allowed account whose name has the allowed prefix, keyed as the
     * definitions' table is: a string partition key holds {@code layer#us-east-1#priming#1}, other key attributes a
     * sample of their type (as the router sends them: a number as a number, a binary in base64).
     */
    static ScheduledEvent sampleEvent(DeleteLayerConfig config) {
        String arn = "arn:aws:lambda:us-east-1:" + config.allowedAccountId() + ":layer:" + config.layerNamePrefix() + "priming:1";
        Map<String, Object> keys = new LinkedHashMap<>();
        for (KeySchema.KeyAttribute key : config.table().attributes()) {
            String text = keys.isEmpty() ? "layer#us-east-1#priming#1" : "priming";
            keys.put(key.name(), switch (key.type()) {
                case S -> text;
                case N -> 1;
                case B -> Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
            });
        }
        Map<String, Object> oldImage = new LinkedHashMap<>(keys);
        oldImage.put(config.arnAttribute(), arn);
        oldImage.put(config.ttlAttribute(), 1);
        oldImage.put("status", "active");
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
                "keys", keys,
                "oldImage", oldImage,
                "changedAttributes", List.copyOf(new TreeSet<>(oldImage.keySet()))));
        return event;
    }
}

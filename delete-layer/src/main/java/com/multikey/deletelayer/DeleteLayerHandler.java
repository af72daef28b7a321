package com.multikey.deletelayer;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.ScheduledEvent;
import com.multikey.common.ClientFactory;
import com.multikey.common.StructuredLog;

import java.time.Clock;
import java.util.Map;

/** Lambda entry point for the "Layer Expired" rule; answers with what it did. */
public final class DeleteLayerHandler implements RequestHandler<ScheduledEvent, String> {

    /** SnapStart runtime hook: primes the function before a snapshot is taken (held here: CRaC may keep it weakly). */
    static final DeleteLayerPriming PRIMING = DeleteLayerPriming.register(System.getenv());

    private final LayerExpiryProcessor processor;

    public DeleteLayerHandler() {
        this(System.getenv());
    }

    /** Configured from the given environment instead of the process's (local runners). */
    public DeleteLayerHandler(Map<String, String> environment) {
        this(fromEnvironment(environment));
    }

    DeleteLayerHandler(LayerExpiryProcessor processor) {
        this.processor = processor;
    }

    @Override
    public String handleRequest(ScheduledEvent event, Context context) {
        return switch (processor.process(event)) {
            case ExpiryOutcome.Deleted deleted -> "deleted " + deleted.arn() + " (tombstone " + deleted.tombstone() + ")";
            case ExpiryOutcome.Refused refused -> "refused: " + refused.reason();
        };
    }

    static LayerExpiryProcessor fromEnvironment(Map<String, String> env) {
        DeleteLayerConfig config = DeleteLayerConfig.fromEnvironment(env);
        ClientFactory clients = new ClientFactory(env);
        return new LayerExpiryProcessor(config, new LambdaLayerDeleter(clients),
                new DynamoDbTombstoneWriter(clients.dynamoDb(), config.appTableName(), config.table().partitionKey().name()),
                Clock.systemUTC(), StructuredLog.forClass(LayerExpiryProcessor.class));
    }
}

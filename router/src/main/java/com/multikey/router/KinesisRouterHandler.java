package com.multikey.router;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.KinesisEvent;
import com.amazonaws.services.lambda.runtime.events.StreamsEventResponse;
import com.multikey.common.Deadline;

import java.util.Map;

/**
 * Lambda entry point on a table's Kinesis streaming destination: Kinesis records of the table's changes in, the same
 * typed events on the bus, partial batch response (Kinesis sequence numbers) back.
 */
public final class KinesisRouterHandler implements RequestHandler<KinesisEvent, StreamsEventResponse> {

    private final Router router;

    public KinesisRouterHandler() {
        this(System.getenv());
    }

    /** Configured from the given environment instead of the process's (local runners). */
    public KinesisRouterHandler(Map<String, String> environment) {
        this(RouterHandler.fromEnvironment(environment));
    }

    KinesisRouterHandler(Router router) {
        this.router = router;
    }

    @Override
    public StreamsEventResponse handleRequest(KinesisEvent event, Context context) {
        return router.processKinesis(event.getRecords(),
                Deadline.forInvocation(context.getRemainingTimeInMillis(), RouterHandler.RESPONSE_RESERVE));
    }
}

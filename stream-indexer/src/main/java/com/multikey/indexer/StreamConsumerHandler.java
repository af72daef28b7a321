package com.multikey.indexer;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.DynamodbEvent;
import com.amazonaws.services.lambda.runtime.events.StreamsEventResponse;
import com.multikey.common.ClientFactory;
import com.multikey.common.Deadline;
import com.multikey.common.DynamoDbJobCheckpoints;
import com.multikey.common.Environment;
import com.multikey.common.JobCheckpoints;
import com.multikey.common.StructuredLog;
import com.multikey.router.Router;
import com.multikey.router.RouterHandler;

import java.time.Clock;
import java.util.Map;

/**
 * Lambda entry point of the one-reader mode ({@code StreamReaders: one}): one read of the stream, both jobs, each job's
 * failures its own ({@link StreamConsumer}). The index job is the stream indexer and the route job the router, wired
 * from the same environment as their own functions, plus {@code STREAM_CHECKPOINTS_TABLE}.
 */
public final class StreamConsumerHandler implements RequestHandler<DynamodbEvent, StreamsEventResponse> {

    /** The table of each job's progress past a batch's lowest failure. */
    static final String CHECKPOINTS_TABLE = "STREAM_CHECKPOINTS_TABLE";

    private final StreamConsumer consumer;

    public StreamConsumerHandler() {
        this(System.getenv());
    }

    /** Configured from the given environment instead of the process's (local runners). */
    public StreamConsumerHandler(Map<String, String> environment) {
        this(fromEnvironment(environment));
    }

    StreamConsumerHandler(StreamConsumer consumer) {
        this.consumer = consumer;
    }

    @Override
    public StreamsEventResponse handleRequest(DynamodbEvent event, Context context) {
        return consumer.process(event.getRecords(), Deadline.forInvocation(context.getRemainingTimeInMillis(), StreamIndexerHandler.RESPONSE_RESERVE));
    }

    static StreamConsumer fromEnvironment(Map<String, String> env) {
        StreamIndexer indexer = StreamIndexerHandler.fromEnvironment(env);
        Router router = RouterHandler.fromEnvironment(env);
        JobCheckpoints checkpoints = new DynamoDbJobCheckpoints(new ClientFactory(env).dynamoDb(),
                Environment.required(env, CHECKPOINTS_TABLE), Clock.systemUTC());
        return new StreamConsumer(indexer::process, router::process, checkpoints, StructuredLog.forClass(StreamConsumer.class));
    }
}

package com.multikey.indexer;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.DynamodbEvent;
import com.amazonaws.services.lambda.runtime.events.StreamsEventResponse;
import com.multikey.common.Backoff;
import com.multikey.common.BoundedCalls;
import com.multikey.common.ClientFactory;
import com.multikey.common.Deadline;
import com.multikey.common.EmfMetrics;
import com.multikey.common.Sleeper;
import com.multikey.common.StructuredLog;
import com.multikey.index.GridLayoutStore;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

import java.time.Duration;
import java.util.Map;

/** Lambda entry point: app table stream records in, index writes out, partial batch response back. */
public final class StreamIndexerHandler implements RequestHandler<DynamodbEvent, StreamsEventResponse> {

    /** Time kept back from the invocation timeout to answer with batch item failures. */
    static final Duration RESPONSE_RESERVE = Duration.ofSeconds(2);

    /** SnapStart runtime hook: primes the function before Lambda snapshots it (held here: CRaC may keep it weakly). */
    static final StreamIndexerPriming PRIMING = StreamIndexerPriming.register(System.getenv());

    /** BatchWriteItem calls of one batch in flight at once (1 to 16; default {@link BoundedCalls#DEFAULT_IN_FLIGHT}). */
    static final String WRITE_CONCURRENCY = "INDEX_WRITE_CONCURRENCY";

    private final StreamIndexer indexer;

    public StreamIndexerHandler() {
        this(System.getenv());
    }

    /** Configured from the given environment instead of the process's (local runners). */
    public StreamIndexerHandler(Map<String, String> environment) {
        this(fromEnvironment(environment));
    }

    StreamIndexerHandler(StreamIndexer indexer) {
        this.indexer = indexer;
    }

    @Override
    public StreamsEventResponse handleRequest(DynamodbEvent event, Context context) {
        return indexer.process(event.getRecords(), Deadline.forInvocation(context.getRemainingTimeInMillis(), RESPONSE_RESERVE));
    }

    static StreamIndexer fromEnvironment(Map<String, String> env) {
        IndexerConfig config = IndexerConfig.fromEnvironment(env);
        StructuredLog log = StructuredLog.forClass(StreamIndexer.class);
        DynamoDbClient dynamoDb = new ClientFactory(env).dynamoDb();
        GridLayoutStore gridLayout = GridLayoutStore.fromEnvironment(dynamoDb, config.indexTableName(), config.definitions(), true, env);
        IndexWriter writer = new DynamoDbIndexWriter(dynamoDb, config.indexTableName(),
                Backoff.standard(), Sleeper.SYSTEM, log, BoundedCalls.fromEnvironment(env, WRITE_CONCURRENCY, BoundedCalls.DEFAULT_IN_FLIGHT));
        IndexerMetrics metrics = IndexerMetrics.emf(
                EmfMetrics.toStandardOutput(env.getOrDefault("METRICS_NAMESPACE", "Multikey"), "stream-indexer"));
        return new StreamIndexer(new BatchPlanner(config, gridLayout::current), writer, metrics, log, config.appTableName());
    }
}

package com.multikey.indexer;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.KinesisEvent;
import com.amazonaws.services.lambda.runtime.events.StreamsEventResponse;
import com.multikey.common.Backoff;
import com.multikey.common.BoundedCalls;
import com.multikey.common.ClientFactory;
import com.multikey.common.Deadline;
import com.multikey.common.EmfMetrics;
import com.multikey.common.Sleeper;
import com.multikey.common.StructuredLog;
import com.multikey.index.GridLayoutStore;
import com.multikey.index.IndexProjector;
import com.multikey.index.definition.GridState;
import com.multikey.index.definition.IndexDefinitions;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Lambda entry point on a table's Kinesis streaming destination: Kinesis records of the table's changes in, index
 * writes made order-independent by each item's state, partial batch response (Kinesis sequence numbers) back.
 */
public final class KinesisStreamIndexerHandler implements RequestHandler<KinesisEvent, StreamsEventResponse> {

    /** The table of the items' states ({@link DynamoDbItemStates}). */
    static final String ITEM_STATE_TABLE = "ITEM_STATE_TABLE_NAME";

    private final VersionedStreamIndexer indexer;

    public KinesisStreamIndexerHandler() {
        this(System.getenv());
    }

    /** Configured from the given environment instead of the process's (local runners). */
    public KinesisStreamIndexerHandler(Map<String, String> environment) {
        this(fromEnvironment(environment));
    }

    KinesisStreamIndexerHandler(VersionedStreamIndexer indexer) {
        this.indexer = indexer;
    }

    @Override
    public StreamsEventResponse handleRequest(KinesisEvent event, Context context) {
        return indexer.process(event.getRecords(),
                Deadline.forInvocation(context.getRemainingTimeInMillis(), StreamIndexerHandler.RESPONSE_RESERVE));
    }

    static VersionedStreamIndexer fromEnvironment(Map<String, String> env) {
        IndexerConfig config = IndexerConfig.fromEnvironment(env);
        String stateTable = env.get(ITEM_STATE_TABLE);
        if (stateTable == null || stateTable.isBlank()) {
            throw new IllegalStateException(ITEM_STATE_TABLE + " is not set: the Kinesis source keeps each item's state there");
        }
        VersionedStreamIndexer.requireNoKeptCounts(config.definitions());
        StructuredLog log = StructuredLog.forClass(VersionedStreamIndexer.class);
        DynamoDbClient dynamoDb = new ClientFactory(env).dynamoDb();
        GridLayoutStore gridLayout = GridLayoutStore.fromEnvironment(dynamoDb, config.indexTableName(), config.definitions(), true, env);
        IndexWriter writer = new DynamoDbIndexWriter(dynamoDb, config.indexTableName(), Backoff.standard(), Sleeper.SYSTEM, log,
                BoundedCalls.fromEnvironment(env, StreamIndexerHandler.WRITE_CONCURRENCY, BoundedCalls.DEFAULT_IN_FLIGHT));
        IndexerMetrics metrics = IndexerMetrics.emf(
                EmfMetrics.toStandardOutput(env.getOrDefault("METRICS_NAMESPACE", "Multikey"), "stream-indexer"));
        Map<GridState, IndexProjector> projectors = new ConcurrentHashMap<>();
        return new VersionedStreamIndexer(() -> {
            IndexDefinitions now = gridLayout.current();
            return projectors.computeIfAbsent(now.gridState(), state -> new IndexProjector(now));
        }, config.definitions().table().partitionKey().name(),
                new DynamoDbItemStates(dynamoDb, stateTable, Backoff.standard(), Sleeper.SYSTEM), writer, metrics, log);
    }
}

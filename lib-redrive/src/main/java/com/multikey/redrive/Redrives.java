package com.multikey.redrive;

import com.multikey.common.ClientFactory;
import com.multikey.common.DynamoDbJobCheckpoints;
import com.multikey.index.GridLayoutStore;
import com.multikey.reindex.IndexScope;
import com.multikey.reindex.TargetedRepair;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;
import software.amazon.awssdk.services.kinesis.KinesisClient;
import software.amazon.awssdk.services.lambda.LambdaClient;
import software.amazon.awssdk.services.sqs.SqsClient;

import java.time.Clock;
import java.time.Duration;

/**
 * Builds a {@link Redrive} for a queue from its configuration, with the SDK clients it needs (built once,
 * by {@link ClientFactory}'s settings) or with the collaborators a test hands in.
 */
public final class Redrives implements AutoCloseable {

    private final RedriveConfig config;
    private final DynamoDbClient dynamoDb;
    private final DynamoDbStreamsClient streams;
    private final SqsClient sqs;
    private final FunctionInvoker invoker;
    private final KinesisShards kinesis;
    private final AutoCloseable lambda;

    /** Without a Kinesis client: a {@code KinesisBatchInfo} message is reported unreadable. */
    public Redrives(RedriveConfig config, DynamoDbClient dynamoDb, DynamoDbStreamsClient streams, SqsClient sqs, FunctionInvoker invoker) {
        this(config, dynamoDb, streams, sqs, invoker, null, () -> {
        });
    }

    /** @param kinesis reads the ranges of Kinesis on-failure records ({@code KinesisBatchInfo}) back */
    public Redrives(RedriveConfig config, DynamoDbClient dynamoDb, DynamoDbStreamsClient streams, SqsClient sqs, FunctionInvoker invoker,
                    KinesisShards kinesis) {
        this(config, dynamoDb, streams, sqs, invoker, kinesis, () -> {
        });
    }

    private Redrives(RedriveConfig config, DynamoDbClient dynamoDb, DynamoDbStreamsClient streams, SqsClient sqs, FunctionInvoker invoker,
                     KinesisShards kinesis, AutoCloseable lambda) {
        this.config = config;
        this.dynamoDb = dynamoDb;
        this.streams = streams;
        this.sqs = sqs;
        this.invoker = invoker;
        this.kinesis = kinesis;
        this.lambda = lambda;
    }

    /** With SDK clients configured from the environment (region, credentials, endpoint overrides). */
    public static Redrives fromEnvironment(java.util.Map<String, String> env) {
        ClientFactory clients = new ClientFactory(env);
        LambdaClient lambda = clients.configure(LambdaClient.builder(), "LAMBDA").httpClient(ClientFactory.httpClient()).build();
        KinesisClient kinesisClient = clients.kinesis();
        return new Redrives(RedriveConfig.fromEnvironment(env), clients.dynamoDb(),
                clients.configure(DynamoDbStreamsClient.builder(), "DYNAMODB_STREAMS").httpClient(ClientFactory.httpClient()).build(),
                clients.configure(SqsClient.builder(), "SQS").httpClient(ClientFactory.httpClient()).build(),
                new LambdaFunctionInvoker(lambda), new KinesisSdkShards(kinesisClient), () -> {
                    lambda.close();
                    kinesisClient.close();
                });
    }

    /** @throws IllegalArgumentException when the stack has no such queue, or its configuration lacks a name */
    public Redrive forQueue(QueueKind kind) {
        if (kind == QueueKind.ROUTER && config.oneReader().isPresent()) {
            throw new IllegalArgumentException("with one stream reader there is no router queue: the consumer's failures, index and"
                    + " events, are in the indexer queue (redrive --queue indexer)");
        }
        FailureQueue queue = new SqsFailureQueue(sqs, config.queue(kind));
        MessageAction action = switch (kind) {
            case INDEXER -> {
                String indexTable = RedriveConfig.required(config.indexTable(), "INDEX_TABLE_NAME");
                // every index in the layouts the stack's grid state keeps, as the indexer writes them
                IndexScope scope = IndexScope.all(new GridLayoutStore(dynamoDb, indexTable, config.definitions(), false,
                        Duration.ZERO, System::nanoTime).current());
                IndexerRedrive indexer = new IndexerRedrive(new StreamRangeReader(streams), kinesisReader(), new TargetedRepair(dynamoDb,
                        RedriveConfig.required(config.appTable(), "APP_TABLE_NAME"), indexTable, scope), scope);
                // one reader: the queue's records may also lack their events, which the consumer's checkpoints tell
                yield config.oneReader().<MessageAction>map(one -> new ConsumerRedrive(new StreamRangeReader(streams), indexer, scope,
                        new DynamoDbJobCheckpoints(dynamoDb, one.checkpointsTable(), Clock.systemUTC()), invoker, one.consumerFunction()))
                        .orElse(indexer);
            }
            case ROUTER -> new RouterRedrive(new StreamRangeReader(streams), kinesisReader(), invoker,
                    RedriveConfig.required(config.routerFunction(), "ROUTER_FUNCTION_NAME"));
            case DELETE_LAYER -> new DeleteLayerRedrive(invoker, RedriveConfig.required(config.deleteLayerFunction(), "DELETE_LAYER_FUNCTION_NAME"));
        };
        return new Redrive(kind, queue, action);
    }

    private KinesisRangeReader kinesisReader() {
        return kinesis == null ? null : new KinesisRangeReader(kinesis);
    }

    @Override
    public void close() throws Exception {
        dynamoDb.close();
        streams.close();
        sqs.close();
        lambda.close();
    }
}

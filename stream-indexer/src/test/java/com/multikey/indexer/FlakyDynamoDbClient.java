package com.multikey.indexer;

import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughputExceededException;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A DynamoDB client that passes calls to a real one (the local DynamoDB engine), except that BatchWriteItem is
 * throttled or leaves items unprocessed as told (the engine's faults could do this too).
 */
final class FlakyDynamoDbClient implements DynamoDbClient {

    enum Mode { HEALTHY, THROTTLE, HALF_UNPROCESSED }

    private final DynamoDbClient delegate;
    private volatile Mode mode = Mode.HEALTHY;
    private volatile int faultsLeft;
    private volatile int healthyFirst;
    final AtomicInteger batchWriteCalls = new AtomicInteger();

    FlakyDynamoDbClient(DynamoDbClient delegate) {
        this.delegate = delegate;
    }

    /** The next {@code count} BatchWriteItem calls misbehave as {@code mode} says (Integer.MAX_VALUE: all). */
    void misbehave(Mode mode, int count) {
        misbehaveAfter(0, mode, count);
    }

    /** As {@link #misbehave}, after {@code healthyCalls} calls that pass through untouched. */
    void misbehaveAfter(int healthyCalls, Mode mode, int count) {
        this.healthyFirst = healthyCalls;
        this.mode = mode;
        this.faultsLeft = count;
    }

    @Override
    public BatchWriteItemResponse batchWriteItem(BatchWriteItemRequest request) {
        batchWriteCalls.incrementAndGet();
        if (healthyFirst > 0) {
            healthyFirst--;
            return delegate.batchWriteItem(request);
        }
        if (faultsLeft <= 0 || mode == Mode.HEALTHY) {
            return delegate.batchWriteItem(request);
        }
        faultsLeft--;
        if (mode == Mode.THROTTLE) {
            throw ProvisionedThroughputExceededException.builder().statusCode(400)
                    .awsErrorDetails(AwsErrorDetails.builder().errorCode("ProvisionedThroughputExceededException")
                            .errorMessage("injected").build())
                    .message("injected throttling").build();
        }
        Map.Entry<String, List<WriteRequest>> table = request.requestItems().entrySet().iterator().next();
        List<WriteRequest> requests = table.getValue();
        int half = requests.size() / 2;
        if (half > 0) {
            delegate.batchWriteItem(b -> b.requestItems(Map.of(table.getKey(), requests.subList(0, half))));
        }
        return BatchWriteItemResponse.builder()
                .unprocessedItems(Map.of(table.getKey(), requests.subList(half, requests.size())))
                .build();
    }

    @Override
    public String serviceName() {
        return delegate.serviceName();
    }

    @Override
    public void close() {
        delegate.close();
    }
}

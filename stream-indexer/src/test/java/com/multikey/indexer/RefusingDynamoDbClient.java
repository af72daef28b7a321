package com.multikey.indexer;

import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

import java.util.List;
import java.util.function.Predicate;

/**
 * Passes calls to a real client (the local DynamoDB engine), but refuses as invalid ({@code ValidationException}, as AWS
 * refuses an item over one of its limits) any BatchWriteItem that holds a request the predicate picks: a
 * limit the indexer cannot foresee.
 */
final class RefusingDynamoDbClient implements DynamoDbClient {

    private final DynamoDbClient delegate;
    private final Predicate<WriteRequest> refused;

    RefusingDynamoDbClient(DynamoDbClient delegate, Predicate<WriteRequest> refused) {
        this.delegate = delegate;
        this.refused = refused;
    }

    /** Refuses every put of an item whose attribute has this string value. */
    static RefusingDynamoDbClient refusingPuts(DynamoDbClient delegate, String attribute, String value) {
        return new RefusingDynamoDbClient(delegate, request -> request.putRequest() != null
                && value.equals(request.putRequest().item().get(attribute).s()));
    }

    @Override
    public BatchWriteItemResponse batchWriteItem(BatchWriteItemRequest request) {
        if (request.requestItems().values().stream().flatMap(List::stream).anyMatch(refused)) {
            throw DynamoDbException.builder().statusCode(400).message("refused")
                    .awsErrorDetails(AwsErrorDetails.builder().errorCode("ValidationException").errorMessage("refused").build())
                    .build();
        }
        return delegate.batchWriteItem(request);
    }

    @Override
    public String serviceName() {
        return delegate.serviceName();
    }

    @Override
    public void close() {
    }
}

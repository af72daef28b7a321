package com.multikey.query;

import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;

/** Passes the calls a grid query makes to a real client, records each request, and can answer BatchGetItem itself. */
final class RecordingDynamoDbClient implements DynamoDbClient {

    private final DynamoDbClient delegate;
    private final BiFunction<DynamoDbClient, BatchGetItemRequest, BatchGetItemResponse> batchGet;
    final List<DynamoDbRequest> requests = new ArrayList<>();

    RecordingDynamoDbClient(DynamoDbClient delegate) {
        this(delegate, DynamoDbClient::batchGetItem);
    }

    RecordingDynamoDbClient(DynamoDbClient delegate, BiFunction<DynamoDbClient, BatchGetItemRequest, BatchGetItemResponse> batchGet) {
        this.delegate = delegate;
        this.batchGet = batchGet;
    }

    @Override
    public QueryResponse query(QueryRequest request) {
        requests.add(request);
        return delegate.query(request);
    }

    @Override
    public BatchGetItemResponse batchGetItem(BatchGetItemRequest request) {
        requests.add(request);
        return batchGet.apply(delegate, request);
    }

    @Override
    public GetItemResponse getItem(GetItemRequest request) {
        requests.add(request);
        return delegate.getItem(request);
    }

    <T extends DynamoDbRequest> List<T> requestsOf(Class<T> type) {
        return requests.stream().filter(type::isInstance).map(type::cast).toList();
    }

    @Override
    public String serviceName() {
        return "dynamodb";
    }

    @Override
    public void close() {
    }
}

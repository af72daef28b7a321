package com.multikey.indexer;

import com.multikey.common.Backoff;
import com.multikey.common.Deadline;
import com.multikey.common.Sleeper;
import com.multikey.common.StructuredLog;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.DeleteRequest;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

import java.time.Duration;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Writes index changes with BatchWriteItem, 25 requests a call. Unprocessed items, throttling and
 * server errors are retried with exponential backoff and full jitter while the deadline leaves room;
 * what is still unwritten is returned so the caller reports it as batch item failures.
 */
public final class DynamoDbIndexWriter implements IndexWriter {

    public static final int MAX_BATCH = 25;

    private final DynamoDbClient dynamoDb;
    private final String tableName;
    private final Backoff backoff;
    private final Sleeper sleeper;
    private final StructuredLog log;

    public DynamoDbIndexWriter(DynamoDbClient dynamoDb, String tableName, Backoff backoff, Sleeper sleeper, StructuredLog log) {
        this.dynamoDb = dynamoDb;
        this.tableName = tableName;
        this.backoff = backoff;
        this.sleeper = sleeper;
        this.log = log;
    }

    @Override
    public Set<IndexKey> write(List<IndexChange> changes, Deadline deadline) {
        Set<IndexKey> failed = new LinkedHashSet<>();
        for (int from = 0; from < changes.size(); from += MAX_BATCH) {
            List<IndexChange> chunk = changes.subList(from, Math.min(changes.size(), from + MAX_BATCH));
            failed.addAll(writeChunk(chunk, deadline));
        }
        return failed;
    }

    private Set<IndexKey> writeChunk(List<IndexChange> chunk, Deadline deadline) {
        List<WriteRequest> pending = chunk.stream().map(DynamoDbIndexWriter::request).toList();
        for (int attempt = 0; ; attempt++) {
            if (deadline.remaining().isZero()) {
                return keysOf(pending);
            }
            try {
                Map<String, List<WriteRequest>> requestItems = Map.of(tableName, pending);
                BatchWriteItemResponse response = dynamoDb.batchWriteItem(b -> b.requestItems(requestItems));
                List<WriteRequest> unprocessed = response.unprocessedItems().getOrDefault(tableName, List.of());
                if (unprocessed.isEmpty()) {
                    return Set.of();
                }
                pending = List.copyOf(unprocessed);
            } catch (SdkException e) {
                if (!isRetryable(e)) {
                    log.error("index write failed and will not succeed by retrying now", Map.of(
                            "table", tableName, "requests", pending.size(), "error", errorCode(e)));
                    return keysOf(pending);
                }
            }
            Duration wait = backoff.delay(attempt);
            if (!deadline.hasRoomFor(wait)) {
                return keysOf(pending);
            }
            try {
                sleeper.sleep(wait);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return keysOf(pending);
            }
        }
    }

    static boolean isRetryable(SdkException e) {
        if (e instanceof AwsServiceException service) {
            return service.isThrottlingException() || service.statusCode() >= 500 || service.retryable();
        }
        return e instanceof SdkClientException || e.retryable();
    }

    private static String errorCode(SdkException e) {
        if (e instanceof AwsServiceException service && service.awsErrorDetails() != null) {
            return service.awsErrorDetails().errorCode();
        }
        return e.getClass().getSimpleName();
    }

    private static WriteRequest request(IndexChange change) {
        return switch (change) {
            case IndexChange.Put put -> WriteRequest.builder()
                    .putRequest(PutRequest.builder().item(put.item().toItem()).build()).build();
            case IndexChange.Delete delete -> WriteRequest.builder()
                    .deleteRequest(DeleteRequest.builder().key(delete.key().toKey()).build()).build();
        };
    }

    private static Set<IndexKey> keysOf(List<WriteRequest> requests) {
        Set<IndexKey> keys = new HashSet<>();
        for (WriteRequest request : requests) {
            keys.add(IndexKey.of(request.putRequest() != null ? request.putRequest().item() : request.deleteRequest().key()));
        }
        return keys;
    }

}

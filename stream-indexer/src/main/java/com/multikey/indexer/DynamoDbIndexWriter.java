package com.multikey.indexer;

import com.multikey.common.Backoff;
import com.multikey.common.BoundedCalls;
import com.multikey.common.Deadline;
import com.multikey.common.RetryBudget;
import com.multikey.common.Sleeper;
import com.multikey.common.StructuredLog;
import com.multikey.index.DynamoDbLimits;
import com.multikey.index.IndexChange;
import com.multikey.index.IndexKey;
import com.multikey.index.counts.CountedWrites;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.DeleteRequest;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Writes index changes with BatchWriteItem: at most 25 requests and 16 MB a call.
 *
 * <p>Retries have one owner each: the SDK client retries a throttled or failed call (its retry strategy);
 * {@link RetryBudget} re-sends {@code UnprocessedItems}, and a call that still failed transiently, with
 * backoff, a bounded number of failed attempts and an {@code apiCallTimeout} within the invocation's
 * deadline. What is still unwritten is returned so the caller reports it as batch item failures.
 *
 * <p>A call DynamoDB refuses as invalid ({@code ValidationException}, or a 413 for a request body too
 * large) is split in halves until the offending requests stand alone; they are returned as refused and
 * the rest is written, so one item AWS will never accept costs none of its neighbours. The key of a
 * refused put is then deleted, so it never keeps the index item of an older image of the item.
 *
 * <p>The calls of one write are independent (the plan holds at most one change per key, and keys of different
 * items never meet), so they are sent concurrently, at most {@link BoundedCalls#maxInFlight()} at a time,
 * each with its own retry budget and {@code apiCallTimeout} within the same deadline. What each call left
 * unwritten or refused is gathered per call and merged in call order, so the result, and the records a
 * caller reports as failed, do not depend on which call finished first.
 */
public final class DynamoDbIndexWriter implements IndexWriter {

    public static final int MAX_BATCH = DynamoDbLimits.MAX_BATCH_WRITE_REQUESTS;
    /** {"PutRequest":{"Item":...}} around each item, and a comma. */
    static final int REQUEST_WRAPPER_BYTES = 32;
    /** What the items of one call may take of the 16 MB: the rest is the request's envelope and table name. */
    static final long MAX_CALL_ITEM_BYTES = DynamoDbLimits.MAX_BATCH_WRITE_BYTES - 64 * 1024;

    private final DynamoDbClient dynamoDb;
    private final String tableName;
    private final Backoff backoff;
    private final Sleeper sleeper;
    private final StructuredLog log;
    private final BoundedCalls concurrency;

    /** Sends one call at a time. */
    public DynamoDbIndexWriter(DynamoDbClient dynamoDb, String tableName, Backoff backoff, Sleeper sleeper, StructuredLog log) {
        this(dynamoDb, tableName, backoff, sleeper, log, BoundedCalls.sequential());
    }

    /** Sends up to {@code concurrency.maxInFlight()} calls at a time. */
    public DynamoDbIndexWriter(DynamoDbClient dynamoDb, String tableName, Backoff backoff, Sleeper sleeper, StructuredLog log,
                               BoundedCalls concurrency) {
        this.dynamoDb = dynamoDb;
        this.tableName = tableName;
        this.backoff = backoff;
        this.sleeper = sleeper;
        this.log = log;
        this.concurrency = concurrency;
    }

    @Override
    public WriteResult write(List<IndexChange> changes, Deadline deadline) {
        Set<IndexKey> unwritten = new LinkedHashSet<>();
        List<Refused> refused = new ArrayList<>();
        writeCalls(calls(changes), deadline, unwritten, refused);
        // a refused put leaves its key empty, not holding the item of an older image
        List<IndexChange> clearRefusedPuts = new ArrayList<>();
        for (Refused refusal : refused) {
            if (isPut(changes, refusal.key())) {
                clearRefusedPuts.add(new IndexChange.Delete(refusal.key()));
            }
        }
        List<Refused> refusedDeletes = new ArrayList<>();
        writeCalls(calls(clearRefusedPuts), deadline, unwritten, refusedDeletes);
        return new WriteResult(unwritten, refused);
    }

    /**
     * Plain changes in BatchWriteItem calls, counted ones in TransactWriteItems calls (see {@link CountedWrites}), one
     * call at a time: calls of one batch that share a counter would otherwise conflict with each other.
     */
    @Override
    public WriteResult write(List<IndexChange> plain, List<CountedWrites.Counted> counted, Deadline deadline) {
        WriteResult plainResult = plain.isEmpty() ? WriteResult.ALL_WRITTEN : write(plain, deadline);
        if (counted.isEmpty()) {
            return plainResult;
        }
        Set<IndexKey> unwritten = new LinkedHashSet<>(plainResult.unwritten());
        List<Refused> refused = new ArrayList<>(plainResult.refused());
        CountedIndexWrites writes = new CountedIndexWrites(dynamoDb, tableName, backoff, sleeper, log);
        writes.write(counted, deadline, unwritten, refused);
        return new WriteResult(unwritten, refused, writes.stats());
    }

    /** What one call left: keys to retry in a later delivery, and requests DynamoDB refused. */
    private record CallResult(Set<IndexKey> unwritten, List<Refused> refused) {
    }

    /** Sends the calls concurrently (bounded) and merges what each left, in call order. */
    private void writeCalls(List<List<WriteRequest>> calls, Deadline deadline, Set<IndexKey> unwritten, List<Refused> refused) {
        List<CallResult> results = concurrency.map(calls, call -> {
            CallResult result = new CallResult(new LinkedHashSet<>(), new ArrayList<>());
            writeCall(call, deadline, result.unwritten(), result.refused());
            return result;
        });
        for (CallResult result : results) {
            unwritten.addAll(result.unwritten());
            refused.addAll(result.refused());
        }
    }

    private static boolean isPut(List<IndexChange> changes, IndexKey key) {
        return changes.stream().anyMatch(change -> change instanceof IndexChange.Put && change.key().equals(key));
    }

    /**
     * Packs the changes into calls within BatchWriteItem's request count and size limits, the size counted
     * on the request as sent (JSON), with room for the request's own envelope.
     */
    static List<List<WriteRequest>> calls(List<IndexChange> changes) {
        List<List<WriteRequest>> calls = new ArrayList<>();
        List<WriteRequest> current = new ArrayList<>();
        long bytes = 0;
        for (IndexChange change : changes) {
            WriteRequest request = request(change);
            long size = sizeOf(request);
            if (!current.isEmpty() && (current.size() == MAX_BATCH || bytes + size > MAX_CALL_ITEM_BYTES)) {
                calls.add(current);
                current = new ArrayList<>();
                bytes = 0;
            }
            current.add(request);
            bytes += size;
        }
        if (!current.isEmpty()) {
            calls.add(current);
        }
        return calls;
    }

    private void writeCall(List<WriteRequest> call, Deadline deadline, Set<IndexKey> unwritten, List<Refused> refused) {
        RetryBudget budget = new RetryBudget(backoff, sleeper, deadline);
        List<WriteRequest> pending = call;
        while (budget.hasTime()) {
            try {
                Map<String, List<WriteRequest>> requestItems = Map.of(tableName, pending);
                BatchWriteItemResponse response = dynamoDb.batchWriteItem(b -> b.requestItems(requestItems)
                        .overrideConfiguration(budget.callTimeout()));
                List<WriteRequest> unprocessed = response.unprocessedItems().getOrDefault(tableName, List.of());
                if (unprocessed.isEmpty()) {
                    return;
                }
                if (unprocessed.size() < pending.size()) {
                    budget.progressed();
                }
                pending = List.copyOf(unprocessed);
            } catch (SdkException e) {
                if (isRefusal(e)) {
                    isolate(pending, deadline, unwritten, refused, errorCode(e));
                    return;
                }
                if (!isRetryable(e)) {
                    log.error("index write failed and will not succeed by retrying now", Map.of(
                            "table", tableName, "requests", pending.size(), "error", errorCode(e)));
                    break;
                }
            }
            if (!budget.retryAfterFailure()) {
                break;
            }
        }
        unwritten.addAll(keysOf(pending));
    }

    /** Writes the halves of a refused call separately, until each refused request stands alone. */
    private void isolate(List<WriteRequest> refusedCall, Deadline deadline, Set<IndexKey> unwritten, List<Refused> refused,
                         String errorCode) {
        if (refusedCall.size() == 1) {
            refused.add(new Refused(keyOf(refusedCall.getFirst()), errorCode));
            return;
        }
        int half = refusedCall.size() / 2;
        writeCall(refusedCall.subList(0, half), deadline, unwritten, refused);
        writeCall(refusedCall.subList(half, refusedCall.size()), deadline, unwritten, refused);
    }

    /**
     * DynamoDB refused the request's content (an item or key over a limit, a wrong key type): the same
     * request will be refused again. Errors of the whole setup (a missing table or permission) are not
     * refusals: they fail every request alike and pass once fixed, so those records are retried.
     */
    static boolean isRefusal(SdkException e) {
        if (!(e instanceof AwsServiceException service)) {
            return false;
        }
        // 413: a request body over the limit, answered before any item is looked at
        return service.statusCode() == 413 || service.statusCode() == 400
                && service.awsErrorDetails() != null && "ValidationException".equals(service.awsErrorDetails().errorCode());
    }

    static boolean isRetryable(SdkException e) {
        if (e instanceof AwsServiceException service) {
            return service.isThrottlingException() || service.statusCode() >= 500 || service.retryable();
        }
        return e instanceof SdkClientException || e.retryable();
    }

    static String errorCode(SdkException e) {
        if (e instanceof AwsServiceException service && service.awsErrorDetails() != null
                && service.awsErrorDetails().errorCode() != null) {
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

    private static long sizeOf(WriteRequest request) {
        return DynamoDbLimits.requestJsonBytes(request.putRequest() != null ? request.putRequest().item() : request.deleteRequest().key())
                + REQUEST_WRAPPER_BYTES;
    }

    private static IndexKey keyOf(WriteRequest request) {
        return IndexKey.of(request.putRequest() != null ? request.putRequest().item() : request.deleteRequest().key());
    }

    private static Set<IndexKey> keysOf(List<WriteRequest> requests) {
        Set<IndexKey> keys = new LinkedHashSet<>();
        requests.forEach(request -> keys.add(keyOf(request)));
        return keys;
    }
}

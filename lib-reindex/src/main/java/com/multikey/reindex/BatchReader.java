package com.multikey.reindex;

import com.multikey.common.Backoff;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Consistent BatchGetItem of many keys of one table: calls of at most {@value #MAX_KEYS_PER_CALL} keys, the
 * {@code UnprocessedKeys} re-sent with backoff. The caller passes distinct keys (BatchGetItem refuses a
 * request naming one key twice).
 */
final class BatchReader {

    /** BatchGetItem: "A single operation can retrieve up to 16 MB of data, which can contain as many as 100 items." (API reference) */
    static final int MAX_KEYS_PER_CALL = 100;
    private static final int MAX_ROUNDS_WITHOUT_PROGRESS = 10;

    private static final Backoff BACKOFF = Backoff.standard();

    private final DynamoDbClient dynamoDb;

    BatchReader(DynamoDbClient dynamoDb) {
        this.dynamoDb = dynamoDb;
    }

    /** The items found, in no particular order; a key with no item is simply absent. */
    List<Map<String, AttributeValue>> read(String table, List<Map<String, AttributeValue>> keys) throws InterruptedException {
        List<Map<String, AttributeValue>> found = new ArrayList<>();
        for (int from = 0; from < keys.size(); from += MAX_KEYS_PER_CALL) {
            List<Map<String, AttributeValue>> pending = keys.subList(from, Math.min(keys.size(), from + MAX_KEYS_PER_CALL));
            int stalled = 0;
            while (!pending.isEmpty()) {
                List<Map<String, AttributeValue>> asked = pending;
                BatchGetItemResponse response = dynamoDb.batchGetItem(b -> b.requestItems(
                        Map.of(table, KeysAndAttributes.builder().keys(asked).consistentRead(true).build())));
                List<Map<String, AttributeValue>> items = response.responses().getOrDefault(table, List.of());
                found.addAll(items);
                KeysAndAttributes left = response.hasUnprocessedKeys() ? response.unprocessedKeys().get(table) : null;
                pending = left == null ? List.of() : left.keys();
                if (!pending.isEmpty()) {
                    // progress is keys settled, found or not: a call that settles only keys with no item (what
                    // verify looks for) still progressed
                    stalled = pending.size() < asked.size() ? 0 : stalled + 1;
                    if (stalled >= MAX_ROUNDS_WITHOUT_PROGRESS) {
                        throw new IllegalStateException("BatchGetItem on " + table + " settled no key " + stalled + " times in a row");
                    }
                    Thread.sleep(BACKOFF.delay(stalled).toMillis());
                }
            }
        }
        return found;
    }
}

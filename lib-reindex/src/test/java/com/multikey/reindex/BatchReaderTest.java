package com.multikey.reindex;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** BatchReader against a scripted DynamoDB that answers a few keys a call and leaves the rest unprocessed. */
class BatchReaderTest {

    private static final String TABLE = "IndexTable";
    private static final int KEYS_PER_CALL_ANSWERED = 5;

    /** Looks up only the first few keys of each call (as a throttled table does); holds only the keys in {@code stored}. */
    private static final class Throttled implements DynamoDbClient {
        private final List<Map<String, AttributeValue>> stored;
        int calls;

        Throttled(List<Map<String, AttributeValue>> stored) {
            this.stored = stored;
        }

        @Override
        public BatchGetItemResponse batchGetItem(BatchGetItemRequest request) {
            calls++;
            List<Map<String, AttributeValue>> asked = request.requestItems().get(TABLE).keys();
            int answered = Math.min(KEYS_PER_CALL_ANSWERED, asked.size());
            List<Map<String, AttributeValue>> found = asked.subList(0, answered).stream().filter(stored::contains).toList();
            BatchGetItemResponse.Builder response = BatchGetItemResponse.builder().responses(Map.of(TABLE, found));
            if (answered < asked.size()) {
                response.unprocessedKeys(Map.of(TABLE, KeysAndAttributes.builder().keys(asked.subList(answered, asked.size())).build()));
            }
            return response.build();
        }

        @Override
        public String serviceName() {
            return "dynamodb";
        }

        @Override
        public void close() {
        }
    }

    private static List<Map<String, AttributeValue>> keys(int count) {
        List<Map<String, AttributeValue>> keys = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            keys.add(Map.of("pk", AttributeValue.fromS("issue#" + i)));
        }
        return keys;
    }

    @Test
    void read_ofKeysWithNoItem_underThrottling_goesOnWhileEachCallSettlesSomeKeys() throws InterruptedException {
        // an index missing every item verify asks for (the case verify exists for), on a throttled table
        Throttled dynamoDb = new Throttled(List.of());

        List<Map<String, AttributeValue>> found = new BatchReader(dynamoDb).read(TABLE, keys(BatchReader.MAX_KEYS_PER_CALL));

        assertThat(found).isEmpty();
        assertThat(dynamoDb.calls).isEqualTo(BatchReader.MAX_KEYS_PER_CALL / KEYS_PER_CALL_ANSWERED);
    }

    @Test
    void read_underThrottling_findsEveryStoredItem() throws InterruptedException {
        List<Map<String, AttributeValue>> keys = keys(BatchReader.MAX_KEYS_PER_CALL + 7);
        Throttled dynamoDb = new Throttled(List.of(keys.get(3), keys.get(99), keys.get(106)));

        assertThat(new BatchReader(dynamoDb).read(TABLE, keys)).containsExactlyInAnyOrder(keys.get(3), keys.get(99), keys.get(106));
    }
}

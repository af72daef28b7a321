package com.multikey.benchmarks;

import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;

/** Loading a benchmark's tables: puts gathered and written 25 at a time, unprocessed items retried. */
final class BatchLoads {

    private BatchLoads() {
    }

    static WriteRequest put(Map<String, AttributeValue> item) {
        return WriteRequest.builder().putRequest(PutRequest.builder().item(item).build()).build();
    }

    /** Writes the pending requests 25 at a time; all of them when {@code all}, else only full batches. */
    static void flush(DynamoDbClient dynamoDb, String table, List<WriteRequest> pending, boolean all) {
        while (pending.size() >= 25 || all && !pending.isEmpty()) {
            List<WriteRequest> chunk = List.copyOf(pending.subList(0, Math.min(25, pending.size())));
            pending.subList(0, chunk.size()).clear();
            Map<String, List<WriteRequest>> left = Map.of(table, chunk);
            while (!left.isEmpty()) {
                Map<String, List<WriteRequest>> request = left;
                left = dynamoDb.batchWriteItem(b -> b.requestItems(request)).unprocessedItems();
            }
        }
    }

    /** 0 to {@code size} − 1 in a random order. */
    static List<Integer> permutation(int size, Random random) {
        List<Integer> values = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            values.add(i);
        }
        Collections.shuffle(values, random);
        return values;
    }
}

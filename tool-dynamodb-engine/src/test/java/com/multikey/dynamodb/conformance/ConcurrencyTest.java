package com.multikey.dynamodb.conformance;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.ShardIteratorType;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Several writers and a stream poller at once, as the local stack runs them: every write lands, the stream holds
 * one record per change in increasing sequence order, and each item's records are in the order of its writes
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Streams.html: "each stream record appears
 * exactly once" and "in the same sequence as the actual modifications to the item").
 */
class ConcurrencyTest extends EngineTestSupport {

    @Test
    void writersAndAPoller_everyChangeRecordedOnceInOrder() throws Exception {
        String table = hashTable();
        String arn = dynamoDb.describeTable(b -> b.tableName(table)).table().latestStreamArn();
        String shard = streams.describeStream(b -> b.streamArn(arn)).streamDescription().shards().get(0).shardId();
        ExecutorService pool = Executors.newFixedThreadPool(5);
        AtomicBoolean writing = new AtomicBoolean(true);
        List<Record> polled = new ArrayList<>();
        Future<?> poller = pool.submit(() -> {
            String iterator = streams.getShardIterator(b -> b.streamArn(arn).shardId(shard)
                    .shardIteratorType(ShardIteratorType.TRIM_HORIZON)).shardIterator();
            while (true) {
                boolean last = !writing.get();
                String current = iterator;
                var response = streams.getRecords(b -> b.shardIterator(current));
                polled.addAll(response.records());
                iterator = response.nextShardIterator();
                if (last && response.records().isEmpty()) {
                    return null;
                }
            }
        });
        List<Future<?>> writers = new ArrayList<>();
        for (int w = 0; w < 4; w++) {
            int writer = w;
            writers.add(pool.submit(() -> {
                for (int i = 0; i < 100; i++) {
                    int version = i;
                    dynamoDb.putItem(b -> b.tableName(table).item(Map.of("id", s("w" + writer + "-" + (version % 10)), "v", n(Integer.toString(version)))));
                }
                return null;
            }));
        }
        for (Future<?> writer : writers) {
            writer.get(2, TimeUnit.MINUTES);
        }
        writing.set(false);
        poller.get(2, TimeUnit.MINUTES);
        pool.shutdown();

        assertThat(polled).hasSize(400);
        assertThat(polled).extracting(r -> new BigInteger(r.dynamodb().sequenceNumber())).isSorted().doesNotHaveDuplicates();
        for (int w = 0; w < 4; w++) {
            String id = "w" + w + "-3";
            assertThat(polled.stream().filter(r -> r.dynamodb().keys().get("id").s().equals(id)).map(r -> Integer.parseInt(r.dynamodb().newImage().get("v").n())))
                    .containsExactly(3, 13, 23, 33, 43, 53, 63, 73, 83, 93);
        }
        assertThat(dynamoDb.scan(b -> b.tableName(table)).count()).isEqualTo(40);
    }
}

package com.multikey.emulator.services.streams;

import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.GetRecordsResponse;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.Shard;
import software.amazon.awssdk.services.dynamodb.model.ShardIteratorType;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a table's stream from where it last stopped: each call returns the records written since the
 * previous call, in stream order per shard.
 */
public final class StreamTail {

    private final DynamoDbStreamsClient streams;
    private final String streamArn;
    private final String partitionKey;
    private final Map<String, String> lastSequenceByShard = new HashMap<>();

    public StreamTail(DynamoDbClient dynamoDb, DynamoDbStreamsClient streams, String tableName) {
        this.streams = streams;
        TableDescription table = dynamoDb.describeTable(b -> b.tableName(tableName)).table();
        this.streamArn = table.latestStreamArn();
        this.partitionKey = table.keySchema().stream().filter(k -> k.keyType() == KeyType.HASH).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("table " + tableName + " has no partition key")).attributeName();
        if (streamArn == null) {
            throw new IllegalArgumentException("table " + tableName + " has no stream");
        }
    }

    public String streamArn() {
        return streamArn;
    }

    /** The name of the table's partition key attribute. */
    String partitionKey() {
        return partitionKey;
    }

    /** All records not yet returned, oldest first. */
    public List<Record> poll() {
        List<Record> records = new ArrayList<>();
        List<Shard> shards = streams.describeStream(b -> b.streamArn(streamArn)).streamDescription().shards();
        for (Shard shard : shards) {
            String last = lastSequenceByShard.get(shard.shardId());
            String iterator = streams.getShardIterator(b -> {
                b.streamArn(streamArn).shardId(shard.shardId());
                if (last == null) {
                    b.shardIteratorType(ShardIteratorType.TRIM_HORIZON);
                } else {
                    b.shardIteratorType(ShardIteratorType.AFTER_SEQUENCE_NUMBER).sequenceNumber(last);
                }
            }).shardIterator();
            while (iterator != null) {
                String current = iterator;
                GetRecordsResponse response = streams.getRecords(b -> b.shardIterator(current).limit(1000));
                records.addAll(response.records());
                if (!response.records().isEmpty()) {
                    lastSequenceByShard.put(shard.shardId(),
                            response.records().get(response.records().size() - 1).dynamodb().sequenceNumber());
                }
                if (response.records().isEmpty()) {
                    break;
                }
                iterator = response.nextShardIterator();
            }
        }
        records.sort(Comparator.comparing((Record r) -> r.dynamodb().sequenceNumber().length())
                .thenComparing(r -> r.dynamodb().sequenceNumber()));
        return records;
    }
}

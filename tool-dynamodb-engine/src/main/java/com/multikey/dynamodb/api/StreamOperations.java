package com.multikey.dynamodb.api;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.multikey.dynamodb.EngineException;
import com.multikey.dynamodb.stream.SequenceNumbers;
import com.multikey.dynamodb.stream.ShardIterator;
import com.multikey.dynamodb.stream.StreamLog;
import com.multikey.dynamodb.stream.StreamRecord;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** DynamoDB Streams: ListStreams, DescribeStream, GetShardIterator and GetRecords. */
public final class StreamOperations {

    static final int MAX_RECORDS = 1000;
    static final long MAX_RESPONSE_BYTES = 1024 * 1024;

    private final Catalog catalog;

    public StreamOperations(Catalog catalog) {
        this.catalog = catalog;
    }

    private enum IteratorType { TRIM_HORIZON, LATEST, AT_SEQUENCE_NUMBER, AFTER_SEQUENCE_NUMBER }

    public ObjectNode listStreams(Request request) {
        long limit = request.number("Limit", 1, 100).orElse(100L);
        Optional<String> start = request.string("ExclusiveStartStreamArn");
        List<StreamLog> streams = catalog.streams().list(request.string("TableName").orElse(null), catalog.now());
        int from = 0;
        if (start.isPresent()) {
            from = streams.stream().map(StreamLog::arn).toList().indexOf(start.get()) + 1;
        }
        ObjectNode response = Json.object();
        ArrayNode list = response.putArray("Streams");
        for (int i = from; i < streams.size(); i++) {
            if (list.size() == limit) {
                response.put("LastEvaluatedStreamArn", streams.get(i - 1).arn());
                break;
            }
            StreamLog stream = streams.get(i);
            list.addObject().put("StreamArn", stream.arn()).put("TableName", stream.tableName()).put("StreamLabel", stream.label());
        }
        return response;
    }

    public ObjectNode describeStream(Request request) {
        request.number("Limit", 1, 100);
        StreamLog stream = stream(request.requiredString("StreamArn"));
        ObjectNode response = Json.object();
        ObjectNode description = response.putObject("StreamDescription");
        description.put("StreamArn", stream.arn());
        description.put("StreamLabel", stream.label());
        description.put("StreamStatus", stream.enabled() ? "ENABLED" : "DISABLED");
        description.put("StreamViewType", stream.viewType().name());
        description.put("CreationRequestDateTime", Json.epochSeconds(stream.created()));
        description.put("TableName", stream.tableName());
        ArrayNode keySchema = description.putArray("KeySchema");
        stream.keySchema().forEach(key -> keySchema.addObject().put("AttributeName", key.attributeName()).put("KeyType", key.keyType()));
        ArrayNode shards = description.putArray("Shards");
        if (request.string("ExclusiveStartShardId").map(id -> !id.equals(stream.shardId())).orElse(true)) {
            ObjectNode shard = shards.addObject();
            shard.put("ShardId", stream.shardId());
            ObjectNode range = shard.putObject("SequenceNumberRange");
            range.put("StartingSequenceNumber", SequenceNumbers.format(stream.startingSequence()));
            if (!stream.enabled()) {
                range.put("EndingSequenceNumber", SequenceNumbers.format(stream.endingSequence()));
            }
        }
        return response;
    }

    public ObjectNode getShardIterator(Request request) {
        StreamLog stream = stream(request.requiredString("StreamArn"));
        String shardId = request.requiredString("ShardId");
        IteratorType type = request.enumeration("ShardIteratorType", IteratorType.class)
                .orElseThrow(() -> Request.constraint("null", "shardIteratorType", "Member must not be null"));
        if (!shardId.equals(stream.shardId())) {
            throw EngineException.resourceNotFound("Requested resource not found: Shard does not exist");
        }
        Instant now = catalog.now();
        long after = switch (type) {
            case TRIM_HORIZON -> stream.startingSequence() - 1;
            case LATEST -> stream.latest();
            case AT_SEQUENCE_NUMBER, AFTER_SEQUENCE_NUMBER -> {
                String text = request.string("SequenceNumber").orElseThrow(() -> EngineException.validation(
                        "Must provide a sequence number for ShardIteratorType " + type));
                long sequence = SequenceNumbers.parse(text);
                if (sequence < stream.startingSequence() || sequence > stream.latest()) {
                    throw EngineException.validation("Invalid SequenceNumber for ShardIterator: " + text);
                }
                if (sequence < stream.oldestAvailable(now)) {
                    throw new EngineException("TrimmedDataAccessException", 400,
                            "The operation attempted to read past the oldest stream record in a shard");
                }
                yield type == IteratorType.AT_SEQUENCE_NUMBER ? sequence - 1 : sequence;
            }
        };
        return Json.object().put("ShardIterator", new ShardIterator(stream.arn(), shardId, after, now).encode());
    }

    public ObjectNode getRecords(Request request) {
        String text = request.requiredString("ShardIterator");
        int limit = request.number("Limit", 1, MAX_RECORDS).orElse((long) MAX_RECORDS).intValue();
        ShardIterator iterator = ShardIterator.decode(text).orElseThrow(() -> EngineException.validation("Invalid ShardIterator"));
        Instant now = catalog.now();
        if (iterator.expired(now)) {
            throw new EngineException("ExpiredIteratorException", 400, "Iterator expired. The iterator was created at time "
                    + iterator.issued() + " while right now it is " + now + ". The iterator is only valid for 15 minutes.");
        }
        StreamLog stream = stream(iterator.streamArn());
        List<StreamRecord> records = withinOneMegabyte(stream.after(iterator.after(), limit, now));
        ObjectNode response = Json.object();
        ArrayNode list = response.putArray("Records");
        records.forEach(r -> list.add(StreamRecordJson.write(r, stream, catalog.region())));
        long position = records.isEmpty() ? iterator.after() : records.get(records.size() - 1).sequence();
        // a closed shard read to its end has no next iterator: that is how readers learn that it ended
        if (stream.enabled() || position < stream.latest()) {
            response.put("NextShardIterator", new ShardIterator(stream.arn(), stream.shardId(), position, now).encode());
        }
        return response;
    }

    /** GetRecords answers at most 1 MB of records (at least one record, however large). */
    private static List<StreamRecord> withinOneMegabyte(List<StreamRecord> records) {
        long bytes = 0;
        for (int i = 0; i < records.size(); i++) {
            bytes += records.get(i).sizeBytes();
            if (bytes > MAX_RESPONSE_BYTES && i > 0) {
                return records.subList(0, i);
            }
        }
        return records;
    }

    private StreamLog stream(String arn) {
        StreamLog stream = catalog.streams().get(arn, catalog.now());
        if (stream == null) {
            throw EngineException.resourceNotFound("Requested resource not found: Stream: " + arn + " not found");
        }
        return stream;
    }
}

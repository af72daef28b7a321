package com.multikey.dynamodb.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.multikey.dynamodb.kinesis.KinesisSink;
import com.multikey.dynamodb.stream.ChangeDestination;
import com.multikey.dynamodb.stream.StreamRecord;
import com.multikey.dynamodb.value.Numbers;
import com.multikey.dynamodb.value.Value;
import com.multikey.dynamodb.value.Values;

import java.time.Instant;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A table's Kinesis streaming destination (Kinesis Data Streams for DynamoDB): while ACTIVE, each change of the table
 * is put on the data stream as the JSON record AWS puts there ({@code awsRegion}, {@code eventID}, {@code eventName},
 * {@code userIdentity}, {@code recordFormat} {@code application/json}, {@code tableName}, {@code dynamodb} with
 * {@code ApproximateCreationDateTime}, {@code Keys}, {@code NewImage}, {@code OldImage}, {@code SizeBytes}, and
 * {@code eventSource} {@code aws:dynamodb}), keyed by the item's partition key so one item's records share a shard.
 *
 * <p>{@code ApproximateCreationDateTime} is epoch milliseconds, or microseconds with precision {@code MICROSECOND}; in
 * microseconds it grows strictly from one change of the table to the next (the engine's clock may give two changes
 * the same microsecond; AWS's value is approximate, and a strict order keeps consumers' tie rules out of local runs).
 * Both images are always written (the destination has no view type).
 */
final class KinesisDestination implements ChangeDestination {

    enum Precision { MILLISECOND, MICROSECOND }

    enum Status { ACTIVE, DISABLED }

    private final String streamArn;
    private final String tableName;
    private final String region;
    private final String partitionKey;
    private final KinesisSink sink;
    private final long salt = ThreadLocalRandom.current().nextLong();
    private volatile Precision precision;
    private volatile Status status = Status.ACTIVE;
    private long lastMicros;
    private long count;

    KinesisDestination(String streamArn, String tableName, String region, String partitionKey, Precision precision, KinesisSink sink) {
        this.streamArn = streamArn;
        this.tableName = tableName;
        this.region = region;
        this.partitionKey = partitionKey;
        this.precision = precision;
        this.sink = sink;
    }

    String streamArn() {
        return streamArn;
    }

    Precision precision() {
        return precision;
    }

    void precision(Precision precision) {
        this.precision = precision;
    }

    Status status() {
        return status;
    }

    void disable() {
        status = Status.DISABLED;
    }

    @Override
    public boolean active() {
        return status == Status.ACTIVE;
    }

    @Override
    public void changed(StreamRecord.EventName eventName, Map<String, Value> keys, Map<String, Value> oldImage,
                        Map<String, Value> newImage, boolean byTimeToLive, Instant now) {
        ObjectNode json = Json.object();
        json.put("awsRegion", region);
        json.put("eventID", HexFormat.of().toHexDigits(salt) + HexFormat.of().toHexDigits(++count));
        json.put("eventName", eventName.name());
        if (byTimeToLive) {
            json.putObject("userIdentity").put("principalId", "dynamodb.amazonaws.com").put("type", "Service");
        } else {
            json.putNull("userIdentity");
        }
        json.put("recordFormat", "application/json");
        json.put("tableName", tableName);
        ObjectNode dynamodb = json.putObject("dynamodb");
        dynamodb.put("ApproximateCreationDateTime", creationTime(now));
        dynamodb.set("Keys", Json.item(keys));
        if (newImage != null) {
            dynamodb.set("NewImage", Json.item(newImage));
        }
        if (oldImage != null) {
            dynamodb.set("OldImage", Json.item(oldImage));
        }
        long size = Values.itemSize(keys) + (oldImage == null ? 0 : Values.itemSize(oldImage))
                + (newImage == null ? 0 : Values.itemSize(newImage));
        dynamodb.put("SizeBytes", size);
        json.put("eventSource", "aws:dynamodb");
        try {
            sink.put(streamArn, partitionKeyText(keys.get(partitionKey)), Json.MAPPER.writeValueAsBytes(json));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a change record could not be written", e);
        }
    }

    private long creationTime(Instant now) {
        if (precision == Precision.MILLISECOND) {
            return now.toEpochMilli();
        }
        long micros = Math.multiplyExact(now.getEpochSecond(), 1_000_000L) + now.getNano() / 1_000;
        lastMicros = Math.max(micros, lastMicros + 1);
        return lastMicros;
    }

    /** The partition key's value as text: a string as it is, a number canonical, binary in base64. */
    static String partitionKeyText(Value value) {
        return switch (value) {
            case Value.S s -> s.value();
            case Value.N n -> Numbers.format(n.value());
            case Value.B b -> Base64.getEncoder().encodeToString(b.value().toArray());
            default -> throw new IllegalStateException("a partition key is S, N or B, found " + value.type());
        };
    }
}

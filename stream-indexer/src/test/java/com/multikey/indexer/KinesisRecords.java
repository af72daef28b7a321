package com.multikey.indexer;

import com.amazonaws.services.lambda.runtime.events.KinesisEvent;
import com.amazonaws.services.lambda.runtime.events.KinesisEvent.KinesisEventRecord;
import com.multikey.common.DynamoDbJson;
import software.amazon.awssdk.services.dynamodb.model.Record;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Kinesis records of a table's Kinesis streaming destination for tests: each DynamoDB change as the JSON DynamoDB puts
 * in {@code kinesis.data} (AWS's documented record format), with a creation time in microseconds.
 */
final class KinesisRecords {

    static final String STREAM_ARN = "arn:aws:kinesis:us-east-1:123456789012:stream/AppTableChanges";

    private KinesisRecords() {
    }

    /** One Kinesis record of the change, at this position of the shard, created at {@code micros}. */
    static KinesisEventRecord record(Record change, long position, long micros) {
        StringBuilder json = new StringBuilder();
        json.append("{\"awsRegion\":\"us-east-1\",\"eventID\":\"").append(change.eventID())
                .append("\",\"eventName\":\"").append(change.eventNameAsString())
                .append("\",\"userIdentity\":null,\"recordFormat\":\"application/json\",\"tableName\":\"AppTable\",")
                .append("\"dynamodb\":{\"ApproximateCreationDateTime\":").append(micros)
                .append(",\"ApproximateCreationDateTimePrecision\":\"MICROSECOND\"")
                .append(",\"Keys\":").append(DynamoDbJson.image(change.dynamodb().keys()));
        if (change.dynamodb().hasNewImage()) {
            json.append(",\"NewImage\":").append(DynamoDbJson.image(change.dynamodb().newImage()));
        }
        if (change.dynamodb().hasOldImage()) {
            json.append(",\"OldImage\":").append(DynamoDbJson.image(change.dynamodb().oldImage()));
        }
        json.append(",\"SizeBytes\":100},\"eventSource\":\"aws:dynamodb\"}");
        KinesisEvent.Record kinesis = new KinesisEvent.Record();
        kinesis.setData(ByteBuffer.wrap(json.toString().getBytes(StandardCharsets.UTF_8)));
        kinesis.setSequenceNumber(sequence(position));
        kinesis.setPartitionKey("partition-" + change.dynamodb().keys().hashCode());
        kinesis.setApproximateArrivalTimestamp(java.util.Date.from(Instant.ofEpochSecond(1_700_000_000L + position)));
        kinesis.setKinesisSchemaVersion("1.0");
        KinesisEventRecord record = new KinesisEventRecord();
        record.setKinesis(kinesis);
        record.setEventSource("aws:kinesis");
        record.setEventID("shardId-000000000000:" + sequence(position));
        record.setEventName("aws:kinesis:record");
        record.setEventSourceARN(STREAM_ARN);
        record.setAwsRegion("us-east-1");
        record.setEventVersion("1.0");
        return record;
    }

    /** A Kinesis sequence number of the position (decimal digits, growing with the position). */
    static String sequence(long position) {
        return String.format("4961%052d", position);
    }

    /** The history's changes created one microsecond after another from a base time, record i at base + i. */
    static long microsOf(int historyIndex) {
        return 1_700_000_000_000_000L + historyIndex * 7L;
    }

    static List<KinesisEventRecord> inOrder(List<Record> changes) {
        List<KinesisEventRecord> records = new ArrayList<>();
        for (int i = 0; i < changes.size(); i++) {
            records.add(record(changes.get(i), i, microsOf(i)));
        }
        return records;
    }
}

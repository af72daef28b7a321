package com.multikey.indexer;

import com.amazonaws.services.lambda.runtime.events.DynamodbEvent;
import com.amazonaws.services.lambda.runtime.events.DynamodbEvent.DynamodbStreamRecord;
import com.multikey.emulator.services.streams.LambdaEvents;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.OperationType;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.StreamRecord;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/** Stream records for tests, read through the Lambda runtime's own event reader. */
final class StreamRecords {

    static final String STREAM_ARN = "arn:aws:dynamodb:us-east-1:123456789012:table/AppTable/stream/2026-01-01T00:00:00.000";

    private StreamRecords() {
    }

    /** A record of the change from {@code before} to {@code after} (either may be null). */
    static Record change(long sequence, String id, Map<String, AttributeValue> before, Map<String, AttributeValue> after) {
        return change(sequence, Map.of("id", AttributeValue.fromS(id)), before, after);
    }

    /** A change of the item with these key attributes, of any key schema. */
    static Record change(long sequence, Map<String, AttributeValue> keys, Map<String, AttributeValue> before,
                         Map<String, AttributeValue> after) {
        OperationType kind = before == null ? OperationType.INSERT : after == null ? OperationType.REMOVE : OperationType.MODIFY;
        StreamRecord.Builder stream = StreamRecord.builder()
                .keys(keys)
                .sequenceNumber(String.format("%021d", sequence))
                .approximateCreationDateTime(Instant.ofEpochSecond(1_700_000_000L + sequence))
                .streamViewType(StreamViewType.NEW_AND_OLD_IMAGES);
        if (before != null) {
            stream.oldImage(before);
        }
        if (after != null) {
            stream.newImage(after);
        }
        return Record.builder().eventID("event-" + sequence).eventName(kind).eventVersion("1.1")
                .awsRegion("us-east-1").dynamodb(stream.build()).build();
    }

    static List<DynamodbStreamRecord> lambdaRecords(List<Record> records) {
        return event(records).getRecords();
    }

    static DynamodbEvent event(List<Record> records) {
        return LambdaEvents.dynamodbEvent(records, STREAM_ARN);
    }
}

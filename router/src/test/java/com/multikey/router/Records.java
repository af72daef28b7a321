package com.multikey.router;

import com.amazonaws.services.lambda.runtime.events.DynamodbEvent;
import com.multikey.emulator.services.streams.LambdaEvents;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.Identity;
import software.amazon.awssdk.services.dynamodb.model.OperationType;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.StreamRecord;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/** Stream records for router tests, read through the Lambda runtime's own event reader. */
final class Records {

    static final String STREAM_ARN = "arn:aws:dynamodb:us-east-1:123456789012:table/AppTable/stream/2026-01-01T00:00:00.000";
    static final Identity TTL = Identity.builder().type("Service").principalId("dynamodb.amazonaws.com").build();

    private Records() {
    }

    static Record change(long sequence, String id, Map<String, AttributeValue> before, Map<String, AttributeValue> after) {
        return change(sequence, id, before, after, null);
    }

    static Record change(long sequence, String id, Map<String, AttributeValue> before, Map<String, AttributeValue> after,
                         Identity identity) {
        return change(sequence, Map.of("id", AttributeValue.fromS(id)), before, after, identity);
    }

    /** A change of the item with these key attributes, of any key schema. */
    static Record change(long sequence, Map<String, AttributeValue> keys, Map<String, AttributeValue> before,
                         Map<String, AttributeValue> after, Identity identity) {
        OperationType kind = before == null ? OperationType.INSERT : after == null ? OperationType.REMOVE : OperationType.MODIFY;
        StreamRecord.Builder stream = StreamRecord.builder()
                .keys(keys)
                .sequenceNumber(String.format("%021d", sequence))
                .approximateCreationDateTime(Instant.ofEpochSecond(1_793_577_600L + sequence))
                .streamViewType("NEW_AND_OLD_IMAGES");
        if (before != null) {
            stream.oldImage(before);
        }
        if (after != null) {
            stream.newImage(after);
        }
        return Record.builder().eventID("event-" + sequence).eventName(kind).eventVersion("1.1").awsRegion("us-east-1")
                .userIdentity(identity).dynamodb(stream.build()).build();
    }

    static DynamodbEvent event(List<Record> records) {
        return LambdaEvents.dynamodbEvent(records, STREAM_ARN);
    }

    static Map<String, AttributeValue> item(String id, String name) {
        return Map.of("id", AttributeValue.fromS(id), "name", AttributeValue.fromS(name));
    }

    static Map<String, AttributeValue> layer(String id, String arn) {
        return Map.of("id", AttributeValue.fromS(id), "arn", AttributeValue.fromS(arn), "status", AttributeValue.fromS("active"),
                "expiresAt", AttributeValue.fromN("1793577000"));
    }
}

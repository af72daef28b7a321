package com.multikey.redrive;

import com.multikey.common.ChangeRecord;
import com.multikey.common.DynamoDbJson;
import software.amazon.awssdk.protocols.jsoncore.JsonWriter;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.StreamRecord;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * Stream records read with GetRecords written as the DynamoDB event Lambda's event source mapping delivers
 * ({@code Records[]} of {@code eventID}, {@code eventName}, {@code dynamodb} with DynamoDB JSON images,
 * {@code eventSourceARN}, {@code userIdentity} for TTL deletes), so a stream function handles them as it
 * handled the originals. The images are {@link DynamoDbJson}'s; the whole event is written with the SDK's json-utils (the
 * jar carries no Jackson).
 */
final class StreamEventJson {

    private StreamEventJson() {
    }

    static String event(List<Record> records, String streamArn) {
        try (JsonWriter json = JsonWriter.create()) {
            json.writeStartObject().writeFieldName("Records").writeStartArray();
            records.forEach(record -> record(json, record, streamArn));
            json.writeEndArray().writeEndObject();
            return new String(json.getBytes(), StandardCharsets.UTF_8);
        }
    }

    private static void record(JsonWriter json, Record record, String streamArn) {
        json.writeStartObject();
        field(json, "eventID", record.eventID());
        field(json, "eventName", record.eventNameAsString());
        field(json, "eventVersion", record.eventVersion() == null ? "1.1" : record.eventVersion());
        field(json, "eventSource", "aws:dynamodb");
        field(json, "awsRegion", record.awsRegion());
        StreamRecord stream = record.dynamodb();
        json.writeFieldName("dynamodb").writeStartObject();
        if (stream.approximateCreationDateTime() != null) {
            // seconds, as Lambda sends it (some producers' records carry milliseconds)
            json.writeFieldName("ApproximateCreationDateTime")
                    .writeValue(ChangeRecord.plausible(stream.approximateCreationDateTime()).getEpochSecond());
        }
        image(json, "Keys", stream.keys());
        if (stream.hasNewImage()) {
            image(json, "NewImage", stream.newImage());
        }
        if (stream.hasOldImage()) {
            image(json, "OldImage", stream.oldImage());
        }
        field(json, "SequenceNumber", stream.sequenceNumber());
        if (stream.sizeBytes() != null) {
            json.writeFieldName("SizeBytes").writeValue((long) stream.sizeBytes());
        }
        field(json, "StreamViewType", stream.streamViewTypeAsString());
        json.writeEndObject();
        field(json, "eventSourceARN", streamArn);
        if (record.userIdentity() != null) {
            json.writeFieldName("userIdentity").writeStartObject();
            field(json, "type", record.userIdentity().type());
            field(json, "principalId", record.userIdentity().principalId());
            json.writeEndObject();
        }
        json.writeEndObject();
    }

    private static void field(JsonWriter json, String name, String value) {
        if (value != null) {
            json.writeFieldName(name).writeValue(value);
        }
    }

    private static void image(JsonWriter json, String name, Map<String, AttributeValue> image) {
        json.writeFieldName(name);
        DynamoDbJson.writeImage(json, image);
    }
}

package com.multikey.emulator.services.streams;

import com.amazonaws.services.lambda.runtime.events.DynamodbEvent;
import com.amazonaws.services.lambda.runtime.serialization.PojoSerializer;
import com.amazonaws.services.lambda.runtime.serialization.events.LambdaEventSerializers;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.multikey.common.ChangeRecord;
import com.multikey.common.DynamoDbJson;
import com.multikey.emulator.services.dynamodb.LocalDynamoDb;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.StreamRecord;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Lambda events as the Lambda Java runtime builds them: JSON read with aws-lambda-java-serialization, the
 * runtime's own reader. Stream records read from the local DynamoDB engine are first written as the JSON Lambda's
 * event source mapping sends.
 */
public final class LambdaEvents {

    private static final ObjectMapper JSON = new ObjectMapper();

    private LambdaEvents() {
    }

    public static <T> T read(String json, Class<T> type) {
        PojoSerializer<T> serializer = LambdaEventSerializers.serializerFor(type, LambdaEvents.class.getClassLoader());
        try {
            return serializer.fromJson(stripByteOrderMark(json));
        } catch (RuntimeException e) {
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            String detail = String.valueOf(cause.getMessage()).lines().findFirst().orElse("");
            throw new IllegalArgumentException("not a valid " + type.getSimpleName() + " event: " + detail, e);
        }
    }

    public static <T> T read(Path file, Class<T> type) {
        try {
            return read(Files.readString(file, StandardCharsets.UTF_8), type);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(file.getFileName() + ": " + e.getMessage(), e);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    /** A file's JSON as Lambda would deliver it: without a UTF-8 byte order mark. */
    public static String stripped(Path file) {
        try {
            return stripByteOrderMark(Files.readString(file, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    /** The JSON of a DynamoDB stream event with these records, as Lambda delivers it. */
    public static String dynamodbEventJson(List<Record> records, String streamArn) {
        ObjectNode event = JSON.createObjectNode();
        ArrayNode array = event.putArray("Records");
        for (Record record : records) {
            array.add(recordJson(record, streamArn));
        }
        return event.toString();
    }

    public static DynamodbEvent dynamodbEvent(List<Record> records, String streamArn) {
        return read(dynamodbEventJson(records, streamArn), DynamodbEvent.class);
    }

    /** One record as Lambda puts it in the event (and as event source filters see it). */
    static ObjectNode recordJson(Record record, String streamArn) {
        ObjectNode node = JSON.createObjectNode();
        node.put("eventID", record.eventID());
        node.put("eventName", record.eventNameAsString());
        node.put("eventVersion", record.eventVersion() == null ? "1.1" : record.eventVersion());
        node.put("eventSource", "aws:dynamodb");
        node.put("awsRegion", record.awsRegion() == null ? LocalDynamoDb.REGION.id() : record.awsRegion());
        StreamRecord stream = record.dynamodb();
        ObjectNode dynamodb = node.putObject("dynamodb");
        if (stream.approximateCreationDateTime() != null) {
            dynamodb.put("ApproximateCreationDateTime", epochSeconds(stream.approximateCreationDateTime()));
        }
        dynamodb.set("Keys", image(stream.keys()));
        if (stream.hasNewImage()) {
            dynamodb.set("NewImage", image(stream.newImage()));
        }
        if (stream.hasOldImage()) {
            dynamodb.set("OldImage", image(stream.oldImage()));
        }
        if (stream.sequenceNumber() != null) {
            dynamodb.put("SequenceNumber", stream.sequenceNumber());
        }
        if (stream.sizeBytes() != null) {
            dynamodb.put("SizeBytes", stream.sizeBytes());
        }
        if (stream.streamViewTypeAsString() != null) {
            dynamodb.put("StreamViewType", stream.streamViewTypeAsString());
        }
        node.put("eventSourceARN", streamArn);
        if (record.userIdentity() != null) {
            ObjectNode identity = node.putObject("userIdentity");
            identity.put("type", record.userIdentity().type());
            identity.put("principalId", record.userIdentity().principalId());
        }
        return node;
    }

    /** An image (or keys) in DynamoDB JSON, as {@link DynamoDbJson} writes it for every stream event. */
    private static JsonNode image(Map<String, AttributeValue> image) {
        try {
            return JSON.readTree(DynamoDbJson.image(image));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("DynamoDB JSON Jackson cannot read", e);
        }
    }

    /** In seconds, as AWS sends it (read as milliseconds when a producer sent those). */
    private static long epochSeconds(Instant time) {
        return ChangeRecord.plausible(time).getEpochSecond();
    }

    private static String stripByteOrderMark(String json) {
        return json.startsWith("\uFEFF") ? json.substring(1) : json;
    }
}

package com.multikey.common;

import com.amazonaws.services.lambda.runtime.events.KinesisEvent.KinesisEventRecord;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Reads the records of a Lambda Kinesis event whose stream is a DynamoDB table's Kinesis streaming destination
 * (Kinesis Data Streams for DynamoDB): each record's {@code kinesis.data} is a JSON change record like a DynamoDB
 * stream record ({@code eventID}, {@code eventName}, {@code userIdentity}, {@code tableName}, {@code recordFormat},
 * {@code dynamodb.Keys}, {@code NewImage}, {@code OldImage}, {@code SizeBytes}, {@code ApproximateCreationDateTime}),
 * read as the same {@link ChangeRecord} a DynamoDB stream record becomes.
 *
 * <p>Its sequence number is the Kinesis record's (what a batch item failure names on a Kinesis event source mapping);
 * its creation time is {@code ApproximateCreationDateTime} in microseconds when
 * {@code ApproximateCreationDateTimePrecision} is {@code MICROSECOND}, in milliseconds when it is {@code MILLISECOND},
 * and without the field (the record format AWS documents has none) in the unit its value shows: 10^14 or more is
 * microseconds, less milliseconds.
 */
public final class KinesisChangeRecords {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long MICROS_FROM = 100_000_000_000_000L;

    private final String keyAttribute;

    /** @param keyAttribute the table's partition key attribute, to name an unreadable record's item in the log */
    public KinesisChangeRecords(String keyAttribute) {
        this.keyAttribute = keyAttribute;
    }

    /** Each record read, or why it can never be processed. */
    public List<PartialBatch.Decoded<ChangeRecord>> read(List<KinesisEventRecord> records) {
        List<PartialBatch.Decoded<ChangeRecord>> decoded = new ArrayList<>();
        for (KinesisEventRecord record : records == null ? List.<KinesisEventRecord>of() : records) {
            decoded.add(read(record));
        }
        return decoded;
    }

    /** One record read, or why it can never be processed. */
    public PartialBatch.Decoded<ChangeRecord> read(KinesisEventRecord record) {
        String sequence = record == null || record.getKinesis() == null || record.getKinesis().getSequenceNumber() == null
                ? "" : record.getKinesis().getSequenceNumber();
        JsonNode change = null;
        try {
            change = parse(record);
            return new PartialBatch.Decoded.Read<>(toChangeRecord(change, sequence, record.getEventSourceARN()));
        } catch (MalformedRecordException e) {
            String eventId = change != null && change.path("eventID").isTextual() ? change.path("eventID").asText() : "(unknown)";
            return new PartialBatch.Decoded.Unreadable<>(new PartialBatch.Skipped(keyOf(change), eventId, sequence, e.getMessage()));
        }
    }

    /** Reads one change record of DynamoDB's (the decoded {@code kinesis.data}). */
    public static ChangeRecord toChangeRecord(JsonNode change, String sequenceNumber, String eventSourceArn) {
        ChangeKind kind = ChangeKind.fromEventName(change.path("eventName").isTextual() ? change.path("eventName").asText() : null);
        JsonNode dynamodb = change.path("dynamodb");
        if (!dynamodb.isObject()) {
            throw new MalformedRecordException("record has no dynamodb section");
        }
        Map<String, AttributeValue> keys = image(dynamodb.get("Keys"), "Keys");
        if (keys == null || keys.isEmpty()) {
            throw new MalformedRecordException("record has no Keys");
        }
        JsonNode identity = change.path("userIdentity");
        return new ChangeRecord(
                change.path("eventID").isTextual() ? change.path("eventID").asText() : null,
                kind,
                sequenceNumber == null || sequenceNumber.isBlank() ? null : sequenceNumber,
                keys,
                image(dynamodb.get("OldImage"), "OldImage"),
                image(dynamodb.get("NewImage"), "NewImage"),
                identity.isObject() ? new ChangeRecord.UserIdentity(text(identity, "type"), text(identity, "principalId")) : null,
                creationTime(dynamodb),
                eventSourceArn == null || eventSourceArn.isBlank() ? null : eventSourceArn);
    }

    /**
     * {@code ApproximateCreationDateTime} as an instant: microseconds since the epoch when the record's precision is
     * {@code MICROSECOND}, milliseconds otherwise.
     */
    static Instant creationTime(JsonNode dynamodb) {
        JsonNode time = dynamodb.get("ApproximateCreationDateTime");
        if (time == null || time.isNull()) {
            return null;
        }
        if (!time.isIntegralNumber()) {
            throw new MalformedRecordException("ApproximateCreationDateTime is not an integer");
        }
        long value = time.asLong();
        // AWS's record format names no precision: without the field, a value past the year 5138 in milliseconds is
        // microseconds (microseconds of any time since 1973 are above 10^14, milliseconds are below it until 5138)
        String precision = dynamodb.path("ApproximateCreationDateTimePrecision")
                .asText(Math.abs(value) >= MICROS_FROM ? "MICROSECOND" : "MILLISECOND");
        return "MICROSECOND".equals(precision)
                ? Instant.ofEpochSecond(Math.floorDiv(value, 1_000_000L), Math.floorMod(value, 1_000_000L) * 1_000L)
                : Instant.ofEpochMilli(value);
    }

    private static JsonNode parse(KinesisEventRecord record) {
        if (record == null || record.getKinesis() == null || record.getKinesis().getData() == null) {
            throw new MalformedRecordException("record has no kinesis data");
        }
        ByteBuffer data = record.getKinesis().getData().duplicate();
        byte[] bytes = new byte[data.remaining()];
        data.get(bytes);
        try {
            JsonNode change = JSON.readTree(new String(bytes, StandardCharsets.UTF_8));
            if (change == null || !change.isObject()) {
                throw new MalformedRecordException("kinesis data is not a JSON object");
            }
            return change;
        } catch (JsonProcessingException e) {
            throw new MalformedRecordException("kinesis data is not JSON: " + e.getClass().getSimpleName(), e);
        }
    }

    private static String text(JsonNode node, String field) {
        return node.path(field).isTextual() ? node.path(field).asText() : null;
    }

    private static Map<String, AttributeValue> image(JsonNode image, String part) {
        if (image == null || image.isNull()) {
            return null;
        }
        if (!image.isObject()) {
            throw new MalformedRecordException(part + " is not a map");
        }
        try {
            Map<String, AttributeValue> values = new LinkedHashMap<>();
            Iterator<Map.Entry<String, JsonNode>> fields = image.fields();
            while (fields.hasNext()) {
                Map.Entry<String, JsonNode> field = fields.next();
                values.put(field.getKey(), value(field.getValue()));
            }
            return values;
        } catch (RuntimeException e) {
            throw new MalformedRecordException(part + " cannot be converted: " + e.getClass().getSimpleName(), e);
        }
    }

    /** One DynamoDB JSON value ({@code {"S": ...}}, {@code {"N": "1.5"}}, ..., {@code {"M": {...}}}). */
    private static AttributeValue value(JsonNode node) {
        if (node == null || !node.isObject() || node.size() != 1) {
            throw new IllegalArgumentException("not a typed value");
        }
        Map.Entry<String, JsonNode> typed = node.fields().next();
        JsonNode v = typed.getValue();
        return switch (typed.getKey()) {
            case "S" -> AttributeValue.fromS(string(v));
            case "N" -> AttributeValue.fromN(string(v));
            case "B" -> AttributeValue.fromB(SdkBytes.fromByteArray(Base64.getDecoder().decode(string(v))));
            case "BOOL" -> AttributeValue.fromBool(requireBoolean(v));
            case "NULL" -> AttributeValue.fromNul(requireBoolean(v));
            case "SS" -> AttributeValue.fromSs(strings(v));
            case "NS" -> AttributeValue.fromNs(strings(v));
            case "BS" -> AttributeValue.fromBs(strings(v).stream()
                    .map(s -> SdkBytes.fromByteArray(Base64.getDecoder().decode(s))).toList());
            case "L" -> {
                if (!v.isArray()) {
                    throw new IllegalArgumentException("L is not a list");
                }
                List<AttributeValue> list = new ArrayList<>();
                v.forEach(element -> list.add(value(element)));
                yield AttributeValue.fromL(list);
            }
            case "M" -> {
                if (!v.isObject()) {
                    throw new IllegalArgumentException("M is not a map");
                }
                Map<String, AttributeValue> map = new LinkedHashMap<>();
                v.fields().forEachRemaining(e -> map.put(e.getKey(), value(e.getValue())));
                yield AttributeValue.fromM(map);
            }
            default -> throw new IllegalArgumentException("unknown type");
        };
    }

    private static String string(JsonNode v) {
        if (!v.isTextual()) {
            throw new IllegalArgumentException("not a string");
        }
        return v.asText();
    }

    private static boolean requireBoolean(JsonNode v) {
        if (!v.isBoolean()) {
            throw new IllegalArgumentException("not a boolean");
        }
        return v.asBoolean();
    }

    private static List<String> strings(JsonNode v) {
        if (!v.isArray()) {
            throw new IllegalArgumentException("not a set");
        }
        List<String> values = new ArrayList<>();
        v.forEach(element -> values.add(string(element)));
        return values;
    }

    /** The item key of a record that could not be read, for the log line (as {@link PartialBatch} names one). */
    private String keyOf(JsonNode change) {
        JsonNode keys = change == null ? null : change.path("dynamodb").get("Keys");
        if (keys == null || !keys.isObject() || keys.isEmpty()) {
            return "(unknown)";
        }
        JsonNode id = keys.path(keyAttribute).path("S");
        if (keys.size() == 1 && id.isTextual()) {
            return id.asText();
        }
        StringBuilder text = new StringBuilder();
        new TreeMap<String, JsonNode>(toMap(keys)).forEach((name, value) -> {
            JsonNode shown = value.has("S") ? value.get("S") : value.has("N") ? value.get("N") : value.get("B");
            text.append(text.isEmpty() ? "" : " ").append(name).append('=').append(shown == null || !shown.isTextual() ? "?" : shown.asText());
        });
        return text.toString();
    }

    private static Map<String, JsonNode> toMap(JsonNode object) {
        Map<String, JsonNode> map = new LinkedHashMap<>();
        object.fields().forEachRemaining(e -> map.put(e.getKey(), e.getValue()));
        return map;
    }
}

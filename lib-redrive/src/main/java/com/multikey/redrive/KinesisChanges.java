package com.multikey.redrive;

import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.protocols.jsoncore.JsonNode;
import software.amazon.awssdk.protocols.jsoncore.JsonWriter;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.StreamRecord;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The records of a table's Kinesis streaming destination read back with GetRecords: each one's data is a DynamoDB change
 * record ({@code eventID}, {@code eventName}, {@code dynamodb} with {@code Keys}, {@code NewImage}, {@code OldImage} in
 * DynamoDB JSON), read as the stream record model the indexer's redrive repairs from (its sequence number the Kinesis
 * record's); and written back as the Kinesis event Lambda delivers ({@code Records[].kinesis.data} in base64,
 * {@code eventID} {@code <shardId>:<sequenceNumber>}), so a Kinesis function handles them as it handled the originals.
 * JSON through the SDK's json-utils (the jar carries no Jackson).
 */
final class KinesisChanges {

    private KinesisChanges() {
    }

    /** The change a record carries, or empty when its data is not a DynamoDB change record (the indexer skipped it too). */
    static Optional<Record> change(KinesisShards.Record record) {
        try {
            JsonNode change = Json.parse(new String(record.data(), StandardCharsets.UTF_8));
            JsonNode dynamodb = Json.field(change, "dynamodb").filter(JsonNode::isObject).orElse(null);
            if (dynamodb == null) {
                return Optional.empty();
            }
            Map<String, AttributeValue> keys = image(dynamodb, "Keys");
            if (keys == null || keys.isEmpty()) {
                return Optional.empty();
            }
            StreamRecord.Builder stream = StreamRecord.builder().keys(keys).sequenceNumber(record.sequenceNumber());
            Optional.ofNullable(image(dynamodb, "NewImage")).ifPresent(stream::newImage);
            Optional.ofNullable(image(dynamodb, "OldImage")).ifPresent(stream::oldImage);
            return Optional.of(Record.builder().eventID(Json.text(change, "eventID")).eventName(Json.text(change, "eventName"))
                    .dynamodb(stream.build()).build());
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /** The Kinesis event Lambda delivers for these records of one shard. */
    static String event(List<KinesisShards.Record> records, String streamArn, String shardId) {
        try (JsonWriter json = JsonWriter.create()) {
            json.writeStartObject().writeFieldName("Records").writeStartArray();
            for (KinesisShards.Record record : records) {
                json.writeStartObject();
                json.writeFieldName("kinesis").writeStartObject();
                json.writeFieldName("kinesisSchemaVersion").writeValue("1.0");
                if (record.partitionKey() != null) {
                    json.writeFieldName("partitionKey").writeValue(record.partitionKey());
                }
                json.writeFieldName("sequenceNumber").writeValue(record.sequenceNumber());
                json.writeFieldName("data").writeValue(Base64.getEncoder().encodeToString(record.data()));
                if (record.arrival() != null) {
                    // seconds with a fraction, as Lambda sends it
                    json.writeFieldName("approximateArrivalTimestamp").writeNumber(
                            BigDecimal.valueOf(record.arrival().toEpochMilli()).movePointLeft(3).toPlainString());
                }
                json.writeEndObject();
                json.writeFieldName("eventSource").writeValue("aws:kinesis");
                json.writeFieldName("eventVersion").writeValue("1.0");
                json.writeFieldName("eventID").writeValue(shardId + ":" + record.sequenceNumber());
                json.writeFieldName("eventName").writeValue("aws:kinesis:record");
                json.writeFieldName("eventSourceARN").writeValue(streamArn);
                json.writeEndObject();
            }
            json.writeEndArray().writeEndObject();
            return new String(json.getBytes(), StandardCharsets.UTF_8);
        }
    }

    private static Map<String, AttributeValue> image(JsonNode dynamodb, String part) {
        Optional<JsonNode> image = Json.field(dynamodb, part);
        if (image.isEmpty()) {
            return null;
        }
        if (!image.get().isObject()) {
            throw new IllegalArgumentException(part + " is not a map");
        }
        Map<String, AttributeValue> values = new LinkedHashMap<>();
        image.get().asObject().forEach((name, value) -> values.put(name, value(value)));
        return values;
    }

    /** One DynamoDB JSON value ({@code {"S": ...}}, {@code {"N": "1.5"}}, ..., {@code {"M": {...}}}). */
    private static AttributeValue value(JsonNode node) {
        if (!node.isObject() || node.asObject().size() != 1) {
            throw new IllegalArgumentException("not a typed value");
        }
        Map.Entry<String, JsonNode> typed = node.asObject().entrySet().iterator().next();
        JsonNode v = typed.getValue();
        return switch (typed.getKey()) {
            case "S" -> AttributeValue.fromS(string(v));
            case "N" -> AttributeValue.fromN(string(v));
            case "B" -> AttributeValue.fromB(SdkBytes.fromByteArray(Base64.getDecoder().decode(string(v))));
            case "BOOL" -> AttributeValue.fromBool(v.isBoolean() ? v.asBoolean() : Boolean.parseBoolean(string(v)));
            case "NULL" -> AttributeValue.fromNul(true);
            case "SS" -> AttributeValue.fromSs(strings(v));
            case "NS" -> AttributeValue.fromNs(strings(v));
            case "BS" -> AttributeValue.fromBs(strings(v).stream().map(s -> SdkBytes.fromByteArray(Base64.getDecoder().decode(s))).toList());
            case "L" -> {
                if (!v.isArray()) {
                    throw new IllegalArgumentException("L is not a list");
                }
                yield AttributeValue.fromL(v.asArray().stream().map(KinesisChanges::value).toList());
            }
            case "M" -> {
                if (!v.isObject()) {
                    throw new IllegalArgumentException("M is not a map");
                }
                Map<String, AttributeValue> map = new LinkedHashMap<>();
                v.asObject().forEach((name, element) -> map.put(name, value(element)));
                yield AttributeValue.fromM(map);
            }
            default -> throw new IllegalArgumentException("unknown type");
        };
    }

    private static String string(JsonNode v) {
        if (!v.isString()) {
            throw new IllegalArgumentException("not a string");
        }
        return v.asString();
    }

    private static List<String> strings(JsonNode v) {
        if (!v.isArray()) {
            throw new IllegalArgumentException("not a set");
        }
        List<String> values = new ArrayList<>();
        v.asArray().forEach(element -> values.add(string(element)));
        return values;
    }
}

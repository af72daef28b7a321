package com.multikey.common;

import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.protocols.jsoncore.JsonWriter;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/**
 * DynamoDB attribute values as DynamoDB JSON, the typed form Lambda's DynamoDB events carry: {@code {"S": "x"}},
 * {@code {"N": "1.50"}} (a number's digits as written, in a string), {@code {"B": base64}}, {@code {"BOOL": true}},
 * {@code {"NULL": true}}, {@code {"SS": [...]}}, {@code {"NS": [...]}}, {@code {"BS": [...]}}, {@code {"L": [...]}},
 * {@code {"M": {...}}}; names in the image's own order. The one writer of images in it: the local runtime's stream
 * events and redrive's re-sent batches. (The DynamoDB engine speaks the wire protocol on its own; a read cursor and a
 * reindex checkpoint keep a key's S, N or B in formats of their own, which they read back.)
 *
 * <p>Written with the SDK's json-utils, not Jackson: redrive's jar leaves Jackson out to stay within its size budget
 * ({@link PlainJson} says which JSON library each jar carries), and redrive writes stream records as Lambda's events.
 */
public final class DynamoDbJson {

    private DynamoDbJson() {
    }

    /** The image (or keys) as the text of a DynamoDB JSON object. */
    public static String image(Map<String, AttributeValue> image) {
        try (JsonWriter json = JsonWriter.create()) {
            writeImage(json, image);
            return new String(json.getBytes(), StandardCharsets.UTF_8);
        }
    }

    /** Writes the image (or keys) as a DynamoDB JSON object. */
    public static void writeImage(JsonWriter json, Map<String, AttributeValue> image) {
        json.writeStartObject();
        image.forEach((name, value) -> {
            json.writeFieldName(name);
            writeValue(json, value);
        });
        json.writeEndObject();
    }

    /**
     * Writes one value as its typed object.
     *
     * @throws IllegalArgumentException when the value is of a type this SDK does not know
     */
    public static void writeValue(JsonWriter json, AttributeValue value) {
        json.writeStartObject();
        switch (value.type()) {
            case S -> json.writeFieldName("S").writeValue(value.s());
            case N -> json.writeFieldName("N").writeValue(value.n());
            case B -> json.writeFieldName("B").writeValue(base64(value.b()));
            case BOOL -> json.writeFieldName("BOOL").writeValue(value.bool());
            case NUL -> json.writeFieldName("NULL").writeValue(true);
            case SS -> strings(json, "SS", value.ss());
            case NS -> strings(json, "NS", value.ns());
            case BS -> strings(json, "BS", value.bs().stream().map(DynamoDbJson::base64).toList());
            case L -> {
                json.writeFieldName("L").writeStartArray();
                value.l().forEach(element -> writeValue(json, element));
                json.writeEndArray();
            }
            case M -> {
                json.writeFieldName("M");
                writeImage(json, value.m());
            }
            case UNKNOWN_TO_SDK_VERSION -> throw new IllegalArgumentException("attribute value of unknown type");
        }
        json.writeEndObject();
    }

    private static void strings(JsonWriter json, String type, List<String> values) {
        json.writeFieldName(type).writeStartArray();
        values.forEach(json::writeValue);
        json.writeEndArray();
    }

    private static String base64(SdkBytes bytes) {
        return Base64.getEncoder().encodeToString(bytes.asByteArrayUnsafe());
    }
}

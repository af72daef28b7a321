package com.multikey.emulator.services;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.Base64;
import java.util.Map;

/** Writes SDK v2 attribute values in DynamoDB JSON, the shape stream records carry in Lambda events. */
public final class DynamoDbJson {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private DynamoDbJson() {
    }

    public static ObjectNode image(Map<String, AttributeValue> image) {
        ObjectNode node = NODES.objectNode();
        image.forEach((name, value) -> node.set(name, value(value)));
        return node;
    }

    public static JsonNode value(AttributeValue value) {
        ObjectNode node = NODES.objectNode();
        switch (value.type()) {
            case S -> node.put("S", value.s());
            case N -> node.put("N", value.n());
            case B -> node.put("B", base64(value.b()));
            case BOOL -> node.put("BOOL", value.bool());
            case NUL -> node.put("NULL", true);
            case SS -> value.ss().forEach(node.putArray("SS")::add);
            case NS -> value.ns().forEach(node.putArray("NS")::add);
            case BS -> {
                ArrayNode array = node.putArray("BS");
                value.bs().forEach(b -> array.add(base64(b)));
            }
            case L -> {
                ArrayNode array = node.putArray("L");
                value.l().forEach(element -> array.add(value(element)));
            }
            case M -> node.set("M", image(value.m()));
            default -> throw new IllegalArgumentException("attribute value of unknown type");
        }
        return node;
    }

    private static String base64(SdkBytes bytes) {
        return Base64.getEncoder().encodeToString(bytes.asByteArray());
    }
}

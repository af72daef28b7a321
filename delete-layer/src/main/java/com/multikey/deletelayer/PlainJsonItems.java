package com.multikey.deletelayer;

import com.fasterxml.jackson.databind.JsonNode;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An item from the plain JSON of an event's image back to attribute values: strings, exact numbers,
 * booleans, null, lists and maps. Sets arrive as JSON arrays and come back as lists; binary arrives as
 * base64 text and comes back as a string.
 */
final class PlainJsonItems {

    private PlainJsonItems() {
    }

    static Map<String, AttributeValue> item(JsonNode object) {
        Map<String, AttributeValue> item = new LinkedHashMap<>();
        object.fields().forEachRemaining(field -> item.put(field.getKey(), value(field.getValue())));
        return item;
    }

    static AttributeValue value(JsonNode node) {
        if (node.isObject()) {
            return AttributeValue.fromM(item(node));
        }
        if (node.isArray()) {
            List<AttributeValue> list = new ArrayList<>();
            node.forEach(element -> list.add(value(element)));
            return AttributeValue.fromL(list);
        }
        if (node.isNumber()) {
            return AttributeValue.fromN(node.decimalValue().toString());
        }
        if (node.isBoolean()) {
            return AttributeValue.fromBool(node.booleanValue());
        }
        if (node.isNull()) {
            return AttributeValue.fromNul(true);
        }
        return AttributeValue.fromS(node.asText());
    }
}

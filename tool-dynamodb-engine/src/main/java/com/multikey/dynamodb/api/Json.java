package com.multikey.dynamodb.api;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.multikey.dynamodb.value.Value;
import com.multikey.dynamodb.value.ValueJson;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The engine's one JSON mapper and the few writers every operation shares. */
public final class Json {

    public static final ObjectMapper MAPPER = new ObjectMapper();

    private Json() {
    }

    public static ObjectNode object() {
        return MAPPER.createObjectNode();
    }

    public static ArrayNode array() {
        return MAPPER.createArrayNode();
    }

    /** An item's attributes in name order: the engine holds items unordered, and its answers stay the same run to run. */
    public static ObjectNode item(Map<String, Value> item) {
        return ValueJson.writeItem(new TreeMap<>(item));
    }

    public static ArrayNode items(List<Map<String, Value>> items) {
        ArrayNode array = array();
        items.forEach(i -> array.add(item(i)));
        return array;
    }

    /** A timestamp as the JSON protocols write one: epoch seconds, with milliseconds as a fraction. */
    public static BigDecimal epochSeconds(Instant instant) {
        return BigDecimal.valueOf(instant.toEpochMilli()).movePointLeft(3);
    }
}

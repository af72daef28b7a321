package com.multikey.dynamodb.api;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.multikey.dynamodb.EngineException;
import com.multikey.dynamodb.value.Value;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/** The ReturnValues of a write, and what the response's Attributes hold for each. */
enum ReturnValues {
    NONE, ALL_OLD, UPDATED_OLD, ALL_NEW, UPDATED_NEW;

    /** Reads the member; {@code allowed} are the values the operation accepts (PutItem and DeleteItem: NONE, ALL_OLD). */
    static ReturnValues read(Request request, String member, Set<ReturnValues> allowed) {
        ReturnValues value = request.enumeration(member, ReturnValues.class).orElse(NONE);
        if (!allowed.contains(value)) {
            throw EngineException.validation("Return values set to invalid value");
        }
        return value;
    }

    /** Adds Attributes to the response when there is something to return. */
    void write(ObjectNode response, Map<String, Value> old, Map<String, Value> current, Set<String> updated) {
        Map<String, Value> attributes = switch (this) {
            case NONE -> null;
            case ALL_OLD -> old;
            case ALL_NEW -> current;
            case UPDATED_OLD -> only(old, updated);
            case UPDATED_NEW -> only(current, updated);
        };
        if (attributes != null && !attributes.isEmpty()) {
            response.set("Attributes", Json.item(attributes));
        }
    }

    private static Map<String, Value> only(Map<String, Value> item, Set<String> names) {
        if (item == null) {
            return null;
        }
        Map<String, Value> selected = new LinkedHashMap<>();
        item.forEach((name, value) -> {
            if (names.contains(name)) {
                selected.put(name, value);
            }
        });
        return selected;
    }
}

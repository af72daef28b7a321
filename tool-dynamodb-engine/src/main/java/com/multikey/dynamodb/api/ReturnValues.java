package com.multikey.dynamodb.api;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.multikey.dynamodb.EngineException;
import com.multikey.dynamodb.value.Value;

import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;

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

    /**
     * Adds Attributes to the response when there is something to return; {@code updated} gives the part of an
     * item at the paths an update wrote (UPDATED_OLD and UPDATED_NEW).
     */
    void write(ObjectNode response, Map<String, Value> old, Map<String, Value> current,
               UnaryOperator<Map<String, Value>> updated) {
        Map<String, Value> attributes = switch (this) {
            case NONE -> null;
            case ALL_OLD -> old;
            case ALL_NEW -> current;
            case UPDATED_OLD -> old == null ? null : updated.apply(old);
            case UPDATED_NEW -> current == null ? null : updated.apply(current);
        };
        if (attributes != null && !attributes.isEmpty()) {
            response.set("Attributes", Json.item(attributes));
        }
    }

}

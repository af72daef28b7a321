package com.multikey.dynamodb.table;

import com.multikey.dynamodb.value.Value;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** What a secondary index copies of an item: its keys only, its keys and some attributes, or everything. */
public record Projection(Type type, List<String> nonKeyAttributes) {

    public enum Type { KEYS_ONLY, INCLUDE, ALL }

    public Projection {
        nonKeyAttributes = List.copyOf(nonKeyAttributes);
    }

    /** The index's copy of the item: the table's and the index's key attributes plus what the projection adds. */
    public Map<String, Value> project(Map<String, Value> item, Set<String> keyAttributes) {
        if (type == Type.ALL) {
            return item;
        }
        Map<String, Value> projected = new LinkedHashMap<>();
        item.forEach((name, value) -> {
            if (keyAttributes.contains(name) || (type == Type.INCLUDE && nonKeyAttributes.contains(name))) {
                projected.put(name, value);
            }
        });
        return Map.copyOf(projected);
    }
}

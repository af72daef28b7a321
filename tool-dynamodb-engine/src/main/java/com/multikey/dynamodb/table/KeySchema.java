package com.multikey.dynamodb.table;

import com.multikey.dynamodb.value.Value;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The key of a table or an index: a partition key and an optional sort key. */
public record KeySchema(KeyElement partition, Optional<KeyElement> sort) {

    public List<KeyElement> elements() {
        List<KeyElement> elements = new ArrayList<>(2);
        elements.add(partition);
        sort.ifPresent(elements::add);
        return elements;
    }

    public boolean isKeyAttribute(String name) {
        return partition.name().equals(name) || sort.map(s -> s.name().equals(name)).orElse(false);
    }

    /** The key attributes of an item that holds them all (checked before). */
    public Map<String, Value> keyOf(Map<String, Value> item) {
        Map<String, Value> key = new LinkedHashMap<>();
        for (KeyElement element : elements()) {
            key.put(element.name(), item.get(element.name()));
        }
        return key;
    }

    /** Whether the item holds every key attribute with its declared type (else it is not in a sparse index). */
    public boolean covers(Map<String, Value> item) {
        for (KeyElement element : elements()) {
            Value value = item.get(element.name());
            if (value == null || !value.type().equals(element.type())) {
                return false;
            }
        }
        return true;
    }
}

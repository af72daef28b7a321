package com.multikey.deletelayer;

import com.multikey.index.definition.KeySchema;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.LinkedHashMap;
import java.util.Map;

/** An in-memory {@link TombstoneWriter}: items by their full key, an existing one kept as the conditional put keeps it. */
final class InMemoryTombstoneWriter implements TombstoneWriter {

    private final KeySchema table;
    final Map<Map<String, AttributeValue>, Map<String, AttributeValue>> items = new LinkedHashMap<>();

    InMemoryTombstoneWriter(KeySchema table) {
        this.table = table;
    }

    @Override
    public Outcome write(Map<String, AttributeValue> tombstone) {
        Map<String, AttributeValue> key = new LinkedHashMap<>();
        for (KeySchema.KeyAttribute attribute : table.attributes()) {
            AttributeValue value = tombstone.get(attribute.name());
            if (value == null || value.type() != attribute.type().attributeType()) {
                throw new IllegalArgumentException("the tombstone has no " + attribute + ": " + tombstone);
            }
            key.put(attribute.name(), value);
        }
        return items.putIfAbsent(Map.copyOf(key), Map.copyOf(tombstone)) == null ? Outcome.WRITTEN : Outcome.KEPT_EXISTING;
    }
}

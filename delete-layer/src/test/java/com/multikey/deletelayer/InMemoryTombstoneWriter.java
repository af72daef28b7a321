package com.multikey.deletelayer;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.LinkedHashMap;
import java.util.Map;

/** An in-memory {@link TombstoneWriter}: items by key, an existing one kept as the conditional put keeps it. */
final class InMemoryTombstoneWriter implements TombstoneWriter {

    private final String keyAttribute;
    final Map<AttributeValue, Map<String, AttributeValue>> items = new LinkedHashMap<>();

    InMemoryTombstoneWriter(String keyAttribute) {
        this.keyAttribute = keyAttribute;
    }

    @Override
    public Outcome write(Map<String, AttributeValue> tombstone) {
        AttributeValue key = tombstone.get(keyAttribute);
        if (key == null) {
            throw new IllegalArgumentException("the tombstone has no " + keyAttribute + ": " + tombstone.keySet());
        }
        return items.putIfAbsent(key, Map.copyOf(tombstone)) == null ? Outcome.WRITTEN : Outcome.KEPT_EXISTING;
    }
}

package com.multikey.deletelayer;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.Map;

/** Writes the record that says a layer version was deleted. */
public interface TombstoneWriter {

    enum Outcome {
        /** the tombstone was written */
        WRITTEN,
        /** an item with that key exists (an earlier tombstone, or a newer record), and was kept */
        KEPT_EXISTING
    }

    /** Writes the item unless one with its key exists. */
    Outcome write(Map<String, AttributeValue> tombstone);
}

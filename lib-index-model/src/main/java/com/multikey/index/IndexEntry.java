package com.multikey.index;

import com.multikey.index.definition.KeySchema;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What a reader of the index table needs of a stored item to find its source item: the key and the item's key.
 * Read from any stored item of either layout, including one that holds no copy of its value ({@code valueOmitted}).
 */
public record IndexEntry(IndexKey key, ItemKey source) {

    public IndexEntry {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(source, "source");
    }

    /**
     * The entry of a stored item; empty when it names no source item (no {@value IndexItem#ITEM_KEY} map, no
     * {@value IndexItem#ITEM_ID}).
     */
    public static Optional<IndexEntry> of(Map<String, AttributeValue> stored, KeySchema table) {
        return sourceOf(stored, table).map(source -> new IndexEntry(IndexKey.of(stored), source));
    }

    /** The source item a stored index item names, in either layout. */
    public static Optional<ItemKey> sourceOf(Map<String, AttributeValue> stored, KeySchema table) {
        AttributeValue itemKey = stored.get(IndexItem.ITEM_KEY);
        if (itemKey != null && itemKey.hasM()) {
            return ItemKey.of(table, itemKey.m());
        }
        AttributeValue itemId = stored.get(IndexItem.ITEM_ID);
        if (itemId != null && itemId.s() != null && !itemId.s().isEmpty() && table.sortKey().isEmpty()
                && table.partitionKey().type() == KeySchema.KeyType.S) {
            return Optional.of(ItemKey.ofString(table.partitionKey().name(), itemId.s()));
        }
        return Optional.empty();
    }

    public String attribId() {
        return key.attribId();
    }

    public String sortKey() {
        return key.sortKey();
    }
}

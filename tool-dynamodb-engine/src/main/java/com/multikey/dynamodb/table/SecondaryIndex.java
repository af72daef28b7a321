package com.multikey.dynamodb.table;

import com.multikey.dynamodb.value.Value;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A secondary index and its entries, kept in step with the table's items. An item lacking an index key
 * attribute is not in the index (sparse indexes, as on AWS). Within an index partition, entries are ordered by
 * the index sort key, then by the table's key, which is what makes a LastEvaluatedKey (index key plus table
 * key) resumable.
 */
public final class SecondaryIndex {

    private final IndexDefinition definition;
    private final KeySchema tableKey;
    private final Set<String> keyAttributes;
    private final SortedStore store = new SortedStore();

    SecondaryIndex(IndexDefinition definition, KeySchema tableKey) {
        this.definition = definition;
        this.tableKey = tableKey;
        Set<String> keys = new HashSet<>();
        tableKey.elements().forEach(e -> keys.add(e.name()));
        definition.keySchema().elements().forEach(e -> keys.add(e.name()));
        this.keyAttributes = Collections.unmodifiableSet(keys);
    }

    public IndexDefinition definition() {
        return definition;
    }

    public KeySchema keySchema() {
        return definition.keySchema();
    }

    public SortedStore store() {
        return store;
    }

    /** The table's and the index's key attribute names: what every index entry holds. */
    public Set<String> keyAttributes() {
        return keyAttributes;
    }

    void update(Map<String, Value> oldItem, Map<String, Value> newItem) {
        if (oldItem != null && keySchema().covers(oldItem)) {
            store.remove(oldItem.get(keySchema().partition().name()), positionOf(oldItem));
        }
        if (newItem != null && keySchema().covers(newItem)) {
            store.put(newItem.get(keySchema().partition().name()), positionOf(newItem),
                    definition.projection().project(newItem, keyAttributes));
        }
    }

    /** An entry's position in its index partition: the index sort key (if any), then the table's key. */
    public List<Value> positionOf(Map<String, Value> item) {
        List<Value> position = new ArrayList<>(3);
        keySchema().sort().ifPresent(s -> position.add(item.get(s.name())));
        position.add(item.get(tableKey.partition().name()));
        tableKey.sort().ifPresent(s -> position.add(item.get(s.name())));
        return position;
    }

    /** What a LastEvaluatedKey of a Query or Scan on this index holds: the index key and the table key. */
    public Map<String, Value> lastEvaluatedKey(Map<String, Value> entry) {
        Map<String, Value> key = new LinkedHashMap<>(tableKey.keyOf(entry));
        key.putAll(keySchema().keyOf(entry));
        return key;
    }
}

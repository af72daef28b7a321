package com.multikey.dynamodb.api;

import com.multikey.dynamodb.EngineException;
import com.multikey.dynamodb.table.KeyElement;
import com.multikey.dynamodb.table.KeySchema;
import com.multikey.dynamodb.table.Projection;
import com.multikey.dynamodb.table.SecondaryIndex;
import com.multikey.dynamodb.table.SortedStore;
import com.multikey.dynamodb.table.Table;
import com.multikey.dynamodb.value.Value;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/** What a Query or Scan reads: the table, or one of its indexes (then LastEvaluatedKey holds both keys). */
record ReadSource(Table table, Optional<SecondaryIndex> index) {

    static ReadSource of(Table table, Optional<String> indexName) {
        if (indexName.isEmpty()) {
            return new ReadSource(table, Optional.empty());
        }
        SecondaryIndex index = table.index(indexName.get()).orElseThrow(() -> EngineException.validation(
                "The table does not have the specified index: " + indexName.get()));
        return new ReadSource(table, Optional.of(index));
    }

    SortedStore store() {
        return index.map(SecondaryIndex::store).orElse(table.items());
    }

    KeySchema keySchema() {
        return index.map(SecondaryIndex::keySchema).orElse(table.keySchema());
    }

    boolean globalIndex() {
        return index.map(i -> i.definition().global()).orElse(false);
    }

    boolean projectsAll() {
        return index.map(i -> i.definition().projection().type() == Projection.Type.ALL).orElse(true);
    }

    Value partitionOf(Map<String, Value> item) {
        return item.get(keySchema().partition().name());
    }

    List<Value> positionOf(Map<String, Value> item) {
        return index.map(i -> i.positionOf(item)).orElseGet(() -> table.positionOf(item));
    }

    Map<String, Value> lastEvaluatedKey(Map<String, Value> entry) {
        return index.map(i -> i.lastEvaluatedKey(entry)).orElseGet(() -> table.keySchema().keyOf(entry));
    }

    /** The whole item behind an entry: an index entry of a local index without ALL is fetched from the table. */
    Map<String, Value> fullItem(Map<String, Value> entry) {
        if (projectsAll() || globalIndex()) {
            return entry;
        }
        return table.get(table.keySchema().keyOf(entry));
    }

    /** An ExclusiveStartKey: the table's key attributes, and the index's for an index, of their types. */
    Map<String, Value> startKey(Map<String, Value> key) {
        KeySchema tableKey = table.keySchema();
        int expected = index.map(SecondaryIndex::keyAttributes).map(java.util.Set::size).orElse(tableKey.elements().size());
        boolean valid = key.size() == expected && matches(tableKey, key) && index.map(i -> matches(i.keySchema(), key)).orElse(true);
        if (!valid) {
            throw EngineException.validation("The provided starting key is invalid: The provided key element does not match the schema");
        }
        return key;
    }

    private static boolean matches(KeySchema schema, Map<String, Value> key) {
        for (KeyElement element : schema.elements()) {
            Value value = key.get(element.name());
            if (value == null || !value.type().equals(element.type())) {
                return false;
            }
        }
        return true;
    }
}

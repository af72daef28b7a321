package com.multikey.dynamodb.api;

import com.multikey.dynamodb.EngineException;
import com.multikey.dynamodb.table.KeyElement;
import com.multikey.dynamodb.table.SecondaryIndex;
import com.multikey.dynamodb.table.Table;
import com.multikey.dynamodb.value.Value;
import com.multikey.dynamodb.value.Values;

import java.nio.charset.StandardCharsets;
import java.util.Map;

/** The checks AWS makes on keys and items before a write or a read, with its messages. */
final class ItemChecks {

    static final long MAX_ITEM_BYTES = 400 * 1024;
    static final int MAX_PARTITION_KEY_BYTES = 2048;
    static final int MAX_SORT_KEY_BYTES = 1024;

    private ItemChecks() {
    }

    /** A Key parameter: exactly the table's key attributes, of their declared types. */
    static Map<String, Value> key(Table table, Map<String, Value> key) {
        if (key.size() != table.keySchema().elements().size()) {
            throw EngineException.validation("The provided key element does not match the schema");
        }
        for (KeyElement element : table.keySchema().elements()) {
            Value value = key.get(element.name());
            if (value == null || !value.type().equals(element.type())) {
                throw EngineException.validation("The provided key element does not match the schema");
            }
            checkKeyValue(element, value, element == table.keySchema().partition());
        }
        return key;
    }

    /** An item's size, checked before its table is looked up, as DynamoDB validates a request first. */
    static void size(Map<String, Value> item) {
        if (Values.itemSize(item) > MAX_ITEM_BYTES) {
            throw EngineException.validation("Item size has exceeded the maximum allowed size");
        }
    }

    /** An item to be stored: its key, its size, and the types of the secondary index keys it holds. */
    static void item(Table table, Map<String, Value> item) {
        for (KeyElement element : table.keySchema().elements()) {
            Value value = item.get(element.name());
            if (value == null) {
                throw EngineException.validation("One or more parameter values were invalid: Missing the key "
                        + element.name() + " in the item");
            }
            if (!value.type().equals(element.type())) {
                throw EngineException.validation("One or more parameter values were invalid: Type mismatch for key "
                        + element.name() + " expected: " + element.type() + " actual: " + value.type());
            }
            checkKeyValue(element, value, element == table.keySchema().partition());
        }
        for (SecondaryIndex index : table.indexes()) {
            for (KeyElement element : index.keySchema().elements()) {
                Value value = item.get(element.name());
                if (value == null || table.keySchema().isKeyAttribute(element.name())) {
                    continue;
                }
                if (!value.type().equals(element.type())) {
                    throw EngineException.validation("One or more parameter values were invalid: Type mismatch for Index Key "
                            + element.name() + " Expected: " + element.type() + " Actual: " + value.type()
                            + " IndexName: " + index.definition().name());
                }
                checkIndexKeySize(index, element, value);
                if (keyBytes(value) == 0) {
                    throw EngineException.validation("One or more parameter values are not valid. A value specified for a "
                            + "secondary index key is not supported. The AttributeValue for a key attribute cannot contain "
                            + "an empty " + (value instanceof Value.S ? "string" : "binary") + " value. IndexName: "
                            + index.definition().name() + ", IndexKey: " + element.name());
                }
            }
        }
        if (Values.itemSize(item) > MAX_ITEM_BYTES) {
            throw EngineException.validation("Item size has exceeded the maximum allowed size");
        }
    }

    /** An index key has the table key's limits: 2,048 bytes for its partition key, 1,024 for its sort key. */
    private static void checkIndexKeySize(SecondaryIndex index, KeyElement element, Value value) {
        boolean partition = element.equals(index.keySchema().partition());
        long bytes = keyBytes(value);
        if (partition && bytes > MAX_PARTITION_KEY_BYTES || !partition && bytes > MAX_SORT_KEY_BYTES) {
            throw EngineException.validation("One or more parameter values were invalid: Size of " + (partition ? "hashkey" : "rangekey")
                    + " has exceeded the maximum size limit of " + (partition ? MAX_PARTITION_KEY_BYTES : MAX_SORT_KEY_BYTES)
                    + " bytes for index " + index.definition().name() + ", key " + element.name());
        }
    }

    private static void checkKeyValue(KeyElement element, Value value, boolean partition) {
        long bytes = keyBytes(value);
        if (bytes == 0) {
            throw EngineException.validation("One or more parameter values are not valid. The AttributeValue for a key "
                    + "attribute cannot contain an empty " + (value instanceof Value.S ? "string" : "binary")
                    + " value. Key: " + element.name());
        }
        if (partition && bytes > MAX_PARTITION_KEY_BYTES) {
            throw EngineException.validation("One or more parameter values were invalid: Size of hashkey has exceeded "
                    + "the maximum size limit of 2048 bytes");
        }
        if (!partition && bytes > MAX_SORT_KEY_BYTES) {
            throw EngineException.validation("One or more parameter values were invalid: Aggregated size of all range keys "
                    + "has exceeded the size limit of 1024 bytes");
        }
    }

    private static long keyBytes(Value value) {
        return switch (value) {
            case Value.S s -> s.value().getBytes(StandardCharsets.UTF_8).length;
            case Value.B b -> b.value().length();
            default -> Values.size(value);
        };
    }
}

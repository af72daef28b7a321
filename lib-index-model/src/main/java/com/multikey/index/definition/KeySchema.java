package com.multikey.index.definition;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The source table's primary key: a partition key alone, or a partition and a sort key, each of type S, N or B.
 *
 * @param maxItemKeyBytes the most bytes an item's key takes at the end of an index sort key (see {@code SortKeyCodec});
 *                        an item with a longer key is not indexed (and counted)
 */
public record KeySchema(KeyAttribute partitionKey, Optional<KeyAttribute> sortKey, int maxItemKeyBytes) {

    /** The key attribute types DynamoDB allows. */
    public enum KeyType {
        S, N, B;

        public AttributeValue.Type attributeType() {
            return AttributeValue.Type.valueOf(name());
        }
    }

    /** One key attribute: its name and type. */
    public record KeyAttribute(String name, KeyType type) {
        public KeyAttribute {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(type, "type");
        }
    }

    public static final int DEFAULT_MAX_ITEM_KEY_BYTES = 256;

    public KeySchema {
        Objects.requireNonNull(partitionKey, "partitionKey");
        Objects.requireNonNull(sortKey, "sortKey");
    }

    /** The key attributes, partition key first. */
    public List<KeyAttribute> attributes() {
        List<KeyAttribute> attributes = new ArrayList<>(2);
        attributes.add(partitionKey);
        sortKey.ifPresent(attributes::add);
        return attributes;
    }

    public boolean isKeyAttribute(AttributePath path) {
        return path.isTopLevel() && attributes().stream().anyMatch(a -> a.name().equals(path.names().get(0)));
    }
}

package com.multikey.index;

import com.multikey.index.definition.KeySchema;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.Base64;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The full primary key of a source table item: its partition key attribute, and its sort key attribute when the
 * table has one, each of type S, N or B. Index items name their source item by it.
 *
 * @param attributes the key attributes, partition key first; numbers are held in canonical form
 */
public record ItemKey(Map<String, AttributeValue> attributes) {

    public ItemKey {
        Objects.requireNonNull(attributes, "attributes");
        if (attributes.isEmpty()) {
            throw new IllegalArgumentException("an item key has at least a partition key");
        }
        Map<String, AttributeValue> canonical = new LinkedHashMap<>();
        // numbers as DynamoDB stores them, so a key read back from a table or an index item equals the key written
        attributes.forEach((name, value) -> canonical.put(name, value.type() == AttributeValue.Type.N
                ? AttributeValue.fromN(IndexValue.Num.canonical(new java.math.BigDecimal(value.n())).toString()) : value));
        attributes = Collections.unmodifiableMap(canonical);
    }

    /** The key of a table keyed by one string attribute. */
    public static ItemKey ofString(String attribute, String value) {
        return new ItemKey(Map.of(attribute, AttributeValue.fromS(value)));
    }

    /**
     * The key the schema names, read from a stream record's keys or from an item; empty when an attribute is
     * missing or not of the schema's type.
     */
    public static Optional<ItemKey> of(KeySchema schema, Map<String, AttributeValue> keysOrItem) {
        if (keysOrItem == null) {
            return Optional.empty();
        }
        Map<String, AttributeValue> key = new LinkedHashMap<>();
        for (KeySchema.KeyAttribute attribute : schema.attributes()) {
            AttributeValue value = keysOrItem.get(attribute.name());
            if (value == null || value.type() != attribute.type().attributeType()) {
                return Optional.empty();
            }
            key.put(attribute.name(), value);
        }
        return Optional.of(new ItemKey(key));
    }

    /** The key as a DynamoDB key map (GetItem, BatchGetItem). */
    public Map<String, AttributeValue> toKey() {
        return attributes;
    }

    /** The one string value of a key made of one string attribute (the original app table's {@code id}). */
    public Optional<String> singleString() {
        return attributes.size() == 1 ? Optional.ofNullable(attributes.values().iterator().next().s()) : Optional.empty();
    }

    /**
     * The key as text for logs and reports: the value itself for a one-string key ({@code issue#020e}), otherwise
     * {@code name=value} pairs ({@code pk=PROJECT#p1 sk=ISSUE#42}), binary in base64.
     */
    @Override
    public String toString() {
        Optional<String> single = singleString();
        if (single.isPresent()) {
            return single.get();
        }
        return attributes.entrySet().stream().map(e -> e.getKey() + "=" + text(e.getValue())).collect(Collectors.joining(" "));
    }

    private static String text(AttributeValue value) {
        return switch (value.type()) {
            case S -> value.s();
            case N -> value.n();
            case B -> Base64.getEncoder().encodeToString(value.b().asByteArrayUnsafe());
            default -> value.type().toString();
        };
    }
}

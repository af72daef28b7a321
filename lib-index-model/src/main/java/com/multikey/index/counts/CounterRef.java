package com.multikey.index.counts;

import com.multikey.index.IndexKey;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.Objects;
import java.util.Optional;

/**
 * The counter item one counted index item adds one to while it exists: its key (the group's counter partition, the
 * field, the value, the shard of the indexed item), and what the counter item says of itself.
 *
 * @param counter the counter item's key
 * @param index   the index it counts
 * @param field   the counted field; empty for the group total
 * @param value   the counted value as the index holds it; empty for the group total or a value too large to copy
 */
public record CounterRef(IndexKey counter, String index, Optional<String> field, Optional<AttributeValue> value) {

    public CounterRef {
        Objects.requireNonNull(counter, "counter");
        Objects.requireNonNull(index, "index");
        Objects.requireNonNull(field, "field");
        Objects.requireNonNull(value, "value");
    }

    /** Whether it counts the group's total (the index's member items) rather than a field's value. */
    public boolean isTotal() {
        return field.isEmpty();
    }
}

package com.multikey.index.counts;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The kept counts of one group of an index: its total (when kept) and one field's values with their counts.
 *
 * @param total       how many items the group holds in the index; empty when the index keeps no total
 * @param values      the field's most frequent values, most frequent first (equal counts in value order), at most top N
 * @param otherValues how many other values have a count above zero
 * @param otherCount  how many index items those other values count together
 * @param calls       the Query calls the read took
 */
public record GroupCounts(Optional<Long> total, List<ValueCount> values, long otherValues, long otherCount, int calls) {

    public GroupCounts {
        Objects.requireNonNull(total, "total");
        values = List.copyOf(values);
    }

    /**
     * One value and how many index items of the group carry it.
     *
     * @param value        the value as the index holds it; empty when it was too large to copy into its counters
     * @param encodedValue the value as its counter items name it (its sort key encoding, or a digest of it)
     */
    public record ValueCount(Optional<AttributeValue> value, String encodedValue, long count) {
        public ValueCount {
            Objects.requireNonNull(value, "value");
            Objects.requireNonNull(encodedValue, "encodedValue");
        }
    }
}

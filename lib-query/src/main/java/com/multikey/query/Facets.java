package com.multikey.query;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.List;
import java.util.Objects;

/**
 * The counts of a {@link FacetRequest}: for each field in the order asked, its values with their counts.
 *
 * @param facets   one per field asked
 * @param calls    the API calls they took together
 * @param examined the items they read together (index items, counter items, items of the table)
 */
public record Facets(List<Facet> facets, int calls, long examined) {

    public Facets {
        facets = List.copyOf(facets);
    }

    /**
     * One field's values: each with how many items carry it (an item with several values of the field counts under each),
     * most frequent first, equal counts in the index's value order.
     *
     * @param field       the field as asked
     * @param values      the top values
     * @param otherValues how many other values were seen (a lower bound when the counts are)
     * @param otherCount  how many items those other values count together (a lower bound when the counts are)
     * @param relation    {@code EQ}: every count is exact; {@code GTE}: the count stopped at its read budget, each count is a
     *                    lower bound (a value not listed may have items not seen)
     * @param source      kept counts, or counted at read time
     */
    public record Facet(String field, List<ValueCount> values, long otherValues, long otherCount, Total.Relation relation,
                        Total.Source source) {
        public Facet {
            Objects.requireNonNull(field, "field");
            values = List.copyOf(values);
            Objects.requireNonNull(relation, "relation");
            Objects.requireNonNull(source, "source");
        }
    }

    /**
     * A value and its count.
     *
     * @param value the value (null when it was too large to copy into kept counters: then {@code encodedValue} names it)
     * @param encodedValue the value as the index's sort keys encode it
     * @param count how many items of the group (matching the predicates) carry it
     */
    public record ValueCount(AttributeValue value, String encodedValue, long count) {
        public ValueCount {
            Objects.requireNonNull(encodedValue, "encodedValue");
        }
    }
}

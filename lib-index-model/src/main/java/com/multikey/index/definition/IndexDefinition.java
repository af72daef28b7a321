package com.multikey.index.definition;

import java.util.List;
import java.util.Objects;

/**
 * One declared index.
 *
 * @param name       stable name; part of every index partition key of this index
 * @param layout     how its keys are laid out in the index table
 * @param covers     what an item must satisfy to be indexed (all of them); empty covers every item
 * @param group      the attributes whose values a query runs within (part of the partition key); may be empty
 * @param values     where the indexed values come from
 * @param orderBy    tie-breakers after the value, before the item key
 * @param projection attributes copied into every index item
 * @param replaces   for a grouped index, the field-partitioned index it takes the place of (the grid's old layout,
 *                   indexing the same items): which of the two a stack writes and reads is its {@link GridState}
 * @param counts     the counts the pipeline keeps for it ({@link CountsDeclaration#NONE}: none)
 */
public record IndexDefinition(String name, Layout layout, List<Condition> covers, List<AttributePath> group,
                              ValueSource values, List<TieBreaker> orderBy, List<AttributePath> projection,
                              java.util.Optional<String> replaces, CountsDeclaration counts) {

    public IndexDefinition(String name, Layout layout, List<Condition> covers, List<AttributePath> group, ValueSource values,
                           List<TieBreaker> orderBy, List<AttributePath> projection) {
        this(name, layout, covers, group, values, orderBy, projection, java.util.Optional.empty());
    }

    public IndexDefinition(String name, Layout layout, List<Condition> covers, List<AttributePath> group, ValueSource values,
                           List<TieBreaker> orderBy, List<AttributePath> projection, java.util.Optional<String> replaces) {
        this(name, layout, covers, group, values, orderBy, projection, replaces, CountsDeclaration.NONE);
    }

    /** How an index lays out its keys. */
    public enum Layout {
        /**
         * Partition {@code <name>#<group...>[#<entry name>]}, sort key {@code value, tie-breakers, item key}: a query
         * reads its own group's items only.
         */
        GROUPED,
        /**
         * The layout of the index before definitions existed: the partition is the map entry's name alone, the group
         * and the one numeric tie-breaker are stored as {@code project} and {@code num}, the item as
         * {@value com.multikey.index.IndexItem#ITEM_ID}.
         * Kept byte for byte so an existing stack's index stays valid; move to {@link #GROUPED} with a backfill.
         */
        FIELD_PARTITIONED
    }

    public IndexDefinition {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(layout, "layout");
        covers = List.copyOf(covers);
        group = List.copyOf(group);
        Objects.requireNonNull(values, "values");
        orderBy = List.copyOf(orderBy);
        projection = List.copyOf(projection);
        Objects.requireNonNull(replaces, "replaces");
        Objects.requireNonNull(counts, "counts");
    }

    /** The field a map entry or the indexed attribute counts under: the entry's name, or the values path. */
    public String fieldOf(String entry) {
        return entry != null ? entry : values.path().toString();
    }

    /** Whether an item (image) is one this index covers. */
    public boolean covers(java.util.Map<String, software.amazon.awssdk.services.dynamodb.model.AttributeValue> item) {
        for (Condition condition : covers) {
            if (!condition.test(item)) {
                return false;
            }
        }
        return true;
    }
}

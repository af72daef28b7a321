package com.multikey.index;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.Map;

/** Projects items onto one declared index, in the layout it declares. */
sealed interface IndexLayout permits FieldPartitionedLayout, GroupedLayout {

    /** The index items an item version implies, and what of it cannot be indexed. */
    ItemProjection project(ItemKey key, Map<String, AttributeValue> image);

    /**
     * The index items of one entry of a map-entries index (what {@link #project} gives for that entry, without
     * projecting the others); for an index of another kind, which has no entries, all of them.
     */
    ItemProjection projectEntry(ItemKey key, Map<String, AttributeValue> image, String entry);

    /**
     * The projections of two versions of one item restricted to what can differ between them; either image may be
     * null (the item did not exist). The index writes of the change are the diff of the two.
     */
    IndexProjector.Changed changed(ItemKey key, Map<String, AttributeValue> before, Map<String, AttributeValue> after);

    static IndexProjector.Changed unrestricted(IndexLayout layout, ItemKey key, Map<String, AttributeValue> before,
                                               Map<String, AttributeValue> after) {
        return new IndexProjector.Changed(
                before == null ? ItemProjection.EMPTY : layout.project(key, before),
                after == null ? ItemProjection.EMPTY : layout.project(key, after));
    }
}

package com.multikey.index;

import com.multikey.index.definition.IndexDefinition;
import com.multikey.index.definition.IndexDefinitions;
import com.multikey.index.definition.KeySchema;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Projects items of the source table onto every declared index (or one of them): the index of an item is a
 * function of its latest image and the definitions alone, so replays and rebuilds converge on the same items.
 */
public final class IndexProjector {

    private final IndexDefinitions definitions;
    /** Every declared index's layout, by name: one index is projected alone whether or not its grid state writes it. */
    private final Map<String, IndexLayout> layouts = new LinkedHashMap<>();
    /** The layouts of the indexes the definitions' grid state keeps: what "every index" means. */
    private final List<IndexLayout> live;

    public IndexProjector(IndexDefinitions definitions) {
        this.definitions = definitions;
        Set<String> grouped = definitions.declared().stream().filter(i -> i.layout() == IndexDefinition.Layout.GROUPED)
                .map(IndexDefinition::name).collect(Collectors.toSet());
        for (IndexDefinition index : definitions.declared()) {
            layouts.put(index.name(), switch (index.layout()) {
                case GROUPED -> new GroupedLayout(index, definitions.table());
                case FIELD_PARTITIONED -> new FieldPartitionedLayout(index, grouped);
            });
        }
        this.live = definitions.indexes().stream().map(index -> layouts.get(index.name())).toList();
    }

    public IndexDefinitions definitions() {
        return definitions;
    }

    public KeySchema table() {
        return definitions.table();
    }

    /** The key of an item or of a stream record's keys, when it has the table's key attributes and types. */
    public Optional<ItemKey> keyOf(Map<String, AttributeValue> keysOrItem) {
        return ItemKey.of(definitions.table(), keysOrItem);
    }

    /** Whether any index covers this item version. */
    public boolean coversAny(Map<String, AttributeValue> image) {
        return image != null && definitions.indexes().stream().anyMatch(index -> index.covers(image));
    }

    /** The index items an item version implies in every declared index. */
    public ItemProjection project(ItemKey key, Map<String, AttributeValue> image) {
        return merge(live.stream().map(layout -> layout.project(key, image)).toList());
    }

    /** The index items an item version implies in one declared index. */
    public ItemProjection project(String index, ItemKey key, Map<String, AttributeValue> image) {
        return layout(index).project(key, image);
    }

    /**
     * The index items of one entry of a map-entries index, without projecting the item's other entries (a reader
     * checking the items of one partition); for an index of another kind, all its items of the item version.
     */
    public ItemProjection projectEntry(String index, ItemKey key, Map<String, AttributeValue> image, String entry) {
        return layout(index).projectEntry(key, image, entry);
    }

    /**
     * The projections of two versions of one item (either may be null: it did not exist) onto every index,
     * restricted to what can differ between them: a one-entry change of a map costs one entry's work however many
     * entries the map has. The index writes of the change are {@code IndexDiff.between(before.items(), after.items())}.
     */
    public Changed changed(ItemKey key, Map<String, AttributeValue> before, Map<String, AttributeValue> after) {
        List<ItemProjection> befores = new ArrayList<>();
        List<ItemProjection> afters = new ArrayList<>();
        for (IndexLayout layout : live) {
            Changed changed = layout.changed(key, before, after);
            befores.add(changed.before());
            afters.add(changed.after());
        }
        return new Changed(merge(befores), merge(afters));
    }

    /** As {@link #changed(ItemKey, Map, Map)}, for one index. */
    public Changed changed(String index, ItemKey key, Map<String, AttributeValue> before, Map<String, AttributeValue> after) {
        return layout(index).changed(key, before, after);
    }

    /** The projections of an item's old and new version, restricted to what can differ between them. */
    public record Changed(ItemProjection before, ItemProjection after) {
    }

    private IndexLayout layout(String index) {
        IndexLayout layout = layouts.get(index);
        if (layout == null) {
            throw new IllegalArgumentException("no index named '" + index + "' is declared; declared: " + layouts.keySet());
        }
        return layout;
    }

    /** The key-range bounds of an index's values, for its queries' key conditions. */
    public ValueBounds bounds(String index) {
        return layout(index) instanceof GroupedLayout grouped ? new ValueBounds(grouped.valueBytes(), true) : ValueBounds.FIELD_PARTITIONED;
    }

    /** The partition key of a grouped index's group (its values in declared order) and, for map entries, an entry. */
    public static String partition(IndexDefinition index, List<AttributeValue> group, String entry) {
        if (index.layout() == IndexDefinition.Layout.FIELD_PARTITIONED) {
            return entry;
        }
        return GroupedLayout.partition(index.name(), group, entry);
    }

    private static ItemProjection merge(List<ItemProjection> projections) {
        if (projections.size() == 1) {
            return projections.get(0);
        }
        Set<IndexItem> items = new HashSet<>();
        List<Rejection> rejections = new ArrayList<>();
        for (ItemProjection projection : projections) {
            items.addAll(projection.items());
            rejections.addAll(projection.rejections());
        }
        return new ItemProjection(items, rejections);
    }
}

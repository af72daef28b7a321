package com.multikey.reindex;

import com.multikey.index.GridLayoutStore;
import com.multikey.index.IndexItem;
import com.multikey.index.IndexProjector;
import com.multikey.index.ItemKey;
import com.multikey.index.ItemProjection;
import com.multikey.index.definition.AttributePath;
import com.multikey.index.definition.Condition;
import com.multikey.index.definition.IndexDefinition;
import com.multikey.index.definition.IndexDefinitions;
import com.multikey.index.definition.KeySchema;
import com.multikey.index.definition.TieBreaker;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What a backfill, verify or repair works on: every declared index, or one named index. It projects source items
 * onto those indexes, tells which stored index items are theirs, and names the source attributes their items
 * depend on (what a conditional write checks is unchanged).
 */
public final class IndexScope {

    private final IndexDefinitions definitions;
    private final Optional<IndexDefinition> only;
    private final IndexProjector projector;

    private IndexScope(IndexDefinitions definitions, Optional<IndexDefinition> only) {
        this.definitions = definitions;
        this.only = only;
        this.projector = new IndexProjector(definitions);
    }

    /** Every declared index. */
    public static IndexScope all(IndexDefinitions definitions) {
        return new IndexScope(definitions, Optional.empty());
    }

    /**
     * The named index, or every index when the name is empty.
     *
     * @throws IllegalArgumentException when no index of that name is declared
     */
    public static IndexScope of(IndexDefinitions definitions, Optional<String> index) {
        if (index.isEmpty()) {
            return all(definitions);
        }
        IndexDefinition definition = definitions.index(index.get()).orElseThrow(() -> new IllegalArgumentException(
                "no index named '" + index.get() + "' is declared; declared: "
                        + definitions.indexes().stream().map(IndexDefinition::name).toList()));
        return new IndexScope(definitions, Optional.of(definition));
    }

    public IndexDefinitions definitions() {
        return definitions;
    }

    public KeySchema table() {
        return definitions.table();
    }

    /** The one index worked on, when not all. */
    public Optional<String> index() {
        return only.map(IndexDefinition::name);
    }

    public Optional<ItemKey> keyOf(Map<String, AttributeValue> item) {
        return projector.keyOf(item);
    }

    /** The index items an item version implies in the scope's indexes. */
    public ItemProjection project(ItemKey key, Map<String, AttributeValue> image) {
        return only.map(index -> projector.project(index.name(), key, image)).orElseGet(() -> projector.project(key, image));
    }

    /** Whether any index of the scope covers the item. */
    public boolean covers(Map<String, AttributeValue> image) {
        return only.map(index -> index.covers(image)).orElseGet(() -> projector.coversAny(image));
    }

    /**
     * Whether a stored index item is one of the scope's: any item when the scope is every index (an item of an index
     * no longer declared is then one no item implies); else a grouped index's items name it in {@code index}, and
     * every item without {@code index} is the field-partitioned index's (one naming no item too: it is then orphaned).
     * The grid layout's control item ({@link GridLayoutStore}) is no index's.
     */
    public boolean owns(Map<String, AttributeValue> stored) {
        if (GridLayoutStore.isControl(stored)) {
            return false;
        }
        if (only.isEmpty()) {
            return true;
        }
        AttributeValue index = stored.get(IndexItem.INDEX);
        return switch (only.get().layout()) {
            case GROUPED -> index != null && only.get().name().equals(index.s());
            case FIELD_PARTITIONED -> index == null;
        };
    }

    /**
     * The top-level source attributes the scope's index items are derived from (besides the key): a conditional
     * write checks they are unchanged.
     */
    public List<String> dependsOn() {
        Set<String> names = new LinkedHashSet<>();
        List<IndexDefinition> indexes = only.map(List::of).orElse(definitions.indexes());
        for (IndexDefinition index : indexes) {
            List<AttributePath> paths = new ArrayList<>();
            index.covers().stream().map(Condition::path).forEach(paths::add);
            paths.addAll(index.group());
            paths.add(index.values().path());
            index.orderBy().stream().map(TieBreaker::path).forEach(paths::add);
            paths.addAll(index.projection());
            for (AttributePath path : paths) {
                if (!table().isKeyAttribute(path)) {
                    names.add(path.names().get(0));
                }
            }
        }
        return List.copyOf(names);
    }
}

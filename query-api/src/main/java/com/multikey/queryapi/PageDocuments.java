package com.multikey.queryapi;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.multikey.common.PlainJson;
import com.multikey.index.IndexProjector;
import com.multikey.index.definition.IndexDefinition;
import com.multikey.index.definition.IndexDefinitions;
import com.multikey.index.definition.ValueSource;
import com.multikey.query.Explain;
import com.multikey.query.Order;
import com.multikey.query.Page;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The JSON documents the read API answers with: a page (with its explanation) and the list of declared indexes. Values
 * are {@link PlainJson#DOUBLE_SAFE}: a number a double cannot hold exactly is a string of its exact digits.
 */
final class PageDocuments {

    /** The node factory of the API's documents (problems too): a BigDecimal keeps its scale, as in plain JSON. */
    static final JsonNodeFactory NODES = JsonNodeFactory.withExactBigDecimals(true);

    private final IndexProjector projector;

    PageDocuments(IndexDefinitions definitions) {
        this.projector = new IndexProjector(definitions);
    }

    /** A page: the index, group, entry and order it was read with, each item with its key and the value it was listed under. */
    ObjectNode page(IndexDefinition index, List<AttributeValue> group, String entry, Order order, Page page) {
        ObjectNode body = NODES.objectNode();
        // the index read: for the issue grid, the layout the stack's grid state reads, whichever name the request gave
        body.put("index", page.index().orElse(index.name()));
        ArrayNode groupNode = body.putArray("group");
        group.forEach(value -> groupNode.add(PlainJson.DOUBLE_SAFE.of(value)));
        if (!entry.isEmpty()) {
            body.put("entry", entry);
        }
        body.put("order", order == Order.ASC ? "asc" : "desc");
        ArrayNode items = body.putArray("items");
        for (int i = 0; i < page.items().size(); i++) {
            Map<String, AttributeValue> item = page.items().get(i);
            ObjectNode node = items.addObject();
            ObjectNode key = node.putObject("key");
            projector.keyOf(item).ifPresent(itemKey -> itemKey.toKey().forEach((name, value) -> key.set(name, PlainJson.DOUBLE_SAFE.of(value))));
            AttributeValue value = page.listedValue(i).orElseGet(() -> fieldValue(index, entry, item));
            node.set("value", value == null ? NODES.nullNode() : PlainJson.DOUBLE_SAFE.of(value));
            node.put("missing", i >= page.indexed());
            node.set("item", PlainJson.DOUBLE_SAFE.of(item));
        }
        if (page.nextCursor().isPresent()) {
            body.put("nextCursor", page.nextCursor().get());
        } else {
            body.putNull("nextCursor");
        }
        if (page.examined() >= 0) {
            body.put("examined", page.examined());
        }
        body.put("budgetSpent", page.budgetSpent());
        page.total().ifPresent(total -> body.set("total", total(total)));
        page.explain().ifPresent(explain -> body.set("explain", explain(explain)));
        return body;
    }

    /** The groups of a page of several ({@code groups}: each group's values, in the order the request named them). */
    static void groups(ObjectNode body, List<List<AttributeValue>> groups) {
        ArrayNode all = body.putArray("groups");
        groups.forEach(group -> {
            ArrayNode values = all.addArray();
            group.forEach(value -> values.add(PlainJson.DOUBLE_SAFE.of(value)));
        });
    }

    /** How many items a request matches: {@code {"value": N, "relation": "eq"|"gte", "source": "kept"|"counted"}}. */
    static ObjectNode total(com.multikey.query.Total total) {
        ObjectNode node = NODES.objectNode();
        node.put("value", total.value());
        node.put("relation", total.relation().apiName());
        node.put("source", total.source().apiName());
        return node;
    }

    /** The counts of a facets request: per field, its top values with their counts, and how many others. */
    static ObjectNode facets(IndexDefinition index, List<AttributeValue> group, com.multikey.query.Facets facets) {
        ObjectNode body = NODES.objectNode();
        body.put("index", index.name());
        ArrayNode groupNode = body.putArray("group");
        group.forEach(value -> groupNode.add(PlainJson.DOUBLE_SAFE.of(value)));
        ArrayNode list = body.putArray("facets");
        for (com.multikey.query.Facets.Facet facet : facets.facets()) {
            ObjectNode node = list.addObject();
            node.put("field", facet.field());
            ArrayNode values = node.putArray("values");
            for (com.multikey.query.Facets.ValueCount value : facet.values()) {
                ObjectNode each = values.addObject();
                each.set("value", value.value() == null ? NODES.nullNode() : PlainJson.DOUBLE_SAFE.of(value.value()));
                each.put("count", value.count());
            }
            node.put("otherValues", facet.otherValues());
            node.put("otherCount", facet.otherCount());
            node.put("relation", facet.relation().apiName());
            node.put("source", facet.source().apiName());
        }
        body.put("calls", facets.calls());
        return body;
    }

    /** How a page was read: the plan, why, the plans weighed, what was read, and the suggested index. */
    static ObjectNode explain(Explain explain) {
        ObjectNode node = NODES.objectNode();
        node.put("plan", explain.plan());
        node.put("reason", explain.reason());
        ArrayNode alternatives = node.putArray("alternatives");
        for (Explain.Alternative alternative : explain.alternatives()) {
            ObjectNode each = alternatives.addObject();
            each.put("plan", alternative.plan());
            each.put("estimatedItems", alternative.estimatedItems());
            each.put("basis", alternative.basis());
        }
        ObjectNode read = node.putObject("read");
        read.put("queries", explain.read().queries());
        read.put("batchGets", explain.read().batchGets());
        read.put("indexItems", explain.read().indexItems());
        read.put("tableItems", explain.read().tableItems());
        explain.suggestion().ifPresent(suggestion -> node.put("suggestion", suggestion));
        return node;
    }

    /**
     * What an item holds where the index reads its values (the entry, for a map-entries index): for an item of the missing
     * tail, and for a page that does not say what its items were listed under.
     */
    private static AttributeValue fieldValue(IndexDefinition index, String entry, Map<String, AttributeValue> item) {
        AttributeValue value = index.values().path().resolve(item);
        if (value != null && !entry.isEmpty()) {
            value = value.hasM() ? value.m().get(entry) : null;
        }
        return value;
    }

    /**
     * The indexes a client can read in the stack's grid layout state ({@code current}) and what a request on each names:
     * every index kept in that state, the issue grid once, as the layout its readers read (a request naming the grid's
     * other layout reads it too: its {@code aliases}).
     */
    static ObjectNode indexes(IndexDefinitions current) {
        ObjectNode body = NODES.objectNode();
        if (current.groupedGrid().isPresent() && current.fieldPartitionedGrid().isPresent()) {
            body.put("gridLayoutState", current.gridState().label());
        }
        Optional<IndexDefinition> grid = current.grid();
        ArrayNode list = body.putArray("indexes");
        for (IndexDefinition index : current.indexes()) {
            if (current.isGrid(index) && !grid.map(index::equals).orElse(false)) {
                continue;
            }
            ObjectNode node = list.addObject();
            node.put("name", index.name());
            node.put("layout", index.layout() == IndexDefinition.Layout.FIELD_PARTITIONED ? "field-partitioned" : "grouped");
            ArrayNode group = node.putArray("group");
            index.group().forEach(path -> group.add(path.toString()));
            node.put("values", switch (index.values()) {
                case ValueSource.MapEntries m -> "entriesOf";
                case ValueSource.Elements e -> "elementsOf";
                case ValueSource.Words w -> "wordsOf";
                case ValueSource.Scalar s -> "attribute";
            });
            node.put("path", index.values().path().toString());
            ArrayNode orderBy = node.putArray("orderBy");
            index.orderBy().forEach(tieBreaker -> orderBy.add(tieBreaker.path().toString()));
            ArrayNode projection = node.putArray("projection");
            index.projection().forEach(path -> projection.add(path.toString()));
            if (current.isGrid(index)) {
                node.put("grid", true);
                ArrayNode aliases = node.putArray("aliases");
                current.declared().stream().filter(other -> current.isGrid(other) && !other.equals(index))
                        .forEach(other -> aliases.add(other.name()));
            }
        }
        return body;
    }
}

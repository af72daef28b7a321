package com.multikey.index.definition;

import com.multikey.index.DynamoDbLimits;
import com.multikey.index.SortKeyCodec;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Reads one index of a definitions file and refuses one that cannot work: its name, layout, covers, group, values,
 * tie-breakers, projection and what it replaces, and whether its sort key fits DynamoDB's.
 */
final class IndexDefinitionReader {

    private static final Pattern INDEX_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]{0,63}");

    private final DefinitionNodes nodes;

    IndexDefinitionReader(DefinitionNodes nodes) {
        this.nodes = nodes;
    }

    IndexDefinition read(Tree node, KeySchema table) {
        if (!node.isObject()) {
            throw nodes.error("indexes", "each index is a mapping with at least 'name' and 'values'");
        }
        String where = "index '" + node.path("name").written() + "'";
        String name = nodes.text(node, "name", where, "");
        if (!INDEX_NAME.matcher(name).matches()) {
            throw nodes.error(where, "the name must be 1-64 letters, digits, '_', '.' or '-', starting with a letter or digit; it becomes part of the index keys, so choose it once");
        }
        nodes.allowOnly(node, where, "name", "layout", "covers", "group", "values", "orderBy", "projection", "replaces", "counts");
        IndexDefinition.Layout layout = switch (node.path("layout").asText("grouped")) {
            case "grouped" -> IndexDefinition.Layout.GROUPED;
            case "field-partitioned" -> IndexDefinition.Layout.FIELD_PARTITIONED;
            default -> throw nodes.error(where + ": layout", "must be grouped (the default) or field-partitioned, found '" + node.get("layout").asText() + "'");
        };
        List<Condition> covers = nodes.conditions(node.get("covers"), where + ": covers", table);
        List<AttributePath> group = nodes.paths(node.get("group"), where + ": group");
        ValueSource values = values(node.get("values"), where, table);
        List<TieBreaker> orderBy = tieBreakers(node.get("orderBy"), where + ": orderBy", table);
        List<AttributePath> projection = nodes.paths(node.get("projection"), where + ": projection");
        for (AttributePath projected : projection) {
            if (projected.overlaps(values.path())) {
                throw nodes.error(where + ": projection (" + projected + ")", "overlaps the indexed attribute '" + values.path()
                        + "': every index item of the item would carry a copy of it, which can pass DynamoDB's "
                        + DynamoDbLimits.MAX_ITEM_BYTES / 1024 + " KB item size many times over; project other attributes, or none");
            }
        }
        Optional<String> replaces = Optional.empty();
        if (node.has("replaces")) {
            if (!node.get("replaces").isTextual() || node.get("replaces").asText().isEmpty()) {
                throw nodes.error(where + ": replaces", "names the field-partitioned index this grouped index takes the place of, e.g. replaces: custom_fields");
            }
            if (layout != IndexDefinition.Layout.GROUPED) {
                throw nodes.error(where + ": replaces", "only a grouped index replaces another (the issue grid's field-partitioned layout)");
            }
            replaces = Optional.of(node.get("replaces").asText());
        }
        CountsDeclaration counts = counts(node.get("counts"), where + ": counts", layout, values);
        IndexDefinition index = new IndexDefinition(name, layout, covers, group, values, orderBy, projection, replaces, counts);
        if (layout == IndexDefinition.Layout.FIELD_PARTITIONED) {
            checkFieldPartitioned(index, table, where);
        } else {
            checkGrouped(index, table, where);
        }
        return index;
    }
    /**
     * {@code counts: {total: true, facets: [state, priority], shards: 8}}: what the pipeline counts per group. Facets
     * of a map-entries index are entry names; of an attribute or elements index, the indexed attribute itself.
     */
    private CountsDeclaration counts(Tree node, String where, IndexDefinition.Layout layout, ValueSource values) {
        if (node.isMissing() || node.isNull()) {
            return CountsDeclaration.NONE;
        }
        String example = "e.g. counts: {total: true, facets: [" + (values instanceof ValueSource.MapEntries ? "state, priority"
                : values.path().toString()) + "]}";
        if (!node.isObject()) {
            throw nodes.error(where, "is a mapping of total, facets and shards; " + example);
        }
        nodes.allowOnly(node, where, "total", "facets", "shards");
        if (layout != IndexDefinition.Layout.GROUPED) {
            throw nodes.error(where, "counts are kept for grouped indexes only (layout field-partitioned shares its partitions "
                    + "between groups); declare them on the grouped index that replaces it");
        }
        boolean total = false;
        if (node.has("total")) {
            if (!node.get("total").isBoolean()) {
                throw nodes.error(where + ": total", "takes true or false, found '" + node.get("total").asText("") + "'");
            }
            total = node.get("total").asBoolean();
        }
        List<String> facets = new ArrayList<>();
        if (node.has("facets")) {
            Tree list = node.get("facets");
            if (!list.isArray()) {
                throw nodes.error(where + ": facets", "is a list of fields whose values are counted; " + example);
            }
            for (Tree facet : list) {
                if (!facet.isTextual() || facet.asText().isEmpty()) {
                    throw nodes.error(where + ": facets", "names fields as non-empty strings; " + example);
                }
                String field = facet.asText();
                if (facets.contains(field)) {
                    throw nodes.error(where + ": facets (" + field + ")", "is named twice; name each field once");
                }
                if (!(values instanceof ValueSource.MapEntries) && !field.equals(values.path().toString())) {
                    throw nodes.error(where + ": facets (" + field + ")", "an index of values." + (values instanceof ValueSource.Elements
                            ? "elementsOf" : values instanceof ValueSource.Words ? "wordsOf" : "attribute") + " counts its own values only: write facets: [" + values.path()
                            + "], or count '" + field + "' with an index of its own");
                }
                facets.add(field);
            }
        }
        int shards = CountsDeclaration.DEFAULT_SHARDS;
        if (node.has("shards")) {
            Tree given = node.get("shards");
            if (!given.isInt() || given.asInt() < 1 || given.asInt() > CountsDeclaration.MAX_SHARDS) {
                throw nodes.error(where + ": shards", "is how many counter items a popular value is spread over, from 1 to "
                        + CountsDeclaration.MAX_SHARDS + " (default " + CountsDeclaration.DEFAULT_SHARDS + "), found '"
                        + given.asText("") + "'");
            }
            shards = given.asInt();
        }
        if (!total && facets.isEmpty()) {
            throw nodes.error(where, "counts nothing: set total: true, or list facets; " + example + ", or remove counts");
        }
        return new CountsDeclaration(total, facets, shards);
    }

    private ValueSource values(Tree node, String where, KeySchema table) {
        if (node.isMissing() || !node.isObject() || node.size() != 1) {
            throw nodes.error(where + ": values", "say where the values come from with exactly one of: entriesOf: <map>, elementsOf: <list or set>, attribute: <scalar>, wordsOf: <text>");
        }
        nodes.allowOnly(node, where + ": values", "entriesOf", "elementsOf", "attribute", "wordsOf");
        String kind = node.fieldNames().next();
        AttributePath path = AttributePath.parse(nodes.text(node, kind, where + ": values", ""), nodes.file() + ": " + where + ": values." + kind);
        String at = where + ": values." + kind + " (" + path + ")";
        switch (kind) {
            case "entriesOf" -> nodes.keyOfType(table, path, at, "entriesOf takes a map");
            case "elementsOf" -> nodes.keyOfType(table, path, at, "elementsOf takes a list or a set");
            case "wordsOf" -> nodes.keyOfType(table, path, at, "wordsOf takes a text", KeySchema.KeyType.S);
            default -> nodes.keyOfType(table, path, at, "a value is a string, a number or a boolean", KeySchema.KeyType.S, KeySchema.KeyType.N);
        }
        return switch (kind) {
            case "entriesOf" -> new ValueSource.MapEntries(path);
            case "elementsOf" -> new ValueSource.Elements(path);
            case "wordsOf" -> new ValueSource.Words(path);
            default -> new ValueSource.Scalar(path);
        };
    }
    private List<TieBreaker> tieBreakers(Tree node, String where, KeySchema table) {
        if (node.isMissing() || node.isNull()) {
            return List.of();
        }
        List<Tree> list = node.asList();
        List<TieBreaker> tieBreakers = new ArrayList<>();
        for (Tree entry : list) {
            if (entry.isTextual()) {
                AttributePath path = AttributePath.parse(entry.asText(), nodes.file() + ": " + where);
                nodes.keyOfType(table, path, where + " (" + path + ")", "a tie-breaker is a string, a number or a boolean",
                        KeySchema.KeyType.S, KeySchema.KeyType.N);
                tieBreakers.add(new TieBreaker(path, TieBreaker.DEFAULT_MAX_BYTES));
                continue;
            }
            nodes.allowOnly(entry, where, "attribute", "maxBytes");
            AttributePath path = AttributePath.parse(nodes.text(entry, "attribute", where, ""), nodes.file() + ": " + where);
            boolean given = entry.has("maxBytes");
            int maxBytes = entry.path("maxBytes").asInt(TieBreaker.DEFAULT_MAX_BYTES);
            if (given && !entry.get("maxBytes").isInt() || maxBytes < TieBreaker.MIN_MAX_BYTES || maxBytes > DynamoDbLimits.MAX_SORT_KEY_BYTES / 2) {
                throw nodes.error(where + " (" + path + ")", "maxBytes must be from " + TieBreaker.MIN_MAX_BYTES + " to "
                        + DynamoDbLimits.MAX_SORT_KEY_BYTES / 2 + ", found " + entry.path("maxBytes").asText());
            }
            nodes.keyOfType(table, path, where + " (" + path + ")", "a tie-breaker is a string, a number or a boolean",
                    KeySchema.KeyType.S, KeySchema.KeyType.N);
            tieBreakers.add(new TieBreaker(path, maxBytes));
        }
        return tieBreakers;
    }
    private void checkGrouped(IndexDefinition index, KeySchema table, String where) {
        int valueBytes = SortKeyCodec.valueBudget(index, table);
        if (valueBytes < SortKeyCodec.MIN_VALUE_BYTES) {
            throw nodes.error(where + ": orderBy", "the sort key cannot fit DynamoDB's " + DynamoDbLimits.MAX_SORT_KEY_BYTES
                    + " bytes: the tie-breakers (" + index.orderBy().stream().mapToInt(TieBreaker::maxBytes).sum()
                    + " bytes) and the item key (table.maxItemKeyBytes " + table.maxItemKeyBytes() + ") leave the value "
                    + valueBytes + " bytes, and it needs at least " + SortKeyCodec.MIN_VALUE_BYTES
                    + "; lower their maxBytes, or drop a tie-breaker");
        }
        for (AttributePath group : index.group()) {
            if (group.overlaps(index.values().path())) {
                throw nodes.error(where + ": group (" + group + ")", "overlaps the indexed attribute '" + index.values().path()
                        + "'; group by an attribute that names what a query runs within, e.g. a project");
            }
        }
    }
    private void checkFieldPartitioned(IndexDefinition index, KeySchema table, String where) {
        String what = "layout field-partitioned is the index layout from before definitions (kept for stacks that upgrade): ";
        if (!(index.values() instanceof ValueSource.MapEntries)) {
            throw nodes.error(where + ": values", what + "it indexes the entries of a map (entriesOf); use layout grouped");
        }
        if (index.group().size() != 1 || index.orderBy().size() != 1) {
            throw nodes.error(where + ": group/orderBy", what + "it takes exactly one group attribute (stored as 'project') and one numeric orderBy attribute (stored as 'num')");
        }
        if (table.sortKey().isPresent() || table.partitionKey().type() != KeySchema.KeyType.S) {
            throw nodes.error(where, what + "it needs a table keyed by one string attribute; use layout grouped");
        }
        if (!index.projection().isEmpty()) {
            throw nodes.error(where + ": projection", what + "it projects its group and orderBy attributes only; use layout grouped to project others");
        }
    }
}

package com.multikey.index.definition;

import com.multikey.index.DynamoDbLimits;
import com.multikey.index.SortKeyCodec;
import software.amazon.awssdk.protocols.jsoncore.JsonNode;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Reads index definitions (as JSON; {@link DefinitionsYaml} reads the YAML file people write) and refuses ones that
 * cannot work, before anything runs: every error names the file, the index and the attribute, and says what to
 * change. The format is described in {@code docs/index-definitions.md}.
 */
public final class DefinitionsReader {

    public static final int VERSION = 1;
    private static final Pattern INDEX_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]{0,63}");
    private static final Pattern TYPE_NAME = Pattern.compile("[A-Z][A-Za-z0-9]{0,63}");

    private final String file;

    private DefinitionsReader(String file) {
        this.file = file;
    }

    /**
     * Reads JSON definitions (what the build makes of the YAML file, packaged in the function jars).
     *
     * @param source what to call the file in errors
     */
    public static IndexDefinitions readJson(InputStream in, String source) throws IOException {
        JsonNode root;
        try {
            root = JsonNode.parser().parse(in);
        } catch (RuntimeException e) {
            throw new DefinitionException(source + ": not valid JSON (" + e.getClass().getSimpleName() + ")");
        }
        return read(root, source);
    }

    /** Checks and reads definitions parsed into a tree of the AWS SDK's JSON nodes. */
    public static IndexDefinitions read(JsonNode root, String source) {
        return new DefinitionsReader(source).definitions(Tree.of(root));
    }

    private DefinitionException error(String where, String what) {
        return new DefinitionException(file + ": " + where + ": " + what);
    }

    private IndexDefinitions definitions(Tree root) {
        if (root.isMissing() || !root.isObject()) {
            throw new DefinitionException(file + ": expected a mapping with 'version', 'table' and 'indexes'");
        }
        allowOnly(root, "the file", "version", "table", "entityTypes", "indexes");
        Tree version = root.get("version");
        if (version.isMissing() || !version.isInt() || version.asInt() != VERSION) {
            throw error("version", "must be " + VERSION + " (the format this build reads), found "
                    + (version.isMissing() ? "none" : "'" + version.asText() + "'"));
        }
        KeySchema table = table(root.get("table"));
        List<EntityTypeRule> types = entityTypes(root.get("entityTypes"), table);
        Tree indexNodes = root.get("indexes");
        if (indexNodes.isMissing() || !indexNodes.isArray()) {
            throw error("indexes", "expected a list of index definitions (it may be empty: [])");
        }
        List<IndexDefinition> indexes = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (Tree node : indexNodes) {
            IndexDefinition index = index(node, table);
            if (!names.add(index.name())) {
                throw error("index '" + index.name() + "'", "is declared twice; index names must be unique (a name is part of the index's keys)");
            }
            indexes.add(index);
        }
        long fieldPartitioned = indexes.stream().filter(i -> i.layout() == IndexDefinition.Layout.FIELD_PARTITIONED).count();
        if (fieldPartitioned > 1) {
            throw error("indexes", "more than one index uses layout field-partitioned; at most one can (its partitions are bare entry names)");
        }
        checkReplacement(indexes);
        return new IndexDefinitions(VERSION, table, types, indexes, GridState.FIELD_PARTITIONED);
    }

    /**
     * A grouped index that replaces the field-partitioned one indexes the very same items, so a stack can move from one
     * to the other under its readers (their cursors carry over): same covers, group, values and tie-breaker.
     */
    private void checkReplacement(List<IndexDefinition> indexes) {
        List<IndexDefinition> replacing = indexes.stream().filter(i -> i.replaces().isPresent()).toList();
        if (replacing.size() > 1) {
            throw error("indexes", "more than one index has 'replaces'; only the issue grid's field-partitioned index can be replaced");
        }
        for (IndexDefinition grouped : replacing) {
            String where = "index '" + grouped.name() + "': replaces";
            String target = grouped.replaces().get();
            IndexDefinition old = indexes.stream().filter(i -> i.name().equals(target)).findFirst()
                    .orElseThrow(() -> error(where, "no index named '" + target + "' is declared; keep the field-partitioned index "
                            + "declared while stacks may still have it (operator-cli migrate-grid moves a stack)"));
            if (old.layout() != IndexDefinition.Layout.FIELD_PARTITIONED) {
                throw error(where, "index '" + target + "' is not field-partitioned; only that layout is replaced");
            }
            if (!old.covers().equals(grouped.covers()) || !old.group().equals(grouped.group())
                    || !old.values().equals(grouped.values()) || !old.orderBy().equals(grouped.orderBy())) {
                throw error(where, "index '" + target + "' must index the same items: give both the same covers, group, values and orderBy");
            }
        }
    }

    private void allowOnly(Tree node, String where, String... fields) {
        Set<String> allowed = Set.of(fields);
        for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
            String name = it.next();
            if (!allowed.contains(name)) {
                throw error(where, "unknown setting '" + name + "'; expected one of " + String.join(", ", fields));
            }
        }
    }

    private KeySchema table(Tree node) {
        if (node.isMissing() || !node.isObject()) {
            throw error("table", "expected the table's key, e.g. table: {partitionKey: {name: pk, type: S}, sortKey: {name: sk, type: S}}");
        }
        allowOnly(node, "table", "partitionKey", "sortKey", "maxItemKeyBytes");
        KeySchema.KeyAttribute partition = keyAttribute(node.get("partitionKey"), "table.partitionKey");
        Optional<KeySchema.KeyAttribute> sort = node.hasNonNull("sortKey")
                ? Optional.of(keyAttribute(node.get("sortKey"), "table.sortKey")) : Optional.empty();
        if (sort.isPresent() && sort.get().name().equals(partition.name())) {
            throw error("table.sortKey", "names the partition key's attribute '" + partition.name() + "'; name the sort key attribute");
        }
        int maxItemKeyBytes = KeySchema.DEFAULT_MAX_ITEM_KEY_BYTES;
        if (node.has("maxItemKeyBytes")) {
            Tree max = node.get("maxItemKeyBytes");
            if (!max.isInt() || max.asInt() < 8 || max.asInt() > DynamoDbLimits.MAX_SORT_KEY_BYTES / 2) {
                throw error("table.maxItemKeyBytes", "must be a whole number from 8 to " + DynamoDbLimits.MAX_SORT_KEY_BYTES / 2
                        + " (the bytes an item's key may take at the end of an index sort key)");
            }
            maxItemKeyBytes = max.asInt();
        }
        return new KeySchema(partition, sort, maxItemKeyBytes);
    }

    private KeySchema.KeyAttribute keyAttribute(Tree node, String where) {
        if (node.isMissing() || !node.isObject()) {
            throw error(where, "expected {name: <attribute>, type: S|N|B}");
        }
        allowOnly(node, where, "name", "type");
        String name = text(node, "name", where);
        if (name.isEmpty() || name.contains(".")) {
            throw error(where, "the key attribute's name must be a top-level attribute name, found '" + name + "'");
        }
        String type = node.hasNonNull("type") ? node.get("type").asText() : "S";
        try {
            return new KeySchema.KeyAttribute(name, KeySchema.KeyType.valueOf(type));
        } catch (IllegalArgumentException e) {
            throw error(where + ".type", "the key attribute '" + name + "' must be of type S, N or B (DynamoDB's key types), found '" + type + "'");
        }
    }

    private static String text(Tree node, String field, String where) {
        Tree value = node.get(field);
        if (value.isMissing() || !value.isValueNode() || value.isNull()) {
            throw new DefinitionException(where + ": '" + field + "' is missing");
        }
        return value.asText();
    }

    private List<EntityTypeRule> entityTypes(Tree node, KeySchema table) {
        if (node.isMissing()) {
            // the app table's convention: the type is the partition key's prefix before '#'
            return List.of(new EntityTypeRule.KeyPrefix(new AttributePath(List.of(table.partitionKey().name())), "#"));
        }
        if (!node.isArray()) {
            throw error("entityTypes", "expected a list of rules, e.g. - {name: Layer, when: [{attribute: pk, beginsWith: 'lyr#'}]}");
        }
        List<EntityTypeRule> rules = new ArrayList<>();
        int n = 0;
        for (Tree rule : node) {
            String where = "entityTypes[" + n++ + "]";
            if (rule.has("keyPrefix")) {
                allowOnly(rule, where, "keyPrefix");
                Tree prefix = rule.get("keyPrefix");
                allowOnly(prefix, where + ".keyPrefix", "attribute", "separator");
                AttributePath attribute = AttributePath.parse(prefix.path("attribute").asText(""), file + ": " + where + ".keyPrefix.attribute");
                String separator = prefix.path("separator").asText("#");
                if (separator.isEmpty()) {
                    throw error(where + ".keyPrefix.separator", "must not be empty");
                }
                rules.add(new EntityTypeRule.KeyPrefix(attribute, separator));
            } else {
                allowOnly(rule, where, "name", "when");
                String name = rule.path("name").asText("");
                if (!TYPE_NAME.matcher(name).matches()) {
                    throw error(where + ".name", "'" + name + "' is not an entity type name; use PascalCase letters and digits, e.g. Layer");
                }
                List<Condition> when = conditions(rule.get("when"), where + " (" + name + ").when", table);
                if (when.isEmpty()) {
                    throw error(where + " (" + name + ").when", "lists no condition; say how an item of this type is told, e.g. [{attribute: sk, beginsWith: 'ISSUE#'}]");
                }
                rules.add(new EntityTypeRule.Named(name, when));
            }
        }
        return rules;
    }

    private List<Condition> conditions(Tree node, String where, KeySchema table) {
        if (node.isMissing() || node.isNull()) {
            return List.of();
        }
        if (!node.isArray()) {
            throw error(where, "expected a list of conditions");
        }
        List<Condition> conditions = new ArrayList<>();
        int n = 0;
        for (Tree condition : node) {
            String at = where + "[" + n++ + "]";
            allowOnly(condition, at, "attribute", "beginsWith", "equals", "exists");
            AttributePath path = AttributePath.parse(condition.path("attribute").asText(""), file + ": " + at + ".attribute");
            int tests = (condition.has("beginsWith") ? 1 : 0) + (condition.has("equals") ? 1 : 0) + (condition.has("exists") ? 1 : 0);
            if (tests != 1) {
                throw error(at + " (" + path + ")", "needs exactly one of beginsWith, equals or exists");
            }
            if (condition.has("beginsWith")) {
                Tree prefix = condition.get("beginsWith");
                if (!prefix.isTextual()) {
                    throw error(at + " (" + path + ")", "beginsWith takes a string");
                }
                keyOfType(table, path, at + " (" + path + ")", "beginsWith tests a string", KeySchema.KeyType.S);
                conditions.add(new Condition.BeginsWith(path, prefix.asText()));
            } else if (condition.has("equals")) {
                AttributeValue value = scalar(condition.get("equals"), at + " (" + path + ").equals");
                switch (value.type()) {
                    case S -> keyOfType(table, path, at + " (" + path + ")", "equals a string", KeySchema.KeyType.S);
                    case N -> keyOfType(table, path, at + " (" + path + ")", "equals a number", KeySchema.KeyType.N);
                    default -> keyOfType(table, path, at + " (" + path + ")", "equals a boolean");
                }
                conditions.add(new Condition.Equals(path, value));
            } else {
                if (!condition.get("exists").isBoolean() || !condition.get("exists").asBoolean()) {
                    throw error(at + " (" + path + ")", "exists takes true (an index covering items that lack an attribute lists what they have instead)");
                }
                conditions.add(new Condition.Exists(path));
            }
        }
        return conditions;
    }

    private AttributeValue scalar(Tree value, String where) {
        if (value.isTextual()) {
            return AttributeValue.fromS(value.asText());
        }
        if (value.isNumber()) {
            return AttributeValue.fromN(value.decimalValue().toString());
        }
        if (value.isBoolean()) {
            return AttributeValue.fromBool(value.asBoolean());
        }
        throw error(where, "takes a string, a number or a boolean");
    }

    /**
     * Refuses a path to a key attribute of a type the setting can never use (a key is always present, of its declared
     * type): a condition on it would pass no item, a value or tie-breaker of it would be rejected on every item.
     */
    private void keyOfType(KeySchema table, AttributePath path, String where, String what, KeySchema.KeyType... usable) {
        if (!table.isKeyAttribute(path)) {
            return;
        }
        for (KeySchema.KeyAttribute attribute : table.attributes()) {
            if (attribute.name().equals(path.names().get(0)) && !List.of(usable).contains(attribute.type())) {
                String role = attribute == table.partitionKey() ? "partition key" : "sort key";
                throw error(where, path + " is the table's " + role + " of type " + attribute.type() + ", and " + what
                        + ", so it could never work: name another attribute");
            }
        }
    }

    private IndexDefinition index(Tree node, KeySchema table) {
        if (!node.isObject()) {
            throw error("indexes", "each index is a mapping with at least 'name' and 'values'");
        }
        String name = node.path("name").asText("");
        String where = "index '" + name + "'";
        if (!INDEX_NAME.matcher(name).matches()) {
            throw error(where, "the name must be 1-64 letters, digits, '_', '.' or '-', starting with a letter or digit; it becomes part of the index keys, so choose it once");
        }
        allowOnly(node, where, "name", "layout", "covers", "group", "values", "orderBy", "projection", "replaces");
        IndexDefinition.Layout layout = switch (node.path("layout").asText("grouped")) {
            case "grouped" -> IndexDefinition.Layout.GROUPED;
            case "field-partitioned" -> IndexDefinition.Layout.FIELD_PARTITIONED;
            default -> throw error(where + ": layout", "must be grouped (the default) or field-partitioned, found '" + node.get("layout").asText() + "'");
        };
        List<Condition> covers = conditions(node.get("covers"), where + ": covers", table);
        List<AttributePath> group = paths(node.get("group"), where + ": group");
        ValueSource values = values(node.get("values"), where, table);
        List<TieBreaker> orderBy = tieBreakers(node.get("orderBy"), where + ": orderBy", table);
        List<AttributePath> projection = paths(node.get("projection"), where + ": projection");
        for (AttributePath projected : projection) {
            if (projected.overlaps(values.path())) {
                throw error(where + ": projection (" + projected + ")", "overlaps the indexed attribute '" + values.path()
                        + "': every index item of the item would carry a copy of it, which can pass DynamoDB's "
                        + DynamoDbLimits.MAX_ITEM_BYTES / 1024 + " KB item size many times over; project other attributes, or none");
            }
        }
        Optional<String> replaces = Optional.empty();
        if (node.has("replaces")) {
            if (!node.get("replaces").isTextual() || node.get("replaces").asText().isEmpty()) {
                throw error(where + ": replaces", "names the field-partitioned index this grouped index takes the place of, e.g. replaces: custom_fields");
            }
            if (layout != IndexDefinition.Layout.GROUPED) {
                throw error(where + ": replaces", "only a grouped index replaces another (the issue grid's field-partitioned layout)");
            }
            replaces = Optional.of(node.get("replaces").asText());
        }
        IndexDefinition index = new IndexDefinition(name, layout, covers, group, values, orderBy, projection, replaces);
        if (layout == IndexDefinition.Layout.FIELD_PARTITIONED) {
            checkFieldPartitioned(index, table, where);
        } else {
            checkGrouped(index, table, where);
        }
        return index;
    }

    private List<AttributePath> paths(Tree node, String where) {
        if (node.isMissing() || node.isNull()) {
            return List.of();
        }
        List<Tree> list = node.asList();
        List<AttributePath> paths = new ArrayList<>();
        for (Tree path : list) {
            if (!path.isTextual()) {
                throw error(where, "expected attribute paths (strings)");
            }
            AttributePath parsed = AttributePath.parse(path.asText(), file + ": " + where);
            if (paths.contains(parsed)) {
                throw error(where, "names '" + parsed + "' twice");
            }
            paths.add(parsed);
        }
        return paths;
    }

    private ValueSource values(Tree node, String where, KeySchema table) {
        if (node.isMissing() || !node.isObject() || node.size() != 1) {
            throw error(where + ": values", "say where the values come from with exactly one of: entriesOf: <map>, elementsOf: <list or set>, attribute: <scalar>");
        }
        allowOnly(node, where + ": values", "entriesOf", "elementsOf", "attribute");
        String kind = node.fieldNames().next();
        AttributePath path = AttributePath.parse(node.get(kind).isTextual() ? node.get(kind).asText() : "", file + ": " + where + ": values." + kind);
        String at = where + ": values." + kind + " (" + path + ")";
        switch (kind) {
            case "entriesOf" -> keyOfType(table, path, at, "entriesOf takes a map");
            case "elementsOf" -> keyOfType(table, path, at, "elementsOf takes a list or a set");
            default -> keyOfType(table, path, at, "a value is a string, a number or a boolean", KeySchema.KeyType.S, KeySchema.KeyType.N);
        }
        return switch (kind) {
            case "entriesOf" -> new ValueSource.MapEntries(path);
            case "elementsOf" -> new ValueSource.Elements(path);
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
                AttributePath path = AttributePath.parse(entry.asText(), file + ": " + where);
                keyOfType(table, path, where + " (" + path + ")", "a tie-breaker is a string, a number or a boolean",
                        KeySchema.KeyType.S, KeySchema.KeyType.N);
                tieBreakers.add(new TieBreaker(path, TieBreaker.DEFAULT_MAX_BYTES));
                continue;
            }
            allowOnly(entry, where, "attribute", "maxBytes");
            AttributePath path = AttributePath.parse(entry.path("attribute").asText(""), file + ": " + where);
            boolean given = entry.has("maxBytes");
            int maxBytes = entry.path("maxBytes").asInt(TieBreaker.DEFAULT_MAX_BYTES);
            if (given && !entry.get("maxBytes").isInt() || maxBytes < TieBreaker.MIN_MAX_BYTES || maxBytes > DynamoDbLimits.MAX_SORT_KEY_BYTES / 2) {
                throw error(where + " (" + path + ")", "maxBytes must be from " + TieBreaker.MIN_MAX_BYTES + " to "
                        + DynamoDbLimits.MAX_SORT_KEY_BYTES / 2 + ", found " + entry.path("maxBytes").asText());
            }
            keyOfType(table, path, where + " (" + path + ")", "a tie-breaker is a string, a number or a boolean",
                    KeySchema.KeyType.S, KeySchema.KeyType.N);
            tieBreakers.add(new TieBreaker(path, maxBytes));
        }
        return tieBreakers;
    }

    private void checkGrouped(IndexDefinition index, KeySchema table, String where) {
        int valueBytes = SortKeyCodec.valueBudget(index, table);
        if (valueBytes < SortKeyCodec.MIN_VALUE_BYTES) {
            throw error(where + ": orderBy", "the sort key cannot fit DynamoDB's " + DynamoDbLimits.MAX_SORT_KEY_BYTES
                    + " bytes: the tie-breakers (" + index.orderBy().stream().mapToInt(TieBreaker::maxBytes).sum()
                    + " bytes) and the item key (table.maxItemKeyBytes " + table.maxItemKeyBytes() + ") leave the value "
                    + valueBytes + " bytes, and it needs at least " + SortKeyCodec.MIN_VALUE_BYTES
                    + "; lower their maxBytes, or drop a tie-breaker");
        }
        for (AttributePath group : index.group()) {
            if (group.overlaps(index.values().path())) {
                throw error(where + ": group (" + group + ")", "overlaps the indexed attribute '" + index.values().path()
                        + "'; group by an attribute that names what a query runs within, e.g. a project");
            }
        }
    }

    private void checkFieldPartitioned(IndexDefinition index, KeySchema table, String where) {
        String what = "layout field-partitioned is the index layout from before definitions (kept for stacks that upgrade): ";
        if (!(index.values() instanceof ValueSource.MapEntries)) {
            throw error(where + ": values", what + "it indexes the entries of a map (entriesOf); use layout grouped");
        }
        if (index.group().size() != 1 || index.orderBy().size() != 1) {
            throw error(where + ": group/orderBy", what + "it takes exactly one group attribute (stored as 'project') and one numeric orderBy attribute (stored as 'num')");
        }
        if (table.sortKey().isPresent() || table.partitionKey().type() != KeySchema.KeyType.S) {
            throw error(where, what + "it needs a table keyed by one string attribute; use layout grouped");
        }
        if (!index.projection().isEmpty()) {
            throw error(where + ": projection", what + "it projects its group and orderBy attributes only; use layout grouped to project others");
        }
    }
}

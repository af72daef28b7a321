package com.multikey.index.definition;

import com.multikey.index.DynamoDbLimits;
import software.amazon.awssdk.protocols.jsoncore.JsonNode;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Reads index definitions (as JSON; {@link DefinitionsYaml} reads the YAML file people write) and refuses ones that
 * cannot work, before anything runs: every error names the file, the index and the attribute, and says what to
 * change. The format is described in {@code docs/index-definitions.md}. This class reads the file's own settings
 * (version, table, entity types, the list of indexes and what replaces what); {@link IndexDefinitionReader} reads one
 * index, {@link DefinitionNodes} the conditions, paths and settings both use.
 */
public final class DefinitionsReader {

    public static final int VERSION = 1;
    private static final Pattern TYPE_NAME = Pattern.compile("[A-Z][A-Za-z0-9]{0,63}");

    private final String file;
    private final DefinitionNodes nodes;
    private final IndexDefinitionReader indexReader;

    private DefinitionsReader(String file) {
        this.file = file;
        this.nodes = new DefinitionNodes(file);
        this.indexReader = new IndexDefinitionReader(nodes);
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
        return read(root, source, Map.of());
    }

    /**
     * Checks and reads definitions parsed into a tree of the AWS SDK's JSON nodes, with how the file wrote the values
     * YAML read as numbers, booleans or null (by JSON pointer), to name them as written when refused.
     */
    static IndexDefinitions read(JsonNode root, String source, Map<String, String> written) {
        return new DefinitionsReader(source).definitions(Tree.of(root, written));
    }

    private DefinitionException error(String where, String what) {
        return nodes.error(where, what);
    }

    private IndexDefinitions definitions(Tree root) {
        if (root.isMissing() || !root.isObject()) {
            throw new DefinitionException(file + ": expected a mapping with 'version', 'table' and 'indexes'");
        }
        nodes.allowOnly(root, "the file", "version", "table", "entityTypes", "indexes");
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
            IndexDefinition index = indexReader.read(node, table);
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


    private KeySchema table(Tree node) {
        if (node.isMissing() || !node.isObject()) {
            throw error("table", "expected the table's key, e.g. table: {partitionKey: {name: pk, type: S}, sortKey: {name: sk, type: S}}");
        }
        nodes.allowOnly(node, "table", "partitionKey", "sortKey", "maxItemKeyBytes");
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
        nodes.allowOnly(node, where, "name", "type");
        String name = nodes.text(node, "name", where);
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
                nodes.allowOnly(rule, where, "keyPrefix");
                Tree prefix = rule.get("keyPrefix");
                nodes.allowOnly(prefix, where + ".keyPrefix", "attribute", "separator");
                AttributePath attribute = AttributePath.parse(nodes.text(prefix, "attribute", where + ".keyPrefix", ""),
                        file + ": " + where + ".keyPrefix.attribute");
                String separator = nodes.text(prefix, "separator", where + ".keyPrefix", "#");
                if (separator.isEmpty()) {
                    throw error(where + ".keyPrefix.separator", "must not be empty");
                }
                rules.add(new EntityTypeRule.KeyPrefix(attribute, separator));
            } else {
                nodes.allowOnly(rule, where, "name", "when");
                String name = rule.path("name").asText("");
                if (!TYPE_NAME.matcher(name).matches()) {
                    throw error(where + ".name", "'" + name + "' is not an entity type name; use PascalCase letters and digits, e.g. Layer");
                }
                List<Condition> when = nodes.conditions(rule.get("when"), where + " (" + name + ").when", table);
                if (when.isEmpty()) {
                    throw error(where + " (" + name + ").when", "lists no condition; say how an item of this type is told, e.g. [{attribute: sk, beginsWith: 'ISSUE#'}]");
                }
                rules.add(new EntityTypeRule.Named(name, when));
            }
        }
        return rules;
    }








}

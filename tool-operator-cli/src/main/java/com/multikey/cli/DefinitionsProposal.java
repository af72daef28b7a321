package com.multikey.cli;

import com.multikey.index.definition.KeySchema;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The definitions {@code init} proposes for a table from its description and a sample of its items: the key schema,
 * the entity types of its key prefixes, and for each type a candidate index per map, list or set and scalar attribute
 * its items carry. A pure function of what was read.
 *
 * @param key         the table's key schema
 * @param types       the entity types found (with the sample's counts) and the items none takes
 * @param candidates  candidate indexes, in the order of the types, then of the attributes (most carried first)
 * @param unaddressed attributes whose name holds a dot: no definition can name them
 */
record DefinitionsProposal(KeySchema key, EntityTypeFinder.Found types, List<Candidate> candidates, Set<String> unaddressed) {

    DefinitionsProposal {
        candidates = List.copyOf(candidates);
        unaddressed = Set.copyOf(unaddressed);
    }

    /**
     * One candidate index over the items of a type (all items when no type was found).
     *
     * @param entityType the type whose items it covers (null: every item)
     * @param typeItems  how many sampled items are of that type
     * @param group      the attribute a query would run within (the partition key, when the type's items share
     *                   partition key values), or null
     * @param values     {@code entriesOf}, {@code elementsOf} or {@code attribute}
     */
    record Candidate(String name, EntityTypeFinder.EntityType entityType, int typeItems, String group, String values,
                     AttributeSurvey.AttributeStats stats) {
    }

    static DefinitionsProposal of(TableDescription table, List<Map<String, AttributeValue>> items) {
        KeySchema key = keySchema(table);
        EntityTypeFinder.Found found = EntityTypeFinder.find(key, items);
        Set<String> keyNames = key.attributes().stream().map(KeySchema.KeyAttribute::name).collect(Collectors.toSet());
        Map<EntityTypeFinder.EntityType, List<Map<String, AttributeValue>>> byType = new java.util.LinkedHashMap<>();
        found.types().forEach(type -> byType.put(type, new ArrayList<>()));
        for (Map<String, AttributeValue> item : items) {
            found.typeOf(item).ifPresent(type -> byType.get(type).add(item));
        }
        if (found.types().isEmpty() && !items.isEmpty()) {
            byType.put(null, items);
        }
        List<Candidate> candidates = new ArrayList<>();
        Set<String> names = new HashSet<>();
        Set<String> unaddressed = new HashSet<>();
        byType.forEach((type, typed) -> {
            String group = sharedPartition(key, typed) ? key.partitionKey().name() : null;
            for (AttributeSurvey.AttributeStats stats : AttributeSurvey.of(typed, keyNames)) {
                if (stats.name().contains(".")) {
                    unaddressed.add(stats.name());
                    continue;
                }
                String values = switch (stats.kind()) {
                    case MAP -> "entriesOf";
                    case ELEMENTS -> "elementsOf";
                    case SCALAR -> "attribute";
                    case OTHER -> null;
                };
                if (values != null) {
                    candidates.add(new Candidate(indexName(type, stats.name(), names), type, typed.size(), group, values, stats));
                }
            }
        });
        return new DefinitionsProposal(key, found, candidates, unaddressed);
    }

    /** The table's key schema as the definitions declare it. */
    static KeySchema keySchema(TableDescription table) {
        Map<String, String> types = new HashMap<>();
        for (AttributeDefinition definition : table.attributeDefinitions()) {
            types.put(definition.attributeName(), definition.attributeTypeAsString());
        }
        KeySchema.KeyAttribute partition = null;
        Optional<KeySchema.KeyAttribute> sort = Optional.empty();
        for (KeySchemaElement element : table.keySchema()) {
            KeySchema.KeyAttribute attribute = new KeySchema.KeyAttribute(element.attributeName(),
                    KeySchema.KeyType.valueOf(types.getOrDefault(element.attributeName(), "S")));
            if (element.keyType() == KeyType.HASH) {
                partition = attribute;
            } else {
                sort = Optional.of(attribute);
            }
        }
        return new KeySchema(partition, sort, KeySchema.DEFAULT_MAX_ITEM_KEY_BYTES);
    }

    /** Whether items of a table with a sort key share partition key values: then a query runs within one. */
    private static boolean sharedPartition(KeySchema key, List<Map<String, AttributeValue>> items) {
        if (key.sortKey().isEmpty()) {
            return false;
        }
        long distinct = items.stream().map(item -> item.get(key.partitionKey().name())).distinct().count();
        return distinct < items.size();
    }

    /** {@code <type>-<attribute>}, as an index name may be spelled (1-64 of letters, digits, '_', '.', '-'), unique. */
    private static String indexName(EntityTypeFinder.EntityType type, String attribute, Set<String> taken) {
        String raw = (type == null ? "" : type.name().toLowerCase(Locale.ROOT) + "-") + attribute;
        String base = raw.replaceAll("[^A-Za-z0-9_.-]", "-").replaceAll("^[^A-Za-z0-9]+", "");
        base = base.isEmpty() ? "index" : base.length() > 60 ? base.substring(0, 60) : base;
        String name = base;
        for (int n = 2; !taken.add(name); n++) {
            name = base + "-" + n;
        }
        return name;
    }
}

package com.multikey.query;

import com.multikey.index.definition.AttributePath;
import com.multikey.index.definition.Condition;
import com.multikey.index.definition.IndexDefinition;
import com.multikey.index.definition.TieBreaker;
import com.multikey.index.definition.ValueSource;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The index that would answer a costly request in one Query and one BatchGetItem a page: the request's equality
 * predicates become group attributes (a partition per value), the sorted field its values, the rest as the read index
 * declares it. A request's page then names the group's values in order: the index's group, then each equality's value.
 */
final class Suggestion {

    /** A page that read more than this many items per item it may list is worth an index of its own. */
    static final int ITEMS_PER_LISTED_ITEM = 10;

    private Suggestion() {
    }

    static Optional<String> of(PageRequest request, IndexDefinition index, ItemTests tests, int examined, boolean full) {
        if (examined <= ITEMS_PER_LISTED_ITEM * request.pageSize() && full) {
            return Optional.empty();
        }
        List<AttributePath> groupBy = new ArrayList<>();
        for (Predicate predicate : request.predicates()) {
            if (predicate instanceof Predicate.Equals && !tests.isSortField(predicate.field())) {
                AttributePath path = tests.isEntry(predicate.field())
                        ? new AttributePath(concat(index.values().path().names(), tests.entryName(predicate.field())))
                        : tests.attributePath(predicate.field());
                if (!groupBy.contains(path) && !index.group().contains(path)) {
                    groupBy.add(path);
                }
            }
        }
        if (groupBy.isEmpty()) {
            return Optional.empty();
        }
        boolean entries = index.values() instanceof ValueSource.MapEntries;
        AttributePath sorted = entries ? new AttributePath(concat(index.values().path().names(), request.attribId())) : index.values().path();
        if (sorted.names().stream().anyMatch(name -> name.contains(".")) || groupBy.stream().anyMatch(p -> p.names().stream()
                .anyMatch(name -> name.contains(".")))) {
            return Optional.empty();   // a name holding a dot cannot be written as a path
        }
        String values = index.values() instanceof ValueSource.Elements ? "{elementsOf: " + sorted + "}" : "{attribute: " + sorted + "}";
        List<AttributePath> group = new ArrayList<>(index.group());
        group.addAll(groupBy);
        StringBuilder yaml = new StringBuilder();
        yaml.append("- name: ").append(name(index, sorted, groupBy)).append('\n');
        if (!index.covers().isEmpty()) {
            yaml.append("  covers: [").append(String.join(", ", index.covers().stream().map(Suggestion::condition).toList())).append("]\n");
        }
        yaml.append("  group: [").append(String.join(", ", group.stream().map(AttributePath::toString).toList())).append("]\n");
        yaml.append("  values: ").append(values).append('\n');
        if (!index.orderBy().isEmpty()) {
            yaml.append("  orderBy: [").append(String.join(", ", index.orderBy().stream().map(Suggestion::tieBreaker).toList())).append("]\n");
        }
        return Optional.of(yaml.toString());
    }

    private static List<String> concat(List<String> names, String last) {
        List<String> all = new ArrayList<>(names);
        all.add(last);
        return all;
    }

    private static String name(IndexDefinition index, AttributePath sorted, List<AttributePath> groupBy) {
        String name = index.name() + "-by-" + String.join("-", groupBy.stream().map(p -> p.names().get(p.names().size() - 1)).toList())
                + "-" + sorted.names().get(sorted.names().size() - 1);
        name = name.replaceAll("[^A-Za-z0-9_.-]", "_");
        return name.length() > 64 ? name.substring(0, 64) : name;
    }

    private static String condition(Condition condition) {
        return switch (condition) {
            case Condition.BeginsWith c -> "{attribute: " + c.path() + ", beginsWith: " + quote(c.prefix()) + "}";
            case Condition.Equals c -> "{attribute: " + c.path() + ", equals: " + scalar(c.value()) + "}";
            case Condition.Exists c -> "{attribute: " + c.path() + ", exists: true}";
        };
    }

    private static String scalar(AttributeValue value) {
        if (value.n() != null) {
            return value.n();
        }
        if (value.bool() != null) {
            return value.bool().toString();
        }
        return quote(value.s());
    }

    private static String tieBreaker(TieBreaker tieBreaker) {
        return tieBreaker.maxBytes() == TieBreaker.DEFAULT_MAX_BYTES ? tieBreaker.path().toString()
                : "{attribute: " + tieBreaker.path() + ", maxBytes: " + tieBreaker.maxBytes() + "}";
    }

    private static String quote(String text) {
        return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

}

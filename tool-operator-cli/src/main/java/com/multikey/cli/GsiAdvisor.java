package com.multikey.cli;

import com.multikey.index.DynamoDbLimits;
import com.multikey.index.definition.AttributePath;
import com.multikey.index.definition.Condition;
import com.multikey.index.definition.IndexDefinition;
import com.multikey.index.definition.KeySchema;
import com.multikey.index.definition.TieBreaker;
import com.multikey.index.definition.ValueSource;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Decides whether a native global secondary index could serve a declared index, by what GSIs take since November 2025:
 * up to {@value #MAX_KEY_ATTRIBUTES} partition-key and {@value #MAX_KEY_ATTRIBUTES} sort-key attributes, each a
 * top-level attribute of one type, S, N or B (no map entries, no list elements, no ordering across types), at most
 * {@value #MAX_GSIS} per table. The types are those the sample shows (none: assumed S, and said so).
 */
final class GsiAdvisor {

    static final int MAX_KEY_ATTRIBUTES = 4;
    static final int MAX_GSIS = 20;
    private static final Set<AttributeValue.Type> KEY_TYPES = Set.of(AttributeValue.Type.S, AttributeValue.Type.N, AttributeValue.Type.B);

    private GsiAdvisor() {
    }

    static GsiVerdict verdict(IndexDefinition index, KeySchema table, List<Map<String, AttributeValue>> sample) {
        List<String> reasons = new ArrayList<>();
        AttributePath value = index.values().path();
        switch (index.values()) {
            case ValueSource.MapEntries entries -> reasons.add("it indexes the entries of the map " + value
                    + ": a GSI key is a top-level attribute, never a map's entry");
            case ValueSource.Elements elements -> reasons.add("it indexes each element of the list or set " + value
                    + ": a GSI holds an item once, never once per element");
            case ValueSource.Words words -> reasons.add("it indexes each word of the text " + value
                    + ": a GSI holds an item once, never once per word");
            case ValueSource.Scalar scalar -> {
                if (!value.isTopLevel()) {
                    reasons.add("its value " + value + " is nested in a map: a GSI key is a top-level attribute (copy it to one to use a GSI)");
                }
            }
        }
        List<AttributePath> sortAttributes = new ArrayList<>();
        sortAttributes.add(value);
        index.orderBy().stream().map(TieBreaker::path).forEach(sortAttributes::add);
        if (index.group().isEmpty()) {
            reasons.add("it has no group: a GSI's partition key needs an attribute, and a query reads one partition-key value, "
                    + "so a GSI could not order all items by value");
        }
        if (index.group().size() > MAX_KEY_ATTRIBUTES) {
            reasons.add("it groups by " + index.group().size() + " attributes: a GSI partition key takes at most " + MAX_KEY_ATTRIBUTES);
        }
        if (sortAttributes.size() > MAX_KEY_ATTRIBUTES) {
            reasons.add("it orders by " + sortAttributes.size() + " attributes (the value and " + index.orderBy().size()
                    + " tie-breakers): a GSI sort key takes at most " + MAX_KEY_ATTRIBUTES);
        }
        for (AttributePath path : index.group()) {
            if (!path.isTopLevel()) {
                reasons.add("its group attribute " + path + " is nested in a map: a GSI key is a top-level attribute");
            }
        }
        for (TieBreaker tieBreaker : index.orderBy()) {
            if (!tieBreaker.path().isTopLevel()) {
                reasons.add("its tie-breaker " + tieBreaker.path() + " is nested in a map: a GSI key is a top-level attribute");
            }
        }
        Map<AttributePath, Set<AttributeValue.Type>> types = new LinkedHashMap<>();
        index.group().forEach(path -> types.put(path, types(index, table, path, sample)));
        if (index.values() instanceof ValueSource.Scalar) {
            sortAttributes.forEach(path -> types.put(path, types(index, table, path, sample)));
        }
        types.forEach((path, seen) -> {
            if (seen.size() > 1) {
                reasons.add(path + " holds values of several types (" + names(seen) + "): a GSI key attribute has one type, DynamoDB "
                        + "refuses an item's write when its value has another, and no GSI orders across types (the index orders "
                        + "numbers < strings < booleans)");
            } else if (!seen.isEmpty() && !KEY_TYPES.containsAll(seen)) {
                reasons.add(path + " holds " + names(seen) + " values: a GSI key is S, N or B");
            }
        });
        if (!reasons.isEmpty()) {
            return new GsiVerdict.NotNative(reasons);
        }
        return new GsiVerdict.Native(GsiTemplate.of(index, types), differences(index, table, sample.isEmpty()));
    }

    /** What the GSI would not do that the index does. */
    private static List<String> differences(IndexDefinition index, KeySchema table, boolean typesAssumed) {
        List<String> differences = new ArrayList<>();
        Set<String> keyAttributes = new TreeSet<>();
        index.group().forEach(p -> keyAttributes.add(p.toString()));
        keyAttributes.add(index.values().path().toString());
        index.orderBy().forEach(t -> keyAttributes.add(t.path().toString()));
        List<String> unserved = index.covers().stream()
                .filter(c -> !(c instanceof Condition.Exists && keyAttributes.contains(c.path().toString())))
                .map(GsiAdvisor::describe).toList();
        if (!unserved.isEmpty()) {
            differences.add("it holds every item that has " + String.join(", ", keyAttributes) + ", not only those where "
                    + String.join(" and ", unserved) + ": filter at read time (a filter reads, and bills, the items it drops)");
        }
        if (!index.orderBy().isEmpty()) {
            differences.add("an item without " + index.orderBy().stream().map(t -> t.path().toString()).collect(Collectors.joining(" or "))
                    + " is not in the GSI (the index sorts it first)");
        }
        differences.add("DynamoDB refuses an item's write when a key value passes " + DynamoDbLimits.MAX_SORT_KEY_BYTES
                + " bytes (sort key) or " + DynamoDbLimits.MAX_PARTITION_KEY_BYTES + " bytes (partition key); the index cuts a long value in its key and keeps it whole");
        if (typesAssumed) {
            differences.add("the attribute types are assumed S (no sample was read): check them before pasting");
        }
        return differences;
    }

    private static String describe(Condition condition) {
        return switch (condition) {
            case Condition.BeginsWith begins -> begins.path() + " begins with " + begins.prefix();
            case Condition.Equals equals -> equals.path() + " = " + AttributeSurvey.canonical(equals.value()).replaceFirst("^[A-Z]+:", "");
            case Condition.Exists exists -> exists.path() + " exists";
        };
    }

    /** The types a key path's values have in the covered sample items; a table key's declared type without a sample. */
    private static Set<AttributeValue.Type> types(IndexDefinition index, KeySchema table, AttributePath path, List<Map<String, AttributeValue>> sample) {
        Set<AttributeValue.Type> seen = new TreeSet<>();
        for (Map<String, AttributeValue> item : sample) {
            AttributeValue value = index.covers(item) ? path.resolve(item) : null;
            if (value != null && value.type() != AttributeValue.Type.NUL) {
                seen.add(value.type());
            }
        }
        if (seen.isEmpty() && table.isKeyAttribute(path)) {
            table.attributes().stream().filter(a -> a.name().equals(path.names().get(0))).findFirst()
                    .ifPresent(a -> seen.add(a.type().attributeType()));
        }
        return seen;
    }

    private static String names(Set<AttributeValue.Type> types) {
        return types.stream().map(Enum::name).sorted().collect(Collectors.joining(", "));
    }
}

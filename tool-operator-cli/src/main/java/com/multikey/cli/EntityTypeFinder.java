package com.multikey.cli;

import com.multikey.index.definition.KeySchema;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Finds the entity types of a single-table design in the prefixes of its items' keys: {@code ISSUE#12} and
 * {@code issue#020e} begin with {@code ISSUE#} and {@code issue#}, {@code lyrVrsn12#} with {@code lyrVrsn}. Each
 * combination of partition- and sort-key prefix seen is a type, told by the partition key's prefix when no other type
 * shares it, else by the sort key's, else by both; the counts are those of the rules applied in order to the sample.
 */
final class EntityTypeFinder {

    /** A string key attribute beginning with a prefix. */
    record KeyPrefix(String attribute, String prefix) {
        boolean test(Map<String, AttributeValue> item) {
            AttributeValue value = item.get(attribute);
            return value != null && value.s() != null && value.s().startsWith(prefix);
        }
    }

    /** A proposed entity type: items passing every condition, and how many of the sample's items it took. */
    record EntityType(String name, List<KeyPrefix> when, int items) {
        EntityType {
            when = List.copyOf(when);
        }

        boolean test(Map<String, AttributeValue> item) {
            return when.stream().allMatch(condition -> condition.test(item));
        }
    }

    /** The types found, and how many sampled items none of them takes. */
    record Found(List<EntityType> types, int untyped) {
        Found {
            types = List.copyOf(types);
        }

        Optional<EntityType> typeOf(Map<String, AttributeValue> item) {
            return types.stream().filter(type -> type.test(item)).findFirst();
        }
    }

    private EntityTypeFinder() {
    }

    static Found find(KeySchema key, List<Map<String, AttributeValue>> items) {
        String pk = key.partitionKey().name();
        String sk = key.sortKey().map(KeySchema.KeyAttribute::name).orElse(null);
        Map<List<String>, Integer> combinations = new LinkedHashMap<>();
        for (Map<String, AttributeValue> item : items) {
            String pkPrefix = prefixOf(item.get(pk)).orElse(null);
            String skPrefix = sk == null ? null : prefixOf(item.get(sk)).orElse(null);
            if (pkPrefix != null || skPrefix != null) {
                combinations.merge(java.util.Arrays.asList(pkPrefix, skPrefix), 1, Integer::sum);
            }
        }
        List<List<KeyPrefix>> rules = new ArrayList<>();
        for (List<String> combination : combinations.keySet()) {
            String pkPrefix = combination.get(0);
            String skPrefix = combination.get(1);
            if (pkPrefix != null && unique(combinations.keySet(), 0, pkPrefix)) {
                rules.add(List.of(new KeyPrefix(pk, pkPrefix)));
            } else if (skPrefix != null && unique(combinations.keySet(), 1, skPrefix)) {
                rules.add(List.of(new KeyPrefix(sk, skPrefix)));
            } else if (pkPrefix != null && skPrefix != null) {
                rules.add(List.of(new KeyPrefix(pk, pkPrefix), new KeyPrefix(sk, skPrefix)));
            }
        }
        List<List<KeyPrefix>> distinct = rules.stream().distinct().toList();
        Set<String> names = new HashSet<>();
        List<EntityType> types = new ArrayList<>();
        int[] counts = new int[distinct.size()];
        int untyped = 0;
        for (Map<String, AttributeValue> item : items) {
            int at = -1;
            for (int i = 0; i < distinct.size() && at < 0; i++) {
                List<KeyPrefix> when = distinct.get(i);
                if (when.stream().allMatch(c -> c.test(item))) {
                    at = i;
                }
            }
            if (at < 0) {
                untyped++;
            } else {
                counts[at]++;
            }
        }
        for (int i = 0; i < distinct.size(); i++) {
            List<KeyPrefix> when = distinct.get(i);
            if (counts[i] > 0) {
                types.add(new EntityType(name(when.get(when.size() - 1).prefix(), names), when, counts[i]));
            }
        }
        return new Found(types, untyped);
    }

    private static boolean unique(Set<List<String>> combinations, int position, String prefix) {
        return combinations.stream().filter(c -> Objects.equals(c.get(position), prefix)).count() == 1;
    }

    /**
     * The type prefix of a key value: up to and including the first {@code #} when only letters (and {@code _}, {@code -})
     * come before it, else the leading letters when at least two and something follows them; none for other values.
     */
    static Optional<String> prefixOf(AttributeValue value) {
        if (value == null || value.s() == null) {
            return Optional.empty();
        }
        String text = value.s();
        int hash = text.indexOf('#');
        if (hash > 0 && text.substring(0, hash).chars().allMatch(c -> Character.isLetter(c) || c == '_' || c == '-')) {
            return Optional.of(text.substring(0, hash + 1));
        }
        int letters = 0;
        while (letters < text.length() && Character.isLetter(text.charAt(letters))) {
            letters++;
        }
        return letters >= 2 && letters < text.length() ? Optional.of(text.substring(0, letters)) : Optional.empty();
    }

    /** A PascalCase name the definitions accept, made from a prefix's letters and digits, unique among those given. */
    static String name(String prefix, Set<String> taken) {
        String word = prefix.replaceAll("[^A-Za-z0-9]", "");
        if (word.equals(word.toUpperCase(java.util.Locale.ROOT))) {
            word = word.toLowerCase(java.util.Locale.ROOT);
        }
        String base = word.isEmpty() || !Character.isLetter(word.charAt(0)) ? "Type" + word
                : Character.toUpperCase(word.charAt(0)) + word.substring(1);
        base = base.length() > 60 ? base.substring(0, 60) : base;
        String name = base;
        for (int n = 2; !taken.add(name); n++) {
            name = base + n;
        }
        return name;
    }
}

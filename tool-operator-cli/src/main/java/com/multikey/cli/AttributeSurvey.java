package com.multikey.cli;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * What the top-level attributes of some items hold, as an index would see them: for each attribute, its kind (a map, a
 * list or set, a scalar), how many of the items carry it, its DynamoDB types and how many distinct values it takes (map
 * entries' values, list elements), counted up to {@value #MAX_DISTINCT}.
 */
final class AttributeSurvey {

    /** Distinct values are counted up to this many per attribute. */
    static final int MAX_DISTINCT = 10_000;

    /** How an index would read an attribute. */
    enum Kind {
        /** a map: {@code entriesOf} */
        MAP,
        /** a list or set: {@code elementsOf} */
        ELEMENTS,
        /** a string, number or boolean: {@code attribute} */
        SCALAR,
        /** binary or null: not indexable as a value */
        OTHER
    }

    /**
     * One attribute's figures.
     *
     * @param distinctValues distinct values seen (at most {@link #MAX_DISTINCT}; {@code capped} when more were seen)
     * @param entryNames     distinct entry names of a map, in name order (up to {@link #MAX_DISTINCT})
     */
    record AttributeStats(String name, Kind kind, int items, Set<String> types, int distinctValues, boolean capped,
                          Set<String> entryNames) {
        AttributeStats {
            types = Set.copyOf(types);
            entryNames = java.util.Collections.unmodifiableSet(new TreeSet<>(entryNames));
        }
    }

    private AttributeSurvey() {
    }

    /** The attributes of {@code items} other than {@code skipped} (the key), most carried first, then by name. */
    static List<AttributeStats> of(List<Map<String, AttributeValue>> items, Set<String> skipped) {
        Map<String, Accumulator> byName = new LinkedHashMap<>();
        for (Map<String, AttributeValue> item : items) {
            item.forEach((name, value) -> {
                if (!skipped.contains(name)) {
                    byName.computeIfAbsent(name, n -> new Accumulator()).add(value);
                }
            });
        }
        List<AttributeStats> stats = new ArrayList<>();
        byName.forEach((name, acc) -> stats.add(acc.stats(name)));
        stats.sort(Comparator.comparingInt(AttributeStats::items).reversed().thenComparing(AttributeStats::name));
        return stats;
    }

    /** A value as a key of distinct values: numbers by value ({@code 1} and {@code 1.0} are one), sets by their elements, with its type. */
    static String canonical(AttributeValue value) {
        return switch (value.type()) {
            case N -> "N:" + number(value.n());
            case S -> "S:" + value.s();
            case BOOL -> "BOOL:" + value.bool();
            case SS -> "SS:" + new TreeSet<>(value.ss());
            case NS -> "NS:" + value.ns().stream().map(AttributeSurvey::number).collect(java.util.stream.Collectors.toCollection(TreeSet::new));
            case L -> "L:" + value.l().stream().map(AttributeSurvey::canonical).toList();
            case M -> "M:" + new java.util.TreeMap<>(value.m()).entrySet().stream()
                    .map(e -> e.getKey() + "=" + canonical(e.getValue())).toList();
            default -> value.type() + ":" + value;
        };
    }

    private static String number(String n) {
        try {
            BigDecimal decimal = new BigDecimal(n);
            return decimal.signum() == 0 ? "0" : decimal.stripTrailingZeros().toPlainString();
        } catch (NumberFormatException e) {
            return n;
        }
    }

    private static final class Accumulator {
        private final Map<Kind, Integer> kinds = new LinkedHashMap<>();
        private final Set<String> types = new HashSet<>();
        private final Set<String> distinct = new HashSet<>();
        private final Set<String> entries = new HashSet<>();
        private boolean capped;
        private int items;

        void add(AttributeValue value) {
            items++;
            types.add(value.type().toString());
            Kind kind = switch (value.type()) {
                case M -> Kind.MAP;
                case L, SS, NS, BS -> Kind.ELEMENTS;
                case S, N, BOOL -> Kind.SCALAR;
                default -> Kind.OTHER;
            };
            kinds.merge(kind, 1, Integer::sum);
            switch (kind) {
                case MAP -> value.m().forEach((entry, entryValue) -> {
                    if (entries.size() < MAX_DISTINCT) {
                        entries.add(entry);
                    }
                    elements(entryValue).forEach(this::distinct);
                });
                case ELEMENTS -> elements(value).forEach(this::distinct);
                case SCALAR -> distinct(value);
                case OTHER -> { }
            }
        }

        private static List<AttributeValue> elements(AttributeValue value) {
            return switch (value.type()) {
                case L -> value.l();
                case SS -> value.ss().stream().map(AttributeValue::fromS).toList();
                case NS -> value.ns().stream().map(AttributeValue::fromN).toList();
                case BS -> value.bs().stream().map(AttributeValue::fromB).toList();
                default -> List.of(value);
            };
        }

        private void distinct(AttributeValue value) {
            if (distinct.size() < MAX_DISTINCT) {
                distinct.add(canonical(value));
            } else if (!distinct.contains(canonical(value))) {
                capped = true;
            }
        }

        AttributeStats stats(String name) {
            Kind kind = kinds.entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow().getKey();
            return new AttributeStats(name, kind, items, types, distinct.size(), capped, entries);
        }
    }
}

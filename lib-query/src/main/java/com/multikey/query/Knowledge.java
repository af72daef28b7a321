package com.multikey.query;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * What earlier pages of one request learned, carried in its (sealed) cursor to plan the next page: how many index items
 * each predicate's index range holds (exactly, when a page read it to its end; else at least how many a page read), and
 * the yield of the sorted field's index (index items read, items listed from them).
 */
record Knowledge(Map<Integer, Long> exact, Map<Integer, Long> atLeast, long sortRead, long sortListed) {

    static final Knowledge NONE = new Knowledge(Map.of(), Map.of(), 0, 0);

    Knowledge {
        exact = Map.copyOf(exact);
        atLeast = Map.copyOf(atLeast);
    }

    Optional<Long> exactCount(int predicate) {
        return Optional.ofNullable(exact.get(predicate));
    }

    long lowerBound(int predicate) {
        return exact.getOrDefault(predicate, atLeast.getOrDefault(predicate, 0L));
    }

    /** Items listed per index item read from the sorted field's index, smoothed; empty before any was read. */
    Optional<Double> sortYield() {
        return sortRead == 0 ? Optional.empty() : Optional.of((sortListed + 1.0) / (sortRead + 2.0));
    }

    Knowledge withCount(int predicate, long count, boolean complete) {
        Map<Integer, Long> e = new HashMap<>(exact);
        Map<Integer, Long> a = new HashMap<>(atLeast);
        if (complete) {
            e.put(predicate, count);
            a.remove(predicate);
        } else if (!e.containsKey(predicate)) {
            a.merge(predicate, count, Math::max);
        }
        return new Knowledge(e, a, sortRead, sortListed);
    }

    Knowledge withSortRead(long read, long listed) {
        return new Knowledge(exact, atLeast, sortRead + read, sortListed + listed);
    }

    void write(ObjectNode node) {
        if (equals(NONE)) {
            return;
        }
        ObjectNode k = node.putObject("k");
        new TreeMap<>(exact).forEach((i, n) -> k.with("e").put(i.toString(), n));
        new TreeMap<>(atLeast).forEach((i, n) -> k.with("a").put(i.toString(), n));
        k.put("r", sortRead).put("l", sortListed);
    }

    /** @throws QueryException when the cursor's knowledge is not well formed */
    static Knowledge read(JsonNode node, int predicates) {
        JsonNode k = node.get("k");
        if (k == null) {
            return NONE;
        }
        if (!k.isObject() || !k.path("r").canConvertToLong() || !k.path("l").canConvertToLong()) {
            throw new QueryException(QueryException.Subject.CURSOR, "malformed cursor");
        }
        return new Knowledge(counts(k.get("e"), predicates), counts(k.get("a"), predicates), k.get("r").asLong(), k.get("l").asLong());
    }

    private static Map<Integer, Long> counts(JsonNode node, int predicates) {
        Map<Integer, Long> counts = new HashMap<>();
        if (node == null) {
            return counts;
        }
        if (!node.isObject()) {
            throw new QueryException(QueryException.Subject.CURSOR, "malformed cursor");
        }
        node.fields().forEachRemaining(field -> {
            int i;
            try {
                i = Integer.parseInt(field.getKey());
            } catch (NumberFormatException e) {
                throw new QueryException(QueryException.Subject.CURSOR, "malformed cursor");
            }
            if (i < 0 || i >= predicates || !field.getValue().canConvertToLong() || field.getValue().asLong() < 0) {
                throw new QueryException(QueryException.Subject.CURSOR, "malformed cursor");
            }
            counts.put(i, field.getValue().asLong());
        });
        return counts;
    }
}

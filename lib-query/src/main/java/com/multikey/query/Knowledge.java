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
 * the yield of the sorted field's index (index items read, items listed from them), and how the last page read
 * ({@link LastPage}), which sizes the next page's first reads so that one Query and one BatchGetItem fill it.
 *
 * <p>A cursor made before a part of this was carried opens with that part unknown ({@link LastPage#NONE}): its page is
 * read as a page with nothing known is.
 */
record Knowledge(Map<Integer, Long> exact, Map<Integer, Long> atLeast, long sortRead, long sortListed, LastPage last) {

    static final Knowledge NONE = new Knowledge(Map.of(), Map.of(), 0, 0, LastPage.NONE);

    /**
     * How the last page read, for the next one's sizes: of the sorted field's index, the index items it consumed, the items
     * it read by key to decide them, the items it listed from them and how many values (index items of the field) those
     * items have (all of one page, so that a field whose index items name ever more items already listed, a multi-valued
     * field towards the end of its order, is sized by where it is now); of the missing tail, the items it evaluated and
     * those it listed. Zero: not read on that page.
     */
    record LastPage(long indexRead, long keysRead, long listed, long listedValues, long tailRead, long tailListed) {
        static final LastPage NONE = new LastPage(0, 0, 0, 0, 0, 0);

        LastPage {
            if (indexRead < 0 || keysRead < 0 || listed < 0 || listedValues < 0 || tailRead < 0 || tailListed < 0) {
                throw new QueryException(QueryException.Subject.CURSOR, "malformed cursor");
            }
        }
    }

    Knowledge {
        exact = Map.copyOf(exact);
        atLeast = Map.copyOf(atLeast);
        java.util.Objects.requireNonNull(last, "last");
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
        return new Knowledge(e, a, sortRead, sortListed, last);
    }

    /** With the predicates' range counts of {@code other} in place of these (what another read learned of them meanwhile). */
    Knowledge withCountsOf(Knowledge other) {
        return new Knowledge(other.exact, other.atLeast, sortRead, sortListed, last);
    }

    Knowledge withSortRead(long read, long listed) {
        return new Knowledge(exact, atLeast, sortRead + read, sortListed + listed, last);
    }

    /**
     * With this page's read of the sorted field's index as the last one: index items consumed, items read by key to decide
     * them, items listed and their values.
     */
    Knowledge withLastSortRead(long indexRead, long keysRead, long listed, long listedValues) {
        return new Knowledge(exact, atLeast, sortRead, sortListed,
                new LastPage(indexRead, keysRead, listed, listedValues, last.tailRead(), last.tailListed()));
    }

    /** With this page's read of the missing tail as the last one: items evaluated, listed. */
    Knowledge withLastTailRead(long read, long listed) {
        return new Knowledge(exact, atLeast, sortRead, sortListed,
                new LastPage(last.indexRead(), last.keysRead(), last.listed(), last.listedValues(), read, listed));
    }

    /**
     * Index items of the sorted field's index a page consumes per item it lists: as the last page found (once it listed
     * some), else as all earlier pages did; empty when nothing is known. At least 1.
     */
    Optional<Double> indexItemsPerListed() {
        if (last.listed() > 0) {
            return Optional.of(Math.max(1.0, (double) last.indexRead() / last.listed()));
        }
        if (last.indexRead() > 0) {
            // the last page listed nothing from what it read: at least that many per item
            return Optional.of((double) last.indexRead() + 1);
        }
        return sortRead == 0 ? Optional.empty() : Optional.of(Math.max(1.0, (sortRead + 2.0) / (sortListed + 1.0)));
    }

    /**
     * Index items of the sorted field's index read per item listed over every earlier page, for a page with predicates,
     * whose candidates pass them at a rate that does not drift along the order as a multi-valued field's later values do:
     * the more pages, the steadier. Empty when nothing is known; at least 1.
     */
    Optional<Double> indexItemsPerListedSoFar() {
        return sortRead == 0 ? Optional.empty() : Optional.of(Math.max(1.0, (sortRead + 2.0) / (sortListed + 1.0)));
    }

    /**
     * Items read by key per item listed from the sorted field's index (each candidate, and each later value of an item
     * listed earlier, is read to be decided): as the last page found, else no more than its index items; empty when
     * nothing is known. At least 1.
     */
    Optional<Double> keysPerListed() {
        if (last.listed() > 0) {
            return Optional.of(Math.max(1.0, (double) last.keysRead() / last.listed()));
        }
        return indexItemsPerListed();
    }

    /**
     * Whether the items the last page listed have several values of the sorted field: then a page may meet later values
     * of items listed before it even where the last one met none (as every first page does).
     */
    boolean multiValued() {
        return last.listedValues() > last.listed();
    }

    /** Items of the missing tail evaluated per item it lists, as the last page that read it found; empty when unknown. */
    Optional<Double> tailReadPerListed() {
        if (last.tailRead() == 0) {
            return Optional.empty();
        }
        return Optional.of(last.tailListed() > 0 ? Math.max(1.0, (double) last.tailRead() / last.tailListed()) : last.tailRead() + 1.0);
    }

    void write(ObjectNode node) {
        if (equals(NONE)) {
            return;
        }
        ObjectNode k = node.putObject("k");
        new TreeMap<>(exact).forEach((i, n) -> k.with("e").put(i.toString(), n));
        new TreeMap<>(atLeast).forEach((i, n) -> k.with("a").put(i.toString(), n));
        k.put("r", sortRead).put("l", sortListed);
        if (!last.equals(LastPage.NONE)) {
            k.putArray("p").add(last.indexRead()).add(last.keysRead()).add(last.listed()).add(last.listedValues()).add(last.tailRead())
                    .add(last.tailListed());
        }
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
        return new Knowledge(counts(k.get("e"), predicates), counts(k.get("a"), predicates), k.get("r").asLong(), k.get("l").asLong(),
                lastPage(k.get("p")));
    }

    /** The last page's reads; none in a cursor made before they were carried. */
    private static LastPage lastPage(JsonNode node) {
        if (node == null) {
            return LastPage.NONE;
        }
        if (!node.isArray() || node.size() != 6) {
            throw new QueryException(QueryException.Subject.CURSOR, "malformed cursor");
        }
        long[] n = new long[6];
        for (int i = 0; i < n.length; i++) {
            if (!node.get(i).canConvertToLong()) {
                throw new QueryException(QueryException.Subject.CURSOR, "malformed cursor");
            }
            n[i] = node.get(i).asLong();
        }
        return new LastPage(n[0], n[1], n[2], n[3], n[4], n[5]);
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

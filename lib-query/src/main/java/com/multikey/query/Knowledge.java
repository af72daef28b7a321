package com.multikey.query;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * What earlier pages of one request learned, carried in its (sealed) cursor to plan the next page: how many index items
 * each predicate's index range holds (exactly, when a page read it to its end; else at least how many a page read), and
 * the yield of the sorted field's index (index items read, items listed from them), and how the last page read
 * ({@link LastPage}), which sizes the next page's first reads so that one Query and one BatchGetItem fill it.
 *
 * <p>A cursor made before a part of this was carried opens with that part unknown ({@link LastPage#NONE}, no
 * {@link #words}): its page is read as a page with nothing known is.
 *
 * @param words the words of a {@code has prefix} (of an ordered union's {@code has prefix} disjuncts together) its ordered
 *              drive found on the last page that read it, in key order, and
 *              the index items it took from each over the pages that remembered it ({@link OrderedDriveRead}); empty when
 *              none are remembered (more or
 *              longer than {@link #MAX_WORDS} and {@link #MAX_WORDS_BYTES}): then the next page finds them again
 */
record Knowledge(Map<Integer, Long> exact, Map<Integer, Long> atLeast, long sortRead, long sortListed, LastPage last,
                 List<Word> words) {

    static final Knowledge NONE = new Knowledge(Map.of(), Map.of(), 0, 0, LastPage.NONE);
    /** The most words a cursor remembers: as many as an {@code in} may name. */
    static final int MAX_WORDS = Driver.MAX_IN_RANGES;
    /** The most UTF-8 bytes the remembered words' keys hold together: a cursor stays short. */
    static final int MAX_WORDS_BYTES = 256;

    /**
     * A word a {@code has prefix}'s range holds, as its range's prefix (the word's key and its separator), and the index
     * items the merge took from it on the pages that remembered it (its share of the next page's reads).
     */
    record Word(String prefix, long taken) {
        Word {
            java.util.Objects.requireNonNull(prefix, "prefix");
            if (taken < 0) {
                throw new QueryException(QueryException.Subject.CURSOR, "malformed cursor");
            }
        }
    }

    /** Without remembered words. */
    Knowledge(Map<Integer, Long> exact, Map<Integer, Long> atLeast, long sortRead, long sortListed, LastPage last) {
        this(exact, atLeast, sortRead, sortListed, last, List.of());
    }

    /** Whether {@code words} fit in a cursor: few and short. */
    static boolean fits(List<Word> words) {
        return words.size() <= MAX_WORDS
                && words.stream().mapToInt(word -> word.prefix().getBytes(StandardCharsets.UTF_8).length).sum() <= MAX_WORDS_BYTES;
    }

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
        words = List.copyOf(words);
    }

    /** With these words remembered in place of any before; none when they do not {@link #fits fit}. */
    Knowledge withWords(List<Word> found) {
        return new Knowledge(exact, atLeast, sortRead, sortListed, last, fits(found) ? found : List.of());
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
        return new Knowledge(e, a, sortRead, sortListed, last, words);
    }

    /** With the predicates' range counts of {@code other} in place of these (what another read learned of them meanwhile). */
    Knowledge withCountsOf(Knowledge other) {
        return new Knowledge(other.exact, other.atLeast, sortRead, sortListed, last, words);
    }

    Knowledge withSortRead(long read, long listed) {
        return new Knowledge(exact, atLeast, sortRead + read, sortListed + listed, last, words);
    }

    /**
     * With this page's read of the sorted field's index as the last one: index items consumed, items read by key to decide
     * them, items listed and their values.
     */
    Knowledge withLastSortRead(long indexRead, long keysRead, long listed, long listedValues) {
        return new Knowledge(exact, atLeast, sortRead, sortListed,
                new LastPage(indexRead, keysRead, listed, listedValues, last.tailRead(), last.tailListed()), words);
    }

    /** With this page's read of the missing tail as the last one: items evaluated, listed. */
    Knowledge withLastTailRead(long read, long listed) {
        return new Knowledge(exact, atLeast, sortRead, sortListed,
                new LastPage(last.indexRead(), last.keysRead(), last.listed(), last.listedValues(), read, listed), words);
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
        if (!words.isEmpty()) {
            com.fasterxml.jackson.databind.node.ArrayNode w = k.putArray("w");
            words.forEach(word -> w.addArray().add(word.prefix()).add(word.taken()));
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
                lastPage(k.get("p")), words(k.get("w")));
    }

    /** The remembered words: none in a cursor made before they were carried; refused when more or longer than one holds. */
    private static List<Word> words(JsonNode node) {
        if (node == null) {
            return List.of();
        }
        if (!node.isArray() || node.isEmpty()) {
            throw new QueryException(QueryException.Subject.CURSOR, "malformed cursor");
        }
        List<Word> words = new ArrayList<>();
        for (JsonNode word : node) {
            if (!word.isArray() || word.size() != 2 || !word.get(0).isTextual() || !word.get(1).canConvertToLong()) {
                throw new QueryException(QueryException.Subject.CURSOR, "malformed cursor");
            }
            words.add(new Word(word.get(0).asText(), word.get(1).asLong()));
        }
        if (!fits(words)) {
            throw new QueryException(QueryException.Subject.CURSOR, "malformed cursor");
        }
        return words;
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

package com.multikey.query;

import com.multikey.index.IndexKey;
import com.multikey.index.KeyOrder;
import com.multikey.index.SortKeyCodec;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The words of the {@code has prefix} drivers an ordered drive ({@link OrderedDriveRead}) merges: found by the page, or
 * remembered by the cursor (a union's has prefix disjuncts' together, each taking its prefix's) and checked for new ones.
 */
final class PrefixWords {

    /** The reserve, in items and in reads, left to the plan the ordered drive gives way to. */
    private static final int RESERVE = PlannedRead.SORTED_READ_RESERVE;
    /** Above a word's separator and below every character of a word (the text encoding's escape). */
    private static final char ESCAPE = '\u0002';

    private final PageReads reads;
    /** The drivers whose ranges are merged: one, or a union's. */
    private final List<Driver> drivers;
    /** The words the cursor remembers, of every has prefix driver. */
    private final List<Knowledge.Word> remembered;

    /**
     * The words of {@code drivers}' {@code has prefix}es, with those the cursor {@code remembered}.
     *
     * @throws QueryException when a union's cursor remembers a word none of its prefixes begins (an edited cursor)
     */
    PrefixWords(PageReads reads, List<Driver> drivers, List<Knowledge.Word> remembered) {
        this.reads = reads;
        this.drivers = List.copyOf(drivers);
        this.remembered = List.copyOf(remembered);
        List<String> wordPrefixes = drivers.stream().filter(driver -> driver.predicate() instanceof Predicate.HasPrefix)
                .map(driver -> driver.ranges().get(0).prefix()).toList();
        if (drivers.size() > 1 && remembered.stream().anyMatch(word -> wordPrefixes.stream().noneMatch(word.prefix()::startsWith))) {
            throw new QueryException(QueryException.Subject.CURSOR, "malformed cursor: a word it remembers is not one of the prefixes'");
        }
    }

    /**
     * The words of {@code driver}'s {@code has prefix} ({@link #words(Driver, String, List)}), from those the cursor remembers
     * of its prefix (of a single driver: all it remembers).
     *
     * @throws QueryException when a remembered word is not one of this prefix's (an edited cursor)
     */
    Optional<List<Knowledge.Word>> of(Driver driver) {
        String start = driver.ranges().get(0).prefix();
        return words(driver, start, drivers.size() == 1 ? remembered
                : remembered.stream().filter(word -> word.prefix().startsWith(start)).toList());
    }

    /**
     * The words a {@code has prefix}'s range holds, each as its range's prefix (the word and its separator), with what the
     * merge took from it on the last page when the cursor remembers it; empty when they are more than an {@code in} may
     * name or the page's reads cannot find them and leave the other plan its reserve. Without remembered words, one Query of
     * one index item a word and one for the end; with them, a Query of each gap between them (the prefix's range before
     * the first, between two, after the last), which reads nothing unless a word appeared there since (an item written
     * between pages): then it is found as above, within its gap.
     *
     * @throws QueryException when a remembered word is not one of this prefix's (an edited cursor)
     */
    private Optional<List<Knowledge.Word>> words(Driver driver, String prefix, List<Knowledge.Word> remembered) {
        String high = prefix + "\uDBFF\uDFFF".repeat((SortKeyCodec.MAX_KEY_BYTES - prefix.getBytes(StandardCharsets.UTF_8).length) / 4);
        List<Knowledge.Word> words = new ArrayList<>();
        String low = prefix;
        for (Knowledge.Word word : remembered) {
            String key = word.prefix();
            int separator = key.indexOf(SortKeyCodec.SEPARATOR);
            String stem = key.substring(0, key.length() - 1);
            // a word's key within the prefix's range, ending at its separator, after the gap before it
            if (!key.startsWith(prefix) || separator != key.length() - 1 || KeyOrder.compare(low, stem) > 0 || KeyOrder.compare(stem, high) > 0) {
                throw new QueryException(QueryException.Subject.CURSOR, "malformed cursor: a word it remembers is not one of the prefix's");
            }
            if (!find(driver, low, stem, words)) {
                return Optional.empty();
            }
            words.add(word);
            low = stem + ESCAPE;
        }
        return find(driver, low, high, words) ? Optional.of(words) : Optional.empty();
    }

    /**
     * Adds the words whose keys are within [{@code low}, {@code high}] to {@code words}, one Query of one index item a word
     * and one for the end; false when they are more than an {@code in} may name or the page cannot read them and leave the
     * other plan its reserve.
     */
    private boolean find(Driver driver, String low, String high, List<Knowledge.Word> words) {
        while (true) {
            if (words.size() > Driver.MAX_IN_RANGES || reads.budgetLeft() - RESERVE < 3 || reads.readsLeft() - RESERVE < 3) {
                return false;
            }
            QueryResponse response = reads.index(driver.partition(), driver.project(), Filter.KeyRange.between(low, high), Map.of(), 1, true);
            if (response.items().isEmpty()) {
                return words.size() <= Driver.MAX_IN_RANGES;
            }
            String key = response.items().get(0).get(IndexKey.SORT_KEY).s();
            String word = key.substring(0, key.indexOf(SortKeyCodec.SEPARATOR) + 1);
            words.add(new Knowledge.Word(word, 0));
            // above every key of this word, below the next word's: a word holds no character at or below the escape
            low = word.substring(0, word.length() - 1) + ESCAPE;
        }
    }
}

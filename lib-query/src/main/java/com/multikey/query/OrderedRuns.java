package com.multikey.query;

import com.multikey.index.IndexKey;
import com.multikey.index.KeyOrder;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The values' ranges an ordered drive ({@link OrderedDriveRead}) merges, one run each, and their reads: which of them to
 * read on, up to where and for how many index items, so that a page reads few index items past its last.
 */
final class OrderedRuns {

    /** The highest character of a value's type tag: every encoded value of the sorted field starts at or below it. */
    private static final String ABOVE_EVERY_VALUE = "T\u007f";
    /**
     * The part of its expected share of what the page needs that the range read first on a page (unbounded) reads: a little
     * less than all, so that the ranges read after it, bounded by its last index item, seldom take the page past its end.
     */
    private static final double FIRST_SHARE = 0.9;

    private final PageReads reads;
    /** The order of places in the page: the sorted index's keys, ascending or descending. */
    private final java.util.Comparator<String> order;
    private final boolean ascending;
    private final List<Run> runs;
    /** The ranges of the words of the {@code has prefix} drivers (a union's too) this page read: remembered in the cursor; null without one. */
    private final List<Run> wordRuns;

    private OrderedRuns(PageReads reads, Listing listing, List<Run> runs, List<Run> wordRuns) {
        this.reads = reads;
        this.order = listing.keyOrder();
        this.ascending = listing.ascending();
        this.runs = List.copyOf(runs);
        this.wordRuns = wordRuns;
    }

    /** One value's range as the merge reads it: where it resumes, the index items read and not yet passed, whether it ended. */
    static final class Run {
        /** The driver whose index partition holds the range. */
        final Driver driver;
        final String prefix;
        final Filter.KeyRange range;
        Map<String, AttributeValue> start;
        final java.util.ArrayDeque<Map<String, AttributeValue>> read = new java.util.ArrayDeque<>();
        boolean ended;
        /** Whether it was read on this page, and how many of its index items the merge passed. */
        boolean readOnce;
        int taken;
        /**
         * The place (in the sorted index's order) up to which a read bounded there found every index item of the range: the
         * merge passes places up to it without reading the range again; null when its reads were not bounded.
         */
        String until;
        /** The index items the merge took from it on earlier pages (remembered in the cursor); 0 when unknown. */
        final long takenBefore;

        Run(Driver driver, String prefix, Map<String, AttributeValue> start, long takenBefore) {
            this.driver = driver;
            this.prefix = prefix;
            // the value's items that have the sorted field: a value's type tag follows the value's separator
            this.range = Filter.KeyRange.between(prefix + "N", prefix + ABOVE_EVERY_VALUE);
            this.start = start;
            this.takenBefore = takenBefore;
        }

        /** The place of the last index item read and not yet passed. */
        String frontier() {
            return place(read.peekLast());
        }

        /** The place of one of its index items in the sorted index's order: its key after the value's prefix. */
        String place(Map<String, AttributeValue> item) {
            return item.get(IndexKey.SORT_KEY).s().substring(prefix.length());
        }

        /** The place of its {@code n}-th index item read and not yet passed (from 1). */
        String nth(int n) {
            return place(read.stream().skip(n - 1L).findFirst().orElseThrow());
        }

        String head() {
            return place(read.peekFirst());
        }
    }

    /**
     * The runs of {@code drivers} from {@code after} (the place of the last index item passed; null where the listing
     * starts): each driver's values' ranges (a union's disjuncts: each of theirs), one run each, a range two of them name
     * read once; a {@code has prefix}'s words found or checked ({@link PrefixWords}) from those {@code known} remembers.
     * Empty when the page cannot find a {@code has prefix}'s words.
     *
     * @throws QueryException when a remembered word is not one of the prefixes' (an edited cursor)
     */
    static Optional<OrderedRuns> open(PageReads reads, Listing listing, List<Driver> drivers, Knowledge known, String after) {
        // a has prefix's words are remembered in the cursor, a union's has prefix disjuncts' together (each takes its prefix's)
        PrefixWords found = new PrefixWords(reads, drivers, known.words());
        boolean words = drivers.stream().anyMatch(driver -> driver.predicate() instanceof Predicate.HasPrefix);
        java.util.Set<String> wordKeys = new java.util.HashSet<>();
        // each driver's values' ranges (a union's disjuncts: each of theirs), one run each, a range two of them name read once
        Map<String, Run> byRange = new java.util.LinkedHashMap<>();
        for (Driver driver : drivers) {
            Optional<List<Knowledge.Word>> prefixes = driver.predicate() instanceof Predicate.HasPrefix
                    ? found.of(driver)
                    : Optional.of(driver.ranges().stream().map(Filter.KeyRange::prefix).distinct().map(prefix -> new Knowledge.Word(prefix, 0)).toList());
            if (prefixes.isEmpty()) {
                return Optional.empty();
            }
            if (driver.predicate() instanceof Predicate.HasPrefix) {
                prefixes.get().forEach(word -> wordKeys.add(word.prefix()));
            }
            prefixes.get().forEach(word -> byRange.putIfAbsent(driver.partition() + "\u0000" + word.prefix(), new Run(driver, word.prefix(),
                    after == null ? Map.of()
                    : Map.of(IndexKey.ATTRIB_ID, AttributeValue.fromS(driver.partition()), IndexKey.SORT_KEY, AttributeValue.fromS(word.prefix() + after)),
                    word.taken())));
        }
        List<Run> runs = List.copyOf(byRange.values());
        // the next page checks for new words between these rather than finding them again, and sizes each range's reads
        List<Run> wordRuns = words ? runs.stream().filter(run -> wordKeys.contains(run.prefix)).toList() : null;
        return Optional.of(new OrderedRuns(reads, listing, runs, wordRuns));
    }

    /** The runs, in the order of their drivers and ranges. */
    List<Run> runs() {
        return runs;
    }

    /** The fraction of the index items the merge takes that the page expects from {@code run}, among the ranges not ended. */
    private static double share(Run run, List<Run> runs, int taken) {
        List<Run> reading = runs.stream().filter(other -> !other.ended).toList();
        if (taken > 0) {
            return (run.taken + 1.0) / (taken + reading.size());
        }
        // the shares earlier pages found, else even ones
        long before = reading.stream().mapToLong(other -> other.takenBefore).sum();
        return (run.takenBefore + 1.0) / (before + reading.size());
    }

    /**
     * The ranges to read now of those the merge waits for: all of them when one range is read or another range bounds their
     * reads ({@link #bound}), else only the one the merge is expected to take most from (its reads then bound the others').
     */
    List<Run> reading(List<Run> empty, int still) {
        if (empty.size() == 1 || empty.stream().allMatch(run -> bound(run, still) != null)) {
            return empty;
        }
        List<Run> bounded = empty.stream().filter(run -> bound(run, still) != null).toList();
        if (!bounded.isEmpty()) {
            return bounded;
        }
        int taken = runs.stream().mapToInt(run -> run.taken).sum();
        return List.of(empty.stream().max(java.util.Comparator.comparingDouble(run -> share(run, runs, taken))).orElseThrow());
    }

    /**
     * The place after which this page need not read {@code run}: the earliest, over the other ranges not ended, of the
     * place of their {@code still}-th index item read and not passed (the page passes no more than {@code still}, so
     * nothing after it), or of the last of them (past it the merge waits for them to be read again anyway); null when no
     * other range holds index items read and not passed.
     */
    private String bound(Run run, int still) {
        String bound = null;
        for (Run other : runs) {
            if (other == run || other.ended) {
                continue;
            }
            if (other.read.isEmpty()) {
                // not read on, or read up to a bound of its own: no place of its own to bound by
                continue;
            }
            String place = other.read.size() >= still ? other.nth(still) : other.frontier();
            bound = bound == null || order.compare(place, bound) < 0 ? place : bound;
        }
        return bound;
    }

    /**
     * Reads on in {@code run}: up to the {@link #bound} other ranges give it, at most what the page still needs less the index
     * items the other ranges hold up to there (so that all it reads is passed, or it stops before the bound); or, unbounded,
     * its share of what the page still needs (a little less on the page's first read: the ranges read after it are bounded by
     * its last index item, and the page seldom ends before that item), so that a page reads few index items past its last.
     */
    void read(Run run, int still, int room, int taken) {
        String bound = bound(run, still);
        boolean alone = runs.stream().filter(other -> !other.ended).count() == 1;
        long share;
        if (bound != null) {
            // the page takes no more than it still needs, less what the other ranges hold up to the bound
            long before = runs.stream().filter(other -> other != run)
                    .mapToLong(other -> other.read.stream().filter(item -> order.compare(other.place(item), bound) <= 0).count()).sum();
            share = still - before;
        } else {
            share = alone ? still : (long) Math.floor(still * share(run, runs, taken) * (taken == 0 ? FIRST_SHARE : 1.0));
        }
        int limit = (int) Math.max(1, Math.min(Math.min(ReadLimits.MAX_READ_LIMIT, room), share));
        Filter.KeyRange range = bound == null ? run.range : ascending ? Filter.KeyRange.between(run.range.low(), run.prefix + bound)
                : Filter.KeyRange.between(run.prefix + bound, run.range.high());
        QueryResponse response = reads.index(run.driver.partition(), run.driver.project(), range, run.start, limit, ascending);
        run.readOnce = true;
        run.read.addAll(response.items());
        boolean more = response.hasLastEvaluatedKey() && !response.lastEvaluatedKey().isEmpty();
        run.until = null;
        if (more) {
            run.start = response.lastEvaluatedKey();
        } else if (bound == null) {
            run.ended = true;
        } else {
            // every index item up to the bound read: the range goes on after the last of them
            run.until = bound;
            if (!response.items().isEmpty()) {
                Map<String, AttributeValue> last = response.items().get(response.items().size() - 1);
                run.start = Map.of(IndexKey.ATTRIB_ID, last.get(IndexKey.ATTRIB_ID), IndexKey.SORT_KEY, last.get(IndexKey.SORT_KEY));
            }
        }
    }

    /**
     * What the request knows after this page: a {@code has prefix}'s words and what the merge took from each over the pages
     * that remembered it (a steadier share than one page's).
     */
    Knowledge learned(Knowledge known) {
        if (wordRuns == null) {
            return known;
        }
        // one word each, in key order: a word two disjuncts' indexes hold (two ranges) once, with what the merge took from both
        Map<String, long[]> byWord = new java.util.TreeMap<>(KeyOrder::compare);
        for (Run run : wordRuns) {
            long[] taken = byWord.computeIfAbsent(run.prefix, word -> new long[2]);
            taken[0] = Math.max(taken[0], run.takenBefore);
            taken[1] += run.taken;
        }
        return known.withWords(byWord.entrySet().stream()
                .map(word -> new Knowledge.Word(word.getKey(), word.getValue()[0] + word.getValue()[1])).toList());
    }
}

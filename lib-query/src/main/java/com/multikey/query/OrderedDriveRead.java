package com.multikey.query;

import com.multikey.index.IndexEntry;
import com.multikey.index.IndexItem;
import com.multikey.index.IndexKey;
import com.multikey.index.ItemKey;
import com.multikey.index.KeyOrder;
import com.multikey.index.SortKeyCodec;
import com.multikey.index.definition.IndexDefinition;
import com.multikey.index.definition.KeySchema;
import com.multikey.index.definition.ValueSource;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * An ordered drive ({@link Plan.OrderedDrive}): one value's range of an index that orders, within a value, its items by
 * the sorted field (its first {@code orderBy}), read in page order from where the last page stopped, each item read and
 * every predicate tested, until the page is full; or several values' ranges (an {@code in}, the words of a {@code has
 * prefix}: found by the page, or remembered by the cursor and checked for new ones), each read so, merged in page order.
 * Within the value the index's sort key is {@code value ␁ sorted value ␁ item key}, the sorted index's {@code sorted value ␁
 * item key}: while the sorted value is not cut to the tie-breaker's
 * {@code maxBytes}, the key after the value <em>is</em> the sorted index's key, so both list the items in the same order and
 * every index item read, listed or not, is a place in the sorted index's order the cursor can stand on (as every other read
 * of the index part leaves it). Items lacking the sorted field (an empty tie-breaker) are not read: the missing tail lists
 * them.
 *
 * <p>It gives way to the plan without it ({@link Outcome.GaveWay}), with what it listed and where it stopped, when it meets
 * a sorted value that may be cut (one as long as a cut one: its place in the two orders may differ), when the cursor
 * stands on such a value, or when the page's budget is too small for a read of its own. Its reads leave the other plan
 * what that needs to move on ({@link PlannedRead#SORTED_READ_RESERVE} items and reads), so a page that reads it and then
 * the other way still moves on within its budget.
 */
final class OrderedDriveRead {

    /** What the ordered drive gives: the page, or what it listed before it gave way and where the other plan goes on. */
    sealed interface Outcome {
        /** The page: full, the range ended, or the budget spent on it (then with a cursor after what it passed). */
        record Listed(Part part) implements Outcome {
        }

        /**
         * Read the rest of the page the other way, from {@code position} (the sorted index's key of the last index item
         * passed, or where the page started), after the items {@code listed} here.
         */
        record GaveWay(List<Part.Listed> listed, Map<String, AttributeValue> position) implements Outcome {
            public GaveWay {
                listed = List.copyOf(listed);
            }
        }
    }

    /** The reserve, in items and in reads, left to the plan this one gives way to. */
    private static final int RESERVE = PlannedRead.SORTED_READ_RESERVE;
    /** The highest character of a value's type tag: every encoded value of the sorted field starts at or below it. */
    private static final String ABOVE_EVERY_VALUE = "T\u007f";
    /** Above a word's separator and below every character of a word (the text encoding's escape). */
    private static final char ESCAPE = '\u0002';
    /**
     * The part of its expected share of what the page needs that the range read first on a page (unbounded) reads: a little
     * less than all, so that the ranges read after it, bounded by its last index item, seldom take the page past its end.
     */
    private static final double FIRST_SHARE = 0.9;

    private final Listing listing;
    private final PageReads reads;
    private final KeySchema table;
    /** The drivers whose ranges are merged: one, or a union's ({@link Plan.OrderedUnion}), each ordered as {@link #orders} says. */
    private final List<Driver> drivers;
    private final int need;
    /** The ranges of the words of the {@code has prefix} drivers (a union's too) this page read: remembered in the cursor; null without one. */
    private List<Run> wordRuns;

    OrderedDriveRead(Listing listing, PageReads reads, KeySchema table, Driver driver, int need) {
        this(listing, reads, table, List.of(driver), need);
    }

    /** The ranges of several drivers (a union's disjuncts), merged in page order, an item in several of them passed once. */
    OrderedDriveRead(Listing listing, PageReads reads, KeySchema table, List<Driver> drivers, int need) {
        this.listing = listing;
        this.reads = reads;
        this.table = table;
        this.drivers = List.copyOf(drivers);
        this.need = need;
    }

    /**
     * Whether a driver can be read as an ordered drive for this listing: single values' ranges (an {@code =}, an {@code in}
     * or a {@code has}), or a {@code has prefix}'s range of words, of a grouped index of the same group and covers, not
     * filtered on a project, whose {@code orderBy} is the sorted field (a single-valued attribute of a grouped index)
     * followed by the sorted index's own {@code orderBy}; for a request with neither a filter nor predicates on the sorted
     * field (they would skip items the cursor cannot stand on).
     */
    static boolean orders(Driver driver, Listing listing) {
        IndexDefinition sorted = listing.target().index();
        IndexDefinition driving = driver.index();
        if (driver.ranges().isEmpty() || driver.project().isPresent() || listing.target().project().isPresent()
                || listing.request().filter().isPresent() || !listing.tests().onSortField().isEmpty()) {
            return false;
        }
        boolean values = driver.ranges().stream().allMatch(range -> range != null && range.prefix() != null
                && range.prefix().endsWith(String.valueOf(SortKeyCodec.SEPARATOR)));
        boolean words = driver.predicate() instanceof Predicate.HasPrefix && driving.values() instanceof ValueSource.Words
                && driver.ranges().size() == 1 && driver.ranges().get(0) != null && driver.ranges().get(0).prefix() != null;
        boolean kind = switch (driver.predicate()) {
            case Predicate.Equals p -> values && driver.ranges().size() == 1;
            case Predicate.Has p -> values && driver.ranges().size() == 1;
            case Predicate.In p -> values;
            case Predicate.HasPrefix p -> words;
            // not one value's range, or not a range an index lists in value order
            case Predicate.NotEquals p -> false;
            case Predicate.BeginsWith p -> false;
            case Predicate.Range p -> false;
            case Predicate.Present p -> false;
            case Predicate.Missing p -> false;
        };
        if (!kind) {
            return false;
        }
        // the driving index's key within the value is the sorted index's key: the sorted value, its tie-breakers, the item key
        return sorted.layout() == IndexDefinition.Layout.GROUPED && driving.layout() == IndexDefinition.Layout.GROUPED
                && sorted.group().equals(driving.group()) && sorted.covers().equals(driving.covers())
                && sorted.values() instanceof ValueSource.Scalar scalar && driving.orderBy().size() == sorted.orderBy().size() + 1
                && driving.orderBy().get(0).path().equals(scalar.path())
                && driving.orderBy().subList(1, driving.orderBy().size()).equals(sorted.orderBy());
    }

    /** One value's range as the merge reads it: where it resumes, the index items read and not yet passed, whether it ended. */
    private static final class Run {
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

    /** An index item the merge passed, at its place in the sorted order, whose item is not read yet. */
    private record Passed(String at, Optional<ItemKey> key) {
    }

    /** What a page of the merge holds: what it listed, the place of the last index item whose item it tested. */
    private final class Merge {
        final List<Part.Listed> listed = new ArrayList<>();
        final java.util.ArrayDeque<Passed> passed = new java.util.ArrayDeque<>();
        String last;
        long tested;

        Merge(String after) {
            this.last = after;
        }

        /** The index items the page may still pass before it reads their items: what it needs, over the share that listed. */
        int wanted() {
            double yield = tested == 0 ? 1.0 : Math.min(1.0, (listed.size() + 1.0) / (tested + 1.0));
            return (int) Math.max(1, Math.ceil((need - listed.size()) / yield));
        }

        /** Whether one more passed index item's item can be read and still leave the other plan its reserve. */
        boolean mayPass() {
            int items = passed.size() + 1;
            int batches = (items + PageReads.MAX_BATCH_GET_KEYS - 1) / PageReads.MAX_BATCH_GET_KEYS;
            return items <= reads.budgetLeft() - RESERVE && batches <= reads.readsLeft() - RESERVE;
        }

        /** Reads the passed index items' items (a BatchGetItem per hundred) and lists those that pass; whether the page is full. */
        boolean test() {
            if (passed.isEmpty()) {
                return listed.size() >= need;
            }
            reads.readAll(passed.stream().map(Passed::key).flatMap(Optional::stream).toList());
            while (!passed.isEmpty() && listed.size() < need) {
                Passed next = passed.removeFirst();
                tested++;
                if (next.key().isPresent()) {
                    ItemKey key = next.key().get();
                    Optional<Map<String, AttributeValue>> item = reads.item(key);
                    // listed here when the item is still under this key (not changed since) and passes every predicate
                    Optional<IndexItem> under = item.flatMap(found -> listing.listing(key, found))
                            .filter(first -> first.sortKey().equals(next.at()));
                    if (under.isPresent() && listing.tests().othersMatch(key, item.get())) {
                        listed.add(new Part.Listed(item.get(), under.get().value().toAttributeValue()));
                    }
                }
                last = next.at();
            }
            // passed index items after the page's last are read again by the next page
            passed.clear();
            return listed.size() >= need;
        }
    }

    /**
     * The page from {@code position} (the sorted index's key of the last index item passed), or where it gave way. Several
     * values' ranges (an {@code in}, the words of a {@code has prefix}) are merged in page order (a k-way merge: an index
     * item is passed once every range that has not ended, or was not read up to a bound at or after it, has shown one at or
     * after it), an item in several of them once. One range is read for what the page needs; several in turn: the one the
     * merge is expected to take most from (its share over the earlier pages, which the cursor remembers with a {@code
     * has prefix}'s words, else an even share) for a little less than its share, then the others bounded by where the page can
     * end ({@link #bound}), and so on while the page needs more; items are read only for the index items the merge passed,
     * once they are as many as the page still needs.
     */
    Outcome read(Map<String, AttributeValue> position, Knowledge known, Part.Explained explained) {
        AttributeValue afterValue = position.get(IndexKey.SORT_KEY);
        String after = afterValue == null ? null : afterValue.s();
        if (after != null && mayBeCut(after)) {
            // an item whose value is cut here may sort after the cursor there and before it here: read the other way
            return new Outcome.GaveWay(List.of(), position);
        }
        // a has prefix's words are remembered in the cursor, a union's has prefix disjuncts' together (each takes its prefix's)
        List<String> wordPrefixes = drivers.stream().filter(driver -> driver.predicate() instanceof Predicate.HasPrefix)
                .map(driver -> driver.ranges().get(0).prefix()).toList();
        boolean words = !wordPrefixes.isEmpty();
        if (drivers.size() > 1 && known.words().stream().anyMatch(word -> wordPrefixes.stream().noneMatch(word.prefix()::startsWith))) {
            throw new QueryException(QueryException.Subject.CURSOR, "malformed cursor: a word it remembers is not one of the prefixes'");
        }
        java.util.Set<String> wordKeys = new java.util.HashSet<>();
        // each driver's values' ranges (a union's disjuncts: each of theirs), one run each, a range two of them name read once
        Map<String, Run> byRange = new java.util.LinkedHashMap<>();
        for (Driver driver : drivers) {
            String start = driver.ranges().get(0).prefix();
            Optional<List<Knowledge.Word>> prefixes = driver.predicate() instanceof Predicate.HasPrefix
                    ? words(driver, start, drivers.size() == 1 ? known.words()
                    : known.words().stream().filter(word -> word.prefix().startsWith(start)).toList())
                    : Optional.of(driver.ranges().stream().map(Filter.KeyRange::prefix).distinct().map(prefix -> new Knowledge.Word(prefix, 0)).toList());
            if (prefixes.isEmpty()) {
                return new Outcome.GaveWay(List.of(), position);
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
        if (words) {
            // the next page checks for new words between these rather than finding them again, and sizes each range's reads
            wordRuns = runs.stream().filter(run -> wordKeys.contains(run.prefix)).toList();
        }
        java.util.Comparator<String> order = listing.keyOrder();
        boolean ascending = listing.ascending();
        Merge merge = new Merge(after);
        // the place of the last index item passed, its item read or not
        String merged = after;
        int taken = 0;
        while (true) {
            if (!merge.passed.isEmpty() && merge.passed.size() >= merge.wanted()) {
                if (merge.test()) {
                    return full(merge, known, explained);
                }
                continue;
            }
            // the place the merge passes next, if every range it waits for has shown one at or after it
            String next = runs.stream().filter(run -> !run.read.isEmpty()).map(Run::head).min(order).orElse(null);
            List<Run> empty = runs.stream().filter(run -> run.read.isEmpty() && !run.ended
                    && (run.until == null || next == null || order.compare(next, run.until) > 0)).toList();
            if (!empty.isEmpty()) {
                int still = Math.max(1, merge.wanted() - merge.passed.size());
                List<Run> toRead = reading(runs, empty, still);
                // half of what the page may still read, less the other plan's reserve and the items of the index items
                // passed, shared by the ranges to read on: the other half for their items
                int room = (reads.budgetLeft() - RESERVE - merge.passed.size()) / 2 / toRead.size();
                int batches = reads.readsLeft() - RESERVE - toRead.size() - 1;
                if (room < 1 || batches < 1 || !reads.mayRead()) {
                    break;
                }
                for (Run run : toRead) {
                    read(run, runs, still, room, taken, ascending, order);
                }
                continue;
            }
            List<Run> open = runs.stream().filter(run -> !run.read.isEmpty()).toList();
            if (open.isEmpty()) {
                // every range ended: what was passed is the rest of the page
                if (merge.test()) {
                    return full(merge, known, explained);
                }
                return new Outcome.Listed(new Part(merge.listed, Optional.empty(), learned(known), explained));
            }
            if (open.stream().anyMatch(run -> mayBeCut(run.head()))) {
                // not surely in the sorted index's order: the other way from the last place passed
                return gaveWay(merge, position, known, explained);
            }
            String at = open.stream().map(Run::head).min(order).orElseThrow();
            if (merged != null && order.compare(at, merged) <= 0) {
                return gaveWay(merge, position, known, explained);
            }
            if (!merge.mayPass()) {
                if (merge.passed.isEmpty()) {
                    break;
                }
                // the items of what was passed first, then the page's budget as it is left
                if (merge.test()) {
                    return full(merge, known, explained);
                }
                continue;
            }
            // the item at this place in every range that holds it: passed once
            Map<String, AttributeValue> stored = null;
            for (Run run : open) {
                if (run.head().equals(at)) {
                    stored = run.read.removeFirst();
                    run.taken++;
                }
            }
            taken++;
            merge.passed.addLast(new Passed(at, IndexEntry.of(stored, table).map(IndexEntry::source)));
            merged = at;
        }
        if (merge.test()) {
            return full(merge, known, explained);
        }
        if (merge.last == null || merge.last.equals(after)) {
            // nothing passed within what the page may read here: the other way, with the reserve, moves on
            return new Outcome.GaveWay(merge.listed, position);
        }
        return new Outcome.Listed(new Part(merge.listed, Optional.of(cursor(merge.last)), learned(known), explained));
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
    private List<Run> reading(List<Run> runs, List<Run> empty, int still) {
        if (empty.size() == 1 || empty.stream().allMatch(run -> bound(run, runs, still) != null)) {
            return empty;
        }
        List<Run> bounded = empty.stream().filter(run -> bound(run, runs, still) != null).toList();
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
    private String bound(Run run, List<Run> runs, int still) {
        java.util.Comparator<String> order = listing.keyOrder();
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
    private void read(Run run, List<Run> runs, int still, int room, int taken, boolean ascending, java.util.Comparator<String> order) {
        String bound = bound(run, runs, still);
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

    private Outcome full(Merge merge, Knowledge known, Part.Explained explained) {
        return new Outcome.Listed(new Part(merge.listed, Optional.of(cursor(merge.last)), learned(known), explained));
    }

    /**
     * What the request knows after this page: a {@code has prefix}'s words and what the merge took from each over the pages
     * that remembered it (a steadier share than one page's).
     */
    private Knowledge learned(Knowledge known) {
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

    /** Gives way after the index items passed, their items read and tested; the page when that fills it. */
    private Outcome gaveWay(Merge merge, Map<String, AttributeValue> position, Knowledge known, Part.Explained explained) {
        if (merge.test()) {
            return full(merge, known, explained);
        }
        return new Outcome.GaveWay(merge.listed, merge.last == null ? position : key(merge.last));
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

    /**
     * Whether the sorted value at the head of {@code key} (a sorted index's key) may order otherwise in the two indexes: a
     * text at least as long as what a text cut to the tie-breaker's {@code maxBytes} keeps of its own, less a character's
     * three bytes. Such a cut text (its kept part, then a mark below every character, then a digest) sorts before a longer
     * text its kept part begins, whatever their whole values; shorter texts, numbers and booleans (never cut) order alike.
     */
    private boolean mayBeCut(String key) {
        int separator = key.indexOf(SortKeyCodec.SEPARATOR);
        String value = separator < 0 ? key : key.substring(0, separator);
        // of several drivers' indexes, the one that cuts shortest
        int maxBytes = drivers.stream().mapToInt(each -> each.index().orderBy().get(0).maxBytes()).min().orElseThrow();
        return value.startsWith("S") && value.getBytes(StandardCharsets.UTF_8).length >= SortKeyCodec.cutTextKeeps(maxBytes) - 3;
    }

    private Map<String, AttributeValue> key(String sortKey) {
        return cursor(sortKey).startKey();
    }

    private Cursor cursor(String sortKey) {
        return new Cursor(Cursor.Part.INDEX, Map.of(IndexKey.ATTRIB_ID, AttributeValue.fromS(listing.target().partition()),
                IndexKey.SORT_KEY, AttributeValue.fromS(sortKey)));
    }
}

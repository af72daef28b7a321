package com.multikey.query;

import com.multikey.index.IndexEntry;
import com.multikey.index.IndexItem;
import com.multikey.index.IndexKey;
import com.multikey.index.ItemKey;
import com.multikey.index.SortKeyCodec;
import com.multikey.index.definition.IndexDefinition;
import com.multikey.index.definition.KeySchema;
import com.multikey.index.definition.ValueSource;
import com.multikey.query.OrderedRuns.Run;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

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

    private final Listing listing;
    private final PageReads reads;
    private final KeySchema table;
    /** The drivers whose ranges are merged: one, or a union's ({@link Plan.OrderedUnion}), each ordered as {@link #orders} says. */
    private final List<Driver> drivers;
    private final int need;
    /** The ranges this page merges, and what it learned of a {@code has prefix}'s words; null until it reads them. */
    private OrderedRuns ordered;

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
     * end ({@link OrderedRuns#read}), and so on while the page needs more; items are read only for the index items the merge passed,
     * once they are as many as the page still needs.
     */
    Outcome read(Map<String, AttributeValue> position, Knowledge known, Part.Explained explained) {
        AttributeValue afterValue = position.get(IndexKey.SORT_KEY);
        String after = afterValue == null ? null : afterValue.s();
        if (after != null && mayBeCut(after)) {
            // an item whose value is cut here may sort after the cursor there and before it here: read the other way
            return new Outcome.GaveWay(List.of(), position);
        }
        Optional<OrderedRuns> opened = OrderedRuns.open(reads, listing, drivers, known, after);
        if (opened.isEmpty()) {
            return new Outcome.GaveWay(List.of(), position);
        }
        ordered = opened.get();
        List<Run> runs = ordered.runs();
        java.util.Comparator<String> order = listing.keyOrder();
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
                List<Run> toRead = ordered.reading(empty, still);
                // half of what the page may still read, less the other plan's reserve and the items of the index items
                // passed, shared by the ranges to read on: the other half for their items
                int room = (reads.budgetLeft() - RESERVE - merge.passed.size()) / 2 / toRead.size();
                int batches = reads.readsLeft() - RESERVE - toRead.size() - 1;
                if (room < 1 || batches < 1 || !reads.mayRead()) {
                    break;
                }
                for (Run run : toRead) {
                    ordered.read(run, still, room, taken);
                }
                continue;
            }
            List<Run> open = runs.stream().filter(run -> !run.read.isEmpty()).toList();
            if (open.isEmpty()) {
                // every range ended: what was passed is the rest of the page
                if (merge.test()) {
                    return full(merge, known, explained);
                }
                return new Outcome.Listed(new Part(merge.listed, Optional.empty(), ordered.learned(known), explained));
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
        return new Outcome.Listed(new Part(merge.listed, Optional.of(cursor(merge.last)), ordered.learned(known), explained));
    }

    private Outcome full(Merge merge, Knowledge known, Part.Explained explained) {
        return new Outcome.Listed(new Part(merge.listed, Optional.of(cursor(merge.last)), ordered.learned(known), explained));
    }

    /** Gives way after the index items passed, their items read and tested; the page when that fills it. */
    private Outcome gaveWay(Merge merge, Map<String, AttributeValue> position, Knowledge known, Part.Explained explained) {
        if (merge.test()) {
            return full(merge, known, explained);
        }
        return new Outcome.GaveWay(merge.listed, merge.last == null ? position : key(merge.last));
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

package com.multikey.query;

import com.multikey.index.IndexEntry;
import com.multikey.index.IndexItem;
import com.multikey.index.IndexKey;
import com.multikey.index.ItemKey;
import com.multikey.index.definition.KeySchema;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The index part of a page with predicates: which way to read it, chosen from what earlier pages learned (each
 * predicate range's size, the sorted index's yield; decision 0021), else adaptively. A predicate's range is read first
 * as far as a page could use it; when it ends there, its items make the page ({@link #fromRange}). Otherwise the sorted
 * field's index is read ({@link SortedRead}), and after each read the predicate that its candidates satisfied least
 * has its range read on while that costs less than half of what the sorted read still needs: if it ends, its items
 * make the page; else the sorted read goes on. Either way the cursor is the sorted index's key of the last item listed,
 * so the next page may read another way.
 */
final class PlannedRead {

    /**
     * What a range's reading leaves to the sorted read, so that every page moves on: one index item and its item, read
     * in one Query and one BatchGetItem.
     */
    static final int SORTED_READ_RESERVE = 2;

    private final PageFill fill;
    private final PageReads reads;
    private final KeySchema table;
    private final SortRanges sortRanges;
    private final List<Driver> drivers;
    private final Map<Integer, RangeRead> ranges = new HashMap<>();
    /** The range that ended while the sorted field's index was being read: the page is made from it. */
    private RangeRead taken;

    PlannedRead(PageFill fill, PageReads reads, KeySchema table, SortRanges sortRanges, List<Driver> drivers) {
        this.fill = fill;
        this.reads = reads;
        this.table = table;
        this.sortRanges = sortRanges;
        this.drivers = drivers;
    }

    /** From {@code position}: empty when the index part ended, else where the next page resumes. */
    Optional<Cursor> from(Map<String, AttributeValue> position) {
        Knowledge learned = fill.learned;
        int need = fill.need();
        Optional<Double> yield = learned.sortYield();
        long sortCost = yield.map(y -> (long) Math.ceil(2 * need / y)).orElse(-1L);
        weigh(sortCost, yield, learned);
        if (drivers.isEmpty()) {
            fill.reason = "no predicate is listed by an index (!= and missing never are; an attribute only when an index holds it): "
                    + "the sorted field's index, each candidate tested";
            return sorted(position, false);
        }
        Optional<Driver> counted = drivers.stream().filter(d -> learned.exactCount(d.position()).isPresent())
                .min(Comparator.comparingLong(d -> learned.exactCount(d.position()).orElseThrow()));
        if (counted.isPresent()) {
            long size = learned.exactCount(counted.get().position()).orElseThrow();
            if (2 * size <= reads.budgetLeft() && (sortCost < 0 || 2 * size <= sortCost)) {
                RangeRead whole = range(counted.get());
                whole.readTo(Long.MAX_VALUE / 4);
                if (whole.ended && whole.canFinish()) {
                    fill.plan = plan(counted.get());
                    fill.reason = PredicateText.format(counted.get().predicate()) + " matched " + size + " index items on an earlier "
                            + "page: reading them and their items costs about " + 2 * size
                            + (sortCost < 0 ? "" : ", the sorted index about " + sortCost);
                    return fromRange(whole, position);
                }
            }
        }
        if (sortCost >= 0 && drivers.stream().allMatch(d -> 4 * learned.lowerBound(d.position()) > sortCost)) {
            fill.reason = "earlier pages found each predicate's range holding more than a quarter of what the sorted index reads for "
                    + "a page (about " + sortCost + " items): the sorted field's index, each candidate tested";
            return sorted(position, false);
        }
        Driver first = drivers.stream().min(Comparator.comparingInt(Driver::rank)
                .thenComparingLong(d -> learned.lowerBound(d.position()))).orElseThrow();
        long probe = fill.request.pageSize();
        if (learned.lowerBound(first.position()) == 0 || 2 * learned.lowerBound(first.position()) <= probe) {
            RangeRead start = range(first);
            start.readTo(probe);
            if (start.ended && start.canFinish()) {
                fill.plan = plan(first);
                fill.reason = PredicateText.format(first.predicate()) + " matches " + start.read + " index items, no more than "
                        + probe + " (a page): its items make the page";
                return fromRange(start, position);
            }
        }
        fill.reason = "the sorted field's index, each candidate tested; after each read, the predicate that matched fewest "
                + "candidates has its range read on while that costs less than half of what the sorted reads still need";
        Optional<Cursor> next = sorted(position, true);
        if (taken != null) {
            fill.plan = plan(taken.driver);
            fill.reason = "the sorted field's index listed " + fill.sortListed + " of " + fill.sortRead + " index items read; "
                    + PredicateText.format(taken.driver.predicate()) + " matched " + taken.read
                    + " index items in all, fewer than the sorted reads still needed: its items make the page";
            return fromRange(taken, position);
        }
        return next;
    }

    /** The plans weighed, with what is known of their cost. */
    private void weigh(long sortCost, Optional<Double> yield, Knowledge learned) {
        fill.alternatives.add(new Explain.Alternative(new Explain.Plan.SortIndex(fill.sortFieldName()).describe(), sortCost, yield
                .map(y -> String.format(Locale.ROOT, "yield %.4f items listed per index item, over %d read on earlier pages",
                        y, learned.sortRead()))
                .orElse("unknown before a read")));
        for (Driver driver : drivers) {
            Optional<Long> exact = learned.exactCount(driver.position());
            long lower = learned.lowerBound(driver.position());
            fill.alternatives.add(new Explain.Alternative(plan(driver).describe(), exact.map(n -> 2 * n).orElse(lower > 0 ? 2 * lower : -1),
                    exact.map(n -> n + " index items (read whole on an earlier page)")
                            .orElse(lower > 0 ? "more than " + lower + " index items" : "unknown before a read")));
        }
    }

    private Optional<Cursor> sorted(Map<String, AttributeValue> position, boolean mayTakeARange) {
        reads.onItem((key, item) -> fill.sample(drivers, key, item));
        try {
            return new SortedRead(fill, reads, table, sortRanges, mayTakeARange ? this::rangeInstead : () -> false).from(position);
        } finally {
            reads.onItem((key, item) -> { });
        }
    }

    private static Explain.Plan plan(Driver driver) {
        return new Explain.Plan.Drive(driver.position(), PredicateText.format(driver.predicate()));
    }

    private RangeRead range(Driver driver) {
        return ranges.computeIfAbsent(driver.position(), i -> new RangeRead(driver));
    }

    /**
     * After a read of the sorted field's index: whether a predicate's range, read on, ended, so the page is made from it.
     * The range read is the one its candidates satisfied least among those still worth reading: not ended, and with less
     * read so far, on this page or an earlier one, than half of what it may read now ({@link #worthReading}).
     */
    private boolean rangeInstead() {
        if (fill.isFull()) {
            return false;
        }
        double yield = (fill.sortListed + 1.0) / (fill.sortRead + 2.0);
        long cap = Math.min((long) Math.ceil(2 * fill.need() / yield) / 2, reads.budgetLeft() / 2);
        Optional<Driver> best = drivers.stream().filter(driver -> worthReading(driver, cap))
                .min(Comparator.comparingDouble(fill::hitRate).thenComparingInt(Driver::rank)
                        .thenComparingLong(driver -> fill.learned.lowerBound(driver.position())));
        if (best.isEmpty()) {
            return false;
        }
        RangeRead read = range(best.get());
        read.readTo(cap);
        if (read.ended && read.canFinish()) {
            taken = read;
            return true;
        }
        return false;
    }

    /**
     * Whether a predicate's range may still pay to read up to {@code cap} index items: it has not ended, and what was read
     * of it (on this page, or at least on an earlier one) is at most half of {@code cap} — so a range read again on a later
     * page is read at least twice as far, and what a request spends on ranges that do not end stays within twice the last.
     */
    private boolean worthReading(Driver driver, long cap) {
        RangeRead read = ranges.get(driver.position());
        if (read != null && (read.ended || read.read >= cap)) {
            return false;
        }
        long known = fill.learned.lowerBound(driver.position());
        return known == 0 || 2 * known <= cap;
    }

    /**
     * The page from a predicate's items: each read and tested, listed under its first value of the sorted field that
     * satisfies the sorted field's predicates, ordered as the sorted field's index orders them, after {@code position}.
     */
    private Optional<Cursor> fromRange(RangeRead read, Map<String, AttributeValue> position) {
        fill.clear();
        reads.readAll(new ArrayList<>(read.keys));
        List<IndexItem> listings = new ArrayList<>();
        Map<IndexItem, Map<String, AttributeValue>> itemOf = new HashMap<>();
        for (ItemKey key : read.keys) {
            Optional<Map<String, AttributeValue>> item = reads.item(key);
            if (item.isPresent() && fill.tests.othersMatch(key, item.get())) {
                fill.listing(key, item.get()).ifPresent(listing -> {
                    listings.add(listing);
                    itemOf.put(listing, item.get());
                });
            }
        }
        Comparator<String> order = fill.keyOrder();
        listings.sort(Comparator.comparing(IndexItem::sortKey, order));
        AttributeValue after = position.get(IndexKey.SORT_KEY);
        List<IndexItem> rest = after == null ? listings
                : listings.stream().filter(listing -> order.compare(listing.sortKey(), after.s()) > 0).toList();
        for (IndexItem listing : rest) {
            if (fill.isFull()) {
                IndexItem last = rest.get(fill.items.size() - 1);
                return Optional.of(new Cursor(Cursor.Part.INDEX, Map.of(IndexKey.ATTRIB_ID, AttributeValue.fromS(fill.target.partition()),
                        IndexKey.SORT_KEY, AttributeValue.fromS(last.sortKey()))));
            }
            fill.add(itemOf.get(listing), listing.value().toAttributeValue());
        }
        return Optional.empty();
    }

    /** The reading of one predicate's ranges: where it stands, what it read, the items it listed. */
    private final class RangeRead {
        private final Driver driver;
        private int range;
        private Map<String, AttributeValue> position = Map.of();
        private long read;
        private boolean ended;
        private final LinkedHashSet<ItemKey> keys = new LinkedHashSet<>();

        RangeRead(Driver driver) {
            this.driver = driver;
        }

        /** Whether the items it listed can all be read within the page's budget. */
        boolean canFinish() {
            return keys.stream().filter(key -> !reads.isRead(key)).count() <= reads.budgetLeft();
        }

        /**
         * Reads on until the ranges end, {@code cap} index items are read, or it lists more items than half the budget left
         * (less {@value #SORTED_READ_RESERVE}, and as many reads, so that a page that goes on with the sorted read still moves
         * on).
         */
        void readTo(long cap) {
            while (!ended && read < cap && reads.mayRead() && reads.readsLeft() > SORTED_READ_RESERVE) {
                // half of what the page may read, less what the sorted read needs to move on (an index item and its item)
                long room = (reads.budgetLeft() - SORTED_READ_RESERVE) / 2;
                if (room < 1 || keys.size() > room) {
                    break;
                }
                int limit = (int) Math.min(room, Math.min(ReadLimits.MAX_READ_LIMIT, Math.max(ReadLimits.MIN_LIMIT, cap - read + 1)));
                QueryResponse response = reads.index(driver.partition(), driver.project(), driver.ranges().get(range), position, limit, true);
                read += response.scannedCount();
                for (Map<String, AttributeValue> item : response.items()) {
                    IndexEntry.of(item, table).map(IndexEntry::source).ifPresent(keys::add);
                }
                if (!response.hasLastEvaluatedKey() || response.lastEvaluatedKey().isEmpty()) {
                    range++;
                    position = Map.of();
                    ended = range == driver.ranges().size();
                } else {
                    position = response.lastEvaluatedKey();
                }
            }
            fill.learned = fill.learned.withCount(driver.position(), read, ended);
        }
    }
}

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

    private final Listing listing;
    private final PageReads reads;
    private final KeySchema table;
    private final Plan.SortIndex sort;
    private final List<Driver> drivers;
    /** The items the page needs. */
    private final int need;
    private final Map<Integer, RangeRead> ranges = new HashMap<>();
    /** What earlier pages knew, and what this read learns of the predicates' ranges. */
    private Knowledge learned;
    /** Candidates of the sorted field's index read on this page and, per predicate, how many satisfied it. */
    private int sampled;
    private final Map<Integer, Integer> hits = new HashMap<>();
    /** How far the sorted read was when it last told. */
    private SortedRead.Progress progress = new SortedRead.Progress(0, 0, 0);
    /** The range that ended while the sorted field's index was being read: the page is made from it. */
    private RangeRead taken;

    PlannedRead(Listing listing, PageReads reads, KeySchema table, Plan.SortOrDrive plan, Knowledge known, int need) {
        this.listing = listing;
        this.reads = reads;
        this.table = table;
        this.sort = plan.sort();
        this.drivers = plan.drives().stream().map(Plan.Drive::driver).toList();
        this.need = need;
        this.learned = known;
    }

    /** From {@code position}: the items listed, and where the next page resumes (empty when the index part ended). Used once. */
    Part read(Map<String, AttributeValue> position) {
        Optional<Double> yield = learned.sortYield();
        long sortCost = yield.map(y -> (long) Math.ceil(2 * need / y)).orElse(-1L);
        List<Explain.Alternative> alternatives = weigh(sortCost, yield, learned);
        if (drivers.isEmpty()) {
            return sorted(position, false, explained(sort, "no predicate is listed by an index (!= and missing never are; an "
                    + "attribute only when an index holds it): the sorted field's index, each candidate tested", alternatives));
        }
        Knowledge known = learned;
        Optional<Driver> counted = drivers.stream().filter(d -> known.exactCount(d.position()).isPresent())
                .min(Comparator.comparingLong(d -> known.exactCount(d.position()).orElseThrow()));
        if (counted.isPresent()) {
            long size = known.exactCount(counted.get().position()).orElseThrow();
            if (2 * size <= reads.budgetLeft() && (sortCost < 0 || 2 * size <= sortCost)) {
                RangeRead whole = range(counted.get());
                whole.readTo(Long.MAX_VALUE / 4);
                if (whole.ended && whole.canFinish()) {
                    return fromRange(whole, position, explained(new Plan.Drive(counted.get()), PredicateText.format(counted.get().predicate())
                            + " matched " + size + " index items on an earlier page: reading them and their items costs about " + 2 * size
                            + (sortCost < 0 ? "" : ", the sorted index about " + sortCost), alternatives));
                }
            }
        }
        if (sortCost >= 0 && drivers.stream().allMatch(d -> 4 * known.lowerBound(d.position()) > sortCost)) {
            return sorted(position, false, explained(sort, "earlier pages found each predicate's range holding more than a quarter of "
                    + "what the sorted index reads for a page (about " + sortCost + " items): the sorted field's index, each candidate "
                    + "tested", alternatives));
        }
        Driver first = drivers.stream().min(Comparator.comparingInt(Driver::rank)
                .thenComparingLong(d -> known.lowerBound(d.position()))).orElseThrow();
        long probe = listing.request().pageSize();
        if (known.lowerBound(first.position()) == 0 || 2 * known.lowerBound(first.position()) <= probe) {
            RangeRead start = range(first);
            start.readTo(probe);
            if (start.ended && start.canFinish()) {
                return fromRange(start, position, explained(new Plan.Drive(first), PredicateText.format(first.predicate()) + " matches "
                        + start.read + " index items, no more than " + probe + " (a page): its items make the page", alternatives));
            }
        }
        Part sorted = sorted(position, true, explained(sort, "the sorted field's index, each candidate tested; after each read, the "
                + "predicate that matched fewest candidates has its range read on while that costs less than half of what the sorted "
                + "reads still need", alternatives));
        if (taken != null) {
            return fromRange(taken, position, explained(new Plan.Drive(taken.driver), "the sorted field's index listed "
                    + progress.listed() + " of " + progress.read() + " index items read; " + PredicateText.format(taken.driver.predicate())
                    + " matched " + taken.read + " index items in all, fewer than the sorted reads still needed: its items make the page",
                    alternatives));
        }
        return sorted;
    }

    /**
     * A page from one predicate's range alone ({@link Plan.Drive} planned on its own): the range read whole, its items make
     * the page. A range whose reading does not fit the page's budget lists nothing: the page comes back short, its cursor
     * where it began ({@link Plan.SortOrDrive} reads the sorted index instead, and is what the planner plans today).
     */
    Part driveAlone(Driver driver, Map<String, AttributeValue> position) {
        Part.Explained explained = explained(new Plan.Drive(driver), PredicateText.format(driver.predicate())
                + ": its index range read whole, its items make the page", List.of());
        RangeRead whole = range(driver);
        whole.readTo(Long.MAX_VALUE / 4);
        if (whole.ended && whole.canFinish()) {
            return fromRange(whole, position, explained);
        }
        return new Part(List.of(), Optional.of(new Cursor(Cursor.Part.INDEX, position)), learned, explained);
    }

    private static Part.Explained explained(Plan plan, String reason, List<Explain.Alternative> alternatives) {
        return new Part.Explained(plan, reason, alternatives);
    }

    /** The plans weighed, with what is known of their cost. */
    private List<Explain.Alternative> weigh(long sortCost, Optional<Double> yield, Knowledge learned) {
        List<Explain.Alternative> alternatives = new ArrayList<>();
        alternatives.add(new Explain.Alternative(sort.describe(), sortCost, yield
                .map(y -> String.format(Locale.ROOT, "yield %.4f items listed per index item, over %d read on earlier pages",
                        y, learned.sortRead()))
                .orElse("unknown before a read")));
        for (Driver driver : drivers) {
            Optional<Long> exact = learned.exactCount(driver.position());
            long lower = learned.lowerBound(driver.position());
            alternatives.add(new Explain.Alternative(new Plan.Drive(driver).describe(), exact.map(n -> 2 * n).orElse(lower > 0 ? 2 * lower : -1),
                    exact.map(n -> n + " index items (read whole on an earlier page)")
                            .orElse(lower > 0 ? "more than " + lower + " index items" : "unknown before a read")));
        }
        return alternatives;
    }

    /**
     * The sorted read, its candidates sampled for each predicate's hit rate; what it learned of the sorted index joined to
     * what this read learned of the ranges meanwhile.
     */
    private Part sorted(Map<String, AttributeValue> position, boolean mayTakeARange, Part.Explained explained) {
        reads.onItem(this::sample);
        try {
            Part part = new SortedRead(listing, reads, table, sort.ranges(), learned, need, mayTakeARange ? this::rangeInstead : p -> false)
                    .read(position, explained);
            learned = part.learned().withCountsOf(learned);
            return new Part(part.listed(), part.next(), learned, explained);
        } finally {
            reads.onItem((key, item) -> { });
        }
    }

    /** Counts, for each driver, whether a candidate read from the sorted field's index satisfies its predicate. */
    private void sample(ItemKey key, Map<String, AttributeValue> item) {
        if (drivers.isEmpty()) {
            return;
        }
        sampled++;
        for (Driver driver : drivers) {
            if (listing.tests().matches(driver.predicate(), key, item)) {
                hits.merge(driver.position(), 1, Integer::sum);
            }
        }
    }

    /** The share of sampled candidates that satisfied a predicate, smoothed. */
    private double hitRate(Driver driver) {
        return (hits.getOrDefault(driver.position(), 0) + 1.0) / (sampled + 2.0);
    }

    private RangeRead range(Driver driver) {
        return ranges.computeIfAbsent(driver.position(), i -> new RangeRead(driver));
    }

    /**
     * After a read of the sorted field's index: whether a predicate's range, read on, ended, so the page is made from it.
     * The range read is the one its candidates satisfied least among those still worth reading: not ended, and with less
     * read so far, on this page or an earlier one, than half of what it may read now ({@link #worthReading}).
     */
    private boolean rangeInstead(SortedRead.Progress now) {
        progress = now;
        if (now.need() <= 0) {
            return false;
        }
        double yield = (now.listed() + 1.0) / (now.read() + 2.0);
        long cap = Math.min((long) Math.ceil(2 * now.need() / yield) / 2, reads.budgetLeft() / 2);
        Optional<Driver> best = drivers.stream().filter(driver -> worthReading(driver, cap))
                .min(Comparator.comparingDouble(this::hitRate).thenComparingInt(Driver::rank)
                        .thenComparingLong(driver -> learned.lowerBound(driver.position())));
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
        long known = learned.lowerBound(driver.position());
        return known == 0 || 2 * known <= cap;
    }

    /**
     * The page from a predicate's items: each read and tested, listed under its first value of the sorted field that
     * satisfies the sorted field's predicates, ordered as the sorted field's index orders them, after {@code position}.
     */
    private Part fromRange(RangeRead read, Map<String, AttributeValue> position, Part.Explained explained) {
        List<Part.Listed> listed = new ArrayList<>();
        reads.readAll(new ArrayList<>(read.keys));
        List<IndexItem> listings = new ArrayList<>();
        Map<IndexItem, Map<String, AttributeValue>> itemOf = new HashMap<>();
        for (ItemKey key : read.keys) {
            Optional<Map<String, AttributeValue>> item = reads.item(key);
            if (item.isPresent() && listing.tests().othersMatch(key, item.get())) {
                listing.listing(key, item.get()).ifPresent(under -> {
                    listings.add(under);
                    itemOf.put(under, item.get());
                });
            }
        }
        Comparator<String> order = listing.keyOrder();
        listings.sort(Comparator.comparing(IndexItem::sortKey, order));
        AttributeValue after = position.get(IndexKey.SORT_KEY);
        List<IndexItem> rest = after == null ? listings
                : listings.stream().filter(listing -> order.compare(listing.sortKey(), after.s()) > 0).toList();
        for (IndexItem under : rest) {
            if (listed.size() >= need) {
                IndexItem last = rest.get(listed.size() - 1);
                return new Part(listed, Optional.of(new Cursor(Cursor.Part.INDEX, Map.of(IndexKey.ATTRIB_ID,
                        AttributeValue.fromS(listing.target().partition()), IndexKey.SORT_KEY, AttributeValue.fromS(last.sortKey())))),
                        learned, explained);
            }
            listed.add(new Part.Listed(itemOf.get(under), under.value().toAttributeValue()));
        }
        return new Part(listed, Optional.empty(), learned, explained);
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
            learned = learned.withCount(driver.position(), read, ended);
        }
    }
}

package com.multikey.query;

import com.multikey.index.IndexEntry;
import com.multikey.index.IndexItem;
import com.multikey.index.IndexKey;
import com.multikey.index.ItemKey;
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
 * every predicate tested, until the page is full. Within the value the index's sort key is {@code value ␁ sorted value ␁
 * item key}, the sorted index's {@code sorted value ␁ item key}: while the sorted value is not cut to the tie-breaker's
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

    private final Listing listing;
    private final PageReads reads;
    private final KeySchema table;
    private final Driver driver;
    private final int need;

    OrderedDriveRead(Listing listing, PageReads reads, KeySchema table, Driver driver, int need) {
        this.listing = listing;
        this.reads = reads;
        this.table = table;
        this.driver = driver;
        this.need = need;
    }

    /**
     * Whether a driver can be read as an ordered drive for this listing: a single value's range (an {@code =} or a
     * {@code has}) of a grouped index of the same group and covers, not filtered on a project, whose {@code orderBy} is the
     * sorted field (a single-valued attribute of a grouped index) followed by the sorted index's own {@code orderBy}; for a
     * request with neither a filter nor predicates on the sorted field (they would skip items the cursor cannot stand on).
     */
    static boolean orders(Driver driver, Listing listing) {
        IndexDefinition sorted = listing.target().index();
        IndexDefinition driving = driver.index();
        if (driver.ranges().size() != 1 || driver.ranges().get(0) == null || driver.ranges().get(0).prefix() == null
                || !driver.ranges().get(0).prefix().endsWith(String.valueOf(SortKeyCodec.SEPARATOR)) || driver.project().isPresent()
                || listing.target().project().isPresent() || listing.request().filter().isPresent()
                || !listing.tests().onSortField().isEmpty()) {
            return false;
        }
        if (!(driver.predicate() instanceof Predicate.Equals) && !(driver.predicate() instanceof Predicate.Has)) {
            return false;
        }
        // the driving index's key within the value is the sorted index's key: the sorted value, its tie-breakers, the item key
        return sorted.layout() == IndexDefinition.Layout.GROUPED && driving.layout() == IndexDefinition.Layout.GROUPED
                && sorted.group().equals(driving.group()) && sorted.covers().equals(driving.covers())
                && sorted.values() instanceof ValueSource.Scalar scalar && driving.orderBy().size() == sorted.orderBy().size() + 1
                && driving.orderBy().get(0).path().equals(scalar.path())
                && driving.orderBy().subList(1, driving.orderBy().size()).equals(sorted.orderBy());
    }

    /** The page from {@code position} (the sorted index's key of the last item passed), or where it gave way. */
    Outcome read(Map<String, AttributeValue> position, Knowledge known, Part.Explained explained) {
        String prefix = driver.ranges().get(0).prefix();
        AttributeValue afterValue = position.get(IndexKey.SORT_KEY);
        String after = afterValue == null ? null : afterValue.s();
        List<Part.Listed> listed = new ArrayList<>();
        if (after != null && mayBeCut(after)) {
            // an item whose value is cut here may sort after the cursor there and before it here: read the other way
            return new Outcome.GaveWay(listed, position);
        }
        // the range's items that have the sorted field: a value's type tag follows the word's separator
        Filter.KeyRange range = Filter.KeyRange.between(prefix + "N", prefix + ABOVE_EVERY_VALUE);
        Map<String, AttributeValue> start = after == null ? Map.of()
                : Map.of(IndexKey.ATTRIB_ID, AttributeValue.fromS(driver.partition()), IndexKey.SORT_KEY, AttributeValue.fromS(prefix + after));
        java.util.Comparator<String> order = listing.keyOrder();
        String last = after;
        boolean ascending = listing.ascending();
        long read = 0;
        while (true) {
            // half of what the page may still read, less the other plan's reserve: the other half for their items
            int room = (reads.budgetLeft() - RESERVE) / 2;
            int batches = reads.readsLeft() - 1 - RESERVE;
            if (room < 1 || batches < 1 || !reads.mayRead()) {
                break;
            }
            // as many index items as the page still needs: within the value each lists unless its item fails a predicate
            // and, once some failed, more in the share of them that listed so far
            double yield = read == 0 ? 1.0 : (listed.size() + 1.0) / (read + 1.0);
            int limit = (int) Math.min(Math.min(ReadLimits.MAX_READ_LIMIT, Math.min(room, (long) batches * PageReads.MAX_BATCH_GET_KEYS)),
                    Math.ceil((need - listed.size()) / Math.min(1.0, yield)));
            QueryResponse response = reads.index(driver.partition(), driver.project(), range, start, limit, ascending);
            read += response.items().size();
            reads.readAll(response.items().stream().map(item -> IndexEntry.of(item, table)).flatMap(Optional::stream)
                    .map(IndexEntry::source).toList());
            for (Map<String, AttributeValue> stored : response.items()) {
                String drivingKey = stored.get(IndexKey.SORT_KEY).s();
                String at = drivingKey.substring(prefix.length());
                if (mayBeCut(at) || (last != null && order.compare(at, last) <= 0)) {
                    // not surely in the sorted index's order: the other way from the last place passed
                    return new Outcome.GaveWay(listed, last == null ? position : key(last));
                }
                Optional<IndexEntry> entry = IndexEntry.of(stored, table);
                if (entry.isPresent()) {
                    ItemKey key = entry.get().source();
                    Optional<Map<String, AttributeValue>> item = reads.item(key);
                    // listed here when the item is still under this key (not changed since) and passes every predicate
                    if (item.isPresent() && listing.listing(key, item.get()).filter(under -> under.sortKey().equals(at)).isPresent()
                            && listing.tests().othersMatch(key, item.get())) {
                        listed.add(new Part.Listed(item.get(), listing.listing(key, item.get()).get().value().toAttributeValue()));
                    }
                }
                last = at;
                if (listed.size() >= need) {
                    return new Outcome.Listed(new Part(listed, Optional.of(cursor(last)), known, explained));
                }
            }
            if (!response.hasLastEvaluatedKey() || response.lastEvaluatedKey().isEmpty()) {
                return new Outcome.Listed(new Part(listed, Optional.empty(), known, explained));
            }
            start = response.lastEvaluatedKey();
        }
        if (last == null || last.equals(after)) {
            // nothing passed within what the page may read here: the other way, with the reserve, moves on
            return new Outcome.GaveWay(listed, position);
        }
        return new Outcome.Listed(new Part(listed, Optional.of(cursor(last)), known, explained));
    }

    /**
     * Whether the sorted value at the head of {@code key} (a sorted index's key) is as long as a value cut to the
     * tie-breaker's {@code maxBytes}: a cut one keeps at least all but a character's bytes (three) of them.
     */
    private boolean mayBeCut(String key) {
        int separator = key.indexOf(SortKeyCodec.SEPARATOR);
        String value = separator < 0 ? key : key.substring(0, separator);
        return value.getBytes(StandardCharsets.UTF_8).length >= driver.index().orderBy().get(0).maxBytes() - 3;
    }

    private Map<String, AttributeValue> key(String sortKey) {
        return cursor(sortKey).startKey();
    }

    private Cursor cursor(String sortKey) {
        return new Cursor(Cursor.Part.INDEX, Map.of(IndexKey.ATTRIB_ID, AttributeValue.fromS(listing.target().partition()),
                IndexKey.SORT_KEY, AttributeValue.fromS(sortKey)));
    }
}

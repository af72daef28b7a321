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
 * item key}, the sorted index's {@code sorted value ␁ item key}: both list the items in the same order, and the sorted
 * index's key of the last item listed (the cursor, as every other read of the index part leaves it) tells where the range
 * resumes. When the range shows an item out of that order (a value cut to the tie-breaker's bytes) or the page's budget
 * runs out before anything is listed, it gives up: the caller reads the page another way.
 */
final class OrderedDriveRead {

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
     * {@code has}) of a grouped index, not filtered on a project, whose {@code orderBy} is the sorted field (a single-valued
     * attribute of a grouped index) followed by the sorted index's own {@code orderBy}.
     */
    static boolean orders(Driver driver, Listing listing) {
        IndexDefinition sorted = listing.target().index();
        IndexDefinition driving = driver.index();
        if (driver.ranges().size() != 1 || driver.ranges().get(0) == null || driver.ranges().get(0).prefix() == null
                || !driver.ranges().get(0).prefix().endsWith(String.valueOf(SortKeyCodec.SEPARATOR)) || driver.project().isPresent()
                || listing.target().project().isPresent()) {
            return false;
        }
        if (!(driver.predicate() instanceof Predicate.Equals) && !(driver.predicate() instanceof Predicate.Has)) {
            return false;
        }
        // the driving index's key within the value is the sorted index's key: the sorted value, its tie-breakers, the item key
        return sorted.layout() == IndexDefinition.Layout.GROUPED && driving.layout() == IndexDefinition.Layout.GROUPED
                && sorted.values() instanceof ValueSource.Scalar scalar && driving.orderBy().size() == sorted.orderBy().size() + 1
                && driving.orderBy().get(0).path().equals(scalar.path())
                && driving.orderBy().subList(1, driving.orderBy().size()).equals(sorted.orderBy());
    }

    /** The page from {@code position} (the sorted index's key of the last item listed); empty when it gave up. */
    Optional<Part> read(Map<String, AttributeValue> position, Knowledge known, Part.Explained explained) {
        Filter.KeyRange range = driver.ranges().get(0);
        AttributeValue afterValue = position.get(IndexKey.SORT_KEY);
        String after = afterValue == null ? null : afterValue.s();
        Map<String, AttributeValue> start = after == null ? Map.of() : seek(range, after);
        java.util.Comparator<String> order = listing.keyOrder();
        List<Part.Listed> listed = new ArrayList<>();
        String last = after;
        boolean ascending = listing.ascending();
        long read = 0;
        while (listed.size() < need && reads.mayRead()) {
            // as many index items as the page still needs: within the value each lists unless its item fails a predicate
            // and, once some failed, more in the share of them that listed so far
            double yield = read == 0 ? 1.0 : (listed.size() + 1.0) / (read + 1.0);
            int limit = (int) Math.min(Math.min(ReadLimits.MAX_READ_LIMIT, Math.max(1, reads.budgetLeft() / 2)),
                    Math.ceil((need - listed.size()) / Math.min(1.0, yield)));
            QueryResponse response = reads.index(driver.partition(), driver.project(), range, start, limit, ascending);
            read += response.items().size();
            List<ItemKey> keys = response.items().stream().map(item -> IndexEntry.of(item, table)).flatMap(Optional::stream)
                    .map(IndexEntry::source).distinct().filter(key -> !reads.isRead(key)).toList();
            for (int i = 0; i < keys.size() && reads.mayRead(); i += PageReads.MAX_BATCH_GET_KEYS) {
                reads.read(keys.subList(i, Math.min(keys.size(), i + PageReads.MAX_BATCH_GET_KEYS)));
            }
            for (Map<String, AttributeValue> stored : response.items()) {
                Optional<IndexEntry> entry = IndexEntry.of(stored, table);
                if (entry.isEmpty()) {
                    continue;
                }
                ItemKey key = entry.get().source();
                if (!reads.isRead(key)) {
                    return Optional.empty();   // the budget ran out before this item could be decided
                }
                Optional<Map<String, AttributeValue>> item = reads.item(key);
                if (item.isEmpty() || !listing.tests().othersMatch(key, item.get())) {
                    continue;
                }
                Optional<IndexItem> under = listing.listing(key, item.get());
                if (under.isEmpty() || (after != null && order.compare(under.get().sortKey(), after) <= 0)) {
                    continue;
                }
                if (last != null && order.compare(under.get().sortKey(), last) <= 0) {
                    return Optional.empty();   // not in page order: the ordered drive does not hold for this range
                }
                if (listed.size() >= need) {
                    return Optional.of(new Part(listed, Optional.of(cursor(last)), known, explained));
                }
                listed.add(new Part.Listed(item.get(), under.get().value().toAttributeValue()));
                last = under.get().sortKey();
            }
            if (!response.hasLastEvaluatedKey() || response.lastEvaluatedKey().isEmpty()) {
                return Optional.of(new Part(listed, Optional.empty(), known, explained));
            }
            start = response.lastEvaluatedKey();
        }
        if (listed.isEmpty()) {
            // the budget ran out before anything was listed: the cursor would not move
            return Optional.empty();
        }
        return Optional.of(new Part(listed, Optional.of(cursor(last)), known, explained));
    }

    private Cursor cursor(String sortKey) {
        return new Cursor(Cursor.Part.INDEX, Map.of(IndexKey.ATTRIB_ID, AttributeValue.fromS(listing.target().partition()),
                IndexKey.SORT_KEY, AttributeValue.fromS(sortKey)));
    }

    /**
     * Where the range resumes after the sorted index's key {@code after}: the range's value, then that key, when its
     * value part fits the tie-breaker uncut (then the driving index holds the item under exactly that suffix); else the
     * range's start, the items up to {@code after} skipped as they are read.
     */
    private Map<String, AttributeValue> seek(Filter.KeyRange range, String after) {
        int separator = after.indexOf(SortKeyCodec.SEPARATOR);
        if (separator < 0) {
            return Map.of();
        }
        int valueBytes = after.substring(0, separator).getBytes(StandardCharsets.UTF_8).length;
        if (valueBytes >= driver.index().orderBy().get(0).maxBytes()) {
            return Map.of();
        }
        return Map.of(IndexKey.ATTRIB_ID, AttributeValue.fromS(driver.partition()),
                IndexKey.SORT_KEY, AttributeValue.fromS(range.prefix() + after));
    }
}

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
import java.util.Map;
import java.util.Optional;

/**
 * A page from a union of drives ({@link Plan.Union}): each disjunct's index range read whole, the items they list read
 * once (an item two disjuncts list is one key), each tested against every {@code where} and listed under its first
 * value of the sorted field in page order that satisfies the sorted field's predicates (the rule every read lists an
 * item by, {@link Listing#listing}), merged in the sorted index's order after the cursor. The cursor is the sorted
 * index's key of the last item listed, as a drive's, so the next page may read another way.
 *
 * <p>The ranges are read while their index items stay within half of what the page may still read (the other half is
 * for their items) and a page's worth of reads is left; ranges that do not end there, or that earlier pages found larger
 * than that or than what the sorted index reads for a page, are not read: the page reads the plan's other way
 * ({@link Outcome.Otherwise}). What was read is counted under the {@code or}'s position ({@link Knowledge}), so the next
 * page knows it without reading it again.
 */
final class UnionRead {

    /** What the union read gives: the page, or the knowledge with which the page is read the other way. */
    sealed interface Outcome {
        /** The ranges ended within the page's budget: their items make the page. */
        record Listed(Part part) implements Outcome {
        }

        /** The ranges do not fit: read the plan's other way, knowing this. */
        record Otherwise(Knowledge learned) implements Outcome {
        }
    }

    private final Listing listing;
    private final PageReads reads;
    private final KeySchema table;
    private final Knowledge known;
    private final int need;

    UnionRead(Listing listing, PageReads reads, KeySchema table, Knowledge known, int need) {
        this.listing = listing;
        this.reads = reads;
        this.table = table;
        this.known = known;
        this.need = need;
    }

    Outcome read(Plan.Union union, Map<String, AttributeValue> start) {
        long cap = reads.budgetLeft() / 2;
        Optional<Long> exact = known.exactCount(union.position());
        long sortCost = known.sortYield().map(y -> (long) Math.ceil(2 * need / y)).orElse(-1L);
        long size = exact.orElse(known.lowerBound(union.position()));
        if (size > cap || exact.isEmpty() && size > 0 || sortCost >= 0 && exact.isPresent() && 2 * size > sortCost) {
            return new Outcome.Otherwise(known);
        }
        LinkedHashSet<ItemKey> keys = new LinkedHashSet<>();
        long read = 0;
        for (Plan.Drive drive : union.drives()) {
            Driver driver = drive.driver();
            for (Filter.KeyRange range : driver.ranges()) {
                Map<String, AttributeValue> position = Map.of();
                do {
                    if (read > cap || !reads.mayRead() || reads.readsLeft() <= PlannedRead.SORTED_READ_RESERVE) {
                        return new Outcome.Otherwise(known.withCount(union.position(), read, false));
                    }
                    // one more than the room left tells whether the range ends within it, and stays within the page's budget
                    int limit = (int) Math.min(ReadLimits.MAX_READ_LIMIT, cap - read + 1);
                    QueryResponse response = reads.index(driver.partition(), driver.project(), range, position, limit, true);
                    read += response.scannedCount();
                    for (Map<String, AttributeValue> item : response.items()) {
                        IndexEntry.of(item, table).map(IndexEntry::source).ifPresent(keys::add);
                    }
                    position = response.hasLastEvaluatedKey() ? response.lastEvaluatedKey() : Map.of();
                } while (!position.isEmpty());
            }
        }
        Knowledge learned = known.withCount(union.position(), read, true);
        if (read > cap || keys.stream().filter(key -> !reads.isRead(key)).count() > reads.budgetLeft()) {
            return new Outcome.Otherwise(learned);
        }
        return new Outcome.Listed(merged(keys, start, learned, new Part.Explained(union, union.drives().size()
                + " disjuncts' index ranges hold " + read + " index items in all: their items, merged in page order, make the page",
                List.of())));
    }

    /** The items of {@code keys}, each tested and listed once under its value, in page order after {@code start}. */
    private Part merged(LinkedHashSet<ItemKey> keys, Map<String, AttributeValue> start, Knowledge learned, Part.Explained explained) {
        reads.readAll(new ArrayList<>(keys));
        List<IndexItem> listings = new ArrayList<>();
        Map<IndexItem, Map<String, AttributeValue>> itemOf = new HashMap<>();
        for (ItemKey key : keys) {
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
        AttributeValue after = start.get(IndexKey.SORT_KEY);
        List<IndexItem> rest = after == null ? listings
                : listings.stream().filter(under -> order.compare(under.sortKey(), after.s()) > 0).toList();
        List<Part.Listed> listed = new ArrayList<>();
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
}

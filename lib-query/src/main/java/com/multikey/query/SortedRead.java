package com.multikey.query;

import com.multikey.index.IndexEntry;
import com.multikey.index.IndexItem;
import com.multikey.index.IndexKey;
import com.multikey.index.ItemKey;
import com.multikey.index.definition.KeySchema;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

/**
 * The index part of a page read in page order from the sorted field's index partition, narrowed to its key ranges
 * ({@link SortRanges}, read one after the other): each
 * index item's item is read (a hundred a call at most, as the page needs them) and listed when the index item is the
 * one it is listed under ({@link Listing#listing}) and it satisfies the other predicates. An item whose index item's
 * projection already fails a predicate is not read. The cursor holds the key of the last index item consumed.
 */
final class SortedRead {

    /**
     * How far the read is, told after each read that left the page short.
     *
     * @param need   the items the page still needs
     * @param read   index items consumed so far
     * @param listed items listed from them
     */
    record Progress(int need, long read, long listed) {
    }

    private final Listing listing;
    private final PageReads reads;
    private final KeySchema table;
    private final SortRanges ranges;
    /** What earlier pages learned: sizes the reads. */
    private final Knowledge known;
    /** The items the page needs. */
    private final int need;
    /** Asked after each read that left the page short: true stops the read (another plan took over). */
    private final java.util.function.Predicate<Progress> afterRead;
    /** The items this read listed, in page order. */
    private final List<Part.Listed> listed = new ArrayList<>();
    /** The values (index items in the partition) of the items this read listed: the field's multiplicity. */
    private long listedValues;

    SortedRead(Listing listing, PageReads reads, KeySchema table, SortRanges ranges, Knowledge known, int need,
               java.util.function.Predicate<Progress> afterRead) {
        this.listing = listing;
        this.reads = reads;
        this.table = table;
        this.ranges = ranges;
        this.known = known;
        this.need = need;
        this.afterRead = afterRead;
    }

    private boolean isFull() {
        return listed.size() >= need;
    }

    private int need() {
        return need - listed.size();
    }

    /**
     * From {@code start}: the items listed, and where the next page resumes (empty when the part ended). The ranges are read
     * one after the other in page order: those the start is past are skipped, the one it is inside is read on after it.
     * This reader is used once.
     */
    Part read(Map<String, AttributeValue> start, Part.Explained explained) {
        Counts counts = new Counts();
        Optional<Cursor> next = from(start, counts);
        Knowledge learned = known.withSortRead(counts.read, counts.listed);
        if (counts.read > 0) {
            learned = learned.withLastSortRead(counts.read, counts.decided, counts.listed, listedValues);
        }
        return new Part(listed, next, learned, explained);
    }

    /** What the read consumed: index items, items listed from them, items read to decide them. */
    private static final class Counts {
        long read;
        long listed;
        long decided;
    }

    private Optional<Cursor> from(Map<String, AttributeValue> start, Counts counts) {
        ReadLimits limits = new ReadLimits(known, !listing.tests().isEmpty(), this::need, reads, true);
        boolean ascending = listing.ascending();
        List<Filter.KeyRange> order = ranges.inOrder(ascending);
        AttributeValue at = start.get(IndexKey.SORT_KEY);
        int r = 0;
        Map<String, AttributeValue> position = start;
        if (at != null && at.s() != null) {
            while (r < order.size() && SortRanges.place(order.get(r), at.s(), ascending) == SortRanges.Place.AFTER) {
                r++;
            }
            if (r < order.size() && SortRanges.place(order.get(r), at.s(), ascending) == SortRanges.Place.BEFORE) {
                position = Map.of();
            }
        }
        if (r == order.size()) {
            return Optional.empty();
        }
        // where the next page resumes if this one stops before it reads on
        Map<String, AttributeValue> resume = start;
        // the items the consumed index items named and the page read to decide them: what listing them needed
        Set<ItemKey> decided = new HashSet<>();
        boolean first = true;
        Target target = listing.target();
        try {
            while (!isFull() && reads.mayRead()) {
                QueryResponse response = reads.index(target.partition(), target.project(), order.get(r), position,
                        limits.limit(), ascending);
                List<IndexEntry> entries = response.items().stream()
                        .map(item -> IndexEntry.of(item, table).orElse(new IndexEntry(IndexKey.of(item), PageReads.NO_ITEM)))
                        .toList();
                if (first) {
                    first = false;
                    if (widened(entries, response, limits)) {
                        // the same index items and more, from the same position, before any item is read for them
                        continue;
                    }
                }
                int before = listed.size();
                int consumed = consume(entries, response.items());
                entries.subList(0, consumed).stream().map(IndexEntry::source).filter(reads::isRead).forEach(decided::add);
                counts.read += consumed == entries.size() ? response.scannedCount() : consumed;
                counts.listed += listed.size() - before;
                if (consumed < entries.size()) {
                    return Optional.of(new Cursor(Cursor.Part.INDEX, consumed == 0 ? resume : entries.get(consumed - 1).key().toKey()));
                }
                if (!response.hasLastEvaluatedKey() || response.lastEvaluatedKey().isEmpty()) {
                    if (r + 1 == order.size()) {
                        return Optional.empty();
                    }
                    // this range read whole: the next one from its start
                    resume = SortRanges.boundaryAfter(order.get(r), target.partition(), ascending);
                    r++;
                    position = Map.of();
                    if (isFull()) {
                        return Optional.of(new Cursor(Cursor.Part.INDEX, resume));
                    }
                } else {
                    if (isFull() && consumed > 0) {
                        // resume after the page's own last item, not after the last item DynamoDB evaluated: in a field
                        // partition shared by projects, that one may be another project's, dropped by the filter
                        return Optional.of(new Cursor(Cursor.Part.INDEX, entries.get(consumed - 1).key().toKey()));
                    }
                    position = response.lastEvaluatedKey();
                    resume = position;
                }
                if (response.scannedCount() > 0) {
                    // a range that held nothing says nothing of the next one's yield
                    limits.record(response.scannedCount(), listed.size() - before);
                }
                if (afterRead.test(new Progress(need(), counts.read, counts.listed))) {
                    break;
                }
            }
            return Optional.of(new Cursor(Cursor.Part.INDEX, resume));
        } finally {
            counts.decided = decided.size();
        }
    }

    /**
     * Whether to ask the first read again, wider, because its index items cannot fill the page: they go on past it, and the
     * items they name that the page has not read, as many per listed item as earlier pages read (one each on a first page:
     * there, an item's first index item in page order is the one it is listed under), list fewer than the page needs.
     * Reading them first would cost a BatchGetItem and then a Query and another BatchGetItem for the rest; asking again,
     * wider, costs one Query. Not when the read can fill the page, cannot be asked wider, or nothing tells how many of
     * its items list (a page with predicates before any candidate was tested).
     */
    private boolean widened(List<IndexEntry> entries, QueryResponse response, ReadLimits limits) {
        if (!response.hasLastEvaluatedKey() || response.lastEvaluatedKey().isEmpty() || reads.readsLeft() < 2) {
            return false;
        }
        Optional<Double> keysPerListed = known.keysPerListed();
        if (keysPerListed.isEmpty() && !listing.tests().isEmpty()) {
            return false;
        }
        long unread = entries.stream().map(IndexEntry::source).filter(source -> source != PageReads.NO_ITEM && !reads.isRead(source))
                .distinct().count();
        double lists = unread / keysPerListed.orElse(1.0);
        // a read that named no item to read says nothing of the next (the further reads' own growth serves it better)
        if (unread == 0 || lists >= need()) {
            return false;
        }
        long wider = (long) Math.ceil(1.25 * response.scannedCount() * need() / lists);
        return limits.widen((int) Math.min(ReadLimits.MAX_READ_LIMIT, wider));
    }

    /**
     * Takes index items in order while the page has room, then goes on over items that list nothing (another value of
     * an item already placed, a stale item, an item that fails a predicate) as far as the items read tell.
     *
     * @return how many index items were consumed: the cursor goes after the last of them
     */
    private int consume(List<IndexEntry> entries, List<Map<String, AttributeValue>> stored) {
        ItemTests tests = listing.tests();
        for (int i = 0; i < entries.size(); i++) {
            IndexEntry entry = entries.get(i);
            if (!tests.isEmpty() && !reads.isRead(entry.source())
                    && tests.othersMatchOnProjection(stored.get(i)).map(match -> !match).orElse(false)) {
                continue;   // its projection says it fails a predicate: not read
            }
            if (!reads.isRead(entry.source())) {
                if (isFull() || !reads.mayRead()) {
                    return i;
                }
                // exactly the items the page needs first; when some of them list nothing, as many as one call takes
                int chunk = Math.min(reads.budgetLeft(), tests.isEmpty()
                        ? (reads.itemsRead() == 0 ? firstChunk() : PageReads.MAX_BATCH_GET_KEYS) : candidates());
                reads.read(entries.subList(i, entries.size()).stream().map(IndexEntry::source)
                        .filter(id -> !reads.isRead(id)).distinct().limit(chunk).toList());
            }
            Optional<Map<String, AttributeValue>> item = reads.item(entry.source());
            Optional<IndexItem> listedUnder = item.flatMap(found -> listing.listing(entry.source(), found)
                    .filter(first -> first.sortKey().equals(entry.sortKey()))
                    .filter(first -> tests.othersMatch(entry.source(), found)));
            if (listedUnder.isPresent()) {
                if (isFull()) {
                    return i;
                }
                listed.add(new Part.Listed(item.get(), listedUnder.get().value().toAttributeValue()));
                listedValues += listing.values(entry.source(), item.get());
            }
        }
        return entries.size();
    }

    /**
     * How many items to read first without predicates: exactly the page's need when each item read lists (a field with
     * one value per item; the first page, where each item's first index item is the one it is listed under), else every
     * item the read's index items name, up to a BatchGetItem ({@link #windowOrNeed}).
     */
    private int firstChunk() {
        return windowOrNeed().orElse(need());
    }

    /**
     * When earlier pages found that the page reads more items than it lists (later values of a multi-valued field, items
     * that fail a predicate): every item the first read's index items name, up to a BatchGetItem. That read asked for as
     * many index items as such a page needs and some room ({@link ReadLimits}), so one BatchGetItem decides the page.
     */
    private OptionalInt windowOrNeed() {
        boolean more = known.multiValued() || known.keysPerListed().map(perListed -> perListed > 1).orElse(false);
        return reads.itemsRead() == 0 && more ? OptionalInt.of(PageReads.MAX_BATCH_GET_KEYS) : OptionalInt.empty();
    }

    /**
     * How many candidates to read next with predicates: on a page's first read when earlier pages told how many list, every
     * item its index items name ({@link #windowOrNeed}); else what the page still needs over the share of candidates
     * listed so far (on this page, else on earlier ones), a quarter more, up to a BatchGetItem.
     */
    private int candidates() {
        if (windowOrNeed().isPresent()) {
            return windowOrNeed().getAsInt();
        }
        double yield = reads.itemsRead() > 0 ? (listed.size() + 1.0) / (reads.itemsRead() + 2.0)
                : known.sortYield().orElse(1.0);
        return (int) Math.max(1, Math.min(PageReads.MAX_BATCH_GET_KEYS, Math.ceil(1.25 * need() / Math.min(1.0, yield))));
    }
}

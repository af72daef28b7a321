package com.multikey.query;

import com.multikey.index.IndexKey;
import com.multikey.index.KeyOrder;
import com.multikey.index.ValueBounds;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The key ranges of the sorted field's index a page reads: the intersection of what the filter and each of the sorted
 * field's predicates allow, as {@link KeyRanges} maps them. {@code =} and {@code beginsWith} allow a prefix, a range its bounds, {@code in} one prefix per
 * value (several ranges, read one after the other in page order); {@code !=}, {@code present} and {@code missing} allow
 * every key. Each predicate's keys cover every value that satisfies it (a text longer than a sort key keeps is asked by its
 * kept part: the test on whole values decides), so their intersection covers every value that satisfies them all; none
 * left (two {@code in} lists with no value in common, {@code = 3} with {@code > 5}, values of two types) reads nothing.
 *
 * <p>The ranges are disjoint and in ascending key order. No stored key equals a bound of a range: a prefix stops where a
 * key goes on, and {@link Filter.KeyRange} says the same of a range's bounds; so a position between two ranges can be told
 * by a bound alone, which is what a cursor holds when a page stops after one range and before the next
 * ({@link #boundaryAfter}).
 */
final class SortRanges {

    /** The whole partition: nothing narrows the read. */
    static final SortRanges WHOLE = new SortRanges(null);

    /** Ascending and disjoint; null: the whole partition; empty: no key. */
    private final List<Filter.KeyRange> ranges;

    private SortRanges(List<Filter.KeyRange> ranges) {
        this.ranges = ranges == null ? null : List.copyOf(ranges);
    }

    /** The ranges the filter (if any) and the sorted field's predicates allow together ({@link KeyRanges}, the one mapping). */
    static SortRanges of(Optional<Filter> filter, List<Predicate> onSortField, ValueBounds bounds) {
        KeyRanges allowed = filter.map(f -> KeyRanges.of(f, bounds)).orElse(KeyRanges.UNLISTED);
        allowed = KeyRanges.and(allowed, KeyRanges.of(Expression.allOf(onSortField), field -> true, bounds));
        return switch (allowed) {
            case KeyRanges.Within within -> new SortRanges(within.ranges());
            case KeyRanges.Partition partition -> WHOLE;
            case KeyRanges.Unlisted unlisted -> WHOLE;
        };
    }

    /** Whether no key is within them: the page reads nothing. */
    boolean isEmpty() {
        return ranges != null && ranges.isEmpty();
    }

    /** The ranges in the order a page reads them; one null (the whole partition) when nothing narrows the read. */
    List<Filter.KeyRange> inOrder(boolean ascending) {
        if (ranges == null) {
            return Collections.singletonList(null);
        }
        List<Filter.KeyRange> ordered = new ArrayList<>(ranges);
        if (!ascending) {
            Collections.reverse(ordered);
        }
        return ordered;
    }

    /**
     * One range from the lowest key of the first to the highest of the last (the one range itself when there is one): what a
     * cursor's key must be within. Null when nothing narrows the read, or nothing is left.
     */
    Filter.KeyRange hull() {
        if (ranges == null || ranges.isEmpty()) {
            return null;
        }
        if (ranges.size() == 1) {
            return ranges.get(0);
        }
        return Filter.KeyRange.between(low(ranges.get(0)), high(ranges.get(ranges.size() - 1)));
    }

    /** Where a position stands against one range, in page order. */
    enum Place { BEFORE, INSIDE, AFTER }

    /**
     * Where the key {@code at} stands against a range read in this order: before it (read it whole), inside it (read on
     * after the key), or after it (read it no more). A bound is never a stored key: at a range's first bound it is before
     * the range, at its last after.
     */
    static Place place(Filter.KeyRange range, String at, boolean ascending) {
        if (range == null) {
            return Place.INSIDE;
        }
        int fromLow = KeyOrder.compare(at, low(range));
        int fromHigh = KeyOrder.compare(at, high(range));
        if (ascending) {
            return fromHigh >= 0 ? Place.AFTER : fromLow <= 0 ? Place.BEFORE : Place.INSIDE;
        }
        return fromLow <= 0 ? Place.AFTER : fromHigh >= 0 ? Place.BEFORE : Place.INSIDE;
    }

    /** The index key a cursor holds once a range is read whole: its last bound in page order, before the next range. */
    static Map<String, AttributeValue> boundaryAfter(Filter.KeyRange range, String partition, boolean ascending) {
        return Map.of(IndexKey.ATTRIB_ID, AttributeValue.fromS(partition),
                IndexKey.SORT_KEY, AttributeValue.fromS(ascending ? high(range) : low(range)));
    }

    /** The lowest key of a range, or a string below it that is no stored key. */
    static String low(Filter.KeyRange range) {
        return KeyRanges.low(range);
    }

    /** A string above every key of a range and no stored key: a prefix's successor, a range's high bound. */
    static String high(Filter.KeyRange range) {
        return KeyRanges.high(range);
    }
}

package com.multikey.query;

import com.multikey.index.IndexKey;
import com.multikey.index.KeyOrder;
import com.multikey.index.ValueBounds;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The key ranges of the sorted field's index a page reads: the intersection of what the filter and each of the sorted
 * field's predicates allow. {@code =} and {@code beginsWith} allow a prefix, a range its bounds, {@code in} one prefix per
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

    /** The ranges the filter (if any) and the sorted field's predicates allow together. */
    static SortRanges of(Optional<Filter> filter, List<Predicate> onSortField, ValueBounds bounds) {
        List<Filter.KeyRange> allowed = null;
        if (filter.isPresent()) {
            allowed = intersect(allowed, List.of(filter.get().keyRange(bounds)));
        }
        for (Predicate predicate : onSortField) {
            List<Filter.KeyRange> own = switch (predicate) {
                case Predicate.Equals p -> List.of(new Filter.Equals(p.value()).keyRange(bounds));
                case Predicate.In p -> p.values().stream().map(v -> new Filter.Equals(v).keyRange(bounds)).toList();
                case Predicate.BeginsWith p -> List.of(new Filter.BeginsWith(p.prefix()).keyRange(bounds));
                case Predicate.Range p -> List.of(new Filter.Range(p.low(), p.lowInclusive(), p.high(), p.highInclusive()).keyRange(bounds));
                case Predicate.NotEquals p -> null;
                case Predicate.Present p -> null;
                case Predicate.Missing p -> null;
            };
            if (own != null) {
                allowed = intersect(allowed, own);
            }
        }
        return new SortRanges(allowed);
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

    /** Every range of {@code a} cut by every range of {@code b}, ascending; {@code a} null: {@code b} alone. */
    private static List<Filter.KeyRange> intersect(List<Filter.KeyRange> a, List<Filter.KeyRange> b) {
        List<Filter.KeyRange> out = new ArrayList<>();
        for (Filter.KeyRange x : a == null ? List.of(WHOLE_RANGE) : a) {
            for (Filter.KeyRange y : b) {
                Filter.KeyRange both = x == WHOLE_RANGE ? y : intersect(x, y);
                if (both != null && !both.isEmpty() && out.stream().noneMatch(both::equals)) {
                    out.add(both);
                }
            }
        }
        out.sort(Comparator.comparing(SortRanges::low, KeyOrder.UTF8));
        return out;
    }

    /** Stands for "no range yet" in {@link #intersect(List, List)}. */
    private static final Filter.KeyRange WHOLE_RANGE = Filter.KeyRange.between("", "");

    /** The keys within both ranges: one of them when it lies within the other (a prefix stays a prefix), else null when none. */
    private static Filter.KeyRange intersect(Filter.KeyRange x, Filter.KeyRange y) {
        if (within(x, y)) {
            return x;
        }
        if (within(y, x)) {
            return y;
        }
        String low = KeyOrder.compare(low(x), low(y)) >= 0 ? low(x) : low(y);
        String high = KeyOrder.compare(high(x), high(y)) <= 0 ? high(x) : high(y);
        Filter.KeyRange both = Filter.KeyRange.between(low, high);
        return both.isEmpty() ? null : both;
    }

    /** Whether every key of {@code inner} is a key of {@code outer}. */
    private static boolean within(Filter.KeyRange inner, Filter.KeyRange outer) {
        if (outer.prefix() != null) {
            return inner.prefix() != null ? inner.prefix().startsWith(outer.prefix())
                    : inner.low().startsWith(outer.prefix()) && inner.high().startsWith(outer.prefix());
        }
        return KeyOrder.compare(low(inner), outer.low()) >= 0 && KeyOrder.compare(high(inner), outer.high()) <= 0;
    }

    /** The lowest key of a range, or a string below it that is no stored key. */
    static String low(Filter.KeyRange range) {
        return range.prefix() != null ? range.prefix() : range.low();
    }

    /** A string above every key of a range and no stored key: a prefix's successor, a range's high bound. */
    static String high(Filter.KeyRange range) {
        return range.prefix() != null ? successor(range.prefix()) : range.high();
    }

    /**
     * The least string above every string that starts with {@code prefix}, in UTF-8 byte order (which is code point order):
     * its last code point below U+10FFFF one higher, surrogates skipped. A prefix of a sort key starts with a type's tag, so
     * there is always one.
     */
    static String successor(String prefix) {
        int[] codePoints = prefix.codePoints().toArray();
        for (int i = codePoints.length - 1; i >= 0; i--) {
            if (codePoints[i] < Character.MAX_CODE_POINT) {
                int next = codePoints[i] + 1 == Character.MIN_SURROGATE ? Character.MAX_SURROGATE + 1 : codePoints[i] + 1;
                StringBuilder out = new StringBuilder();
                for (int j = 0; j < i; j++) {
                    out.appendCodePoint(codePoints[j]);
                }
                return out.appendCodePoint(next).toString();
            }
        }
        throw new IllegalArgumentException("no string follows every extension of a prefix of U+10FFFF alone");
    }
}

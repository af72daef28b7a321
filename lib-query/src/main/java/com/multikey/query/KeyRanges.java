package com.multikey.query;

import com.multikey.index.IndexValue;
import com.multikey.index.KeyOrder;
import com.multikey.index.ValueBounds;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The one mapping from predicates to index key ranges: where, in the partition of one field's index (the group's, of the
 * entry), an item that satisfies an expression has an index item. Every read that narrows an index by predicates asks
 * it — the sorted read ({@link SortRanges}) and a plan that drives from a predicate ({@link Driver}) — and it is one
 * exhaustive switch over {@link Expression}, so a new kind of predicate does not compile until it says which keys hold its
 * values.
 *
 * <p>Each answer covers every value that satisfies the expression (a text longer than a sort key keeps is asked by its
 * kept part: the test on whole values decides), from the narrowest to the widest: {@link Within} some key ranges,
 * anywhere in the {@link Partition}, or {@link Unlisted} (an item may match without any index item in the partition: a
 * {@code missing} field, a {@code not}, a predicate on another field).
 */
sealed interface KeyRanges {

    /** No narrowing: a matching item may have no index item in the partition. */
    KeyRanges UNLISTED = new Unlisted();

    /**
     * The key ranges, each read whole: disjoint and ascending once combined with another ({@link #and}); for one {@code in}
     * predicate in the order of its values. Empty: no key, no item matches.
     */
    record Within(List<Filter.KeyRange> ranges) implements KeyRanges {
        public Within {
            ranges = List.copyOf(ranges);
        }
    }

    /** Anywhere in the partition: a matching item has an index item there (it holds a value of the field). */
    record Partition() implements KeyRanges {
    }

    /** A matching item may have no index item in the partition: no read of it lists them all. */
    record Unlisted() implements KeyRanges {
    }

    /**
     * Where the items satisfying {@code expression} have an index item of the field {@code field} names (it tells whether a
     * predicate's field, in any spelling, is the one read), under an index whose values are encoded within {@code bounds}.
     */
    static KeyRanges of(Expression expression, java.util.function.Predicate<String> field, ValueBounds bounds) {
        return of(expression, field, bounds, false);
    }

    /**
     * As {@link #of(Expression, java.util.function.Predicate, ValueBounds)}, on an index that holds the field's words
     * ({@code words}: a words index, {@code values: {wordsOf: ...}}) rather than its values: there {@code has} and
     * {@code has prefix} are key ranges of words, and every other predicate on the field is unlisted (an index item is a
     * word, never the field's value); on an index of the values, a word is in a text the partition holds.
     */
    static KeyRanges of(Expression expression, java.util.function.Predicate<String> field, ValueBounds bounds, boolean words) {
        return switch (expression) {
            case Predicate p when !field.test(p.field()) -> UNLISTED;
            case Predicate p when words && !(p instanceof Predicate.Has || p instanceof Predicate.HasPrefix) -> UNLISTED;
            case Predicate.Has p -> words ? within(new Filter.Equals(new IndexValue.Text(p.word())).keyRange(bounds)) : new Partition();
            case Predicate.HasPrefix p -> words ? within(new Filter.BeginsWith(p.prefix()).keyRange(bounds)) : new Partition();
            case Predicate.Equals p -> within(new Filter.Equals(p.value()).keyRange(bounds));
            case Predicate.In p -> new Within(p.values().stream().distinct().map(v -> new Filter.Equals(v).keyRange(bounds)).toList());
            case Predicate.BeginsWith p -> within(new Filter.BeginsWith(p.prefix()).keyRange(bounds));
            case Predicate.Range p -> within(new Filter.Range(p.low(), p.lowInclusive(), p.high(), p.highInclusive()).keyRange(bounds));
            case Predicate.NotEquals p -> new Partition();
            case Predicate.Present p -> new Partition();
            case Predicate.Missing p -> UNLISTED;
            case Expression.And and -> and.operands().stream().map(o -> of(o, field, bounds, words)).reduce(UNLISTED, KeyRanges::and);
            case Expression.Or or -> or.operands().stream().map(o -> of(o, field, bounds, words)).reduce(new Within(List.of()), KeyRanges::or);
            // the items of any other value, and those without the field
            case Expression.Not not -> UNLISTED;
        };
    }

    /** The filter's key range: the one a request's filter on the sorted field allows. */
    static KeyRanges of(Filter filter, ValueBounds bounds) {
        return within(filter.keyRange(bounds));
    }

    private static KeyRanges within(Filter.KeyRange range) {
        return new Within(List.of(range));
    }

    /** Where items that satisfy both have an index item: the ranges of both cut, disjoint and ascending. */
    static KeyRanges and(KeyRanges a, KeyRanges b) {
        return switch (a) {
            case Unlisted u -> b instanceof Within w ? new Within(intersect(null, w.ranges())) : b;
            case Partition p -> b instanceof Within w ? new Within(intersect(null, w.ranges())) : p;
            case Within x -> switch (b) {
                case Within y -> new Within(intersect(x.ranges(), y.ranges()));
                case Partition p -> new Within(intersect(null, x.ranges()));
                case Unlisted u -> new Within(intersect(null, x.ranges()));
            };
        };
    }

    /** Where items that satisfy either have an index item: the ranges of both, overlapping ones joined, ascending. */
    static KeyRanges or(KeyRanges a, KeyRanges b) {
        return switch (a) {
            case Unlisted u -> u;
            case Partition p -> b instanceof Unlisted ? b : p;
            case Within x -> switch (b) {
                case Within y -> new Within(union(x.ranges(), y.ranges()));
                case Partition p -> p;
                case Unlisted u -> u;
            };
        };
    }

    /** Every range of {@code a} cut by every range of {@code b}, ascending, empty ones left out; {@code a} null: {@code b} alone. */
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
        out.sort(Comparator.comparing(KeyRanges::low, KeyOrder.UTF8));
        return out;
    }

    /** Stands for "no range yet" in {@link #intersect(List, List)}. */
    Filter.KeyRange WHOLE_RANGE = Filter.KeyRange.between("", "");

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

    /** The ranges of both, ascending; a range within another left out, two that overlap joined into one. */
    private static List<Filter.KeyRange> union(List<Filter.KeyRange> a, List<Filter.KeyRange> b) {
        List<Filter.KeyRange> all = new ArrayList<>(intersect(null, a));
        all.addAll(intersect(null, b));
        all.sort(Comparator.comparing(KeyRanges::low, KeyOrder.UTF8));
        List<Filter.KeyRange> out = new ArrayList<>();
        for (Filter.KeyRange range : all) {
            if (!out.isEmpty()) {
                Filter.KeyRange last = out.get(out.size() - 1);
                if (within(range, last)) {
                    continue;
                }
                if (within(last, range)) {
                    out.set(out.size() - 1, range);
                    continue;
                }
                if (KeyOrder.compare(low(range), high(last)) <= 0) {
                    out.set(out.size() - 1, Filter.KeyRange.between(low(last), max(high(last), high(range))));
                    continue;
                }
            }
            out.add(range);
        }
        return out;
    }

    private static String max(String a, String b) {
        return KeyOrder.compare(a, b) >= 0 ? a : b;
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

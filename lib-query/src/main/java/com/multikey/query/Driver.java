package com.multikey.query;

import com.multikey.index.IndexValue;
import com.multikey.index.ValueBounds;
import com.multikey.index.definition.IndexDefinition;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

/**
 * A predicate whose matching items an index partition lists, in key ranges: what a plan that drives from the predicate
 * reads. {@code rank} orders drivers before anything is known of their sizes: an equality first, then a short {@code in}
 * list, a prefix, a range with two bounds, with one, and {@code present} last.
 *
 * @param position  the predicate's place in the request
 * @param partition the index partition (the group's, of the entry)
 * @param project   the project a field-partitioned grid partition is filtered on; empty otherwise
 * @param ranges    the key ranges to read, each whole; a null range is the whole partition
 */
record Driver(int position, Predicate predicate, IndexDefinition index, String partition, Optional<String> project,
              List<Filter.KeyRange> ranges, int rank) {

    /** The most values of an {@code in} list a plan drives from: one Query each. */
    static final int MAX_IN_RANGES = 10;

    static Driver of(int position, Predicate predicate, IndexDefinition index, String partition, Optional<String> project,
                     ValueBounds bounds) {
        List<Filter.KeyRange> ranges = new ArrayList<>();
        int rank;
        switch (predicate) {
            case Predicate.Equals p -> {
                ranges.add(new Filter.Equals(p.value()).keyRange(bounds));
                rank = 0;
            }
            case Predicate.In p -> {
                p.values().stream().distinct().forEach(v -> ranges.add(new Filter.Equals(v).keyRange(bounds)));
                rank = 1;
            }
            case Predicate.BeginsWith p -> {
                ranges.add(new Filter.BeginsWith(p.prefix()).keyRange(bounds));
                rank = 2;
            }
            case Predicate.Range p -> {
                ranges.add(new Filter.Range(p.low(), p.lowInclusive(), p.high(), p.highInclusive()).keyRange(bounds));
                rank = p.low() != null && p.high() != null ? 3 : 4;
            }
            case Predicate.Present p -> {
                ranges.add(null);
                rank = 5;
            }
            default -> throw new IllegalArgumentException("no index lists the items of " + PredicateText.format(predicate));
        }
        return new Driver(position, predicate, index, partition, project, Collections.unmodifiableList(ranges), rank);
    }
}

/** The key range of the sorted field's index that its predicates allow: the narrowest one predicate gives, or none. */
final class SortRange {

    private SortRange() {
    }

    /** @return null when no predicate narrows the sorted field's index */
    static Filter.KeyRange of(List<Predicate> onSortField, ValueBounds bounds) {
        Filter best = null;
        int bestRank = Integer.MAX_VALUE;
        for (Predicate predicate : onSortField) {
            Filter filter = null;
            int rank = Integer.MAX_VALUE;
            switch (predicate) {
                case Predicate.Equals p -> {
                    filter = new Filter.Equals(p.value());
                    rank = 0;
                }
                case Predicate.BeginsWith p -> {
                    filter = new Filter.BeginsWith(p.prefix());
                    rank = 2;
                }
                case Predicate.Range p -> {
                    filter = new Filter.Range(p.low(), p.lowInclusive(), p.high(), p.highInclusive());
                    rank = p.low() != null && p.high() != null ? 3 : 5;
                }
                case Predicate.In p -> {
                    IndexValue first = p.values().get(0);
                    if (p.values().stream().allMatch(v -> v.getClass() == first.getClass())) {
                        IndexValue min = p.values().stream().min(Predicate.Values::compare).orElseThrow();
                        IndexValue max = p.values().stream().max(Predicate.Values::compare).orElseThrow();
                        filter = min.equals(max) ? new Filter.Equals(min) : Filter.Range.between(min, max);
                        rank = min.equals(max) ? 0 : 4;
                    }
                }
                default -> {
                }
            }
            if (filter != null && rank < bestRank) {
                best = filter;
                bestRank = rank;
            }
        }
        return best == null ? null : best.keyRange(bounds);
    }
}

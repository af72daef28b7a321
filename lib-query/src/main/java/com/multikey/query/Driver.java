package com.multikey.query;

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

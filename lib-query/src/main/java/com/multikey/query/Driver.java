package com.multikey.query;

import com.multikey.index.ValueBounds;
import com.multikey.index.definition.IndexDefinition;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

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

    /**
     * The driver of a predicate on the field of {@code index} (the entry's partition, or another index's values), when a
     * plan may drive from it: its items are listed in key ranges ({@link KeyRanges}, the one mapping) of at most
     * {@value #MAX_IN_RANGES} Queries, and it is worth reading ({@link #rankOf}).
     */
    static Optional<Driver> of(int position, Predicate predicate, IndexDefinition index, String partition, Optional<String> project,
                               ValueBounds bounds) {
        OptionalInt rank = rankOf(predicate);
        if (rank.isEmpty()) {
            return Optional.empty();
        }
        boolean words = index.values() instanceof com.multikey.index.definition.ValueSource.Words;
        if (words != WordPredicates.is(predicate)) {
            // a words index lists words only; a word in another index's values is anywhere in its partition
            return Optional.empty();
        }
        List<Filter.KeyRange> ranges = switch (KeyRanges.of(predicate, field -> true, bounds, words)) {
            case KeyRanges.Within within -> within.ranges();
            case KeyRanges.Partition whole -> Collections.singletonList(null);
            case KeyRanges.Unlisted unlisted -> List.of();
        };
        if (ranges.isEmpty() || ranges.size() > MAX_IN_RANGES) {
            return Optional.empty();
        }
        return Optional.of(new Driver(position, predicate, index, partition, project, Collections.unmodifiableList(new ArrayList<>(ranges)),
                rank.getAsInt()));
    }

    /**
     * How selective a predicate is taken to be before anything is read: an equality first, then an {@code in} list, a prefix,
     * a range with two bounds, with one, and {@code present} last; none for {@code !=} (its range is the field's whole
     * partition, less one value) and {@code missing} (no index lists its items): a plan never drives from them.
     */
    static OptionalInt rankOf(Predicate predicate) {
        return switch (predicate) {
            case Predicate.Equals p -> OptionalInt.of(0);
            case Predicate.In p -> OptionalInt.of(1);
            case Predicate.BeginsWith p -> OptionalInt.of(2);
            case Predicate.Has p -> OptionalInt.of(0);
            case Predicate.HasPrefix p -> OptionalInt.of(2);
            case Predicate.Range p -> OptionalInt.of(p.low() != null && p.high() != null ? 3 : 4);
            case Predicate.Present p -> OptionalInt.of(5);
            case Predicate.NotEquals p -> OptionalInt.empty();
            case Predicate.Missing p -> OptionalInt.empty();
        };
    }
}

package com.multikey.query;

import java.util.List;
import java.util.function.Supplier;

/**
 * Chooses how a page is read, before any read: a {@link Plan} from the request, its sorted field's key ranges
 * ({@link SortRanges}) and the predicates an index lists ({@link Driver}), and where the cursor resumes. What only reading
 * tells — whether a predicate's range ends within a page — is left to the {@link Plan.SortOrDrive} node (decision 0021).
 */
final class Planner {

    private Planner() {
    }

    /**
     * Whether the page goes on into the items lacking the sorted field: they alone satisfy a {@code missing} predicate on it,
     * and the request asked for them ({@code withMissing()}) with no other predicate on the sorted field.
     */
    static boolean hasTail(PageRequest request, ItemTests tests) {
        return tests.sortFieldMissing() || request.includeMissing() && tests.onSortField().isEmpty();
    }

    /**
     * The plan of a page.
     *
     * @param ranges      the sorted field's key ranges the filter and its predicates allow
     * @param drivers     the predicates an index lists (asked only when the page has predicates)
     * @param inTail      whether the cursor resumes in the items lacking the field
     */
    static Plan plan(Listing listing, SortRanges ranges, Supplier<List<Driver>> drivers, boolean inTail) {
        String field = listing.sortFieldName();
        ItemTests tests = listing.tests();
        if (inTail) {
            return new Plan.Tail(field);
        }
        // items lacking the sorted field fail every predicate on it but "missing", which only they satisfy
        Plan index;
        if (tests.sortFieldMissing() || ranges.isEmpty()) {
            index = new Plan.Nothing(field);
        } else if (tests.isEmpty()) {
            index = new Plan.SortIndex(field, ranges);
        } else {
            index = new Plan.SortOrDrive(new Plan.SortIndex(field, ranges), drivers.get().stream().map(Plan.Drive::new).toList());
        }
        return hasTail(listing.request(), tests) ? new Plan.Then(index, new Plan.Tail(field)) : index;
    }
}

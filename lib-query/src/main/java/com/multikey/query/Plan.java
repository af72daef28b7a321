package com.multikey.query;

import java.util.List;

/**
 * How a page is read: a tree the planner ({@link Planner}) builds before any read, which the page's reader
 * ({@link PlanReader}) walks with an exhaustive switch. Leaves read one index or source; inner nodes combine what their
 * children list. A new way of reading (a union of drives, a merge of groups) is a new node: it does not compile until
 * the reader and {@link #describe} know it.
 */
sealed interface Plan {

    /** How the plan is named in {@link Explain}: {@code sort-index(field)}, {@code drive(where[i]: text)}. */
    String describe();

    /**
     * The sorted field's index in page order, narrowed to its key ranges ({@link SortRanges}), each candidate's item read
     * and every predicate tested on it ({@link SortedRead}).
     */
    record SortIndex(String field, SortRanges ranges) implements Plan {
        @Override
        public String describe() {
            return "sort-index(" + field + ")";
        }
    }

    /**
     * A predicate's index ranges read whole, its items read, every predicate tested, ordered by the sorted field's value as
     * the sorted index orders them ({@link PlannedRead#fromRange}).
     */
    record Drive(Driver driver) implements Plan {
        @Override
        public String describe() {
            return "drive(where[" + driver.position() + "]: " + PredicateText.format(driver.predicate()) + ")";
        }
    }

    /**
     * One value's range (or several, merged) of an index ordered, within the value, by the sorted field, read in page order
     * from the cursor until the page is full, every predicate tested ({@link OrderedDriveRead}); {@code otherwise} for the
     * rest of the page when it cannot (a value that may be cut, a budget too small for its reads).
     */
    record OrderedDrive(Driver driver, Plan otherwise) implements Plan {
        @Override
        public String describe() {
            return "ordered-drive(where[" + driver.position() + "]: " + PredicateText.format(driver.predicate()) + ")";
        }
    }

    /**
     * The sorted index, or one of the drives: which one is decided as the page reads, from what earlier pages learned and
     * what this one finds (decision 0021, {@link PlannedRead}); {@link Explain} names the one that made the page.
     */
    record SortOrDrive(SortIndex sort, List<Drive> drives) implements Plan {
        public SortOrDrive {
            drives = List.copyOf(drives);
        }

        @Override
        public String describe() {
            return sort.describe();
        }
    }

    /**
     * The items of an {@code or} ({@code where[position]}), read as the union of its disjuncts' drives — each disjunct's best
     * index range, read whole — merged in the sorted field's order, each item once, under the value the request lists it
     * under, every {@code where} tested ({@link UnionRead}). When the ranges do not fit the page's budget, or earlier pages
     * found them larger than the sorted read, the page reads {@code otherwise} (what the planner plans without the union).
     */
    record Union(int position, List<Drive> drives, Plan otherwise) implements Plan {
        public Union {
            drives = List.copyOf(drives);
            if (drives.size() < 2) {
                throw new IllegalArgumentException("a union reads at least two drives");
            }
        }

        @Override
        public String describe() {
            return "union(" + String.join(", ", drives.stream().map(Drive::describe).toList()) + ")";
        }
    }

    /**
     * The items of an {@code or} ({@code where[position]}) each of whose disjuncts' drivers an ordered drive may read
     * ({@link OrderedDriveRead#orders}): their values' ranges merged in page order from the cursor, page by page, each item
     * once, every {@code where} tested ({@link OrderedDriveRead} with several drivers); {@code otherwise} for the rest of the
     * page when it gives way, as an ordered drive does.
     */
    record OrderedUnion(int position, List<Drive> drives, Plan otherwise) implements Plan {
        public OrderedUnion {
            drives = List.copyOf(drives);
            if (drives.size() < 2) {
                throw new IllegalArgumentException("a union reads at least two drives");
            }
        }

        @Override
        public String describe() {
            return "ordered-union(" + String.join(", ", drives.stream().map(drive -> "where[" + drive.driver().position() + "]: "
                    + PredicateText.format(drive.driver().predicate())).toList()) + ")";
        }
    }

    /** The group's items lacking the sorted field, in their source's order, each tested ({@link TailRead}). */
    record Tail(String field) implements Plan {
        @Override
        public String describe() {
            // named as today's explain names it: the sorted field's read, continued past the field's end
            return "sort-index(" + field + ")";
        }
    }

    /** Nothing to read: no key is within the sorted field's ranges, or only items lacking the field can match. */
    record Nothing(String field) implements Plan {
        @Override
        public String describe() {
            return "sort-index(" + field + ")";
        }
    }

    /**
     * What {@code first} lists, then, once it ended with room left on the page, the items lacking the field ({@code tail});
     * a page that fills before the tail leaves a cursor at the tail's start.
     */
    record Then(Plan first, Tail tail) implements Plan {
        @Override
        public String describe() {
            return first.describe();
        }
    }

    /**
     * The plans of several groups, one each in the order the request names them, whose items are merged in page order,
     * each item once ({@link MergeRead}: each group is read with its own listing, within its share of the page's reads).
     */
    record Merge(List<Plan> groups) implements Plan {
        public Merge {
            groups = List.copyOf(groups);
        }

        @Override
        public String describe() {
            return "merge(" + groups.size() + " groups: " + String.join(", ", new java.util.LinkedHashSet<>(groups.stream()
                    .map(Plan::describe).toList())) + ")";
        }
    }
}

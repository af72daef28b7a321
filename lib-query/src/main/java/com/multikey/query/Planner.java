package com.multikey.query;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
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
        return plan(listing, ranges, drivers, (position, predicate) -> Optional.empty(), inTail);
    }

    /** Where a predicate inside an expression ({@code where[position]}) is listed by an index, when it is. */
    interface DriverOf {
        Optional<Driver> of(int position, Predicate predicate);
    }

    /**
     * The plan of a page, an {@code or} among the request's {@code where}s read as a union of drives when each of its
     * disjuncts has one ({@link #union}).
     *
     * @param driverOf the driver of a predicate inside an expression, when an index lists it
     */
    static Plan plan(Listing listing, SortRanges ranges, Supplier<List<Driver>> drivers, DriverOf driverOf, boolean inTail) {
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
            Plan.SortIndex sort = new Plan.SortIndex(field, ranges);
            List<Driver> known = drivers.get();
            Plan.SortOrDrive sortOrDrive = new Plan.SortOrDrive(sort, known.stream().map(Plan.Drive::new).toList());
            // an index ordered by the sorted field within one value reads that value's items in page order (decision 0030)
            // (only when it is the one predicate an index lists: a smaller range of another may drive better)
            Plan adaptive = known.stream().filter(d -> known.size() == 1 && OrderedDriveRead.orders(d, listing)).findFirst()
                    .<Plan>map(d -> new Plan.OrderedDrive(d, sortOrDrive)).orElse(sortOrDrive);
            // a union whose drives an ordered drive may each read is read page by page, merged in page order (else whole)
            index = union(listing.request(), tests, driverOf).<Plan>map(u -> u.drives().stream()
                            .allMatch(d -> OrderedDriveRead.orders(d.driver(), listing))
                            ? new Plan.OrderedUnion(u.position(), u.drives(), adaptive) : new Plan.Union(u.position(), u.drives(), adaptive))
                    .orElse(adaptive);
        }
        return hasTail(listing.request(), tests) ? new Plan.Then(index, new Plan.Tail(field)) : index;
    }

    /** An or's disjuncts' drives, by the or's position. */
    private record Disjuncts(int position, List<Plan.Drive> drives) {
    }

    /**
     * The first {@code or} each of whose disjuncts an index lists — a {@code where} that is one, or one of the conjuncts of a
     * {@code where} that is an {@code and} (a top-level and's conjuncts hold as separate {@code where}s would) — by the
     * {@code where}'s position: a disjunct is a predicate an index lists (not on the sorted field), or an {@code and} holding
     * one directly (the best ranked, as {@link Driver#rankOf} ranks them). A {@code not} never drives, nor does a disjunct
     * without such a predicate: then no union.
     */
    static Optional<Disjuncts> union(PageRequest request, ItemTests tests, DriverOf driverOf) {
        for (int i = 0; i < request.expressions().size(); i++) {
            for (Expression.Or or : ors(request.expressions().get(i))) {
                Optional<Disjuncts> union = union(i, or, tests, driverOf);
                if (union.isPresent()) {
                    return union;
                }
            }
        }
        return Optional.empty();
    }

    /** A {@code where}'s {@code or}s a union may read: itself, or its conjuncts (those of nested ands too) when it is an and. */
    private static List<Expression.Or> ors(Expression where) {
        return switch (where) {
            case Expression.Or or -> List.of(or);
            case Expression.And and -> and.operands().stream().flatMap(conjunct -> conjunct instanceof Expression.And
                    || conjunct instanceof Expression.Or ? ors(conjunct).stream() : java.util.stream.Stream.empty()).toList();
            case Predicate p -> List.of();
            case Expression.Not not -> List.of();
        };
    }

    /** The drives of an or of {@code where[position]}, when each of its disjuncts has one. */
    private static Optional<Disjuncts> union(int position, Expression.Or or, ItemTests tests, DriverOf driverOf) {
        if (or.operands().size() < 2) {
            return Optional.empty();
        }
        List<Plan.Drive> drives = new ArrayList<>();
        for (Expression disjunct : or.operands()) {
            Optional<Driver> best = drivable(disjunct).stream().filter(p -> !tests.isSortField(p.field()))
                    .map(p -> driverOf.of(position, p)).flatMap(Optional::stream)
                    .min(Comparator.comparingInt(Driver::rank));
            if (best.isEmpty()) {
                return Optional.empty();
            }
            drives.add(new Plan.Drive(best.get()));
        }
        return Optional.of(new Disjuncts(position, drives));
    }

    /** The predicates a disjunct may drive from: itself, or those directly under its and. */
    private static List<Predicate> drivable(Expression disjunct) {
        return switch (disjunct) {
            case Predicate p -> List.of(p);
            case Expression.And and -> and.operands().stream().filter(o -> o instanceof Predicate).map(o -> (Predicate) o).toList();
            case Expression.Or or -> List.of();
            case Expression.Not not -> List.of();
        };
    }
}

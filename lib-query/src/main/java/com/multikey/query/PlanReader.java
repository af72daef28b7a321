package com.multikey.query;

import com.multikey.index.definition.KeySchema;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads a page by its {@link Plan}: one exhaustive switch that gives each node its reader — {@link SortedRead},
 * {@link PlannedRead}, {@link TailRead} — and joins what they return ({@link Part}). Readers share only the page's calls
 * ({@link PageReads}: what they cost against the page's budgets); each returns its items, its cursor and what it learned.
 */
final class PlanReader {

    private final Listing listing;
    private final PageReads reads;
    private final KeySchema table;

    PlanReader(Listing listing, PageReads reads, KeySchema table) {
        this.listing = listing;
        this.reads = reads;
        this.table = table;
    }

    /**
     * The items {@code plan} lists from {@code start}, at most {@code need}, with what the request knows after them.
     *
     * @param start where the previous page stopped (its cursor's key); empty: the beginning
     * @param known what earlier pages learned (the cursor's)
     */
    Part read(Plan plan, Map<String, AttributeValue> start, Knowledge known, int need) {
        return switch (plan) {
            case Plan.SortIndex sort -> new SortedRead(listing, reads, table, sort.ranges(), known, need, progress -> false)
                    .read(start, new Part.Explained(sort, listing.tests().isEmpty() ? "no predicates: the sorted field's index in page order"
                            : "the sorted field's index, each candidate tested", List.of()));
            case Plan.OrderedDrive ordered -> switch (new OrderedDriveRead(listing, reads, table, ordered.driver(), need)
                    .read(start, known, new Part.Explained(ordered, PredicateText.format(ordered.driver().predicate())
                            + ": each value's range, ordered by the sorted field, read in page order until the page is full", List.of()))) {
                case OrderedDriveRead.Outcome.Listed listed -> listed.part();
                // the rest of the page the other way, from where the ordered drive stopped, within what it left
                case OrderedDriveRead.Outcome.GaveWay gaveWay -> {
                    Part rest = read(ordered.otherwise(), gaveWay.position(), known, need - gaveWay.listed().size());
                    List<Part.Listed> listed = new ArrayList<>(gaveWay.listed());
                    listed.addAll(rest.listed());
                    yield new Part(listed, rest.next(), rest.learned(), rest.explained());
                }
            };
            case Plan.OrderedUnion union -> switch (new OrderedDriveRead(listing, reads, table,
                    union.drives().stream().map(Plan.Drive::driver).toList(), need).read(start, known, new Part.Explained(union,
                    union.drives().size() + " disjuncts' values' ranges, ordered by the sorted field, merged and read in page order until the page is full",
                    List.of()))) {
                case OrderedDriveRead.Outcome.Listed listed -> listed.part();
                case OrderedDriveRead.Outcome.GaveWay gaveWay -> {
                    Part rest = read(union.otherwise(), gaveWay.position(), known, need - gaveWay.listed().size());
                    List<Part.Listed> listed = new ArrayList<>(gaveWay.listed());
                    listed.addAll(rest.listed());
                    yield new Part(listed, rest.next(), rest.learned(), rest.explained());
                }
            };
            case Plan.SortOrDrive adaptive -> new PlannedRead(listing, reads, table, adaptive, known, need).read(start);
            case Plan.Drive drive -> new PlannedRead(listing, reads, table, new Plan.SortOrDrive(null, List.of(drive)), known, need)
                    .driveAlone(drive.driver(), start);
            case Plan.Union union -> switch (new UnionRead(listing, reads, table, known, need).read(union, start)) {
                case UnionRead.Outcome.Listed listed -> listed.part();
                case UnionRead.Outcome.Otherwise otherwise -> read(union.otherwise(), start, otherwise.learned(), need);
            };
            case Plan.Tail tail -> new TailRead(listing, reads, known, need).read(start, listing.tailExplained());
            case Plan.Nothing nothing -> new Part(List.of(), Optional.empty(), known, listing.tailExplained());
            // each group has a listing of its own: the page of several groups is read by MergeRead, never by one group's reader
            case Plan.Merge merge -> throw new IllegalStateException("a merge of groups is read by MergeRead");
            case Plan.Then then -> {
                Part first = read(then.first(), start, known, need);
                if (first.next().isPresent()) {
                    yield first;
                }
                if (first.listed().size() >= need) {
                    // the next page begins the tail
                    yield new Part(first.listed(), Optional.of(new Cursor(Cursor.Part.MISSING, Map.of())), first.learned(),
                            first.explained());
                }
                Part rest = read(then.tail(), Map.of(), first.learned(), need - first.listed().size());
                List<Part.Listed> listed = new ArrayList<>(first.listed());
                listed.addAll(rest.listed());
                yield new Part(listed, rest.next(), rest.learned(), first.explained());
            }
        };
    }
}

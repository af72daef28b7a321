package com.multikey.query;

import com.multikey.index.IndexProjector;
import com.multikey.index.IndexValue;
import com.multikey.index.definition.GridState;
import com.multikey.index.definition.IndexDefinitions;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The planner's plan of a page, a tree chosen before any read, for each kind of request the docs describe. */
class PlannerTest {

    private static final IndexDefinitions DEFINITIONS = IndexDefinitions.packaged().withGridState(GridState.GROUPED);
    private static final IndexProjector PROJECTOR = new IndexProjector(DEFINITIONS);

    @Test
    void plan_withoutPredicates_isTheSortedIndex() {
        Plan plan = plan(PageRequest.first("project#p", "sev", Order.ASC, 10), false);

        assertThat(plan).isInstanceOfSatisfying(Plan.SortIndex.class, sort -> assertThat(sort.describe()).isEqualTo("sort-index(sev)"));
    }

    @Test
    void plan_withTheMissingTail_isTheSortedIndexThenTheTail() {
        Plan plan = plan(PageRequest.first("project#p", "sev", Order.DESC, 10).withMissing(), false);

        assertThat(plan).isInstanceOfSatisfying(Plan.Then.class, then -> {
            assertThat(then.first()).isInstanceOf(Plan.SortIndex.class);
            assertThat(then.tail()).isEqualTo(new Plan.Tail("sev"));
        });
    }

    @Test
    void plan_withAPredicateAnIndexLists_isTheSortedIndexOrItsDrive() {
        Plan plan = plan(PageRequest.first("project#p", "sev", Order.ASC, 10)
                .where(List.of(new Predicate.Equals("status", new IndexValue.Text("open")), new Predicate.Missing("team"))), false);

        assertThat(plan).isInstanceOfSatisfying(Plan.SortOrDrive.class, adaptive -> {
            assertThat(adaptive.sort().describe()).isEqualTo("sort-index(sev)");
            // missing is listed by no index: only the equality may drive
            assertThat(adaptive.drives()).extracting(Plan.Drive::describe).containsExactly("drive(where[0]: status = open)");
        });
    }

    @Test
    void plan_whenOnlyItemsLackingTheSortedFieldMatch_readsNothingThenTheTail() {
        Plan plan = plan(PageRequest.first("project#p", "sev", Order.ASC, 10).where(List.of(new Predicate.Missing("sev"))), false);

        assertThat(plan).isEqualTo(new Plan.Then(new Plan.Nothing("sev"), new Plan.Tail("sev")));
    }

    @Test
    void plan_whenNoValueSatisfiesTheSortedFieldsPredicates_readsNothing() {
        Plan plan = plan(PageRequest.first("project#p", "sev", Order.ASC, 10).where(List.of(
                new Predicate.Equals("sev", new IndexValue.Num(BigDecimal.ONE)),
                new Predicate.Equals("sev", new IndexValue.Num(BigDecimal.TWO)))), false);

        assertThat(plan).isEqualTo(new Plan.Nothing("sev"));
    }

    @Test
    void plan_whenTheCursorIsInTheTail_isTheTail() {
        Plan plan = plan(PageRequest.first("project#p", "sev", Order.ASC, 10).withMissing(), true);

        assertThat(plan).isEqualTo(new Plan.Tail("sev"));
    }

    @Test
    void plan_withAnOrEachOfWhoseDisjunctsAnIndexLists_isTheUnionOfTheirDrives_elseThePlanWithoutIt() {
        Predicate open = new Predicate.Equals("status", new IndexValue.Text("open"));
        Predicate core = new Predicate.Equals("team", new IndexValue.Text("core"));
        PageRequest request = PageRequest.first("project#p", "sev", Order.ASC, 10).where(List.of(
                new Predicate.NotEquals("sev", new IndexValue.Num(BigDecimal.ONE)),
                new Expression.Or(List.of(open, new Expression.And(List.of(new Predicate.Missing("x"),
                        new Predicate.BeginsWith("title", "Fix"), core))))));

        Plan plan = planWithExpressions(request);

        assertThat(plan).isInstanceOfSatisfying(Plan.Union.class, union -> {
            assertThat(union.position()).isEqualTo(1);
            // an and's predicates: the best ranked one an index lists (an equality before a prefix; missing never)
            assertThat(union.describe()).isEqualTo("union(drive(where[1]: status = open), drive(where[1]: team = core))");
            assertThat(union.otherwise()).isInstanceOf(Plan.SortOrDrive.class);
        });
    }

    @Test
    void plan_withAnOrOneOfWhoseDisjunctsNoIndexLists_isThePlanWithoutAUnion() {
        Predicate open = new Predicate.Equals("status", new IndexValue.Text("open"));
        for (Expression disjunct : List.<Expression>of(new Expression.Not(new Predicate.Equals("team", new IndexValue.Text("core"))),
                new Predicate.Missing("team"), new Predicate.NotEquals("team", new IndexValue.Text("core")),
                new Predicate.Equals("sev", new IndexValue.Num(BigDecimal.ONE)))) {
            Plan plan = planWithExpressions(PageRequest.first("project#p", "sev", Order.ASC, 10)
                    .where(List.of(new Expression.Or(List.of(open, disjunct)))));

            assertThat(plan).as("%s", disjunct).isInstanceOfSatisfying(Plan.SortOrDrive.class,
                    adaptive -> assertThat(adaptive.drives()).isEmpty());
        }
    }

    private static Plan planWithExpressions(PageRequest request) {
        Target target = Target.of(request, DEFINITIONS, DEFINITIONS, PROJECTOR);
        ItemTests tests = new ItemTests(PROJECTOR, target.index(), request.group(), request.attribId(), target.project(),
                request.expressions());
        Listing listing = new Listing(request, target, tests, PROJECTOR);
        SortRanges ranges = SortRanges.of(request.filter(), tests.onSortField(), target.bounds());
        return Planner.plan(listing, ranges, List::of, (position, p) -> tests.isSortField(p.field()) ? java.util.Optional.empty()
                : Driver.of(position, p, target.index(), p.field(), target.project(), target.bounds()), false);
    }

    private static Plan plan(PageRequest request, boolean inTail) {
        Target target = Target.of(request, DEFINITIONS, DEFINITIONS, PROJECTOR);
        ItemTests tests = new ItemTests(PROJECTOR, target.index(), request.group(), request.attribId(), target.project(),
                request.predicates());
        Listing listing = new Listing(request, target, tests, PROJECTOR);
        SortRanges ranges = SortRanges.of(request.filter(), tests.onSortField(), target.bounds());
        List<Driver> drivers = request.predicates().stream()
                .filter(p -> !tests.isSortField(p.field()))
                .flatMap(p -> Driver.of(request.predicates().indexOf(p), p, target.index(), p.field(), target.project(), target.bounds())
                        .stream())
                .toList();
        return Planner.plan(listing, ranges, () -> drivers, inTail);
    }
}

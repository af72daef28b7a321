package com.multikey.query;

import com.multikey.common.Backoff;
import com.multikey.common.Deadline;
import com.multikey.common.RetryBudget;
import com.multikey.common.Sleeper;
import com.multikey.index.DynamoDbLimits;
import com.multikey.index.GridLayoutStore;
import com.multikey.index.IndexProjector;
import com.multikey.index.UnindexableValueException;
import com.multikey.index.definition.IndexDefinition;
import com.multikey.index.definition.IndexDefinitions;
import com.multikey.index.definition.ValueSource;
import software.amazon.awssdk.awscore.AwsRequestOverrideConfiguration;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The reader of any declared index (the issue grid is one of them; its own steps — its layout, its field catalog, a
 * cursor carried between its layouts — are {@link IssueGrid}'s): a page of a group's items sorted by an index's values (value, then the
 * tie-breakers, then the item key; for the grid: value, num, id), filtered on the value — a Query on the
 * index partition and a BatchGetItem on the source table — optionally followed by the group's items that have no
 * index item for the field (the missing tail): for the grid, Queries on {@code ByProject} in num order; for a
 * grouped index whose group is the source table's partition key, Queries on that partition of the table in its sort
 * key order (the items the index covers only); for any other index there is no missing tail, since only a scan of
 * the table could find the items the index leaves out, and a request for it is refused. A grouped index's
 * partition holds its group's items only, so a page is two calls whatever other groups hold; the grid's
 * partition is shared by the projects that share a field id, which a filter on {@code project} sorts out.
 *
 * <p>A page holds {@code pageSize} items unless the result ends. Its first read asks for a quarter more
 * index items than the page needs, and more as earlier pages (their cursors) tell how many index items and items a
 * page reads per item it lists — later values of multi-valued items, candidates that fail a predicate, items lacking
 * the field among a group's others ({@link ReadLimits}) — so that a page takes two calls while its items fit one
 * BatchGetItem; when index items of other groups or stale index items leave the page short, further
 * reads ask for more, and a page makes at most {@value #MAX_READS_PER_PAGE} reads
 * (Queries and BatchGetItems; re-sent unprocessed keys are counted in {@link Page#apiCalls()} but not here).
 * The cursor holds the key of the last item the page consumed, so the next page resumes right after it.
 *
 * <p>A multi-valued item is listed once, under its first value in the page order that passes the filter;
 * an index item that no longer matches its item (the index lags the table by the stream's delay) is left
 * out. Both are decided on the hydrated item with the indexer's own projection, as is whether an item
 * lacks the field, so every item appears once across all pages.
 *
 * <p>A request with predicates on other fields ({@link PageRequest#where}) is planned: read within its budget
 * ({@link ReadBudget}) from the sorted field's index or from a selective predicate's index range, and explained
 * (decision 0021). A page is read as a pipeline, each part with one job: {@link Target} (what a request reads),
 * {@link Expression} (the one predicate model) and {@link KeyRanges} (its one mapping to key ranges), {@link Planner}
 * (a {@link Plan}, the tree of reads, chosen before any read), {@link PlanReader} (walks the plan, giving each node its
 * reader: {@link SortedRead}, {@link PlannedRead}, {@link TailRead}, each returning what it listed as a {@link Part}),
 * {@link Listing} (how an item is listed), {@link ItemTests} (how a predicate is tested), {@link PageReads} (the calls and
 * what they cost: the one state the readers of a page share), and {@link Explain}, built from the plan that made the page
 * (decision 0027).
 */
public final class IndexQuery {

    /** The time a page may take, unprocessed keys re-sent included, unless set with {@link #withPageBudget}. */
    public static final Duration DEFAULT_PAGE_BUDGET = Duration.ofSeconds(5);
    /** Queries and BatchGetItems one page may make to fill itself; a page that reaches it comes back short. */
    public static final int MAX_READS_PER_PAGE = 8;

    private final DynamoDbClient dynamoDb;
    private final String appTable;
    private final String indexTable;
    private final IndexDefinitions definitions;
    private final IndexProjector projector;
    private final Backoff backoff;
    private final Sleeper sleeper;
    private final Duration pageBudget;
    private final LongSupplier nanoClock;
    private final CursorSealer cursors;
    private final ReadBudget readBudget;
    /** The issue grid's own steps: its layout, its catalog, its cursors carried over between layouts. */
    private final IssueGrid grid;

    /**
     * With cursors sealed under a key made for this instance alone: they open in this process only.
     *
     * @param pageBudget the time one page may take, retries included
     * @param nanoClock  monotonic clock of the page's deadline ({@code System::nanoTime})
     * @param grid       the issue grid's settings, {@link GridSettings#NONE} when the definitions declare no grid
     */
    public IndexQuery(DynamoDbClient dynamoDb, String appTable, String indexTable, IndexDefinitions definitions, Backoff backoff,
                     Sleeper sleeper, Duration pageBudget, LongSupplier nanoClock, GridSettings grid) {
        this(dynamoDb, appTable, indexTable, definitions, () -> definitions, backoff, sleeper, pageBudget, nanoClock,
                CursorSealer.of(CursorKeys.ephemeral()), grid);
    }

    /**
     * With the definitions as given (no grid layout state), cursors sealed and opened by {@code cursors}.
     *
     * @param grid the issue grid's settings, {@link GridSettings#NONE} when the definitions declare no grid
     */
    public IndexQuery(DynamoDbClient dynamoDb, String appTable, String indexTable, IndexDefinitions definitions, Backoff backoff,
                     Sleeper sleeper, Duration pageBudget, LongSupplier nanoClock, CursorSealer cursors, GridSettings grid) {
        this(dynamoDb, appTable, indexTable, definitions, () -> definitions, backoff, sleeper, pageBudget, nanoClock, cursors, grid);
    }

    /**
     * @param current    the definitions in the stack's grid state, asked once a page (a {@link GridLayoutStore}'s)
     * @param pageBudget the time one page may take, retries included
     * @param nanoClock  monotonic clock of the page's deadline ({@code System::nanoTime})
     * @param cursors    seals the cursors of the pages and opens those of the requests: the deployment's keys, so that a
     *                   cursor opens in every process that reads the same index
     * @param grid       the issue grid's settings, {@link GridSettings#NONE} when the definitions declare no grid
     */
    public IndexQuery(DynamoDbClient dynamoDb, String appTable, String indexTable, IndexDefinitions definitions,
                     Supplier<IndexDefinitions> current, Backoff backoff, Sleeper sleeper, Duration pageBudget, LongSupplier nanoClock,
                     CursorSealer cursors, GridSettings grid) {
        this(timeout -> current.get(), dynamoDb, appTable, indexTable, definitions, backoff, sleeper, pageBudget, nanoClock, cursors,
                ReadBudget.DEFAULT, grid);
    }

    /** @param current the definitions in the stack's grid state, asked once a page with the time left for one call */
    private IndexQuery(Function<AwsRequestOverrideConfiguration, IndexDefinitions> current, DynamoDbClient dynamoDb, String appTable,
                      String indexTable, IndexDefinitions definitions, Backoff backoff, Sleeper sleeper, Duration pageBudget,
                      LongSupplier nanoClock, CursorSealer cursors, ReadBudget readBudget, GridSettings grid) {
        if (pageBudget.isNegative() || pageBudget.isZero()) {
            throw new IllegalArgumentException("page budget must be positive, got " + pageBudget);
        }
        this.dynamoDb = dynamoDb;
        this.appTable = appTable;
        this.indexTable = indexTable;
        this.definitions = definitions;
        this.projector = new IndexProjector(definitions);
        this.backoff = backoff;
        this.sleeper = sleeper;
        this.pageBudget = pageBudget;
        this.nanoClock = nanoClock;
        this.cursors = java.util.Objects.requireNonNull(cursors, "cursors");
        this.readBudget = java.util.Objects.requireNonNull(readBudget, "readBudget");
        this.grid = new IssueGrid(grid, definitions, projector, current);
    }

    /** This query with another time budget, cursor sealer or read budget. */
    private IndexQuery(IndexQuery query, Duration pageBudget, CursorSealer cursors, ReadBudget readBudget) {
        this(query.grid.layout(), query.dynamoDb, query.appTable, query.indexTable, query.definitions, query.backoff, query.sleeper,
                pageBudget, query.nanoClock, cursors, readBudget, query.grid.settings());
    }

    /**
     * With the packaged definitions: tables as given, the grid's settings the stack's ({@link GridSettings#defaults}); cursors
     * sealed under a key of this instance alone ({@link #withCursorSealer} for the deployment's).
     */
    public static IndexQuery of(DynamoDbClient dynamoDb, String appTable, String indexTable) {
        return of(dynamoDb, appTable, indexTable, IndexDefinitions.packaged());
    }

    /**
     * With these definitions: tables as given, the grid's settings the stack's ({@link GridSettings#defaults}), the grid's layout
     * as the stack records it in the index table (read again after {@link GridLayoutStore#DEFAULT_CACHE}); cursors sealed
     * under a key of this instance alone ({@link #withCursorSealer} for the deployment's).
     */
    public static IndexQuery of(DynamoDbClient dynamoDb, String appTable, String indexTable, IndexDefinitions definitions) {
        return of(dynamoDb, appTable, indexTable, definitions, GridLayoutStore.DEFAULT_CACHE);
    }

    /** As {@link #of(DynamoDbClient, String, String, IndexDefinitions)}, the grid's layout read again after {@code cache}. */
    public static IndexQuery of(DynamoDbClient dynamoDb, String appTable, String indexTable, IndexDefinitions definitions, Duration cache) {
        GridLayoutStore layout = new GridLayoutStore(dynamoDb, indexTable, definitions, false, cache, System::nanoTime);
        Function<AwsRequestOverrideConfiguration, IndexDefinitions> current = layout::current;
        return new IndexQuery(current, dynamoDb, appTable, indexTable, definitions, Backoff.standard(), Sleeper.SYSTEM,
                DEFAULT_PAGE_BUDGET, System::nanoTime, CursorSealer.of(CursorKeys.ephemeral()), ReadBudget.DEFAULT,
                GridSettings.defaults(dynamoDb, appTable, definitions));
    }

    /** The same query with another time budget per page. */
    public IndexQuery withPageBudget(Duration budget) {
        return new IndexQuery(this, budget, cursors, readBudget);
    }

    /** The same query with another read budget: the items a page with predicates reads by default, and at most. */
    public IndexQuery withReadBudget(ReadBudget budget) {
        return new IndexQuery(this, pageBudget, cursors, java.util.Objects.requireNonNull(budget, "budget"));
    }

    /** The items a page with predicates reads by default, and at most: a count's pages read within it ({@link Counts}). */
    ReadBudget readBudget() {
        return readBudget;
    }

    /** The same query with cursors sealed and opened by {@code sealer}: the deployment's keys. */
    public IndexQuery withCursorSealer(CursorSealer sealer) {
        return new IndexQuery(this, pageBudget, sealer, readBudget);
    }

    /**
     * @throws QueryException          for an index that is not declared, a group or entry that does not fit the index,
     *                                 an attribute the project's catalog does not define (the grid), or a cursor that
     *                                 does not open for this query (edited, cut, expired, of another query or key)
     * @throws RetryableQueryException when the page could not be read within its time budget
     */
    public Page page(PageRequest request) {
        if (request.groups().size() > 1) {
            return pageOfGroups(request);
        }
        RetryBudget budget = new RetryBudget(backoff, sleeper, Deadline.after(pageBudget, nanoClock));
        IndexDefinitions current = grid.currentDefinitions(budget, pageBudget);
        int items = readBudget.of(request);
        GroupPlan planned = planGroup(request, current, () -> request.cursor().map(text -> Cursor.decode(text, request, cursors)),
                budget);
        Target target = planned.target();
        ItemTests tests = planned.tests();
        Optional<Cursor> cursor = planned.cursor();
        boolean predicates = !request.expressions().isEmpty();
        PageReads reads = new PageReads(new PageReads.Tables(dynamoDb, appTable, indexTable, grid.settings()), projector, budget, pageBudget,
                predicates || request.readBudget() > 0 ? items : Integer.MAX_VALUE,
                predicates ? ReadBudget.maxCalls(items) : MAX_READS_PER_PAGE);
        Part part = new PlanReader(planned.listing(), reads, definitions.table()).read(planned.plan(),
                cursor.map(Cursor::startKey).orElse(Map.of()), cursor.map(Cursor::knowledge).orElse(Knowledge.NONE), request.pageSize());
        List<Map<String, AttributeValue>> listed = part.listed().stream().map(Part.Listed::item).toList();
        List<AttributeValue> values = part.listed().stream().map(Part.Listed::value).filter(java.util.Objects::nonNull).toList();
        boolean full = listed.size() >= request.pageSize();
        return new Page(listed, values, values.size(), part.next().map(c -> c.with(part.learned()).encode(request, cursors)).orElse(null),
                reads.calls(), reads.examined(), part.next().isPresent() && !full, request.explain()
                ? Explain.of(part.explained(), reads.counts(), Suggestion.of(request, target.index(), tests, reads.examined(), full))
                : null)
                .readFrom(target.index().name());
    }

    /**
     * A page of a request of several groups: each group planned as a request of its own would be, every one checked before
     * anything is read, then read within its share of the page's reads (the read budget — by default the standard budget for
     * each group, up to the most a request may name — and the calls divided among the groups not yet done) and merged ({@link MergeRead}, {@link Plan.Merge}) under one cursor that holds each group's
     * position ({@link MergeCursor}).
     */
    private Page pageOfGroups(PageRequest request) {
        RetryBudget budget = new RetryBudget(backoff, sleeper, Deadline.after(pageBudget, nanoClock));
        IndexDefinitions current = grid.currentDefinitions(budget, pageBudget);
        // a request that names no budget: the standard budget for each group, up to the most a request may name
        int items = request.readBudget() > 0 ? readBudget.of(request)
                : (int) Math.min(readBudget.max(), (long) readBudget.standard() * request.groups().size());
        Optional<MergeCursor> cursor = request.cursor().map(text -> MergeCursor.decode(text, request, cursors));
        List<PageRequest> singles = request.groups().stream().map(request::ofGroup).toList();
        List<GroupPlan> groupPlans = new ArrayList<>();
        List<MergeCursor.Position> positions = new ArrayList<>();
        for (int i = 0; i < singles.size(); i++) {
            int group = i;
            MergeCursor.Position given = cursor.map(c -> c.positions().get(group))
                    .orElseGet(() -> new MergeCursor.Position.Start(Optional.empty()));
            GroupPlan plan = planGroup(singles.get(i), current,
                    () -> given instanceof MergeCursor.Position.At at ? Optional.of(at.cursor()) : Optional.empty(), budget);
            groupPlans.add(plan);
            positions.add(given instanceof MergeCursor.Position.At at ? new MergeCursor.Position.At(plan.cursor().orElseThrow(), at.head())
                    : given);
        }
        List<Target> targets = groupPlans.stream().map(GroupPlan::target).toList();
        List<ItemTests> tests = groupPlans.stream().map(GroupPlan::tests).toList();
        List<Plan> plans = groupPlans.stream().map(GroupPlan::plan).toList();
        long reading = positions.stream().filter(p -> !(p instanceof MergeCursor.Position.Done)).count();
        boolean planned = !request.expressions().isEmpty();
        boolean budgeted = planned || request.readBudget() > 0;
        int share = (int) (items / Math.max(1, reading));
        if (budgeted && share < 2) {
            throw new FilterParameters.InvalidParameterException(PageParameters.Parameter.BUDGET, "at least 2 items a page for each of the "
                    + reading + " groups read, got " + items);
        }
        List<MergeRead.Group> groups = new ArrayList<>();
        List<PageReads> reads = new ArrayList<>();
        for (int i = 0; i < singles.size(); i++) {
            PageReads groupReads = new PageReads(new PageReads.Tables(dynamoDb, appTable, indexTable, grid.settings()), projector, budget,
                    pageBudget, budgeted ? share : Integer.MAX_VALUE, planned ? ReadBudget.maxCalls(share) : MAX_READS_PER_PAGE);
            reads.add(groupReads);
            groups.add(new MergeRead.Group(groupPlans.get(i).listing(), groupReads, positions.get(i)));
        }
        MergeRead.Result result = new MergeRead(groups, definitions.table()).read(new Plan.Merge(plans), request.pageSize());
        List<Map<String, AttributeValue>> listed = result.listed().stream().map(Part.Listed::item).toList();
        List<AttributeValue> values = result.listed().stream().map(Part.Listed::value).filter(java.util.Objects::nonNull).toList();
        boolean full = listed.size() >= request.pageSize();
        int calls = reads.stream().mapToInt(PageReads::calls).sum();
        int examined = reads.stream().mapToInt(PageReads::examined).sum();
        Explain.Reads counts = reads.stream().map(PageReads::counts).reduce(new Explain.Reads(0, 0, 0, 0), (a, b) ->
                new Explain.Reads(a.queries() + b.queries(), a.batchGets() + b.batchGets(), a.indexItems() + b.indexItems(),
                        a.tableItems() + b.tableItems()));
        boolean ended = result.next().ended();
        return new Page(listed, values, values.size(), ended ? null : result.next().encode(request, cursors), calls, examined,
                !ended && !full, request.explain()
                ? Explain.of(result.explained(), counts, Suggestion.of(request, targets.get(0).index(), tests.get(0), examined, full))
                : null)
                .readFrom(targets.get(0).index().name());
    }

    /** One group's page, planned: what it reads, its tests, its cursor carried over and checked, and its plan. */
    private record GroupPlan(Target target, ItemTests tests, Listing listing, Optional<Cursor> cursor, Plan plan) {
    }

    /**
     * Plans the page of one group, as a request of one group and each group of a request of several are planned: its target,
     * the fields its predicates name checked, its cursor (read once the checks before it pass) carried over to the layout
     * read and checked against the request's ranges, the grid's attributes checked defined, and its plan.
     *
     * @param cursor the group's cursor as the request gives it; empty for its first page
     */
    private GroupPlan planGroup(PageRequest request, IndexDefinitions current, Supplier<Optional<Cursor>> cursor, RetryBudget budget) {
        Target target = Target.of(request, current, definitions, projector);
        ItemTests tests = new ItemTests(projector, target.index(), request.group(), request.attribId(), target.project(),
                request.expressions());
        checkFields(request, target, tests);
        // two spellings of one field are one field: their ranges must leave a value too
        ExpressionText.validate(request.expressions(), tests::identity);
        SortRanges ranges = SortRanges.of(request.filter(), tests.onSortField(), target.bounds());
        boolean tail = Planner.hasTail(request, tests);
        Optional<Cursor> checked = cursor.get().map(given -> grid.carriedOver(given, target, request).requireValid(target, ranges.hull(), tail));
        grid.requireDefined(request, target, tests, checked, budget, pageBudget);
        Listing listing = new Listing(request, target, tests, projector);
        Supplier<List<Driver>> drivers = () -> drivers(request, target, tests);
        boolean inTail = checked.map(c -> c.part() == Cursor.Part.MISSING).orElse(false);
        // an or among the wheres may be read as a union of drives, in a group of a merged request as in a request of one group:
        // the union's cursor is the sorted index's key of an item, as every plan's, which is what MergeCursor keeps
        Plan plan = Planner.plan(listing, ranges, drivers, (position, predicate) -> driverOf(position, predicate, request, target, tests),
                inTail);
        return new GroupPlan(target, tests, listing, checked, plan);
    }

    /**
     * The definitions in the stack's grid state, as a page reads them (which of the grid's layouts is read, which are
     * kept), read within one page's time budget.
     *
     * @throws RetryableQueryException when the grid layout's state could not be read within the budget
     */
    public IndexDefinitions currentDefinitions() {
        return grid.currentDefinitions(new RetryBudget(backoff, sleeper, Deadline.after(pageBudget, nanoClock)), pageBudget);
    }

    /** The driver of a {@code has} or {@code has prefix} predicate: the words index of its field, when one lists the read items. */
    private Optional<Driver> words(PageRequest request, Target target, ItemTests tests, int position, Predicate predicate) {
        if (target.project().isPresent()) {
            return Optional.empty();
        }
        return WordPredicates.indexOf(definitions, WordPredicates.path(target.index(), tests, predicate.field()))
                .filter(other -> other.group().equals(target.index().group()) && target.index().covers().containsAll(other.covers()))
                .flatMap(other -> {
                    try {
                        String partition = IndexProjector.partition(other, request.group(), null);
                        return DynamoDbLimits.utf8Bytes(partition) <= DynamoDbLimits.MAX_PARTITION_KEY_BYTES
                                ? Driver.of(position, predicate, other, partition, Optional.empty(), projector.bounds(other.name()))
                                : Optional.empty();
                    } catch (UnindexableValueException e) {
                        // a group value that index cannot hold: no driver
                        return Optional.empty();
                    }
                });
    }

    /** Every predicate names a field this index can have: an attribute path that parses; an entry only of a map's index. */
    private void checkFields(PageRequest request, Target target, ItemTests tests) {
        for (int i = 0; i < request.expressions().size(); i++) {
            for (Predicate predicate : ExpressionText.predicates(request.expressions().get(i))) {
                String field = predicate.field();
                if (!tests.isEntry(field)) {
                    try {
                        tests.attributePath(field);
                    } catch (com.multikey.index.definition.DefinitionException e) {
                        throw new InvalidPredicateException(i, "names no attribute: " + e.getMessage());
                    }
                }
                if (tests.isEntry(field) && DynamoDbLimits.utf8Bytes(tests.entryName(field)) > DynamoDbLimits.MAX_PARTITION_KEY_BYTES) {
                    throw new InvalidPredicateException(i, "names an entry longer than " + DynamoDbLimits.MAX_PARTITION_KEY_BYTES
                            + " bytes, which no index item has");
                }
                WordPredicates.requireIndex(definitions, target, tests, i, predicate);
            }
        }
    }

    /**
     * The predicates whose matching items an index lists, and where: an entry of the index's map (its own partition of
     * the group), or an attribute another declared index holds as its values, over the same group and at least the
     * items this one covers. {@code missing} and {@code !=} have none: the items they match are not listed anywhere.
     */
    private List<Driver> drivers(PageRequest request, Target target, ItemTests tests) {
        List<Driver> drivers = new ArrayList<>();
        for (int i = 0; i < request.expressions().size(); i++) {
            if (request.expressions().get(i) instanceof Predicate predicate) {
                // an expression of and, or, not is tested on each item; an or may be read as a union of drives (Planner.union)
                driverOf(i, predicate, request, target, tests).ifPresent(drivers::add);
            }
        }
        return drivers;
    }

    /** The driver of one predicate ({@code where[position]}, or one inside it), when an index lists its items. */
    private Optional<Driver> driverOf(int position, Predicate predicate, PageRequest request, Target target, ItemTests tests) {
        String field = predicate.field();
        if (tests.isSortField(field) || Driver.rankOf(predicate).isEmpty()) {
            return Optional.empty();
        }
        if (WordPredicates.is(predicate)) {
            return words(request, target, tests, position, predicate);
        }
        if (tests.isEntry(field)) {
            String entry = tests.entryName(field);
            String partition = target.project().isPresent() ? entry : IndexProjector.partition(target.index(), request.group(), entry);
            if (DynamoDbLimits.utf8Bytes(partition) <= DynamoDbLimits.MAX_PARTITION_KEY_BYTES) {
                return Driver.of(position, predicate, target.index(), partition, target.project(), target.bounds());
            }
            return Optional.empty();
        }
        com.multikey.index.definition.AttributePath path = tests.attributePath(field);
        return definitions.indexes().stream()
                .filter(other -> other.layout() == IndexDefinition.Layout.GROUPED && !other.equals(target.index())
                        && !(other.values() instanceof ValueSource.MapEntries) && !(other.values() instanceof ValueSource.Words)
                        && other.values().path().equals(path) && other.group().equals(target.index().group()) && target.index().covers().containsAll(other.covers())
                        && target.project().isEmpty())
                .findFirst()
                .flatMap(other -> {
                    try {
                        String partition = IndexProjector.partition(other, request.group(), null);
                        if (DynamoDbLimits.utf8Bytes(partition) <= DynamoDbLimits.MAX_PARTITION_KEY_BYTES) {
                            return Driver.of(position, predicate, other, partition, Optional.empty(), projector.bounds(other.name()));
                        }
                        return Optional.empty();
                    } catch (UnindexableValueException e) {
                        // a group value that index cannot hold: no driver
                        return Optional.empty();
                    }
                });
    }
}

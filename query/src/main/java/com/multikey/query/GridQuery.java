package com.multikey.query;

import com.multikey.common.Backoff;
import com.multikey.common.Deadline;
import com.multikey.common.RetryBudget;
import com.multikey.common.Sleeper;
import com.multikey.index.DynamoDbLimits;
import com.multikey.index.GridKeys;
import com.multikey.index.GridLayoutStore;
import com.multikey.index.IndexEntry;
import com.multikey.index.IndexItem;
import com.multikey.index.IndexKey;
import com.multikey.index.IndexProjector;
import com.multikey.index.ItemKey;
import com.multikey.index.KeyOrder;
import com.multikey.index.SortKeyCodec;
import com.multikey.index.UnindexableValueException;
import com.multikey.index.ValueBounds;
import com.multikey.index.definition.Condition;
import com.multikey.index.definition.IndexDefinition;
import com.multikey.index.definition.IndexDefinitions;
import com.multikey.index.definition.KeySchema;
import com.multikey.index.definition.ValueSource;
import software.amazon.awssdk.awscore.AwsRequestOverrideConfiguration;
import software.amazon.awssdk.core.exception.ApiCallTimeoutException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The read side of every declared index: a page of a group's items sorted by an index's values (value, then the
 * tie-breakers, then the item key; for the issue grid: value, num, id), filtered on the value — a Query on the
 * index partition and a BatchGetItem on the source table — optionally followed by the group's items that have no
 * index item for the field (the missing tail): for the issue grid, Queries on {@code ByProject} in num order; for a
 * grouped index whose group is the source table's partition key, Queries on that partition of the table in its sort
 * key order (the items the index covers only); for any other index there is no missing tail, since only a scan of
 * the table could find the items the index leaves out, and a request for it is refused. A grouped index's
 * partition holds its group's items only, so a page is two calls whatever other groups hold; the issue grid's
 * partition is shared by the projects that share a field id, which a filter on {@code project} sorts out.
 *
 * <p>A page holds {@code pageSize} issues unless the result ends. Its first read asks for a quarter more
 * index items than the page needs, so a field with one value per issue takes two calls a page; when items
 * of other projects, further values of multi-valued issues or stale items leave the page short, further
 * reads ask for more (see {@code Reads}), and a page makes at most {@value #MAX_READS_PER_PAGE} reads
 * (Queries and BatchGetItems; re-sent unprocessed keys are counted in {@link Page#apiCalls()} but not here).
 * The cursor holds the key of the last item the page consumed, so the next page resumes right after it.
 *
 * <p>A multi-valued issue is listed once, under its first value in the page order that passes the filter;
 * an index item that no longer matches its issue (the index lags the table by the stream's delay) is left
 * out. Both are decided on the hydrated issue with the indexer's own projection, as is whether an issue
 * lacks the field, so every issue appears once across all pages.
 */
public final class GridQuery {

    /** The time a page may take, unprocessed keys re-sent included, unless set with {@link #withPageBudget}. */
    public static final Duration DEFAULT_PAGE_BUDGET = Duration.ofSeconds(5);
    /** Queries and BatchGetItems one page may make to fill itself; a page that reaches it comes back short. */
    public static final int MAX_READS_PER_PAGE = 8;
    /** The largest Limit of one read: a thousand index items is well under a Query's 1 MB. */
    static final int MAX_READ_LIMIT = 1000;
    private static final int MAX_BATCH_GET_KEYS = 100;
    /** The smallest Limit of a first read. */
    static final int MIN_LIMIT = 10;

    /** DynamoDB's order of string keys: their UTF-8 bytes, unsigned. */
    private static final Comparator<String> KEY_ORDER = KeyOrder.UTF8;
    /** Stands for the source of an index item that names none: never read, never listed. */
    private static final ItemKey NO_ITEM = ItemKey.ofString("", "");

    private final DynamoDbClient dynamoDb;
    private final String appTable;
    private final String indexTable;
    private final String byProjectIndex;
    private final IndexDefinitions definitions;
    /** The definitions in the stack's grid state for each page (which of the grid's layouts the grid reads). */
    private final Function<AwsRequestOverrideConfiguration, IndexDefinitions> current;
    private final IndexProjector issues;
    private final AttributeCatalog catalog;
    private final Backoff backoff;
    private final Sleeper sleeper;
    private final Duration pageBudget;
    private final LongSupplier nanoClock;
    private final CursorSealer cursors;
    private final ReadBudget readBudget;

    /**
     * With cursors sealed under a key made for this instance alone: they open in this process only.
     *
     * @param pageBudget the time one page may take, retries included
     * @param nanoClock  monotonic clock of the page's deadline ({@code System::nanoTime})
     */
    public GridQuery(DynamoDbClient dynamoDb, String appTable, String indexTable, String byProjectIndex, IndexDefinitions definitions,
                     AttributeCatalog catalog, Backoff backoff, Sleeper sleeper, Duration pageBudget, LongSupplier nanoClock) {
        this(dynamoDb, appTable, indexTable, byProjectIndex, definitions, () -> definitions, catalog, backoff, sleeper, pageBudget, nanoClock,
                CursorSealer.of(CursorKeys.ephemeral()));
    }

    /** With the definitions as given (no grid layout state), cursors sealed and opened by {@code cursors}. */
    public GridQuery(DynamoDbClient dynamoDb, String appTable, String indexTable, String byProjectIndex, IndexDefinitions definitions,
                     AttributeCatalog catalog, Backoff backoff, Sleeper sleeper, Duration pageBudget, LongSupplier nanoClock,
                     CursorSealer cursors) {
        this(dynamoDb, appTable, indexTable, byProjectIndex, definitions, () -> definitions, catalog, backoff, sleeper, pageBudget, nanoClock,
                cursors);
    }

    /**
     * @param current    the definitions in the stack's grid state, asked once a page (a {@link GridLayoutStore}'s)
     * @param pageBudget the time one page may take, retries included
     * @param nanoClock  monotonic clock of the page's deadline ({@code System::nanoTime})
     * @param cursors    seals the cursors of the pages and opens those of the requests: the deployment's keys, so that a
     *                   cursor opens in every process that reads the same index
     */
    public GridQuery(DynamoDbClient dynamoDb, String appTable, String indexTable, String byProjectIndex, IndexDefinitions definitions,
                     Supplier<IndexDefinitions> current, AttributeCatalog catalog, Backoff backoff, Sleeper sleeper, Duration pageBudget,
                     LongSupplier nanoClock, CursorSealer cursors) {
        this(timeout -> current.get(), dynamoDb, appTable, indexTable, byProjectIndex, definitions, catalog, backoff, sleeper, pageBudget,
                nanoClock, cursors);
    }

    /** @param current the definitions in the stack's grid state, asked once a page with the time left for one call */
    private GridQuery(Function<AwsRequestOverrideConfiguration, IndexDefinitions> current, DynamoDbClient dynamoDb, String appTable, String indexTable,
                      String byProjectIndex, IndexDefinitions definitions, AttributeCatalog catalog, Backoff backoff, Sleeper sleeper,
                      Duration pageBudget, LongSupplier nanoClock, CursorSealer cursors) {
        if (pageBudget.isNegative() || pageBudget.isZero()) {
            throw new IllegalArgumentException("page budget must be positive, got " + pageBudget);
        }
        this.dynamoDb = dynamoDb;
        this.appTable = appTable;
        this.indexTable = indexTable;
        this.byProjectIndex = byProjectIndex;
        this.definitions = definitions;
        this.current = current;
        this.issues = new IndexProjector(definitions);
        this.catalog = catalog;
        this.backoff = backoff;
        this.sleeper = sleeper;
        this.pageBudget = pageBudget;
        this.nanoClock = nanoClock;
        this.cursors = java.util.Objects.requireNonNull(cursors, "cursors");
        this.readBudget = ReadBudget.DEFAULT;
    }

    private GridQuery(GridQuery query, Duration pageBudget, CursorSealer cursors, ReadBudget readBudget) {
        this.dynamoDb = query.dynamoDb;
        this.appTable = query.appTable;
        this.indexTable = query.indexTable;
        this.byProjectIndex = query.byProjectIndex;
        this.definitions = query.definitions;
        this.current = query.current;
        this.issues = query.issues;
        this.catalog = query.catalog;
        this.backoff = query.backoff;
        this.sleeper = query.sleeper;
        if (pageBudget.isNegative() || pageBudget.isZero()) {
            throw new IllegalArgumentException("page budget must be positive, got " + pageBudget);
        }
        this.pageBudget = pageBudget;
        this.nanoClock = query.nanoClock;
        this.cursors = java.util.Objects.requireNonNull(cursors, "cursors");
        this.readBudget = readBudget;
    }

    /**
     * With the packaged definitions: tables as given, the issue grid's missing tail from GSI {@code ByProject}; cursors
     * sealed under a key of this instance alone ({@link #withCursorSealer} for the deployment's).
     */
    public static GridQuery of(DynamoDbClient dynamoDb, String appTable, String indexTable) {
        return of(dynamoDb, appTable, indexTable, IndexDefinitions.packaged());
    }

    /**
     * With these definitions: tables as given, the issue grid's missing tail from GSI {@code ByProject}, the grid's layout
     * as the stack records it in the index table (read again after {@link GridLayoutStore#DEFAULT_CACHE}); cursors sealed
     * under a key of this instance alone ({@link #withCursorSealer} for the deployment's).
     */
    public static GridQuery of(DynamoDbClient dynamoDb, String appTable, String indexTable, IndexDefinitions definitions) {
        return of(dynamoDb, appTable, indexTable, definitions, GridLayoutStore.DEFAULT_CACHE);
    }

    /** As {@link #of(DynamoDbClient, String, String, IndexDefinitions)}, the grid's layout read again after {@code cache}. */
    public static GridQuery of(DynamoDbClient dynamoDb, String appTable, String indexTable, IndexDefinitions definitions, Duration cache) {
        GridLayoutStore layout = new GridLayoutStore(dynamoDb, indexTable, definitions, false, cache, System::nanoTime);
        Function<AwsRequestOverrideConfiguration, IndexDefinitions> current = layout::current;
        return new GridQuery(current, dynamoDb, appTable, indexTable, "ByProject", definitions,
                AttributeCatalog.fromProjectItems(dynamoDb, appTable, definitions.table().partitionKey().name()), Backoff.standard(),
                Sleeper.SYSTEM, DEFAULT_PAGE_BUDGET, System::nanoTime, CursorSealer.of(CursorKeys.ephemeral()));
    }

    /** The same query with another time budget per page. */
    public GridQuery withPageBudget(Duration budget) {
        return new GridQuery(this, budget, cursors, readBudget);
    }

    /** The same query with another read budget: the items a page with predicates reads by default, and at most. */
    public GridQuery withReadBudget(ReadBudget budget) {
        return new GridQuery(this, pageBudget, cursors, java.util.Objects.requireNonNull(budget, "budget"));
    }

    /** The same query with cursors sealed and opened by {@code sealer}: the deployment's keys. */
    public GridQuery withCursorSealer(CursorSealer sealer) {
        return new GridQuery(this, pageBudget, sealer, readBudget);
    }

    /**
     * @throws QueryException          for an index that is not declared, a group or entry that does not fit the index,
     *                                 an attribute the project's catalog does not define (issue grid), or a cursor that
     *                                 does not open for this query (edited, cut, expired, of another query or key)
     * @throws RetryableQueryException when the page could not be read within its time budget
     */
    public Page page(PageRequest request) {
        RetryBudget budget = new RetryBudget(backoff, sleeper, Deadline.after(pageBudget, nanoClock));
        Target target = target(request, currentDefinitions(budget));
        int items = readBudget.of(request);
        ItemTests tests = new ItemTests(issues, target.index(), request.group(), request.attribId(), target.project(), request.predicates());
        checkFields(request, tests);
        Filter.KeyRange range = request.filter().map(f -> f.keyRange(target.bounds()))
                .orElseGet(() -> SortRange.of(tests.onSortField(), target.bounds()));
        // items lacking the sorted field fail every predicate on it but "missing", which only they satisfy
        boolean tailOnly = tests.sortFieldMissing();
        boolean tail = tailOnly || request.includeMissing() && tests.onSortField().isEmpty();
        Optional<Cursor> cursor = request.cursor().map(text -> carriedOver(Cursor.decode(text, request, cursors), target, request)
                .requireValid(target, range, tail));
        if (cursor.isEmpty() && target.missing() instanceof MissingSource.ByProject) {
            if (!definedInCatalog(request, request.attribId(), budget)) {
                throw new QueryException("project " + request.project() + " has no attribute '" + request.attribId() + "'");
            }
            for (int i = 0; i < request.predicates().size(); i++) {
                String field = request.predicates().get(i).field();
                if (tests.isEntry(field) && !field.equals(request.attribId()) && !definedInCatalog(request, field, budget)) {
                    throw new InvalidPredicateException(i, "names field '" + field + "', which project " + request.project()
                            + " does not define");
                }
            }
        }
        boolean planned = !request.predicates().isEmpty();
        PageFill fill = new PageFill(request, target, budget, tests, planned || request.readBudget() > 0 ? items : Integer.MAX_VALUE,
                planned ? ReadBudget.maxCalls(items) : MAX_READS_PER_PAGE, cursor.map(Cursor::knowledge).orElse(Knowledge.NONE));
        Optional<Cursor> next;
        int indexed = 0;
        if (cursor.isPresent() && cursor.get().part() == Cursor.Part.MISSING) {
            fill.explainTail();
            next = fill.missing(cursor.get().startKey());
        } else {
            Map<String, AttributeValue> start = cursor.map(Cursor::startKey).orElse(Map.of());
            if (tailOnly || range != null && range.isEmpty()) {
                fill.explainTail();
                next = Optional.empty();
            } else {
                next = planned ? fill.planned(range, start, drivers(request, target, tests)) : fill.index(range, start);
            }
            indexed = fill.page.size();
            if (next.isEmpty() && tail) {
                next = fill.isFull() ? Optional.of(new Cursor(Cursor.Part.MISSING, Map.of())) : fill.missing(Map.of());
            }
        }
        Knowledge learned = fill.learned;
        return new Page(fill.page, fill.values, indexed, next.map(c -> c.with(learned).encode(request, cursors)).orElse(null), fill.calls,
                fill.examined(), next.isPresent() && !fill.isFull(), request.explain() ? fill.explain() : null);
    }

    /** Every predicate names a field this index can have: an attribute path that parses; an entry only of a map's index. */
    private static void checkFields(PageRequest request, ItemTests tests) {
        for (int i = 0; i < request.predicates().size(); i++) {
            String field = request.predicates().get(i).field();
            if (!tests.isEntry(field)) {
                try {
                    tests.attributePath(field);
                } catch (com.multikey.index.definition.DefinitionException e) {
                    throw new InvalidPredicateException(i, "names no attribute: " + e.getMessage());
                }
            }
            if (tests.isEntry(field) && DynamoDbLimits.utf8Bytes(field) > DynamoDbLimits.MAX_PARTITION_KEY_BYTES) {
                throw new InvalidPredicateException(i, "names an entry longer than " + DynamoDbLimits.MAX_PARTITION_KEY_BYTES
                        + " bytes, which no index item has");
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
        for (int i = 0; i < request.predicates().size(); i++) {
            Predicate predicate = request.predicates().get(i);
            String field = predicate.field();
            if (tests.isSortField(field) || predicate instanceof Predicate.Missing || predicate instanceof Predicate.NotEquals
                    || predicate instanceof Predicate.In in && in.values().size() > Driver.MAX_IN_RANGES) {
                continue;
            }
            if (tests.isEntry(field)) {
                String partition = target.project().isPresent() ? field : IndexProjector.partition(target.index(), request.group(), field);
                if (DynamoDbLimits.utf8Bytes(partition) <= DynamoDbLimits.MAX_PARTITION_KEY_BYTES) {
                    drivers.add(Driver.of(i, predicate, target.index(), partition, target.project(), target.bounds()));
                }
                continue;
            }
            com.multikey.index.definition.AttributePath path = tests.attributePath(field);
            int position = i;
            definitions.indexes().stream()
                    .filter(other -> other.layout() == IndexDefinition.Layout.GROUPED && !other.equals(target.index())
                            && !(other.values() instanceof ValueSource.MapEntries) && other.values().path().equals(path)
                            && other.group().equals(target.index().group()) && target.index().covers().containsAll(other.covers())
                            && target.project().isEmpty())
                    .findFirst()
                    .ifPresent(other -> {
                        try {
                            String partition = IndexProjector.partition(other, request.group(), null);
                            if (DynamoDbLimits.utf8Bytes(partition) <= DynamoDbLimits.MAX_PARTITION_KEY_BYTES) {
                                drivers.add(Driver.of(position, predicate, other, partition, Optional.empty(),
                                        issues.bounds(other.name())));
                            }
                        } catch (UnindexableValueException e) {
                            // a group value that index cannot hold: no driver
                        }
                    });
        }
        return drivers;
    }

    /** The definitions in the stack's grid state, its read (when not cached) within the page's budget. */
    private IndexDefinitions currentDefinitions(RetryBudget budget) {
        try {
            return current.apply(budget.callTimeout());
        } catch (ApiCallTimeoutException e) {
            throw new RetryableQueryException("GetItem of the grid layout's state did not answer within the page's budget of " + pageBudget, e);
        }
    }

    /** Whether the project's catalog defines the attribute, its read within the page's budget. */
    private boolean definedInCatalog(PageRequest request, String attribId, RetryBudget budget) {
        try {
            return catalog.defines(request.project(), attribId, budget.callTimeout());
        } catch (ApiCallTimeoutException e) {
            throw new RetryableQueryException("GetItem of the project's catalog did not answer within the page's budget of " + pageBudget, e);
        }
    }

    /**
     * A cursor of the issue grid made while the grid was read in its other layout (the stack moved it meanwhile, or
     * another function instance had not yet seen the move), as the same position in the layout read now.
     */
    private Cursor carriedOver(Cursor cursor, Target target, PageRequest request) {
        if (cursor.part() != Cursor.Part.INDEX || !(target.missing() instanceof MissingSource.ByProject)
                || cursor.startKey().isEmpty()) {
            return cursor;
        }
        AttributeValue partition = cursor.startKey().get(IndexKey.ATTRIB_ID);
        AttributeValue sortKey = cursor.startKey().get(IndexKey.SORT_KEY);
        if (cursor.startKey().size() != 2 || partition == null || sortKey == null || partition.s() == null || sortKey.s() == null
                || partition.s().equals(target.partition())) {
            return cursor;
        }
        int valueBytes = definitions.groupedGrid().map(grid -> issues.bounds(grid.name()).valueBytes()).orElse(0);
        GridKeys.Position position = GridKeys.translate(target.index(), request.project(), request.attribId(), valueBytes,
                request.order() == Order.ASC, partition.s(), sortKey.s());
        if (position == null) {
            return cursor;
        }
        return new Cursor(Cursor.Part.INDEX, Map.of(IndexKey.ATTRIB_ID, AttributeValue.fromS(position.partition()),
                IndexKey.SORT_KEY, AttributeValue.fromS(position.sortKey())), cursor.knowledge());
    }

    /**
     * What a request reads: its index, the index partition, the project a field-partitioned partition is filtered on,
     * the bounds of the index's values, and where the group's items lacking the field come from.
     */
    record Target(IndexDefinition index, String partition, Optional<String> project, ValueBounds bounds, MissingSource missing) {
    }

    /** Where the items of a group that have no index item for the field (the missing tail) are read from. */
    sealed interface MissingSource {

        /** The issue grid's: GSI {@code ByProject} of the app table (key project, num), in num order. */
        record ByProject(GridNames names, String project) implements MissingSource {
        }

        /**
         * A grouped index whose group is the source table's partition key: a Query on the group's partition of the
         * table, in the table's sort key order, narrowed by the index's {@code beginsWith} on the sort key, if any.
         */
        record TablePartition(KeySchema table, AttributeValue group, Optional<String> sortKeyPrefix) implements MissingSource {
        }

        /** None: nothing lists a group's items but the index itself; why. */
        record Unavailable(String reason) implements MissingSource {
        }
    }

    private Target target(PageRequest request, IndexDefinitions definitions) {
        IndexDefinition named = request.index()
                .map(name -> definitions.index(name).orElseThrow(() -> new QueryException("no index named '" + name + "'")))
                .orElseGet(() -> definitions.grid()
                        .orElseThrow(() -> new QueryException("name the index to read: no issue grid (field-partitioned) index is declared")));
        // either name of the issue grid reads the layout the stack's grid state reads
        IndexDefinition index = definitions.isGrid(named) ? definitions.grid().orElse(named) : named;
        ValueBounds bounds = issues.bounds(index.name());
        boolean entries = index.values() instanceof ValueSource.MapEntries;
        if (entries && request.attribId().isEmpty()) {
            throw new QueryException("index '" + index.name() + "' indexes the entries of " + index.values().path() + ": name the entry");
        }
        if (!entries && !request.attribId().isEmpty()) {
            throw new QueryException("index '" + index.name() + "' indexes " + index.values().path() + " itself: it has no entries to name");
        }
        if (definitions.isGrid(index)) {
            if (request.group().size() != 1 || request.group().get(0).s() == null) {
                throw new QueryException("index '" + index.name() + "' runs within one project: give one string group value");
            }
            // the project keys the project's item (the catalog's GetItem) and the field keys the index partition: a value no
            // key holds is the caller's mistake, which DynamoDB would refuse with a ValidationException (a 503 to retry)
            String project = request.group().get(0).s();
            if (project.isEmpty() || DynamoDbLimits.utf8Bytes(project) > DynamoDbLimits.MAX_PARTITION_KEY_BYTES) {
                throw new QueryException("index '" + index.name() + "' runs within one project: a group (project) value is 1 to "
                        + DynamoDbLimits.MAX_PARTITION_KEY_BYTES + " bytes long, as a key is");
            }
            if (DynamoDbLimits.utf8Bytes(request.attribId()) > DynamoDbLimits.MAX_PARTITION_KEY_BYTES) {
                throw new QueryException("index '" + index.name() + "' has no attribute id longer than "
                        + DynamoDbLimits.MAX_PARTITION_KEY_BYTES + " bytes (the longest key)");
            }
            MissingSource byProject = new MissingSource.ByProject(GridNames.of(index, definitions), project);
            if (index.layout() == IndexDefinition.Layout.FIELD_PARTITIONED) {
                return new Target(index, request.attribId(), Optional.of(project), bounds, byProject);
            }
            // the grouped grid: the project's own partition of the field, no filter
            return new Target(index, IndexProjector.partition(index, request.group(), request.attribId()), Optional.empty(), bounds,
                    byProject);
        }
        if (request.group().size() != index.group().size()) {
            throw new QueryException("index '" + index.name() + "' runs within " + index.group() + ": give "
                    + index.group().size() + " group value(s), got " + request.group().size());
        }
        MissingSource missing = missingSource(index, request.group());
        if (request.includeMissing() && missing instanceof MissingSource.Unavailable unavailable) {
            throw new QueryException(unavailable.reason());
        }
        String partition;
        try {
            partition = IndexProjector.partition(index, request.group(), entries ? request.attribId() : null);
        } catch (UnindexableValueException e) {
            throw new QueryException("index '" + index.name() + "' has no group of that value: " + e.getMessage());
        }
        if (DynamoDbLimits.utf8Bytes(partition) > DynamoDbLimits.MAX_PARTITION_KEY_BYTES) {
            throw new QueryException("index '" + index.name() + "': the group and entry make a partition key longer than "
                    + DynamoDbLimits.MAX_PARTITION_KEY_BYTES + " bytes, which no index item has");
        }
        return new Target(index, partition, Optional.empty(), bounds, missing);
    }

    /**
     * The missing tail of a grouped index: a Query on the source table when the group is the table's partition key
     * (a partition of the table holds exactly the group's items), else none, since finding the items of a group
     * that the index leaves out would take a scan of the table.
     */
    private MissingSource missingSource(IndexDefinition index, List<AttributeValue> group) {
        KeySchema table = definitions.table();
        KeySchema.KeyAttribute partitionKey = table.partitionKey();
        if (index.group().size() != 1 || !index.group().get(0).isTopLevel()
                || !index.group().get(0).names().get(0).equals(partitionKey.name())) {
            return new MissingSource.Unavailable("the items lacking the field are listed for the issue grid (from its ByProject "
                    + "index) and for an index grouped by the table's partition key (" + partitionKey.name() + "); index '"
                    + index.name() + "' is grouped by " + index.group() + ": no source lists its group's items but the index itself");
        }
        if (group.get(0).type() != partitionKey.type().attributeType()) {
            throw new QueryException("index '" + index.name() + "' is grouped by " + partitionKey.name()
                    + ", the table's partition key of type " + partitionKey.type() + ": give a group value of that type");
        }
        Optional<String> prefix = table.sortKey().filter(sortKey -> sortKey.type() == KeySchema.KeyType.S)
                .flatMap(sortKey -> index.covers().stream()
                        .filter(condition -> condition instanceof Condition.BeginsWith && condition.path().isTopLevel()
                                && condition.path().names().get(0).equals(sortKey.name()))
                        .map(condition -> ((Condition.BeginsWith) condition).prefix())
                        .filter(text -> !text.isEmpty())
                        .findFirst());
        return new MissingSource.TablePartition(table, group.get(0), prefix);
    }

    /** The reads of one page, and what they have given so far. */
    private final class PageFill {

        private final PageRequest request;
        private final Target target;
        private final RetryBudget budget;
        private final List<Map<String, AttributeValue>> page = new ArrayList<>();
        /** The value each item of the index part was listed under, in page order. */
        private final List<AttributeValue> values = new ArrayList<>();
        /** Items read from the source table by key; empty when the item no longer exists. */
        private final Map<ItemKey, Optional<Map<String, AttributeValue>>> hydrated = new HashMap<>();
        private final ItemTests tests;
        private final int itemBudget;
        private final int maxReads;
        private int reads;
        private int calls;
        private int queries;
        private int batchGets;
        private int indexItems;
        private int tableItems;
        /** What earlier pages knew, and what this one learns. */
        private Knowledge learned;
        /** The index items read from the sorted field's index on this page, and the items listed from them. */
        private long sortRead;
        private long sortListed;
        /** Items sampled (hydrated candidates of the sorted field's index) and, per driver, how many matched its predicate. */
        private int sampled;
        private final Map<Integer, Integer> hits = new HashMap<>();
        private List<Driver> drivers = List.of();
        private final Map<Integer, DriveRead> drives = new HashMap<>();
        /** The drive that completed while the sorted field's index was being read: the page is made from it. */
        private DriveRead switched;
        /** A hook after each read of the sorted field's index: true to stop it. */
        private java.util.function.BooleanSupplier afterSortRead = () -> false;
        private Explain.Plan plan;
        private String reason = "";
        private final List<Explain.Alternative> alternatives = new ArrayList<>();

        PageFill(PageRequest request, Target target, RetryBudget budget, ItemTests tests, int itemBudget, int maxReads, Knowledge known) {
            this.request = request;
            this.target = target;
            this.budget = budget;
            this.tests = tests;
            this.itemBudget = itemBudget;
            this.maxReads = maxReads;
            this.learned = known;
            this.plan = new Explain.Plan.SortIndex(sortFieldName());
            this.reason = tests.isEmpty() ? "no predicates: the sorted field's index in page order" : "";
        }

        private String sortFieldName() {
            return request.attribId().isEmpty() ? target.index().values().path().toString() : request.attribId();
        }

        int examined() {
            return indexItems + tableItems;
        }

        void explainTail() {
            plan = new Explain.Plan.SortIndex(sortFieldName());
            reason = "the items lacking " + sortFieldName() + " (the missing tail), each tested";
        }

        Explain explain() {
            if (alternatives.isEmpty()) {
                alternatives.add(new Explain.Alternative(plan.describe(), examined(), "read"));
            }
            Optional<String> suggestion = Suggestion.of(request, target.index(), tests, examined(), isFull());
            return new Explain(plan.describe(), reason, alternatives, new Explain.Reads(queries, batchGets, indexItems, tableItems),
                    suggestion);
        }

        boolean isFull() {
            return page.size() >= request.pageSize();
        }

        private int need() {
            return request.pageSize() - page.size();
        }

        private boolean mayRead() {
            return reads < maxReads && examined() < itemBudget;
        }

        private int budgetLeft() {
            return Math.max(0, itemBudget - examined());
        }

        /**
         * The index part of a request with predicates, from {@code position}: planned from what earlier pages learned
         * (counts of the predicates' index ranges, the yield of the sorted field's index), else adaptively: a predicate's
         * range is read first as far as a page could use it; when it ends, its items are the page's candidates; else the
         * sorted field's index is read, and after each read the best predicate's range is read on while its reading
         * costs less than half of what the sorted read still needs: if it ends, its items make the page.
         */
        Optional<Cursor> planned(Filter.KeyRange range, Map<String, AttributeValue> position, List<Driver> drivers) {
            this.drivers = drivers;
            int need = need();
            Optional<Double> yield = learned.sortYield();
            long sortCost = yield.map(y -> (long) Math.ceil(2 * need / y)).orElse(-1L);
            alternatives.add(new Explain.Alternative(new Explain.Plan.SortIndex(sortFieldName()).describe(), sortCost, yield
                    .map(y -> String.format(java.util.Locale.ROOT, "yield %.4f items listed per index item, over %d read on earlier pages",
                            y, learned.sortRead()))
                    .orElse("unknown before a read")));
            for (Driver driver : drivers) {
                Optional<Long> exact = learned.exactCount(driver.position());
                long lower = learned.lowerBound(driver.position());
                alternatives.add(new Explain.Alternative(drive(driver).describe(), exact.map(n -> 2 * n).orElse(lower > 0 ? 2 * lower : -1),
                        exact.map(n -> n + " index items (read whole on an earlier page)")
                                .orElse(lower > 0 ? "more than " + lower + " index items" : "unknown before a read")));
            }
            if (drivers.isEmpty()) {
                reason = "no predicate is listed by an index (!= and missing never are; an attribute only when an index holds it): "
                        + "the sorted field's index, each candidate tested";
                return index(range, position);
            }
            Optional<Driver> counted = drivers.stream().filter(d -> learned.exactCount(d.position()).isPresent())
                    .min(java.util.Comparator.comparingLong(d -> learned.exactCount(d.position()).orElseThrow()));
            if (counted.isPresent()) {
                long m = learned.exactCount(counted.get().position()).orElseThrow();
                if (2 * m <= budgetLeft() && (sortCost < 0 || 2 * m <= sortCost)) {
                    DriveRead drive = drives.computeIfAbsent(counted.get().position(), i -> new DriveRead(counted.get()));
                    drive.readTo(Long.MAX_VALUE / 4, budgetLeft() / 2);
                    if (drive.complete && drive.canFinish()) {
                        plan = drive(counted.get());
                        reason = PredicateText.format(counted.get().predicate()) + " matched " + m + " index items on an earlier page: "
                                + "reading them and their items costs about " + 2 * m + (sortCost < 0 ? "" : ", the sorted index about "
                                + sortCost);
                        return fromDrive(drive, position);
                    }
                }
            }
            if (sortCost >= 0 && drivers.stream().allMatch(d -> 2 * learned.lowerBound(d.position()) >= sortCost)) {
                reason = "earlier pages found each predicate's range larger than the sorted index's reads for a page (about " + sortCost
                        + " items)";
                return index(range, position);
            }
            Driver first = drivers.stream().min(java.util.Comparator.comparingInt(Driver::rank)
                    .thenComparingLong(d -> learned.lowerBound(d.position()))).orElseThrow();
            long probe = request.pageSize();
            if (learned.lowerBound(first.position()) < probe) {
                DriveRead drive = drives.computeIfAbsent(first.position(), i -> new DriveRead(first));
                drive.readTo(probe, budgetLeft() / 2);
                if (drive.complete && drive.canFinish()) {
                    plan = drive(first);
                    reason = PredicateText.format(first.predicate()) + " matches " + drive.read + " index items, no more than "
                            + probe + " (a page): its items make the page";
                    return fromDrive(drive, position);
                }
            }
            reason = "the sorted field's index, each candidate tested; after each read, the predicate that matched fewest candidates "
                    + "has its range read on while that costs less than half of what the sorted reads still need";
            afterSortRead = this::driveInstead;
            Optional<Cursor> next = index(range, position);
            if (switched != null) {
                plan = drive(switched.driver);
                reason = "the sorted field's index listed " + sortListed + " of " + sortRead + " index items read; "
                        + PredicateText.format(switched.driver.predicate()) + " matched " + switched.read
                        + " index items in all, fewer than the sorted reads still needed: its items make the page";
                return fromDrive(switched, position);
            }
            return next;
        }

        private Explain.Plan drive(Driver driver) {
            return new Explain.Plan.Drive(driver.position(), PredicateText.format(driver.predicate()));
        }

        /** After a read of the sorted field's index: whether a predicate's range, read on, ended, so the page is made from it. */
        private boolean driveInstead() {
            if (isFull()) {
                return false;
            }
            double yield = (sortListed + 1.0) / (sortRead + 2.0);
            long sortCost = (long) Math.ceil(2 * need() / yield);
            Driver best = drivers.stream().min(java.util.Comparator.comparingDouble((Driver d) -> (hits.getOrDefault(d.position(), 0) + 1.0)
                    / (sampled + 2.0)).thenComparingInt(Driver::rank)).orElseThrow();
            long cap = Math.min(sortCost / 2, budgetLeft() / 2);
            DriveRead drive = drives.computeIfAbsent(best.position(), i -> new DriveRead(best));
            if (drive.complete || Math.max(drive.read, learned.lowerBound(best.position())) >= cap) {
                return false;   // read as far as it pays, or known (from an earlier page) to hold more than that
            }
            drive.readTo(cap, budgetLeft() / 2);
            if (drive.complete && drive.canFinish()) {
                switched = drive;
                return true;
            }
            return false;
        }

        /**
         * The page from a predicate's items: each tested, listed under its first value of the sorted field that satisfies
         * the sorted field's predicates, ordered as the sorted field's index orders them, after {@code position}.
         */
        private Optional<Cursor> fromDrive(DriveRead drive, Map<String, AttributeValue> position) {
            drivers = List.of();
            page.clear();
            values.clear();
            List<ItemKey> unread = drive.keys.stream().filter(key -> !hydrated.containsKey(key)).toList();
            for (int i = 0; i < unread.size(); i += MAX_BATCH_GET_KEYS) {
                hydrate(unread.subList(i, Math.min(unread.size(), i + MAX_BATCH_GET_KEYS)));
            }
            Comparator<String> order = request.order() == Order.ASC ? KEY_ORDER : KEY_ORDER.reversed();
            List<IndexItem> listings = new ArrayList<>();
            Map<IndexItem, Map<String, AttributeValue>> itemOf = new HashMap<>();
            for (ItemKey key : drive.keys) {
                Optional<Map<String, AttributeValue>> item = hydrated.getOrDefault(key, Optional.empty());
                if (item.isEmpty() || !tests.othersMatch(key, item.get())) {
                    continue;
                }
                firstListing(key, item.get()).ifPresent(listing -> {
                    listings.add(listing);
                    itemOf.put(listing, item.get());
                });
            }
            listings.sort(Comparator.comparing(IndexItem::sortKey, order));
            AttributeValue after = position.get(IndexKey.SORT_KEY);
            List<IndexItem> rest = after == null ? listings
                    : listings.stream().filter(listing -> order.compare(listing.sortKey(), after.s()) > 0).toList();
            for (IndexItem listing : rest) {
                if (isFull()) {
                    IndexItem last = rest.get(page.size() - 1);
                    return Optional.of(new Cursor(Cursor.Part.INDEX, Map.of(IndexKey.ATTRIB_ID, AttributeValue.fromS(target.partition()),
                            IndexKey.SORT_KEY, AttributeValue.fromS(last.sortKey()))));
                }
                page.add(itemOf.get(listing));
                values.add(listing.value().toAttributeValue());
            }
            return Optional.empty();
        }

        /** The index item of the sorted field an item is listed under: its first in page order that passes the filters. */
        private Optional<IndexItem> firstListing(ItemKey key, Map<String, AttributeValue> item) {
            Comparator<IndexItem> order = Comparator.comparing(IndexItem::sortKey, request.order() == Order.ASC ? KEY_ORDER : KEY_ORDER.reversed());
            return issues.projectEntry(target.index().name(), key, item, request.attribId()).items().stream()
                    .filter(indexItem -> indexItem.attribId().equals(target.partition()) && target.project()
                            .map(project -> project.equals(indexItem.toItem().get(IndexItem.PROJECT).s())).orElse(true))
                    .filter(indexItem -> request.filter().map(f -> f.matches(indexItem.value(), target.bounds())).orElse(true))
                    .filter(indexItem -> tests.sortValueMatches(indexItem.value()))
                    .min(order);
        }

        /** The reading of one driver's ranges: where it stands, what it read, the items it listed. */
        private final class DriveRead {
            private final Driver driver;
            private int range;
            private Map<String, AttributeValue> position = Map.of();
            private long read;
            private boolean complete;
            private final java.util.LinkedHashSet<ItemKey> keys = new java.util.LinkedHashSet<>();

            DriveRead(Driver driver) {
                this.driver = driver;
            }

            /** Whether the items it listed can all be read within the page's budget. */
            boolean canFinish() {
                return keys.stream().filter(key -> !hydrated.containsKey(key)).count() <= budgetLeft();
            }

            /** Reads on until the ranges end, {@code cap} index items are read, or {@code keyCap} items are listed. */
            void readTo(long cap, long keyCap) {
                while (!complete && read < cap && keys.size() <= keyCap && mayRead()) {
                    int limit = (int) Math.max(1, Math.min(budgetLeft(), Math.min(MAX_READ_LIMIT, Math.max(MIN_LIMIT, cap - read + 1))));
                    QueryResponse response = queryIndex(driver.partition(), driver.project(), driver.ranges().get(range), position, limit,
                            true);
                    read += response.scannedCount();
                    for (Map<String, AttributeValue> item : response.items()) {
                        IndexEntry.of(item, definitions.table()).map(IndexEntry::source).ifPresent(keys::add);
                    }
                    if (!response.hasLastEvaluatedKey() || response.lastEvaluatedKey().isEmpty()) {
                        range++;
                        position = Map.of();
                        complete = range == driver.ranges().size();
                    } else {
                        position = response.lastEvaluatedKey();
                    }
                }
                learned = learned.withCount(driver.position(), read, complete);
            }
        }

        /** The index part from {@code position}; empty when it ended, else where the next page resumes. */
        Optional<Cursor> index(Filter.KeyRange range, Map<String, AttributeValue> position) {
            Reads reads = new Reads();
            while (!isFull() && mayRead()) {
                QueryResponse response = queryIndex(target.partition(), target.project(), range, position, reads.limit(),
                        request.order() == Order.ASC);
                List<IndexEntry> items = response.items().stream()
                        .map(item -> IndexEntry.of(item, definitions.table()).orElse(new IndexEntry(IndexKey.of(item), NO_ITEM)))
                        .toList();
                int before = page.size();
                int consumed = consumeIndexItems(items, response.items());
                sortRead += consumed == items.size() ? response.scannedCount() : consumed;
                sortListed += page.size() - before;
                if (consumed < items.size()) {
                    learned = learned.withSortRead(sortRead, sortListed);
                    return Optional.of(new Cursor(Cursor.Part.INDEX, consumed == 0 ? position : items.get(consumed - 1).key().toKey()));
                }
                if (!response.hasLastEvaluatedKey() || response.lastEvaluatedKey().isEmpty()) {
                    learned = learned.withSortRead(sortRead, sortListed);
                    return Optional.empty();
                }
                if (isFull() && consumed > 0) {
                    learned = learned.withSortRead(sortRead, sortListed);
                    // resume after the page's own last item, not after the last item DynamoDB evaluated: in a field
                    // partition shared by projects, that one may be another project's, dropped by the filter
                    return Optional.of(new Cursor(Cursor.Part.INDEX, items.get(consumed - 1).key().toKey()));
                }
                position = response.lastEvaluatedKey();
                reads.record(response.scannedCount(), page.size() - before);
                if (afterSortRead.getAsBoolean()) {
                    break;
                }
            }
            learned = learned.withSortRead(sortRead, sortListed);
            return Optional.of(new Cursor(Cursor.Part.INDEX, position));
        }

        /**
         * Takes index items in order while the page has room, then goes on over items that list nothing
         * (another value of an issue already placed, a stale item) as far as the issues read tell.
         *
         * @return how many items were consumed: the cursor goes after the last of them
         */
        private int consumeIndexItems(List<IndexEntry> items, List<Map<String, AttributeValue>> stored) {
            for (int i = 0; i < items.size(); i++) {
                IndexEntry entry = items.get(i);
                if (!tests.isEmpty() && !hydrated.containsKey(entry.source())
                        && tests.othersMatchOnProjection(stored.get(i)).map(match -> !match).orElse(false)) {
                    continue;   // its projection says it fails a predicate: not read
                }
                if (!hydrated.containsKey(entry.source())) {
                    if (isFull() || !mayRead()) {
                        return i;
                    }
                    // exactly the issues the page needs first; when some of them list nothing, as many as one call takes
                    int chunk = Math.min(budgetLeft(), tests.isEmpty() ? (hydrated.isEmpty() ? need() : MAX_BATCH_GET_KEYS) : candidates());
                    hydrate(items.subList(i, items.size()).stream().map(IndexEntry::source)
                            .filter(id -> !hydrated.containsKey(id)).distinct().limit(chunk).toList());
                }
                Optional<Map<String, AttributeValue>> issue = hydrated.get(entry.source());
                Optional<IndexItem> listed = issue.flatMap(item -> listedUnder(entry, item));
                if (listed.isPresent()) {
                    if (isFull()) {
                        return i;
                    }
                    page.add(issue.get());
                    values.add(listed.get().value().toAttributeValue());
                }
            }
            return items.size();
        }

        /**
         * The issue's index item this index item stands for, when it is the one its issue is listed under: it matches the
         * issue, and is its first matching value; empty otherwise.
         */
        private Optional<IndexItem> listedUnder(IndexEntry entry, Map<String, AttributeValue> issue) {
            Comparator<IndexItem> order = Comparator.comparing(IndexItem::sortKey, request.order() == Order.ASC ? KEY_ORDER : KEY_ORDER.reversed());
            return issues.projectEntry(target.index().name(), entry.source(), issue, request.attribId()).items().stream()
                    .filter(item -> item.attribId().equals(entry.attribId()) && target.project()
                            .map(project -> project.equals(item.toItem().get(IndexItem.PROJECT).s())).orElse(true))
                    .filter(item -> request.filter().map(f -> f.matches(item.value(), target.bounds())).orElse(true))
                    .filter(item -> tests.sortValueMatches(item.value()))
                    .min(order)
                    .filter(first -> first.sortKey().equals(entry.sortKey()))
                    .filter(first -> tests.othersMatch(entry.source(), issue));
        }

        /**
         * How many candidates of the sorted field's index to read next with predicates: what the page still needs over the
         * share of candidates listed so far (on this page, else on earlier ones), a quarter more, up to a BatchGetItem.
         */
        private int candidates() {
            double yield = !hydrated.isEmpty() ? (page.size() + 1.0) / (hydrated.size() + 2.0) : learned.sortYield().orElse(1.0);
            return (int) Math.max(1, Math.min(MAX_BATCH_GET_KEYS, Math.ceil(1.25 * need() / Math.min(1.0, yield))));
        }

        /** Counts, for each driver, whether a candidate read from the sorted field's index satisfies its predicate. */
        private void sample(ItemKey key, Map<String, AttributeValue> item) {
            if (drivers.isEmpty()) {
                return;
            }
            sampled++;
            for (Driver driver : drivers) {
                if (tests.matches(driver.predicate(), key, item)) {
                    hits.merge(driver.position(), 1, Integer::sum);
                }
            }
        }

        /** The missing part from {@code position}; empty when it ended, else where the next page resumes. */
        Optional<Cursor> missing(Map<String, AttributeValue> position) {
            Reads reads = new Reads();
            while (!isFull() && mayRead()) {
                QueryResponse response = switch (target.missing()) {
                    case MissingSource.ByProject grid -> queryByProject(grid.names(), position, reads.limit());
                    case MissingSource.TablePartition table -> queryTablePartition(table, position, reads.limit());
                    case MissingSource.Unavailable unavailable -> throw new QueryException(unavailable.reason());
                };
                List<Map<String, AttributeValue>> items = response.items();
                int before = page.size();
                for (int i = 0; i < items.size(); i++) {
                    Map<String, AttributeValue> item = items.get(i);
                    if (lacksField(item) && (tests.isEmpty() || issues.keyOf(item).map(key -> tests.allMatch(key, item)).orElse(false))) {
                        if (isFull()) {
                            return Optional.of(new Cursor(Cursor.Part.MISSING, i == 0 ? position : missingKey(items.get(i - 1))));
                        }
                        page.add(items.get(i));
                    }
                }
                if (!response.hasLastEvaluatedKey() || response.lastEvaluatedKey().isEmpty()) {
                    return Optional.empty();
                }
                position = response.lastEvaluatedKey();
                reads.record(response.scannedCount(), page.size() - before);
            }
            return Optional.of(new Cursor(Cursor.Part.MISSING, position));
        }

        /**
         * The definition of "missing" is the indexer's: the item (in a table partition: one the index covers) has no
         * index item in the request's partition (the field's, or the group's and entry's).
         */
        private boolean lacksField(Map<String, AttributeValue> item) {
            if (target.missing() instanceof MissingSource.TablePartition && !target.index().covers(item)) {
                return false;
            }
            return issues.keyOf(item).map(key -> issues.projectEntry(target.index().name(), key, item, request.attribId()).items().stream()
                    .noneMatch(indexItem -> indexItem.attribId().equals(target.partition()))).orElse(false);
        }

        /** The key a missing part's Query resumes after this item: its GSI key and table key, or its table key. */
        private Map<String, AttributeValue> missingKey(Map<String, AttributeValue> item) {
            if (target.missing() instanceof MissingSource.ByProject grid) {
                GridNames names = grid.names();
                return Map.of(names.key(), item.get(names.key()), names.project(), item.get(names.project()),
                        names.num(), item.get(names.num()));
            }
            return issues.keyOf(item).orElseThrow().toKey();
        }

        private QueryResponse queryIndex(String partition, Optional<String> project, Filter.KeyRange range,
                                         Map<String, AttributeValue> position, int limit, boolean forward) {
            Map<String, String> names = new HashMap<>(Map.of("#a", IndexKey.ATTRIB_ID));
            Map<String, AttributeValue> values = new HashMap<>(Map.of(":a", AttributeValue.fromS(partition)));
            project.ifPresent(p -> {
                names.put("#p", IndexItem.PROJECT);
                values.put(":p", AttributeValue.fromS(p));
            });
            String keyCondition = "#a = :a";
            if (range != null) {
                names.put("#k", IndexKey.SORT_KEY);
                if (range.prefix() != null) {
                    keyCondition += " AND begins_with(#k, :prefix)";
                    values.put(":prefix", AttributeValue.fromS(range.prefix()));
                } else {
                    keyCondition += " AND #k BETWEEN :low AND :high";
                    values.put(":low", AttributeValue.fromS(range.low()));
                    values.put(":high", AttributeValue.fromS(range.high()));
                }
            }
            QueryRequest.Builder query = QueryRequest.builder().tableName(indexTable)
                    .keyConditionExpression(keyCondition)
                    .expressionAttributeNames(names).expressionAttributeValues(values)
                    .scanIndexForward(forward).limit(limit);
            if (project.isPresent()) {
                query.filterExpression("#p = :p");
            }
            QueryResponse response = query(query, position);
            indexItems += response.scannedCount();
            return response;
        }

        /**
         * A read of the project's issues in num order. The filter only narrows what comes back: it drops
         * issues whose field is a string, number, boolean or set — values that always get an index item —
         * unless the issue's id may be too long for a sort key; {@link #lacksField} decides.
         */
        private QueryResponse queryByProject(GridNames grid, Map<String, AttributeValue> position, int limit) {
            QueryRequest.Builder query = QueryRequest.builder().tableName(appTable).indexName(byProjectIndex)
                    .keyConditionExpression("#p = :p")
                    .filterExpression("NOT (attribute_type(#cf.#f, :s) OR attribute_type(#cf.#f, :n) OR attribute_type(#cf.#f, :bool)"
                            + " OR attribute_type(#cf.#f, :ss) OR attribute_type(#cf.#f, :ns)) OR size(#id) > :idChars")
                    .expressionAttributeNames(Map.of("#p", grid.project(), "#cf", grid.fields(),
                            "#f", request.attribId(), "#id", grid.key()))
                    .expressionAttributeValues(Map.of(":p", AttributeValue.fromS(request.project()),
                            ":s", AttributeValue.fromS("S"), ":n", AttributeValue.fromS("N"), ":bool", AttributeValue.fromS("BOOL"),
                            ":ss", AttributeValue.fromS("SS"), ":ns", AttributeValue.fromS("NS"),
                            // a character is at most four UTF-8 bytes, whether size() counts characters or bytes
                            ":idChars", AttributeValue.fromN(Integer.toString(SortKeyCodec.MAX_ISSUE_ID_BYTES / 4))))
                    .scanIndexForward(request.order() == Order.ASC).limit(limit);
            QueryResponse response = query(query, position);
            tableItems += response.scannedCount();
            return response;
        }

        /**
         * A read of the group's partition of the source table, in its sort key order, narrowed to the keys the index's
         * {@code beginsWith} on the sort key allows; which of the items lack the field {@link #lacksField} decides.
         */
        private QueryResponse queryTablePartition(MissingSource.TablePartition table, Map<String, AttributeValue> position, int limit) {
            Map<String, String> names = new HashMap<>(Map.of("#pk", table.table().partitionKey().name()));
            Map<String, AttributeValue> values = new HashMap<>(Map.of(":pk", table.group()));
            String keyCondition = "#pk = :pk";
            if (table.sortKeyPrefix().isPresent()) {
                keyCondition += " AND begins_with(#sk, :prefix)";
                names.put("#sk", table.table().sortKey().orElseThrow().name());
                values.put(":prefix", AttributeValue.fromS(table.sortKeyPrefix().get()));
            }
            QueryResponse response = query(QueryRequest.builder().tableName(appTable).keyConditionExpression(keyCondition)
                    .expressionAttributeNames(names).expressionAttributeValues(values)
                    .scanIndexForward(request.order() == Order.ASC).limit(limit), position);
            tableItems += response.scannedCount();
            return response;
        }

        private QueryResponse query(QueryRequest.Builder query, Map<String, AttributeValue> position) {
            if (!position.isEmpty()) {
                query.exclusiveStartKey(position);
            }
            reads++;
            queries++;
            return call("Query", () -> dynamoDb.query(query.overrideConfiguration(budget.callTimeout()).build()));
        }

        /** BatchGetItem of up to 100 items; unprocessed keys are re-sent within the page's {@link RetryBudget}. */
        private void hydrate(List<ItemKey> ids) {
            List<Map<String, AttributeValue>> keys = ids.stream().filter(id -> id != NO_ITEM).map(ItemKey::toKey).toList();
            if (keys.isEmpty()) {
                ids.forEach(id -> hydrated.putIfAbsent(id, Optional.empty()));
                return;
            }
            Map<String, KeysAndAttributes> pending = Map.of(appTable, KeysAndAttributes.builder().keys(keys).build());
            reads++;
            tableItems += keys.size();
            while (true) {
                Map<String, KeysAndAttributes> requested = pending;
                batchGets++;
                BatchGetItemResponse response = call("BatchGetItem", () -> dynamoDb.batchGetItem(b -> b.requestItems(requested)
                        .overrideConfiguration(budget.callTimeout())));
                response.responses().getOrDefault(appTable, List.of())
                        .forEach(item -> issues.keyOf(item).ifPresent(key -> {
                            hydrated.put(key, Optional.of(item));
                            sample(key, item);
                        }));
                pending = response.hasUnprocessedKeys() ? response.unprocessedKeys() : Map.of();
                if (pending.isEmpty()) {
                    break;
                }
                if (!budget.retryAfterFailure()) {
                    int left = pending.values().stream().mapToInt(k -> k.keys().size()).sum();
                    throw new RetryableQueryException("BatchGetItem still left " + left + " of " + ids.size()
                            + " issue(s) unprocessed after " + budget.failedAttempts() + " attempt(s) within the page's budget of "
                            + pageBudget + "; the table is short of read capacity, try the page again later");
                }
            }
            ids.forEach(id -> hydrated.putIfAbsent(id, Optional.empty()));
        }

        /**
         * The Limit of each read of one part. The first asks for what the page still needs and a quarter more
         * (at least {@value GridQuery#MIN_LIMIT}: index items are small), so that a field with one value per issue fills
         * the page in one read and a part that ends is seen to end. A further read asks for what the part's
         * yield so far (items evaluated per issue placed) says the page still needs, half again, at least
         * twice the last Limit; after reads that placed nothing, eight times the last Limit.
         */
        private final class Reads {
            private int limit = Math.max(MIN_LIMIT, need() + need() / 4 + 1);
            private long scanned;
            private int placed;

            int limit() {
                return Math.max(1, Math.min(limit, budgetLeft()));
            }

            void record(int scannedByRead, int placedByRead) {
                scanned += scannedByRead;
                placed += placedByRead;
                long next;
                if (tests.isEmpty()) {
                    next = placed == 0 ? 8L * limit : Math.max(2L * limit, (long) Math.ceil(1.5 * need() * scanned / placed));
                } else {
                    // with predicates every candidate costs a read of its item too: ask for what the yield says, no more
                    next = placed == 0 ? 4L * limit : Math.max(MIN_LIMIT, (long) Math.ceil(1.25 * need() * scanned / placed));
                }
                limit = (int) Math.min(MAX_READ_LIMIT, next);
            }
        }

        private <T> T call(String operation, Supplier<T> call) {
            if (!budget.hasTime()) {
                throw new RetryableQueryException("the page's budget of " + pageBudget + " ran out before a " + operation);
            }
            calls++;
            try {
                return call.get();
            } catch (ApiCallTimeoutException e) {
                throw new RetryableQueryException(operation + " did not answer within the page's budget of " + pageBudget, e);
            }
        }
    }

    /** The issue grid's attribute names, from its field-partitioned definition, for its missing tail. */
    record GridNames(String key, String project, String num, String fields) {
        static GridNames of(IndexDefinition index, IndexDefinitions definitions) {
            return new GridNames(definitions.table().partitionKey().name(), index.group().get(0).toString(),
                    index.orderBy().get(0).path().toString(), index.values().path().toString());
        }
    }
}

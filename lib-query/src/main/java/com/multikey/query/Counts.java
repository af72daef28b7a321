package com.multikey.query;

import com.multikey.index.IndexEntry;
import com.multikey.index.IndexItem;
import com.multikey.index.IndexKey;
import com.multikey.index.IndexProjector;
import com.multikey.index.IndexValue;
import com.multikey.index.ItemKey;
import com.multikey.index.counts.CountLayout;
import com.multikey.index.counts.GroupCounts;
import com.multikey.index.counts.KeptCounts;
import com.multikey.index.definition.IndexDefinition;
import com.multikey.index.definition.IndexDefinitions;
import com.multikey.index.definition.ValueSource;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Counts on the read side: how many items a page request matches ({@link #total}, {@link #pageWithTotal}) and how many
 * items of a group carry each value of a field ({@link #facets}).
 *
 * <p>A count comes from the counters the pipeline keeps ({@link KeptCounts}, one or two Queries whatever the group's size)
 * when the definitions declare it and the request asks for what they count: a group's total (every item of the group the
 * index covers: a request without filter or predicates that asks for the missing tail too); one value of a declared facet
 * (the request's one {@code =} predicate or equals filter on the sorted field, nothing else); a declared facet without
 * predicates. Else it
 * is counted at read time within a read budget (items read): without predicates, from the index alone (one Query per 1 MB
 * of index items, as {@code Select=COUNT} reads the same range, each item counted once however many of its values are in
 * the range); with predicates (or the field-partitioned grid's shared partitions, or the missing tail), by reading the
 * request's pages from the first, as a client would. A count that read its whole match set is exact ({@code eq}); one
 * that stopped at its budget says how many it saw ({@code gte}): never more than the truth, since it counts items it
 * listed.
 *
 * <p>Reads its counts from the index as it is: a kept count and a count of the index agree at every moment (decision
 * 0026); a count may include an item whose deletion the indexer has not applied yet, as a page may list it.
 */
public final class Counts {

    /** The items a count made at read time reads unless the request names a read budget. */
    public static final int DEFAULT_BUDGET = 10_000;
    /** The page size of a count that reads pages. */
    private static final int WALK_PAGE_SIZE = PageRequest.MAX_PAGE_SIZE;

    private final IndexQuery query;
    private final DynamoDbClient dynamoDb;
    private final String indexTable;
    private final IndexDefinitions definitions;
    private final IndexProjector projector;
    private final boolean useKept;

    /**
     * @param query       reads the pages of a count made at read time
     * @param definitions the definitions the query was given
     */
    public Counts(IndexQuery query, DynamoDbClient dynamoDb, String indexTable, IndexDefinitions definitions) {
        this(query, dynamoDb, indexTable, definitions, true);
    }

    private Counts(IndexQuery query, DynamoDbClient dynamoDb, String indexTable, IndexDefinitions definitions, boolean useKept) {
        this.query = java.util.Objects.requireNonNull(query, "query");
        this.dynamoDb = java.util.Objects.requireNonNull(dynamoDb, "dynamoDb");
        this.indexTable = java.util.Objects.requireNonNull(indexTable, "indexTable");
        this.definitions = java.util.Objects.requireNonNull(definitions, "definitions");
        this.projector = new IndexProjector(definitions);
        this.useKept = useKept;
    }

    /** The same counts, always made at read time, even where counts are kept (to compare the two). */
    public Counts atReadTime() {
        return new Counts(query, dynamoDb, indexTable, definitions, false);
    }

    /**
     * The page, and how many items its request matches ({@link Page#total()}). A first page that ends the result is its
     * own total: no further read.
     */
    public Page pageWithTotal(PageRequest request) {
        Page page = query.page(request);
        if (request.cursor().isEmpty() && page.nextCursor().isEmpty()) {
            return page.withTotal(new Total(page.items().size(), Total.Relation.EQ, Total.Source.COUNTED, 0, 0));
        }
        return page.withTotal(total(request));
    }

    /**
     * How many items the request matches, all of its pages together (its cursor and page size aside).
     *
     * @throws QueryException as {@link IndexQuery#page} does for the request
     */
    public Total total(PageRequest request) {
        Target target = Target.of(request, query.currentDefinitions(), definitions, projector);
        int budget = budget(request.readBudget());
        if (request.groups().size() > 1) {
            // several groups: their merged pages, each item once, counted at read time
            Walked walked = walk(fromStart(request), budget, item -> { });
            return new Total(walked.items(), walked.relation(), Total.Source.COUNTED, walked.calls(), walked.examined());
        }
        if (useKept) {
            Optional<Total> kept = keptTotal(request, target);
            if (kept.isPresent()) {
                return kept.get();
            }
        }
        if (request.expressions().isEmpty() && !request.includeMissing() && target.project().isEmpty()
                && target.index().layout() == IndexDefinition.Layout.GROUPED) {
            return countIndex(request, target, budget);
        }
        Walked walked = walk(fromStart(request), budget, item -> { });
        return new Total(walked.items(), walked.relation(), Total.Source.COUNTED, walked.calls(), walked.examined());
    }

    /**
     * The values of each field asked with their counts, most frequent first.
     *
     * @throws InvalidCountException naming {@code field} for a field the index does not hold
     * @throws QueryException        for an index that is not declared, or a group that does not fit it
     */
    public Facets facets(FacetRequest request) {
        IndexDefinitions current = query.currentDefinitions();
        List<Facets.Facet> facets = new ArrayList<>();
        int calls = 0;
        long examined = 0;
        for (String field : request.fields()) {
            IndexDefinition named = current.index(request.index())
                    .orElseThrow(() -> new QueryException(QueryException.Subject.INDEX, "no index named '" + request.index() + "'"));
            boolean entries = named.values() instanceof ValueSource.MapEntries;
            ItemTests resolve = new ItemTests(projector, named, request.group(), "", Optional.empty(), List.of());
            String entry;
            String counted;
            if (entries) {
                if (!resolve.isEntry(field)) {
                    throw new InvalidCountException("field", "'" + field + "' is no entry of " + named.values().path()
                            + ", the map index '" + named.name() + "' holds");
                }
                entry = resolve.entryName(field);
                counted = entry;
            } else {
                if (!resolve.isSortField(field)) {
                    throw new InvalidCountException("field", "index '" + named.name() + "' holds " + named.values().path()
                            + ": count that field ('" + field + "' is not in the index)");
                }
                entry = "";
                counted = named.values().path().toString();
            }
            PageRequest page = new PageRequest(request.index(), request.group(), entry, Order.ASC, WALK_PAGE_SIZE, null, false, null)
                    .where(request.predicates());
            Target target = Target.of(page, current, definitions, projector);
            IndexDefinition index = target.index();
            if (useKept && request.predicates().isEmpty() && index.layout() == IndexDefinition.Layout.GROUPED
                    && index.counts().facets().contains(counted)) {
                GroupCounts kept = new KeptCounts(dynamoDb, indexTable).read(index, request.group(), counted, request.top()).orElseThrow();
                facets.add(new Facets.Facet(field, kept.values().stream().map(v -> new Facets.ValueCount(v.value().orElse(null),
                        v.encodedValue(), v.count())).toList(), kept.otherValues(), kept.otherCount(), Total.Relation.EQ, Total.Source.KEPT));
                calls += kept.calls();
                continue;
            }
            Map<String, long[]> counts = new HashMap<>();
            Map<String, AttributeValue> copies = new HashMap<>();
            String projected = index.name();
            Walked walked = walk(page, budget(request.readBudget()), item -> projector.keyOf(item).ifPresent(key -> {
                for (IndexItem indexItem : projector.projectEntry(projected, key, item, entry.isEmpty() ? null : entry).items()) {
                    if (indexItem.isMember()) {
                        continue;
                    }
                    String encoded = CountLayout.encodedValue(indexItem.sortKey());
                    counts.computeIfAbsent(encoded, k -> new long[1])[0]++;
                    copies.putIfAbsent(encoded, indexItem.value().toAttributeValue());
                }
            }));
            calls += walked.calls();
            examined += walked.examined();
            List<Facets.ValueCount> values = new ArrayList<>();
            counts.forEach((encoded, count) -> values.add(new Facets.ValueCount(copies.get(encoded), encoded, count[0])));
            values.sort(Comparator.comparingLong(Facets.ValueCount::count).reversed().thenComparing(Facets.ValueCount::encodedValue));
            List<Facets.ValueCount> shown = values.subList(0, Math.min(request.top(), values.size()));
            long otherCount = values.subList(shown.size(), values.size()).stream().mapToLong(Facets.ValueCount::count).sum();
            facets.add(new Facets.Facet(field, shown, values.size() - shown.size(), otherCount, walked.relation(), Total.Source.COUNTED));
        }
        return new Facets(facets, calls, examined);
    }

    /** A count's budget: the request's, at most the query's maximum (the deployment's), else {@value #DEFAULT_BUDGET}. */
    private int budget(int requested) {
        int max = query.readBudget().max();
        if (requested > max) {
            throw new FilterParameters.InvalidParameterException(PageParameters.Parameter.BUDGET, "at most " + max + " items, got " + requested);
        }
        return requested > 0 ? requested : DEFAULT_BUDGET;
    }

    /**
     * A group's kept total, or one kept facet value's count, when the request asks exactly for what it counts: the total
     * counts every item of the group the index covers (those lacking the field too), which is what a request without
     * filter or predicates lists with its missing tail; a facet value's count, the items that carry that value.
     */
    private Optional<Total> keptTotal(PageRequest request, Target target) {
        IndexDefinition index = target.index();
        if (index.layout() != IndexDefinition.Layout.GROUPED || !index.counts().any() || target.project().isPresent()) {
            return Optional.empty();
        }
        boolean entries = index.values() instanceof ValueSource.MapEntries;
        if (request.expressions().isEmpty() && request.filter().isEmpty()) {
            if (!request.includeMissing() || !index.counts().total()) {
                return Optional.empty();
            }
            GroupCounts kept = new KeptCounts(dynamoDb, indexTable).read(index, request.group(), Optional.empty(), 1).orElseThrow();
            return Optional.of(new Total(kept.total().orElseThrow(), Total.Relation.EQ, Total.Source.KEPT, kept.calls(), kept.calls()));
        }
        if (request.includeMissing()) {
            return Optional.empty();
        }
        Optional<IndexValue> value = Optional.empty();
        if (request.expressions().isEmpty() && request.filter().orElseThrow() instanceof Filter.Equals equals) {
            value = Optional.of(equals.value());
        } else if (request.filter().isEmpty() && request.expressions().size() == 1
                && request.expressions().get(0) instanceof Predicate.Equals equals) {
            ItemTests tests = new ItemTests(projector, index, request.group(), request.attribId(), target.project(), request.expressions());
            if (tests.isSortField(equals.field())) {
                value = Optional.of(equals.value());
            }
        }
        String field = entries ? request.attribId() : index.values().path().toString();
        if (value.isEmpty() || !index.counts().facets().contains(field) || target.bounds().isCut(value.get())) {
            return Optional.empty();
        }
        String prefix = target.bounds().valuePrefix(value.get());
        String encoded = prefix.substring(0, prefix.length() - 1);
        String partition = CountLayout.counterPartition(IndexProjector.partition(index, request.group(), null));
        long sum = 0;
        int calls = 0;
        long examined = 0;
        Map<String, AttributeValue> start = null;
        do {
            QueryRequest.Builder read = QueryRequest.builder().tableName(indexTable)
                    .keyConditionExpression("#p = :p AND begins_with(#s, :s)")
                    .expressionAttributeNames(Map.of("#p", IndexKey.ATTRIB_ID, "#s", IndexKey.SORT_KEY))
                    .expressionAttributeValues(Map.of(":p", AttributeValue.fromS(partition),
                            ":s", AttributeValue.fromS(CountLayout.facetPrefix(field) + CountLayout.valuePartOf(field, encoded) + "|")));
            if (start != null) {
                read.exclusiveStartKey(start);
            }
            QueryResponse response = dynamoDb.query(read.build());
            calls++;
            examined += response.scannedCount();
            for (Map<String, AttributeValue> counter : response.items()) {
                AttributeValue count = counter.get(CountLayout.COUNT);
                sum += count == null || count.n() == null ? 0 : new BigDecimal(count.n()).longValueExact();
            }
            start = response.hasLastEvaluatedKey() && !response.lastEvaluatedKey().isEmpty() ? response.lastEvaluatedKey() : null;
        } while (start != null);
        return Optional.of(new Total(sum, Total.Relation.EQ, Total.Source.KEPT, calls, examined));
    }

    /**
     * Counts the items of a grouped index's partition within the request's key ranges (the filter's), from the index
     * items alone: each item once, however many of its values the ranges hold.
     */
    private Total countIndex(PageRequest request, Target target, int budget) {
        SortRanges ranges = SortRanges.of(request.filter(), List.of(), target.bounds());
        if (ranges.isEmpty()) {
            return new Total(0, Total.Relation.EQ, Total.Source.COUNTED, 0, 0);
        }
        Set<ItemKey> seen = new HashSet<>();
        int calls = 0;
        long examined = 0;
        for (Filter.KeyRange range : ranges.inOrder(true)) {
            Map<String, AttributeValue> start = null;
            do {
                Map<String, String> names = new LinkedHashMap<>(Map.of("#a", IndexKey.ATTRIB_ID, "#k", IndexKey.SORT_KEY,
                        "#i", IndexItem.ITEM_KEY, "#d", IndexItem.ITEM_ID));
                Map<String, AttributeValue> values = new LinkedHashMap<>(Map.of(":a", AttributeValue.fromS(target.partition())));
                String condition = "#a = :a";
                if (range != null && range.prefix() != null) {
                    condition += " AND begins_with(#k, :prefix)";
                    values.put(":prefix", AttributeValue.fromS(range.prefix()));
                } else if (range != null) {
                    condition += " AND #k BETWEEN :low AND :high";
                    values.put(":low", AttributeValue.fromS(range.low()));
                    values.put(":high", AttributeValue.fromS(range.high()));
                }
                QueryRequest.Builder read = QueryRequest.builder().tableName(indexTable).keyConditionExpression(condition)
                        .expressionAttributeNames(names).expressionAttributeValues(values)
                        .projectionExpression("#a, #k, #i, #d")
                        // one item past the budget: a range of exactly the budget's items is then seen to end (exact)
                        .limit((int) Math.max(1, Math.min(Integer.MAX_VALUE, budget + 1L - examined)));
                if (start != null) {
                    read.exclusiveStartKey(start);
                }
                QueryResponse response = dynamoDb.query(read.build());
                calls++;
                examined += response.scannedCount();
                for (Map<String, AttributeValue> stored : response.items()) {
                    IndexEntry.sourceOf(stored, definitions.table()).ifPresent(seen::add);
                }
                start = response.hasLastEvaluatedKey() && !response.lastEvaluatedKey().isEmpty() ? response.lastEvaluatedKey() : null;
                if (start != null && examined > budget) {
                    return new Total(seen.size(), Total.Relation.GTE, Total.Source.COUNTED, calls, examined);
                }
            } while (start != null);
        }
        return new Total(seen.size(), Total.Relation.EQ, Total.Source.COUNTED, calls, examined);
    }

    /**
     * The pages a count reads: the request's, from the first, {@value #WALK_PAGE_SIZE} items a page (each page's read budget
     * is the walk's).
     */
    private static PageRequest fromStart(PageRequest request) {
        return request.fromStart().withPageSize(WALK_PAGE_SIZE);
    }

    private record Walked(long items, Total.Relation relation, int calls, long examined) {
    }

    /**
     * Reads the request's pages until the result ends (exact) or the pages have read {@code budget} items (a lower bound),
     * telling {@code listed} of each item listed.
     */
    private Walked walk(PageRequest first, int budget, Consumer<Map<String, AttributeValue>> listed) {
        long items = 0;
        int calls = 0;
        long examined = 0;
        PageRequest next = first;
        while (true) {
            long left = budget - examined;
            // a page reads at least an index item and its item (of each group, for several)
            // each page within the most the query lets a page read (the deployment's maximum)
            Page page = query.page(next.withReadBudget((int) Math.max(2L * first.groups().size(), Math.min(query.readBudget().max(), left))));
            items += page.items().size();
            page.items().forEach(listed);
            calls += page.apiCalls();
            examined += Math.max(1, page.examined());
            if (page.nextCursor().isEmpty()) {
                return new Walked(items, Total.Relation.EQ, calls, examined);
            }
            if (examined >= budget) {
                return new Walked(items, Total.Relation.GTE, calls, examined);
            }
            next = next.after(page.nextCursor().get());
        }
    }
}

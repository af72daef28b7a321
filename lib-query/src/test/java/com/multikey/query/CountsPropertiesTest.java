package com.multikey.query;

import com.multikey.common.Backoff;
import com.multikey.common.Sleeper;
import com.multikey.index.IndexItem;
import com.multikey.index.IndexProjector;
import com.multikey.index.IndexValue;
import com.multikey.index.definition.DefinitionsYaml;
import com.multikey.index.definition.IndexDefinitions;
import com.multikey.testkit.LocalTables;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Counts made at read time against a brute force: random items (a state, labels, a map entry, each sometimes missing; the
 * group's items and another group's), random requests on three indexes (one attribute, a list's elements, a map's entry)
 * with an optional equals filter on the sorted field, 0 to 3 predicates on the item's attributes, and read budgets from
 * the smallest to the default. The model knows the docs alone: a page lists the group's items that have the sorted
 * field (a value in the filter) and satisfy every predicate (the predicates on one field by one of its values); a facet
 * counts, among those items, how many carry each value
 * (an item with several values under each). A total or facet that says {@code eq} equals the model; one that says
 * {@code gte} is never above it (each value's count at most the model's); with the default budget (larger than any group
 * here) every count is exact.
 */
class CountsPropertiesTest {

    private static final String TABLE = "Tracker";
    private static final String INDEX_TABLE = "IssueAttribIndexTable";
    private static final String GROUP = "p";
    private static final IndexDefinitions DEFINITIONS = DefinitionsYaml.parse("""
            version: 1
            table: {partitionKey: {name: pk, type: S}, sortKey: {name: sk, type: S}}
            indexes:
              - name: fields
                group: pk
                values: {entriesOf: cf}
                orderBy: num
              - name: states
                group: pk
                values: {attribute: state}
                orderBy: num
              - name: labels
                group: pk
                values: {elementsOf: labels}
                orderBy: num
            """);
    private static final List<String> STATES = List.of("open", "triage", "closed");
    private static final List<String> LABELS = List.of("a", "b", "c", "d");

    private static LocalTables tables;

    @BeforeContainer
    static void start() {
        tables = LocalTables.startQuietly();
    }

    @AfterContainer
    static void stop() {
        if (tables != null) {
            tables.close();
        }
    }

    /** One item: its state (null: none), labels (null: no attribute), the map entry {@code sev} (null: none). */
    record ItemSpec(String state, List<String> labels, Integer sev, boolean otherGroup) {
    }

    /** A predicate of the model: {@code @state = v}, {@code @labels = v} or {@code @cf.sev >= v}. */
    record PredicateSpec(String field, String value) {
        Predicate toPredicate() {
            return field.equals("@cf.sev") ? new Predicate.Range(field, IndexValue.Num.parse(value), true, null, false)
                    : new Predicate.Equals(field, new IndexValue.Text(value));
        }

        /** Whether one value of the item's field satisfies it. */
        boolean test(String candidate) {
            return field.equals("@cf.sev") ? Integer.parseInt(candidate) >= Integer.parseInt(value) : value.equals(candidate);
        }

        /** The values the item holds in this predicate's field. */
        List<String> valuesOf(ItemSpec item) {
            return switch (field) {
                case "@state" -> values(item, "state");
                case "@labels" -> values(item, "labels");
                default -> values(item, "sev");
            };
        }
    }

    /**
     * Whether an item satisfies every predicate, as Predicate's contract says: the predicates on one field hold when one of
     * the item's values of that field satisfies them all.
     */
    private static boolean matches(ItemSpec item, List<PredicateSpec> predicates) {
        return matches(item, predicates, null, null);
    }

    /**
     * As {@link #matches(ItemSpec, List)}, for a page sorted by {@code sorted}: it lists items that have the sorted field, and
     * its equals filter (if any) and the predicates on the sorted field hold of one value, the one the item is listed under.
     */
    private static boolean matches(ItemSpec item, List<PredicateSpec> predicates, String sorted, String filter) {
        Map<String, List<PredicateSpec>> byField = new HashMap<>();
        predicates.forEach(p -> byField.computeIfAbsent(p.field(), f -> new java.util.ArrayList<>()).add(p));
        if (sorted != null) {
            String field = switch (sorted) {
                case "state" -> "@state";
                case "labels" -> "@labels";
                default -> "@cf.sev";
            };
            List<PredicateSpec> onSorted = byField.getOrDefault(field, List.of());
            byField.remove(field);
            boolean listed = values(item, sorted).stream()
                    .anyMatch(value -> (filter == null || filter.equals(value)) && onSorted.stream().allMatch(p -> p.test(value)));
            if (!listed) {
                return false;
            }
        }
        return byField.values().stream().allMatch(onField -> onField.getFirst().valuesOf(item).stream()
                .anyMatch(value -> onField.stream().allMatch(p -> p.test(value))));
    }

    /** Which index and field, an equals filter on it (null: none), the predicates, and the read budget (0: default). */
    record RequestSpec(String sorted, String filter, List<PredicateSpec> predicates, int budget) {
    }

    @Property(tries = 40)
    void readTimeTotalsAndFacets_eqMatchTheBruteForce_gteNeverAboveIt(@ForAll("items") List<ItemSpec> items,
                                                                     @ForAll("requests") List<RequestSpec> requests) {
        DynamoDbClient dynamoDb = load(items);
        IndexQuery query = new IndexQuery(dynamoDb, TABLE, INDEX_TABLE, DEFINITIONS,
                new Backoff(Duration.ofMillis(1), Duration.ofMillis(5), new Random(1)), Sleeper.SYSTEM, Duration.ofSeconds(60),
                System::nanoTime, GridSettings.NONE);
        Counts counts = new Counts(query, dynamoDb, INDEX_TABLE, DEFINITIONS);
        for (RequestSpec spec : requests) {
            List<ItemSpec> matching = items.stream()
                    .filter(item -> !item.otherGroup() && matches(item, spec.predicates(), spec.sorted(), spec.filter())).toList();

            PageRequest request = request(spec);
            Total total = counts.total(request);
            check(total, matching.size(), spec);
            Page page = counts.pageWithTotal(request);
            check(page.total().orElseThrow(), matching.size(), spec);

            FacetRequest facetRequest = FacetRequest.of(spec.sorted().equals("sev") ? "fields" : spec.sorted().equals("state") ? "states" : "labels",
                            List.of(AttributeValue.fromS(GROUP)), List.of(spec.sorted().equals("sev") ? "sev" : spec.sorted()))
                    .withTop(100).where(spec.predicates().stream().map(PredicateSpec::toPredicate).toList())
                    .withReadBudget(spec.budget());
            Facets.Facet facet = counts.facets(facetRequest).facets().get(0);
            Map<String, Long> expected = new HashMap<>();
            items.stream().filter(item -> !item.otherGroup() && matches(item, spec.predicates()))
                    .forEach(item -> values(item, spec.sorted()).forEach(value -> expected.merge(value, 1L, Long::sum)));
            Map<String, Long> got = new HashMap<>();
            facet.values().forEach(v -> got.put(text(v.value()), v.count()));
            assertThat(facet.otherValues()).isZero();
            if (facet.relation() == Total.Relation.EQ) {
                assertThat(got).as("%s", spec).isEqualTo(expected);
            } else {
                assertThat(spec.budget()).as("only a budget smaller than the group makes a bound: %s", spec).isPositive();
                got.forEach((value, count) -> assertThat(count).as("%s %s", spec, value).isLessThanOrEqualTo(expected.getOrDefault(value, 0L)));
            }
        }
    }

    private static void check(Total total, long truth, RequestSpec spec) {
        assertThat(total.source()).isEqualTo(Total.Source.COUNTED);
        if (total.relation() == Total.Relation.EQ) {
            assertThat(total.value()).as("%s", spec).isEqualTo(truth);
        } else {
            assertThat(spec.budget()).as("only a budget smaller than the group makes a bound: %s", spec).isPositive();
            assertThat(total.value()).as("%s", spec).isLessThanOrEqualTo(truth);
        }
    }

    private static PageRequest request(RequestSpec spec) {
        PageRequest request = switch (spec.sorted()) {
            case "sev" -> PageRequest.onIndex("fields", List.of(AttributeValue.fromS(GROUP)), "sev", Order.ASC, 25);
            case "state" -> PageRequest.onIndex("states", List.of(AttributeValue.fromS(GROUP)), "", Order.ASC, 25);
            default -> PageRequest.onIndex("labels", List.of(AttributeValue.fromS(GROUP)), "", Order.DESC, 25);
        };
        if (spec.filter() != null) {
            request = request.withFilter(new Filter.Equals(spec.sorted().equals("sev")
                    ? new IndexValue.Num(new BigDecimal(spec.filter())) : new IndexValue.Text(spec.filter())));
        }
        request = request.where(spec.predicates().stream().map(PredicateSpec::toPredicate).toList());
        return spec.budget() > 0 ? request.withReadBudget(spec.budget()) : request;
    }

    private static List<String> values(ItemSpec item, String field) {
        return switch (field) {
            case "state" -> item.state() == null ? List.of() : List.of(item.state());
            case "labels" -> item.labels() == null ? List.of() : List.copyOf(new LinkedHashSet<>(item.labels()));
            default -> item.sev() == null ? List.of() : List.of(item.sev().toString());
        };
    }

    private static String text(AttributeValue value) {
        return value.s() != null ? value.s() : new BigDecimal(value.n()).stripTrailingZeros().toPlainString();
    }

    private static synchronized DynamoDbClient load(List<ItemSpec> items) {
        tables.reset();
        DynamoDbClient dynamoDb = tables.dynamoDb();
        dynamoDb.createTable(b -> b.tableName(TABLE).billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(a -> a.attributeName("pk").attributeType(ScalarAttributeType.S),
                        a -> a.attributeName("sk").attributeType(ScalarAttributeType.S))
                .keySchema(k -> k.attributeName("pk").keyType(KeyType.HASH), k -> k.attributeName("sk").keyType(KeyType.RANGE)));
        IndexProjector projector = new IndexProjector(DEFINITIONS);
        for (int i = 0; i < items.size(); i++) {
            ItemSpec spec = items.get(i);
            Map<String, AttributeValue> item = new LinkedHashMap<>();
            item.put("pk", AttributeValue.fromS(spec.otherGroup() ? "other" : GROUP));
            item.put("sk", AttributeValue.fromS(String.format("ISSUE#%03d", i)));
            item.put("num", AttributeValue.fromN(Integer.toString(i % 7)));
            if (spec.state() != null) {
                item.put("state", AttributeValue.fromS(spec.state()));
            }
            if (spec.labels() != null) {
                item.put("labels", AttributeValue.fromL(spec.labels().stream().map(AttributeValue::fromS).toList()));
            }
            if (spec.sev() != null) {
                item.put("cf", AttributeValue.fromM(Map.of("sev", AttributeValue.fromN(spec.sev().toString()))));
            }
            dynamoDb.putItem(b -> b.tableName(TABLE).item(item));
            List<WriteRequest> puts = projector.project(projector.keyOf(item).orElseThrow(), item).items().stream()
                    .map(IndexItem::toItem)
                    .map(indexItem -> WriteRequest.builder().putRequest(PutRequest.builder().item(indexItem).build()).build())
                    .toList();
            for (int from = 0; from < puts.size(); from += 25) {
                List<WriteRequest> chunk = puts.subList(from, Math.min(puts.size(), from + 25));
                dynamoDb.batchWriteItem(b -> b.requestItems(Map.of(INDEX_TABLE, chunk)));
            }
        }
        return dynamoDb;
    }

    @Provide
    Arbitrary<List<ItemSpec>> items() {
        Arbitrary<String> state = Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(6, Arbitraries.of(STATES)), net.jqwik.api.Tuple.of(1, Arbitraries.just(null)));
        Arbitrary<List<String>> labels = Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(5, Arbitraries.of(LABELS).list().ofMaxSize(4)), net.jqwik.api.Tuple.of(1, Arbitraries.just(null)));
        Arbitrary<Integer> sev = Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(4, Arbitraries.integers().between(1, 4).map(i -> (Integer) i)), net.jqwik.api.Tuple.of(1, Arbitraries.just(null)));
        Arbitrary<Boolean> other = Arbitraries.integers().between(0, 5).map(i -> i == 0);
        return Combinators.combine(state, labels, sev, other).as(ItemSpec::new).list().ofMaxSize(150);
    }

    @Provide
    Arbitrary<List<RequestSpec>> requests() {
        Arbitrary<String> sorted = Arbitraries.of("state", "labels", "sev");
        Arbitrary<PredicateSpec> predicate = Arbitraries.oneOf(
                Arbitraries.of(STATES).map(v -> new PredicateSpec("@state", v)),
                Arbitraries.of(LABELS).map(v -> new PredicateSpec("@labels", v)),
                Arbitraries.integers().between(1, 4).map(v -> new PredicateSpec("@cf.sev", v.toString())));
        Arbitrary<Integer> budget = Arbitraries.oneOf(Arbitraries.just(0), Arbitraries.of(2, 3, 5, 10, 40, 200));
        return Combinators.combine(sorted, Arbitraries.integers().between(0, 3), predicate.list().ofMaxSize(3), budget)
                .as((field, filterPick, predicates, items) -> {
                    String filter = filterPick == 0 ? null : switch (field) {
                        case "state" -> STATES.get(filterPick - 1);
                        case "labels" -> LABELS.get(filterPick);
                        default -> Integer.toString(filterPick);
                    };
                    return new RequestSpec(field, filter, predicates, items);
                }).list().ofMinSize(1).ofMaxSize(6);
    }
}

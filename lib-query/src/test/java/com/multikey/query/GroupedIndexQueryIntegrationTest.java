package com.multikey.query;

import com.multikey.common.Backoff;
import com.multikey.common.Sleeper;
import com.multikey.index.IndexProjector;
import com.multikey.index.IndexValue;
import com.multikey.index.definition.DefinitionsYaml;
import com.multikey.index.definition.IndexDefinitions;
import com.multikey.testkit.LocalTables;
import com.multikey.testkit.LocalTablesExtension;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;
import java.util.function.Predicate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Pages of grouped indexes over a single-table design ({@code tracker-definitions.yaml}: map entries and list elements
 * grouped by the table's partition key, a sparse scalar index without a group, a group of a string and a number) on
 * the local DynamoDB engine, against orders computed from the items themselves. A big project and a small one share their custom
 * field names; the small project's page is still one Query of its own partition and one BatchGetItem.
 */
class GroupedIndexQueryIntegrationTest {

    @RegisterExtension
    static final LocalTablesExtension TABLES = LocalTablesExtension.createdOnce();
    private static final IndexDefinitions DEFINITIONS = definitions();
    private static final IndexProjector PROJECTOR = new IndexProjector(DEFINITIONS);
    private static final String TABLE = "Tracker";
    private static final String INDEX_TABLE = "IssueAttribIndexTable";
    private static final String BIG = "PROJECT#big";
    private static final String SMALL = "PROJECT#small";
    private static final int BIG_ISSUES = 500;
    private static final int SMALL_ISSUES = 11;
    /** The small project's issue whose index still holds the items of an older version too (prio 99, label zz). */
    private static final String STALE = "ISSUE#5";
    private static final List<Map<String, AttributeValue>> ITEMS = new ArrayList<>();
    private static DynamoDbClient dynamoDb;

    /** Numbers, then strings, then booleans; numbers by value, strings by code point: the order of typed values. */
    private static final Comparator<AttributeValue> TYPED = Comparator.<AttributeValue>comparingInt(v -> switch (v.type()) {
        case N -> 0;
        case S -> 1;
        case BOOL -> 2;
        default -> throw new IllegalArgumentException("not an indexed value: " + v);
    }).thenComparing((a, b) -> switch (a.type()) {
        case N -> new BigDecimal(a.n()).compareTo(new BigDecimal(b.n()));
        case S -> Arrays.compare(a.s().codePoints().toArray(), b.s().codePoints().toArray());
        default -> Boolean.compare(a.bool(), b.bool());
    });
    private static final Comparator<String> BYTES = Comparator.comparing(text -> text.getBytes(StandardCharsets.UTF_8), Arrays::compareUnsigned);

    private static IndexDefinitions definitions() {
        try (InputStream in = GroupedIndexQueryIntegrationTest.class.getResourceAsStream("/tracker-definitions.yaml")) {
            return DefinitionsYaml.read(in, "tracker-definitions.yaml");
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    @BeforeAll
    static void load(LocalTables tables) {
        dynamoDb = tables.dynamoDb();
        dynamoDb.createTable(b -> b.tableName(TABLE).billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(a -> a.attributeName("pk").attributeType(ScalarAttributeType.S),
                        a -> a.attributeName("sk").attributeType(ScalarAttributeType.S))
                .keySchema(k -> k.attributeName("pk").keyType(KeyType.HASH), k -> k.attributeName("sk").keyType(KeyType.RANGE)));
        Random random = new Random(11);
        for (String project : List.of(BIG, SMALL)) {
            // not an issue: in the project's partition, covered by no index
            put(new LinkedHashMap<>(Map.of("pk", s(project), "sk", s(project), "name", s(project.toLowerCase()))));
        }
        for (int i = 1; i <= BIG_ISSUES; i++) {
            put(issue(BIG, i, random));
        }
        for (int i = 1; i <= SMALL_ISSUES; i++) {
            put(issue(SMALL, i, random));
        }
        // an older version's index items, left behind as the stream's delay leaves them
        Map<String, AttributeValue> older = new LinkedHashMap<>(item(SMALL, STALE));
        Map<String, AttributeValue> fields = new LinkedHashMap<>(older.get("cf").m());
        fields.put("prio", n(99));
        older.put("cf", AttributeValue.fromM(fields));
        older.put("labels", AttributeValue.fromL(List.of(s("zz"))));
        older.put("state", s("stale"));
        writeIndexItems(older);
        for (String pckg : List.of("requests", "boto", "numpy")) {
            for (int version = 0; version < 4; version++) {
                Map<String, AttributeValue> layer = new LinkedHashMap<>();
                layer.put("pk", s("lyr#" + pckg));
                layer.put("sk", s("v" + version));
                layer.put("pckg", s(pckg));
                layer.put("vrsn", n(version));
                layer.put("arn", s("arn:aws:lambda:eu-west-1:123456789012:layer:" + pckg + ":" + version));
                if (version >= 2) {
                    layer.put("dplySts", s(version == 3 ? "latest" : "deprecated"));
                }
                put(layer);
            }
        }
    }

    /**
     * An issue: a random prio and owner (an owner for most), a due date for one issue in four, the others' due absent,
     * NULL or a map (no index item); zero to three labels, repeats included; a sprint of 1 to 3 and a state.
     */
    private static Map<String, AttributeValue> issue(String project, int num, Random random) {
        Map<String, AttributeValue> fields = new LinkedHashMap<>();
        fields.put("prio", n(random.nextInt(5)));
        if (random.nextInt(4) > 0) {
            fields.put("owner", s("o" + random.nextInt(4)));
        }
        switch (num % 4) {
            case 0 -> fields.put("due", n(random.nextInt(30)));
            case 2 -> fields.put("due", AttributeValue.fromNul(true));
            case 3 -> fields.put("due", AttributeValue.fromM(Map.of("x", s("y"))));
            default -> {
            }
        }
        List<AttributeValue> labels = new ArrayList<>();
        int count = num % 5 == 0 ? 0 : 1 + random.nextInt(3);
        for (int i = 0; i < count; i++) {
            labels.add(s(List.of("bug", "ui", "api", "db").get(random.nextInt(4))));
        }
        Map<String, AttributeValue> issue = new LinkedHashMap<>();
        issue.put("pk", s(project));
        issue.put("sk", s("ISSUE#" + num));
        issue.put("num", n(num));
        issue.put("title", s("issue " + num));
        issue.put("state", s(List.of("open", "closed", "review").get(random.nextInt(3))));
        issue.put("sprint", n(1 + random.nextInt(3)));
        issue.put("cf", AttributeValue.fromM(fields));
        issue.put("labels", AttributeValue.fromL(labels));
        return issue;
    }

    /** The item, and the index items the stream indexer keeps for it, written directly. */
    private static void put(Map<String, AttributeValue> item) {
        dynamoDb.putItem(b -> b.tableName(TABLE).item(item));
        ITEMS.add(item);
        writeIndexItems(item);
    }

    private static void writeIndexItems(Map<String, AttributeValue> item) {
        writeIndexItems(PROJECTOR, item);
    }

    private static void writeIndexItems(IndexProjector projector, Map<String, AttributeValue> item) {
        List<WriteRequest> puts = projector.project(projector.keyOf(item).orElseThrow(), item).items().stream()
                .map(indexItem -> WriteRequest.builder().putRequest(PutRequest.builder().item(indexItem.toItem()).build()).build())
                .toList();
        for (int from = 0; from < puts.size(); from += 25) {
            List<WriteRequest> chunk = puts.subList(from, Math.min(puts.size(), from + 25));
            dynamoDb.batchWriteItem(b -> b.requestItems(Map.of(INDEX_TABLE, chunk)));
        }
    }

    private static Map<String, AttributeValue> item(String pk, String sk) {
        return ITEMS.stream().filter(i -> i.get("pk").s().equals(pk) && i.get("sk").s().equals(sk)).findFirst().orElseThrow();
    }

    /** A grouped query never asks the issue grid's catalog. */
    private static final GridFieldCatalog NO_CATALOG = (project, attribute) -> {
        throw new AssertionError("a grouped index has no catalog to ask");
    };

    private static IndexQuery query(DynamoDbClient client) {
        return query(client, TABLE, DEFINITIONS);
    }

    private static IndexQuery query(DynamoDbClient client, String table, IndexDefinitions definitions) {
        return new IndexQuery(client, table, INDEX_TABLE, definitions,
                new Backoff(Duration.ofMillis(1), Duration.ofMillis(5), new Random(1)), Sleeper.SYSTEM, IndexQuery.DEFAULT_PAGE_BUDGET,
                System::nanoTime, SEALER, new GridSettings("ByProject", NO_CATALOG));
    }

    /** The key the tests' cursors are sealed under, so that a test can seal a cursor of its own. */
    private static final CursorSealer SEALER = CursorSealer.of(CursorKeys.ephemeral());

    private static String key(Map<String, AttributeValue> item) {
        return item.get("pk").s() + " " + item.get("sk").s();
    }

    private static List<String> keys(Page page) {
        return page.items().stream().map(GroupedIndexQueryIntegrationTest::key).toList();
    }

    /** Every page of a query: the item keys in order, and the calls of each page. */
    private record Pages(List<String> keys, List<Integer> calls) {
    }

    /** Reads every page of the query, each but the last full. */
    private static Pages all(IndexQuery query, PageRequest first) {
        Pages pages = new Pages(new ArrayList<>(), new ArrayList<>());
        PageRequest request = first;
        for (int n = 0; n < 1000; n++) {
            Page page = query.page(request);
            pages.keys().addAll(keys(page));
            pages.calls().add(page.apiCalls());
            if (page.nextCursor().isEmpty()) {
                return pages;
            }
            assertThat(page.items()).as("page %d of %s", n, first).hasSize(first.pageSize());
            request = request.after(page.nextCursor().get());
        }
        throw new AssertionError("more than 1000 pages");
    }

    private static List<String> all(PageRequest first) {
        return all(query(dynamoDb), first).keys();
    }

    /** One item under one of its values. */
    private record Entry(Map<String, AttributeValue> item, AttributeValue value) {
    }

    /** An index's order: the typed value, the tie-breaker, the item key (partition key, then sort key). */
    private static Comparator<Entry> indexOrder(String tieBreaker, Order order) {
        Comparator<Entry> ascending = Comparator.comparing(Entry::value, TYPED)
                .thenComparing(e -> new BigDecimal(e.item().get(tieBreaker).n()))
                .thenComparing(e -> e.item().get("pk").s(), BYTES)
                .thenComparing(e -> e.item().get("sk").s(), BYTES);
        return order == Order.ASC ? ascending : ascending.reversed();
    }

    /** The expected page order: the group's items, each under its first value in the order that passes the filter. */
    private static List<String> expected(Predicate<Map<String, AttributeValue>> group, Function<Map<String, AttributeValue>, List<AttributeValue>> values,
                                         String tieBreaker, Predicate<AttributeValue> filter, Order order) {
        Comparator<Entry> comparator = indexOrder(tieBreaker, order);
        return ITEMS.stream().filter(group)
                .flatMap(item -> values.apply(item).stream().filter(filter).map(value -> new Entry(item, value)).min(comparator).stream())
                .sorted(comparator).map(e -> key(e.item())).toList();
    }

    private static Predicate<Map<String, AttributeValue>> issuesOf(String project) {
        return item -> item.get("pk").s().equals(project) && item.get("sk").s().startsWith("ISSUE#");
    }

    /** A custom field's value when it is one the index holds (a number or a string here), else none. */
    private static Function<Map<String, AttributeValue>, List<AttributeValue>> field(String name) {
        return item -> {
            AttributeValue value = item.get("cf").m().get(name);
            return value != null && (value.n() != null || value.s() != null) ? List.of(value) : List.of();
        };
    }

    private static List<AttributeValue> labels(Map<String, AttributeValue> item) {
        return item.get("labels").l().stream().distinct().toList();
    }

    /** The group's issues without an index item, in the table's sort key order. */
    private static List<String> expectedMissing(String project, Function<Map<String, AttributeValue>, List<AttributeValue>> values, Order order) {
        Comparator<String> bySortKey = order == Order.ASC ? BYTES : BYTES.reversed();
        return ITEMS.stream().filter(issuesOf(project)).filter(item -> values.apply(item).isEmpty())
                .map(item -> item.get("sk").s()).sorted(bySortKey).map(sk -> project + " " + sk).toList();
    }

    private static String partition(String index, List<AttributeValue> group, String entry) {
        return IndexProjector.partition(DEFINITIONS.index(index).orElseThrow(), group, entry);
    }

    @Test
    void page_whenASmallGroupSharesEntryNamesWithABigOne_isOneQueryOfItsOwnPartitionAndOneBatchGet() {
        // given
        RecordingDynamoDbClient client = new RecordingDynamoDbClient(dynamoDb);
        PageRequest request = PageRequest.onIndex("fields", List.of(s(SMALL)), "prio", Order.ASC, 25);

        // when
        Page page = query(client).page(request);

        // then
        assertThat(keys(page)).isEqualTo(expected(issuesOf(SMALL), field("prio"), "num", v -> true, Order.ASC)).hasSize(SMALL_ISSUES);
        assertThat(page.nextCursor()).isEmpty();
        assertThat(page.apiCalls()).isEqualTo(2);
        assertThat(client.requests).hasSize(2);
        QueryRequest query = client.requestsOf(QueryRequest.class).get(0);
        assertThat(query.tableName()).isEqualTo(INDEX_TABLE);
        assertThat(query.filterExpression()).isNull();
        assertThat(query.expressionAttributeValues()).containsExactly(Map.entry(":a", s(partition("fields", List.of(s(SMALL)), "prio"))));
        assertThat(client.requestsOf(BatchGetItemRequest.class).get(0).requestItems().get(TABLE).keys()).hasSize(SMALL_ISSUES);
    }

    @Test
    void page_ofABigGroupsSingleValuedField_takesTwoCallsEveryPage() {
        // when
        Pages pages = all(query(dynamoDb), PageRequest.onIndex("fields", List.of(s(BIG)), "prio", Order.DESC, 100));

        // then
        assertThat(pages.keys()).isEqualTo(expected(issuesOf(BIG), field("prio"), "num", v -> true, Order.DESC)).hasSize(BIG_ISSUES);
        assertThat(pages.calls()).containsExactly(2, 2, 2, 2, 2);
    }

    @Test
    void page_inBothOrders_givesTheTypedOrderOfValueTieBreakerAndKey_acrossPagesOfEverySize() {
        for (String project : List.of(SMALL, BIG)) {
            for (Order order : Order.values()) {
                for (int pageSize : project.equals(SMALL) ? List.of(1, 2, 5, 100) : List.of(7, 100)) {
                    for (String field : List.of("prio", "owner", "due")) {
                        // when
                        List<String> keys = all(PageRequest.onIndex("fields", List.of(s(project)), field, order, pageSize));

                        // then
                        assertThat(keys).as("%s %s %s %d", project, field, order, pageSize).doesNotHaveDuplicates()
                                .isEqualTo(expected(issuesOf(project), field(field), "num", v -> true, order));
                    }
                    // every distinct label once per item: the item listed once, under its first label in the order
                    assertThat(all(PageRequest.onIndex("labels", List.of(s(project)), "", order, pageSize)))
                            .as("%s labels %s %d", project, order, pageSize).doesNotHaveDuplicates()
                            .isEqualTo(expected(issuesOf(project), GroupedIndexQueryIntegrationTest::labels, "num", v -> true, order));
                }
            }
        }
    }

    @Test
    void page_withFilters_givesTheMatchingItemsOnly_inOrder() {
        Map<Filter, Predicate<AttributeValue>> filters = new LinkedHashMap<>();
        filters.put(new Filter.Equals(num(2)), v -> v.n() != null && new BigDecimal(v.n()).compareTo(BigDecimal.TWO) == 0);
        filters.put(Filter.Range.between(num(1), num(3)), v -> v.n() != null && between(new BigDecimal(v.n()), 1, 3));
        filters.put(Filter.Range.greaterThan(num(2)), v -> v.n() != null && new BigDecimal(v.n()).compareTo(BigDecimal.TWO) > 0);
        filters.put(Filter.Range.atMost(num(1)), v -> v.n() != null && new BigDecimal(v.n()).compareTo(BigDecimal.ONE) <= 0);
        filters.put(new Filter.Equals(new IndexValue.Text("o1")), v -> "o1".equals(v.s()));
        filters.put(new Filter.BeginsWith("o"), v -> v.s() != null && v.s().startsWith("o"));
        filters.put(Filter.Range.lessThan(new IndexValue.Text("o2")), v -> v.s() != null && v.s().compareTo("o2") < 0);
        filters.put(new Filter.BeginsWith("a"), v -> v.s() != null && v.s().startsWith("a"));
        for (String project : List.of(SMALL, BIG)) {
            int pageSize = project.equals(SMALL) ? 2 : 40;
            for (Order order : Order.values()) {
                filters.forEach((filter, matches) -> {
                    for (String field : List.of("prio", "owner")) {
                        // when
                        List<String> keys = all(PageRequest.onIndex("fields", List.of(s(project)), field, order, pageSize).withFilter(filter));

                        // then
                        assertThat(keys).as("%s %s %s %s", project, field, order, filter)
                                .isEqualTo(expected(issuesOf(project), field(field), "num", matches, order));
                    }
                    assertThat(all(PageRequest.onIndex("labels", List.of(s(project)), "", order, pageSize).withFilter(filter)))
                            .as("%s labels %s %s", project, order, filter)
                            .isEqualTo(expected(issuesOf(project), GroupedIndexQueryIntegrationTest::labels, "num", matches, order));
                });
            }
        }
        assertThat(all(PageRequest.onIndex("fields", List.of(s(BIG)), "prio", Order.ASC, 100).withFilter(new Filter.Equals(num(2)))))
                .hasSizeGreaterThan(50);
    }

    private static boolean between(BigDecimal value, int low, int high) {
        return value.compareTo(BigDecimal.valueOf(low)) >= 0 && value.compareTo(BigDecimal.valueOf(high)) <= 0;
    }

    @Test
    void page_ofASparseIndexWithoutAGroup_listsTheCoveredItemsOfEveryPartition() {
        Predicate<Map<String, AttributeValue>> active = item -> item.get("pk").s().startsWith("lyr#") && item.containsKey("dplySts");
        Function<Map<String, AttributeValue>, List<AttributeValue>> pckg = item -> List.of(item.get("pckg"));
        for (Order order : Order.values()) {
            // when
            List<String> keys = all(PageRequest.onIndex("active-layers", List.of(), "", order, 2));
            List<String> boto = all(PageRequest.onIndex("active-layers", List.of(), "", order, 2)
                    .withFilter(new Filter.Equals(new IndexValue.Text("boto"))));

            // then
            assertThat(keys).hasSize(6).isEqualTo(expected(active, pckg, "vrsn", v -> true, order));
            assertThat(boto).isEqualTo(order == Order.ASC ? List.of("lyr#boto v2", "lyr#boto v3") : List.of("lyr#boto v3", "lyr#boto v2"));
        }
    }

    @Test
    void page_ofAGroupOfAStringAndANumber_readsThatGroupWhateverTheNumbersSpelling() {
        Predicate<Map<String, AttributeValue>> sprint2 = issuesOf(SMALL).and(item -> item.get("sprint").n().equals("2"));
        Function<Map<String, AttributeValue>, List<AttributeValue>> state = item -> List.of(item.get("state"));
        List<String> expected = expected(sprint2, state, "num", v -> true, Order.ASC);

        // when
        List<String> spelled2 = all(PageRequest.onIndex("sprint-states", List.of(s(SMALL), AttributeValue.fromN("2")), "", Order.ASC, 2));
        List<String> spelled20 = all(PageRequest.onIndex("sprint-states", List.of(s(SMALL), AttributeValue.fromN("2.0")), "", Order.ASC, 2));
        List<String> open = all(PageRequest.onIndex("sprint-states", List.of(s(SMALL), AttributeValue.fromN("2")), "", Order.DESC, 1)
                .withFilter(new Filter.Equals(new IndexValue.Text("open"))));

        // then
        assertThat(expected).isNotEmpty();
        assertThat(spelled2).isEqualTo(expected);
        assertThat(spelled20).isEqualTo(expected);
        assertThat(open).isEqualTo(expected(sprint2, state, "num", v -> v.s().equals("open"), Order.DESC));
    }

    @Test
    void page_whenTheIndexStillHoldsAnOlderVersionsItems_listsTheItemOnceUnderItsCurrentValue() {
        // given: the partition holds the stale item beside the current one
        String prio = partition("fields", List.of(s(SMALL)), "prio");
        int stored = dynamoDb.query(b -> b.tableName(INDEX_TABLE).keyConditionExpression("attribId = :a")
                .expressionAttributeValues(Map.of(":a", s(prio)))).count();
        assertThat(stored).isEqualTo(SMALL_ISSUES + 1);

        // when
        Page desc = query(dynamoDb).page(PageRequest.onIndex("fields", List.of(s(SMALL)), "prio", Order.DESC, 100));
        Page older = query(dynamoDb).page(PageRequest.onIndex("fields", List.of(s(SMALL)), "prio", Order.DESC, 100)
                .withFilter(new Filter.Equals(num(99))));
        Page zz = query(dynamoDb).page(PageRequest.onIndex("labels", List.of(s(SMALL)), "", Order.DESC, 100));

        // then
        assertThat(keys(desc)).isEqualTo(expected(issuesOf(SMALL), field("prio"), "num", v -> true, Order.DESC))
                .containsOnlyOnce(SMALL + " " + STALE);
        assertThat(older.items()).isEmpty();
        assertThat(keys(zz)).isEqualTo(expected(issuesOf(SMALL), GroupedIndexQueryIntegrationTest::labels, "num", v -> true, Order.DESC));
    }

    @Test
    void withMissing_onAnIndexGroupedByThePartitionKey_followsWithTheCoveredItemsLackingTheValue_inSortKeyOrder() {
        for (Order order : Order.values()) {
            for (int pageSize : List.of(1, 2, 3, 100)) {
                // when
                List<String> due = all(PageRequest.onIndex("fields", List.of(s(SMALL)), "due", order, pageSize).withMissing());
                List<String> labelled = all(PageRequest.onIndex("labels", List.of(s(SMALL)), "", order, pageSize).withMissing());

                // then: absent, NULL and map values are missing; the project's own item is not an issue
                List<String> expectedDue = new ArrayList<>(expected(issuesOf(SMALL), field("due"), "num", v -> true, order));
                expectedDue.addAll(expectedMissing(SMALL, field("due"), order));
                assertThat(due).as("due %s %d", order, pageSize).hasSize(SMALL_ISSUES).isEqualTo(expectedDue);
                List<String> expectedLabelled = new ArrayList<>(expected(issuesOf(SMALL), GroupedIndexQueryIntegrationTest::labels, "num",
                        v -> true, order));
                expectedLabelled.addAll(expectedMissing(SMALL, GroupedIndexQueryIntegrationTest::labels, order));
                assertThat(labelled).as("labels %s %d", order, pageSize).hasSize(SMALL_ISSUES).isEqualTo(expectedLabelled);
            }
        }
        // the tail is in the sort key's order, not num's
        assertThat(expectedMissing(SMALL, field("due"), Order.ASC)).containsExactly(SMALL + " ISSUE#1", SMALL + " ISSUE#10",
                SMALL + " ISSUE#11", SMALL + " ISSUE#2", SMALL + " ISSUE#3", SMALL + " ISSUE#5", SMALL + " ISSUE#6", SMALL + " ISSUE#7",
                SMALL + " ISSUE#9");
    }

    @Test
    void withMissing_readsTheGroupsPartitionOfTheTable_narrowedToTheCoveredSortKeys() {
        // given
        RecordingDynamoDbClient client = new RecordingDynamoDbClient(dynamoDb);

        // when
        Page page = query(client).page(PageRequest.onIndex("fields", List.of(s(BIG)), "no-such-field", Order.ASC, 100).withMissing());

        // then: the index part is empty, the tail is the first hundred issues by sort key
        List<String> tail = expectedMissing(BIG, field("no-such-field"), Order.ASC);
        assertThat(keys(page)).isEqualTo(tail.subList(0, 100));
        QueryRequest table = client.requestsOf(QueryRequest.class).get(1);
        assertThat(table.tableName()).isEqualTo(TABLE);
        assertThat(table.indexName()).isNull();
        assertThat(table.keyConditionExpression()).isEqualTo("#pk = :pk AND begins_with(#sk, :prefix)");
        assertThat(table.expressionAttributeValues()).containsEntry(":pk", s(BIG)).containsEntry(":prefix", s("ISSUE#"));
        assertThat(all(PageRequest.onIndex("fields", List.of(s(BIG)), "no-such-field", Order.DESC, 100).withMissing()))
                .isEqualTo(expectedMissing(BIG, field("no-such-field"), Order.DESC)).hasSize(BIG_ISSUES);
    }

    @Test
    void withMissing_onAnIndexNotGroupedByThePartitionKey_isRefusedSayingWhy() {
        for (PageRequest request : List.of(PageRequest.onIndex("active-layers", List.of(), "", Order.ASC, 5),
                PageRequest.onIndex("sprint-states", List.of(s(SMALL), n(1)), "", Order.ASC, 5))) {
            assertThatThrownBy(() -> query(dynamoDb).page(request.withMissing())).isInstanceOf(QueryException.class)
                    .hasMessageContaining("listed for the issue grid (from its ByProject index) and for an index grouped by the table's "
                            + "partition key (pk)")
                    .hasMessageContaining("no source lists its group's items but the index itself");
        }
    }

    @Test
    void aCursor_ofAnotherGroupEntryIndexOrderOrFilter_isRefused_andTheSameQueryOfAnotherPageSizeTakesIt() {
        // given
        IndexQuery query = query(dynamoDb);
        PageRequest request = PageRequest.onIndex("fields", List.of(s(SMALL)), "prio", Order.ASC, 3);
        String cursor = query.page(request).nextCursor().orElseThrow();
        List<PageRequest> others = List.of(
                PageRequest.onIndex("fields", List.of(s(BIG)), "prio", Order.ASC, 3),
                PageRequest.onIndex("fields", List.of(s(SMALL)), "owner", Order.ASC, 3),
                PageRequest.onIndex("labels", List.of(s(SMALL)), "", Order.ASC, 3),
                PageRequest.onIndex("fields", List.of(s(SMALL)), "prio", Order.DESC, 3),
                request.withFilter(Filter.Range.atLeast(num(0))),
                request.withMissing());

        // then
        for (PageRequest other : others) {
            assertThatThrownBy(() -> query.page(other.after(cursor))).as("%s", other.identity()).isInstanceOf(QueryException.class)
                    .hasMessage(CursorSealer.REFUSED);
        }
        List<String> expected = expected(issuesOf(SMALL), field("prio"), "num", v -> true, Order.ASC);
        assertThat(keys(query.page(PageRequest.onIndex("fields", List.of(s(SMALL)), "prio", Order.ASC, 100).after(cursor))))
                .isEqualTo(expected.subList(3, expected.size()));
    }

    @Test
    void editedCursor_ofAnotherGroupOrOutsideTheIndex_isRefusedAsAQueryException() {
        // given
        IndexQuery query = query(dynamoDb);
        PageRequest request = PageRequest.onIndex("fields", List.of(s(SMALL)), "prio", Order.ASC, 3);
        String sortKey = Cursor.decode(query.page(request).nextCursor().orElseThrow(), request, SEALER).startKey().get("sortKey").s();
        PageRequest missing = PageRequest.onIndex("fields", List.of(s(SMALL)), "due", Order.ASC, 3).withMissing();
        Map<Map<String, AttributeValue>, String> missingKeys = Map.of(
                Map.of("pk", s(BIG), "sk", s("ISSUE#1")), "malformed cursor: its key is of another group",
                Map.of("pk", s(SMALL), "sk", s(SMALL)), "malformed cursor: its key is of an item the index does not cover",
                Map.of("pk", s(SMALL)), "malformed cursor: its key must have exactly the attributes [pk, sk]",
                Map.of("pk", s(SMALL), "sk", n(1)), "malformed cursor: sk is not a string",
                Map.of("pk", s(SMALL), "sk", s("")), "malformed cursor: sk is not a valid key string");

        // then
        Map<String, AttributeValue> otherGroup = Map.of("attribId", s(partition("fields", List.of(s(BIG)), "prio")), "sortKey", s(sortKey));
        assertThatThrownBy(() -> query.page(request.after(new Cursor(Cursor.Part.INDEX, otherGroup).encode(request, SEALER))))
                .isInstanceOf(QueryException.class).hasMessage("malformed cursor: its key is of another attribute or group");
        missingKeys.forEach((key, message) -> assertThatThrownBy(() -> query.page(missing.after(new Cursor(Cursor.Part.MISSING, key).encode(missing, SEALER))))
                .as("%s", key).isInstanceOf(QueryException.class).hasMessage(message));
        // a key of the group's partition, from the index's sort key prefix on, is one the tail resumes after
        Page resumed = query.page(missing.after(new Cursor(Cursor.Part.MISSING, Map.of("pk", s(SMALL), "sk", s("ISSUE#3"))).encode(missing, SEALER)));
        assertThat(keys(resumed)).isEqualTo(expectedMissing(SMALL, field("due"), Order.ASC).stream()
                .filter(k -> BYTES.compare(k, SMALL + " ISSUE#3") > 0).limit(3).toList());
    }

    @Test
    void editedCursor_ofTheMissingPart_onARequestWithoutTheMissingPart_isRefused() {
        // given: a cursor sealed (by a reader holding the key) to point at the missing part,
        // on a filtered request (which has no missing part: an item without the field matches no filter) and on a
        // request that did not ask for the missing part
        IndexQuery query = query(dynamoDb);
        PageRequest filtered = PageRequest.onIndex("fields", List.of(s(SMALL)), "due", Order.ASC, 100)
                .withFilter(new Filter.Equals(num(3)));
        PageRequest plain = PageRequest.onIndex("fields", List.of(s(SMALL)), "due", Order.ASC, 100);

        // then: refused, never a page of items that lack the field
        for (PageRequest request : List.of(filtered, plain)) {
            String forged = new Cursor(Cursor.Part.MISSING, Map.of()).encode(request, SEALER);
            assertThatThrownBy(() -> query.page(request.after(forged))).as("%s", request.identity())
                    .isInstanceOf(QueryException.class).hasMessageStartingWith("malformed cursor");
        }
    }

    @Test
    void aRequest_whoseGroupCannotBeInTheIndex_isRefusedSayingWhatToGive() {
        IndexQuery query = query(dynamoDb);

        assertThatThrownBy(() -> query.page(PageRequest.onIndex("fields", List.of(n(1)), "prio", Order.ASC, 3)))
                .isInstanceOf(QueryException.class)
                .hasMessage("index 'fields' is grouped by pk, the table's partition key of type S: give a group value of that type");
        assertThatThrownBy(() -> query.page(PageRequest.onIndex("sprint-states", List.of(s(SMALL), AttributeValue.fromNul(true)), "",
                Order.ASC, 3))).isInstanceOf(QueryException.class).hasMessageStartingWith("index 'sprint-states' has no group of that value");
        assertThatThrownBy(() -> query.page(PageRequest.onIndex("fields", List.of(s("p".repeat(2100))), "prio", Order.ASC, 3)))
                .isInstanceOf(QueryException.class).hasMessageContaining("longer than 2048 bytes");
        assertThatThrownBy(() -> query.page(PageRequest.onIndex("active-layers", List.of(s("requests")), "", Order.ASC, 3)))
                .isInstanceOf(QueryException.class).hasMessageContaining("give 0 group value(s), got 1");
        assertThatThrownBy(() -> query.page(PageRequest.onIndex("labels", List.of(s(SMALL)), "bug", Order.ASC, 3)))
                .isInstanceOf(QueryException.class).hasMessageContaining("it has no entries to name");
    }

    @Test
    void withMissing_onATableKeyedByANumberAndBinary_pagesTheTailWithCursorsOfThoseTypes() {
        // given: documents keyed tenant (N) and doc (B); docs 50, 150 and 250 have no status
        IndexDefinitions definitions = DefinitionsYaml.parse("""
                version: 1
                table:
                  partitionKey: {name: tenant, type: N}
                  sortKey: {name: doc, type: B}
                entityTypes:
                  - {name: Doc, when: [{attribute: doc, exists: true}]}
                indexes:
                  - name: docs-by-status
                    group: tenant
                    values: {attribute: status}
                """);
        IndexProjector projector = new IndexProjector(definitions);
        dynamoDb.createTable(b -> b.tableName("Docs").billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(a -> a.attributeName("tenant").attributeType(ScalarAttributeType.N),
                        a -> a.attributeName("doc").attributeType(ScalarAttributeType.B))
                .keySchema(k -> k.attributeName("tenant").keyType(KeyType.HASH), k -> k.attributeName("doc").keyType(KeyType.RANGE)));
        for (int tenant : List.of(7, 8)) {
            for (int d = 0; d < 6; d++) {
                Map<String, AttributeValue> doc = new LinkedHashMap<>();
                doc.put("tenant", n(tenant));
                doc.put("doc", AttributeValue.fromB(SdkBytes.fromByteArray(new byte[] {(byte) (d * 50)})));
                if (d % 2 == 0 || tenant == 8) {
                    doc.put("status", s("s" + (5 - d)));
                }
                dynamoDb.putItem(b -> b.tableName("Docs").item(doc));
                writeIndexItems(projector, doc);
            }
        }
        IndexQuery query = query(dynamoDb, "Docs", definitions);

        for (Order order : Order.values()) {
            // when
            List<Integer> docs = new ArrayList<>();
            PageRequest request = PageRequest.onIndex("docs-by-status", List.of(AttributeValue.fromN("7.0")), "", order, 1).withMissing();
            for (int n = 0; n < 20; n++) {
                Page page = query.page(request);
                page.items().forEach(item -> docs.add(Byte.toUnsignedInt(item.get("doc").b().asByteArray()[0])));
                if (page.nextCursor().isEmpty()) {
                    break;
                }
                request = request.after(page.nextCursor().get());
            }

            // then: by status (s1 < s3 < s5), then the unsigned bytes of the key
            assertThat(docs).as("%s", order).isEqualTo(order == Order.ASC ? List.of(200, 100, 0, 50, 150, 250) : List.of(0, 100, 200, 250, 150, 50));
        }
    }

    private static IndexValue.Num num(int value) {
        return new IndexValue.Num(BigDecimal.valueOf(value));
    }

    private static AttributeValue s(String value) {
        return AttributeValue.fromS(value);
    }

    private static AttributeValue n(int value) {
        return AttributeValue.fromN(Integer.toString(value));
    }
}

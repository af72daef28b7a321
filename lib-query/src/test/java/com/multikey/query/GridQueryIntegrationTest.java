package com.multikey.query;

import com.multikey.common.Backoff;
import com.multikey.common.Sleeper;
import com.multikey.emulator.fixtures.GridSample;
import com.multikey.index.IndexItem;
import com.multikey.index.IndexProjector;
import com.multikey.index.IndexValue;
import com.multikey.index.ItemKey;
import com.multikey.index.definition.IndexDefinitions;
import com.multikey.testkit.Fixtures;
import com.multikey.testkit.LocalTables;
import com.multikey.testkit.LocalTablesExtension;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbRequest;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Pages over the embedded DynamoDB engine with the template's tables, against an order computed independently. */
class GridQueryIntegrationTest {

    private static final IndexDefinitions CONFIG = IndexDefinitions.packaged();
    private static final String LONG_ID = "issue#" + "long".repeat(70);
    private static final String LONG_TEXT = "\u00e9".repeat(400);
    private static final int FOREIGN_ITEMS = 8000;
    /** Fits in the issue's 400 KB item, not beside the keys of its index item. */
    private static final int HUGE_TEXT = 400 * 1024 - 300;
    @RegisterExtension
    static final LocalTablesExtension TABLES = LocalTablesExtension.createdOnce();
    private static DynamoDbClient dynamoDb;
    private static final Map<String, Map<String, AttributeValue>> ISSUES = new LinkedHashMap<>();

    @BeforeAll
    static void load(LocalTables tables) {
        dynamoDb = tables.dynamoDb();
        GridSample grid = Fixtures.grid();
        // the project items carry the attributes map the catalog reads attribute ids from
        grid.projects().forEach(GridQueryIntegrationTest::put);
        grid.issues().forEach(GridQueryIntegrationTest::putIssue);
        // values that are present but give no index item
        List<AttributeValue> unindexable = List.of(AttributeValue.fromNul(true), AttributeValue.fromL(List.of()),
                AttributeValue.fromL(List.of(AttributeValue.fromNul(true))), AttributeValue.fromM(Map.of("x", s("y"))),
                AttributeValue.fromL(List.of(AttributeValue.fromN("1"), AttributeValue.fromM(Map.of()))));
        Random random = new Random(5);
        for (int i = 0; i < 160; i++) {
            Map<String, AttributeValue> fields = new LinkedHashMap<>();
            int n = random.nextInt(10);
            if (n > 2) {
                fields.put("n", AttributeValue.fromN(Integer.toString(random.nextInt(40) - 20)));
            } else if (n > 0) {
                fields.put("n", unindexable.get(random.nextInt(unindexable.size())));
            }
            if (random.nextInt(5) > 0) {
                fields.put("t", s(List.of("alpha", "beta", "alphabet", "gamma", "", "Beta", "al").get(random.nextInt(7))));
            }
            if (random.nextInt(3) > 0) {
                fields.put("tags", AttributeValue.fromSs(List.of("red", "green", "blue", "amber").subList(random.nextInt(3), 4)));
            }
            if (random.nextBoolean()) {
                fields.put("b", AttributeValue.fromBool(random.nextBoolean()));
            }
            putIssue(issue(String.format("issue#r%03d", i), "project#" + (i % 2), 1 + random.nextInt(60), fields));
        }
        // too long an id for a sort key: no index items at all
        putIssue(issue(LONG_ID, "project#1", 7, Map.of("n", AttributeValue.fromN("3"), "t", s("alpha"))));

        for (int i = 1; i <= 65; i++) {
            putIssue(issue(String.format("issue#s%02d", i), "project#solo", i, Map.of("solo", AttributeValue.fromN(Integer.toString(100 - i)))));
        }
        for (int i = 1; i <= 12; i++) {
            List<String> tags = new ArrayList<>();
            for (int t = 0; t < 10; t++) {
                tags.add(String.format("tag%02d", (i * 7 + t * 3) % 40));
            }
            putIssue(issue(String.format("issue#m%02d", i), "project#multi", i, Map.of("many", AttributeValue.fromSs(tags))));
        }
        putIssue(issue("issue#long1", "project#long", 1, Map.of("text", s(LONG_TEXT + "a"))));
        putIssue(issue("issue#long2", "project#long", 2, Map.of("text", s(LONG_TEXT + "b"))));
        putIssue(issue("issue#long3", "project#long", 3, Map.of("text", s(LONG_TEXT + "ab"))));
        putIssue(issue("issue#long4", "project#long", 4, Map.of("text", s(LONG_TEXT))));

        // a value too large to be copied into its index item (valueOmitted), beside an ordinary one
        putIssue(issue("issue#huge1", "project#huge", 1, Map.of("text", s("z".repeat(HUGE_TEXT)))));
        putIssue(issue("issue#huge2", "project#huge", 2, Map.of("text", s("a"))));

        // a field shared with a big project whose items all sort before the small project's
        List<WriteRequest> foreign = new ArrayList<>();
        for (int i = 0; i < FOREIGN_ITEMS; i++) {
            foreign.add(WriteRequest.builder().putRequest(PutRequest.builder().item(IndexItem.of("shared",
                    new IndexValue.Num(BigDecimal.valueOf(i)), "issue#big" + i, "project#big", BigDecimal.valueOf(i)).toItem()).build()).build());
        }
        for (int from = 0; from < foreign.size(); from += 25) {
            List<WriteRequest> chunk = foreign.subList(from, from + 25);
            dynamoDb.batchWriteItem(b -> b.requestItems(Map.of("IssueAttribIndexTable", chunk)));
        }
        for (int i = 1; i <= 3; i++) {
            putIssue(issue("issue#tiny" + i, "project#tiny", i, Map.of("shared", AttributeValue.fromN(Integer.toString(FOREIGN_ITEMS + i)))));
        }
    }

    private static AttributeValue s(String value) {
        return AttributeValue.fromS(value);
    }

    private static Map<String, AttributeValue> issue(String id, String project, int num, Map<String, AttributeValue> fields) {
        return Map.of("id", s(id), "project", s(project), "num", AttributeValue.fromN(Integer.toString(num)),
                "custom_fields", AttributeValue.fromM(fields));
    }

    private static void put(Map<String, AttributeValue> item) {
        dynamoDb.putItem(b -> b.tableName("AppTable").item(item));
    }

    private static void putIssue(Map<String, AttributeValue> item) {
        put(item);
        ISSUES.put(item.get("id").s(), item);
        // the index the stream indexer keeps for this issue, written directly (the engine leaves nothing unprocessed unless told to)
        List<WriteRequest> puts = new IndexProjector(CONFIG).project(ItemKey.ofString("id", item.get("id").s()), item).items().stream()
                .map(indexItem -> WriteRequest.builder().putRequest(PutRequest.builder().item(indexItem.toItem()).build()).build())
                .toList();
        for (int from = 0; from < puts.size(); from += 25) {
            List<WriteRequest> chunk = puts.subList(from, Math.min(puts.size(), from + 25));
            dynamoDb.batchWriteItem(b -> b.requestItems(Map.of("IssueAttribIndexTable", chunk)));
        }
    }

    private static IndexQuery query(DynamoDbClient client) {
        return query(client, Sleeper.SYSTEM, System::nanoTime);
    }

    private static IndexQuery query(DynamoDbClient client, Sleeper sleeper, LongSupplier nanoClock) {
        return new IndexQuery(client, "AppTable", "IssueAttribIndexTable", CONFIG,
                new Backoff(Duration.ofMillis(1), Duration.ofMillis(5), new Random(1)), sleeper, IndexQuery.DEFAULT_PAGE_BUDGET, nanoClock,
                SEALER, new GridSettings("ByProject", GridFieldCatalog.fromProjectItems(client, "AppTable", "id")));
    }

    /** The key the tests' cursors are sealed under, so that a test can seal a cursor of its own. */
    private static final CursorSealer SEALER = CursorSealer.of(CursorKeys.ephemeral());

    /** Every page of a query: the issue ids in order, and the size and calls of each page. */
    private record Pages(List<String> ids, List<Integer> sizes, List<Integer> calls) {
    }

    /** Reads every page, checking that each page but the last is full. */
    private static Pages all(IndexQuery query, PageRequest first) {
        Pages pages = new Pages(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
        PageRequest request = first;
        for (int n = 0; n < 1000; n++) {
            Page page = query.page(request);
            page.items().forEach(issue -> pages.ids().add(issue.get("id").s()));
            pages.sizes().add(page.items().size());
            pages.calls().add(page.apiCalls());
            assertThat(page.apiCalls()).isLessThanOrEqualTo(IndexQuery.MAX_READS_PER_PAGE);
            if (page.nextCursor().isEmpty()) {
                return pages;
            }
            assertThat(page.items()).as("page %d of %s", n, first).hasSize(first.pageSize());
            request = request.after(page.nextCursor().get());
        }
        throw new AssertionError("more than 1000 pages");
    }

    private static List<String> ids(Page page) {
        return page.items().stream().map(issue -> issue.get("id").s()).toList();
    }

    /** The expected order, from the issues themselves: each issue under its first matching value in the order. */
    private static List<String> expected(String project, String attribId, Order order, Optional<Filter> filter) {
        Comparator<String> bytes = Comparator.comparing(k -> k.getBytes(StandardCharsets.UTF_8), Arrays::compareUnsigned);
        Comparator<String> direction = order == Order.ASC ? bytes : bytes.reversed();
        Map<String, String> representative = new LinkedHashMap<>();
        IndexProjector indexer = new IndexProjector(CONFIG);
        ISSUES.forEach((id, item) -> {
            if (!item.get("project").s().equals(project)) {
                return;
            }
            indexer.project(ItemKey.ofString("id", id), item).items().stream()
                    .filter(i -> i.attribId().equals(attribId))
                    .filter(i -> filter.map(f -> f.matches(i.value())).orElse(true))
                    .map(IndexItem::sortKey).min(direction)
                    .ifPresent(key -> representative.put(id, key));
        });
        return representative.entrySet().stream().sorted(Map.Entry.comparingByValue(direction)).map(Map.Entry::getKey).toList();
    }

    /** The project's issues with no index item for the field, by the indexer's own projection, in num order. */
    private static List<Map<String, AttributeValue>> expectedMissing(String project, String attribId) {
        IndexProjector indexer = new IndexProjector(CONFIG);
        return ISSUES.entrySet().stream()
                .filter(e -> e.getValue().get("project").s().equals(project))
                .filter(e -> indexer.project(ItemKey.ofString("id", e.getKey()), e.getValue()).items().stream().noneMatch(i -> i.attribId().equals(attribId)))
                .map(Map.Entry::getValue)
                .toList();
    }

    @Test
    void gridSample_pagesInTheExpectedOrder_thenTheIssuesLackingTheField() {
        IndexQuery query = query(dynamoDb);

        assertThat(all(query, PageRequest.first("project#35e9", "3812", Order.ASC, 1)).ids()).containsExactly("issue#020e", "issue#67d1");
        assertThat(all(query, PageRequest.first("project#35e9", "3812", Order.DESC, 1)).ids()).containsExactly("issue#67d1", "issue#020e");
        assertThat(all(query, PageRequest.first("project#35e9", "3fe6", Order.ASC, 2).withMissing()).ids())
                .containsExactly("issue#af34", "issue#020e", "issue#67d1");
        Page crossing = query.page(PageRequest.first("project#35e9", "3fe6", Order.ASC, 25).withMissing());
        assertThat(crossing.items()).hasSize(3);
        assertThat(crossing.indexed()).as("issue#af34 has 3fe6; the other two are the missing tail").isEqualTo(1);
        Page first = query.page(PageRequest.first("project#35e9", "882a", Order.ASC, 25));
        assertThat(first.indexed()).isEqualTo(2);
        assertThat(first.apiCalls()).isEqualTo(2);
        assertThat(first.items()).extracting(i -> i.get("name").s()).containsExactly("Needs Painting", "Check for rust");
        assertThat(first.nextCursor()).isEmpty();
    }

    @Test
    void singleValuedField_fillsEveryPageInTwoCalls() {
        IndexQuery query = query(dynamoDb);
        List<String> byValue = new ArrayList<>();
        for (int i = 65; i >= 1; i--) {
            byValue.add(String.format("issue#s%02d", i));
        }

        Pages of25 = all(query, PageRequest.first("project#solo", "solo", Order.ASC, 25));
        Pages of100 = all(query, PageRequest.first("project#solo", "solo", Order.ASC, 100));

        assertThat(of25.ids()).isEqualTo(byValue);
        assertThat(of25.sizes()).containsExactly(25, 25, 15);
        assertThat(of25.calls()).containsExactly(2, 2, 2);
        assertThat(of100.sizes()).containsExactly(65);
        assertThat(of100.calls()).containsExactly(2);
    }

    @Test
    void randomData_everyFilterOrderAndPageSize_givesEachMatchingIssueOnceInOrder_inFullPages() {
        IndexQuery query = query(dynamoDb);
        List<Optional<Filter>> filters = List.of(Optional.empty(),
                Optional.of(new Filter.Equals(new IndexValue.Num(BigDecimal.valueOf(3)))),
                Optional.of(Filter.Range.between(new IndexValue.Num(BigDecimal.valueOf(-5)), new IndexValue.Num(BigDecimal.valueOf(5)))),
                Optional.of(Filter.Range.lessThan(new IndexValue.Num(BigDecimal.ZERO))),
                Optional.of(Filter.Range.atMost(new IndexValue.Num(BigDecimal.ZERO))),
                Optional.of(Filter.Range.greaterThan(new IndexValue.Num(BigDecimal.TEN))),
                Optional.of(Filter.Range.atLeast(new IndexValue.Num(BigDecimal.TEN))),
                Optional.of(new Filter.Equals(new IndexValue.Text("alpha"))),
                Optional.of(new Filter.BeginsWith("al")),
                Optional.of(Filter.Range.between(new IndexValue.Text("b"), new IndexValue.Text("green"))),
                Optional.of(Filter.Range.greaterThan(new IndexValue.Text("blue"))),
                Optional.of(new Filter.Equals(new IndexValue.Bool(true))));
        int checked = 0;
        int pages = 0;
        int calls = 0;
        for (String project : List.of("project#0", "project#1")) {
            for (String attribId : List.of("n", "t", "tags", "b")) {
                for (Order order : Order.values()) {
                    for (Optional<Filter> filter : filters) {
                        List<String> expected = expected(project, attribId, order, filter);
                        for (int pageSize : List.of(1, 3, 17, 100)) {
                            PageRequest request = PageRequest.first(project, attribId, order, pageSize);
                            Pages result = all(query, filter.map(request::withFilter).orElse(request));
                            assertThat(result.ids()).as("%s %s %s %s page %d", project, attribId, order, filter, pageSize)
                                    .doesNotHaveDuplicates().isEqualTo(expected);
                            checked += result.ids().size();
                            pages += result.sizes().size();
                            calls += result.calls().stream().mapToInt(Integer::intValue).sum();
                        }
                    }
                }
            }
        }
        assertThat(checked).isGreaterThan(2000);
        // the index is shared with another project and multi-valued: pages take further reads, but not many
        assertThat((double) calls / pages).isLessThan(3.5);
    }

    @Test
    void multiValuedIssues_whoseItemsStraddleReads_areListedOnceInFullPages() {
        for (Order order : Order.values()) {
            for (int pageSize : List.of(1, 2, 3, 5)) {
                Pages pages = all(query(dynamoDb), PageRequest.first("project#multi", "many", order, pageSize));

                assertThat(pages.ids()).as("%s page %d", order, pageSize).isEqualTo(expected("project#multi", "many", order, Optional.empty()));
            }
        }
    }

    @Test
    void multiValuedIssues_listedValue_isTheElementThePageSortedEachBy() {
        for (Order order : Order.values()) {
            // given
            IndexQuery query = query(dynamoDb);
            PageRequest request = PageRequest.first("project#multi", "many", order, 5);
            List<String> listed = new ArrayList<>();
            while (true) {
                // when
                Page page = query.page(request);

                // then: the smallest tag ascending, the largest descending
                for (int i = 0; i < page.items().size(); i++) {
                    java.util.TreeSet<String> tags = new java.util.TreeSet<>(page.items().get(i).get("custom_fields").m().get("many").ss());
                    String element = order == Order.ASC ? tags.first() : tags.last();
                    assertThat(page.listedValue(i)).as("%s item %d", order, i).contains(AttributeValue.fromS(element));
                    listed.add(element);
                }
                if (page.nextCursor().isEmpty()) {
                    break;
                }
                request = request.after(page.nextCursor().get());
            }
            assertThat(listed).hasSize(12).isSortedAccordingTo(order == Order.ASC ? Comparator.naturalOrder() : Comparator.reverseOrder());
        }
    }

    @Test
    void withMissing_listsAfterTheIndexPartEveryIssueWithoutAnIndexItem_presentButUnindexableIncluded() {
        for (Order order : Order.values()) {
            for (int pageSize : List.of(1, 9, 100)) {
                Pages pages = all(query(dynamoDb), PageRequest.first("project#1", "n", order, pageSize).withMissing());

                List<String> indexed = expected("project#1", "n", order, Optional.empty());
                List<Map<String, AttributeValue>> missing = expectedMissing("project#1", "n");
                assertThat(missing).extracting(i -> i.get("id").s()).contains(LONG_ID);
                assertThat(missing).anySatisfy(i -> assertThat(i.get("custom_fields").m()).containsKey("n"));
                assertThat(pages.ids()).doesNotHaveDuplicates().hasSize(indexed.size() + missing.size());
                assertThat(pages.ids().subList(0, indexed.size())).isEqualTo(indexed);
                List<String> tail = pages.ids().subList(indexed.size(), pages.ids().size());
                assertThat(tail).containsExactlyInAnyOrderElementsOf(missing.stream().map(i -> i.get("id").s()).toList());
                Comparator<String> byNum = Comparator.comparing(id -> new BigDecimal(ISSUES.get(id).get("num").n()));
                assertThat(tail).isSortedAccordingTo(order == Order.ASC ? byNum : byNum.reversed());
            }
        }
    }

    @Test
    void foreignItemsBeyondTheReadBound_giveAShortPageWithACursor_andNothingIsLost() {
        RecordingDynamoDbClient client = new RecordingDynamoDbClient(dynamoDb);
        PageRequest request = PageRequest.first("project#tiny", "shared", Order.ASC, 3);

        Page first = query(client).page(request);
        Page second = query(client).page(request.after(first.nextCursor().orElseThrow()));

        assertThat(first.items()).isEmpty();
        assertThat(first.apiCalls()).isEqualTo(IndexQuery.MAX_READS_PER_PAGE);
        assertThat(client.requestsOf(QueryRequest.class).subList(0, IndexQuery.MAX_READS_PER_PAGE))
                .extracting(QueryRequest::limit).containsExactly(10, 80, 640, 1000, 1000, 1000, 1000, 1000);
        assertThat(ids(second)).containsExactly("issue#tiny1", "issue#tiny2", "issue#tiny3");
        assertThat(second.nextCursor()).isEmpty();
    }

    @Test
    void emptyOrInvertedRange_answersAnEmptyPage_withoutAnyCall() {
        RecordingDynamoDbClient client = new RecordingDynamoDbClient(dynamoDb);
        IndexValue.Num one = new IndexValue.Num(BigDecimal.ONE);
        IndexValue.Num five = new IndexValue.Num(BigDecimal.valueOf(5));
        List<Filter> empty = List.of(Filter.Range.between(five, one), new Filter.Range(five, false, five, false),
                new Filter.Range(five, true, five, false), Filter.Range.between(new IndexValue.Text("b"), new IndexValue.Text("a")));

        for (Filter filter : empty) {
            Page page = query(client).page(PageRequest.first("project#0", "n", Order.ASC, 10).withFilter(filter));

            assertThat(page.items()).as("%s", filter).isEmpty();
            assertThat(page.nextCursor()).isEmpty();
            assertThat(page.apiCalls()).isZero();
        }
        assertThat(client.requestsOf(QueryRequest.class)).isEmpty();
        assertThat(ids(query(dynamoDb).page(PageRequest.first("project#0", "n", Order.ASC, 100)
                .withFilter(Filter.Range.between(five, five))))).isEqualTo(expected("project#0", "n", Order.ASC, Optional.of(new Filter.Equals(five))));
    }

    @Test
    void anIndexItemWithoutACopyOfItsValue_isListedInOrder_andFilteredOnTheIssuesValue() {
        IndexQuery query = query(dynamoDb);

        assertThat(all(query, PageRequest.first("project#huge", "text", Order.ASC, 10)).ids())
                .containsExactly("issue#huge2", "issue#huge1");
        assertThat(all(query, PageRequest.first("project#huge", "text", Order.DESC, 1)).ids())
                .containsExactly("issue#huge1", "issue#huge2");
        assertThat(all(query, PageRequest.first("project#huge", "text", Order.ASC, 10).withFilter(new Filter.BeginsWith("zz"))).ids())
                .containsExactly("issue#huge1");
    }

    @Test
    void beginsWith_longerThanTheIndexedPrefix_isDecidedOnTheWholeValue() {
        IndexQuery query = query(dynamoDb);

        assertThat(all(query, PageRequest.first("project#long", "text", Order.ASC, 1).withFilter(new Filter.BeginsWith(LONG_TEXT + "a"))).ids())
                .containsExactlyInAnyOrder("issue#long1", "issue#long3");
        assertThat(all(query, PageRequest.first("project#long", "text", Order.ASC, 10).withFilter(new Filter.BeginsWith(LONG_TEXT))).ids())
                .containsExactlyInAnyOrder("issue#long1", "issue#long2", "issue#long3", "issue#long4");
        assertThat(all(query, PageRequest.first("project#long", "text", Order.ASC, 10).withFilter(new Filter.BeginsWith(LONG_TEXT + "c"))).ids())
                .isEmpty();
    }

    @Test
    void editedCursor_isRefusedAsAQueryException_neverReachesDynamoDb() {
        IndexQuery query = query(dynamoDb);
        PageRequest request = PageRequest.first("project#0", "n", Order.ASC, 5)
                .withFilter(Filter.Range.between(new IndexValue.Num(BigDecimal.valueOf(-5)), new IndexValue.Num(BigDecimal.valueOf(5))));
        PageRequest missing = PageRequest.first("project#0", "n", Order.ASC, 5).withMissing();
        String inRange = query.page(request).nextCursor().map(c -> Cursor.decode(c, request, SEALER).startKey().get("sortKey").s()).orElseThrow();
        Map<Map<String, AttributeValue>, String> indexKeys = Map.of(
                Map.of("attribId", s("t"), "sortKey", s(inRange)), "malformed cursor: its key is of another attribute or group",
                Map.of("attribId", s("n"), "sortKey", s("Np2")), "malformed cursor: its key is outside the filter's range",
                Map.of("attribId", s("n")), "malformed cursor: its key must have exactly the attributes [attribId, sortKey]",
                Map.of("attribId", s("n"), "sortKey", s(inRange), "x", s("y")),
                "malformed cursor: its key must have exactly the attributes [attribId, sortKey]",
                Map.of("attribId", s("n"), "sortKey", AttributeValue.fromN("1")), "malformed cursor: sortKey is not a string");
        indexKeys.forEach((key, message) -> assertThatThrownBy(() -> query.page(request.after(new Cursor(Cursor.Part.INDEX, key).encode(request, SEALER))))
                .as("%s", key).isInstanceOf(QueryException.class).hasMessage(message));
        // a lone surrogate has no UTF-8 form; JSON can carry it as an escape
        String loneSurrogate = SEALER.seal("{\"part\":\"INDEX\",\"key\":{\"attribId\":{\"S\":\"n\"},\"sortKey\":{\"S\":\"Np1313\\ud800\"}}}"
                .getBytes(StandardCharsets.UTF_8), request.identity());
        assertThatThrownBy(() -> query.page(request.after(loneSurrogate)))
                .isInstanceOf(QueryException.class).hasMessage("malformed cursor: sortKey is not a valid key string");
        Map<Map<String, AttributeValue>, String> missingKeys = Map.of(
                Map.of("id", s("issue#r000"), "project", s("project#1"), "num", AttributeValue.fromN("3")),
                "malformed cursor: its key is of another project",
                Map.of("id", s("issue#r000"), "project", s("project#0"), "num", s("3")), "malformed cursor: num is not a number",
                Map.of("id", s("issue#r000"), "project", s("project#0"), "num", AttributeValue.fromN("1e400")),
                "malformed cursor: num is not a DynamoDB number",
                Map.of("id", s(""), "project", s("project#0"), "num", AttributeValue.fromN("3")), "malformed cursor: id is not a valid key string",
                Map.of("attribId", s("n"), "sortKey", s(inRange)), "malformed cursor: its key must have exactly the attributes [id, num, project]");
        missingKeys.forEach((key, message) -> assertThatThrownBy(() -> query.page(missing.after(new Cursor(Cursor.Part.MISSING, key).encode(missing, SEALER))))
                .as("%s", key).isInstanceOf(QueryException.class).hasMessage(message));
    }

    private static List<DynamoDbRequest> pageCalls(RecordingDynamoDbClient client) {
        return client.requests.stream().filter(r -> r instanceof QueryRequest || r instanceof BatchGetItemRequest).toList();
    }

    @Test
    void unprocessedKeys_areResentWithinTheBudget_andCounted() {
        RecordingDynamoDbClient halfProcessing = new RecordingDynamoDbClient(dynamoDb, (real, request) -> {
            KeysAndAttributes keys = request.requestItems().get("AppTable");
            if (keys.keys().size() < 2) {
                return real.batchGetItem(request);
            }
            int half = keys.keys().size() / 2;
            BatchGetItemResponse done = real.batchGetItem(b -> b.requestItems(
                    Map.of("AppTable", keys.toBuilder().keys(keys.keys().subList(0, half)).build())));
            return done.toBuilder().unprocessedKeys(Map.of("AppTable",
                    keys.toBuilder().keys(keys.keys().subList(half, keys.keys().size())).build())).build();
        });

        Page page = query(halfProcessing).page(PageRequest.first("project#solo", "solo", Order.ASC, 20));

        // 20 keys: 10 of them processed, then 5 of 10, 2 of 5, 1 of 3, 1 of 2, the last alone
        assertThat(page.apiCalls()).isEqualTo(1 + 6);
        assertThat(ids(page)).isEqualTo(ids(query(dynamoDb).page(PageRequest.first("project#solo", "solo", Order.ASC, 20))));
        assertThat(ids(page)).hasSize(20).startsWith("issue#s65", "issue#s64");
        assertThat(pageCalls(halfProcessing)).hasSize(7).allSatisfy(request -> assertThat(request.overrideConfiguration().orElseThrow()
                .apiCallTimeout().orElseThrow()).isPositive().isLessThanOrEqualTo(IndexQuery.DEFAULT_PAGE_BUDGET));
    }

    @Test
    void unprocessedKeysThatNeverClear_failRetryably_afterTheBudget() {
        List<Duration> sleeps = new ArrayList<>();
        RecordingDynamoDbClient nothingProcessed = new RecordingDynamoDbClient(dynamoDb, (real, request) ->
                BatchGetItemResponse.builder().responses(Map.of()).unprocessedKeys(request.requestItems()).build());

        assertThatThrownBy(() -> query(nothingProcessed, sleeps::add, System::nanoTime)
                .page(PageRequest.first("project#solo", "solo", Order.ASC, 5)))
                .isInstanceOf(RetryableQueryException.class)
                .hasMessageStartingWith("BatchGetItem still left 5 of 5 item(s) unprocessed after 11 attempt(s)");
        assertThat(nothingProcessed.requestsOf(BatchGetItemRequest.class)).hasSize(11);
        assertThat(sleeps).hasSize(10);
    }

    @Test
    void pageBudgetRunningOut_failsRetryably_andBoundsEveryCall() {
        AtomicLong now = new AtomicLong();
        RecordingDynamoDbClient slow = new RecordingDynamoDbClient(dynamoDb, (real, request) -> {
            now.addAndGet(Duration.ofSeconds(4).toNanos());
            return BatchGetItemResponse.builder().responses(Map.of()).unprocessedKeys(request.requestItems()).build();
        });

        assertThatThrownBy(() -> query(slow, d -> now.addAndGet(d.toNanos()), now::get)
                .page(PageRequest.first("project#solo", "solo", Order.ASC, 5)))
                .isInstanceOf(RetryableQueryException.class).hasMessageContaining("within the page's budget of PT5S");
        List<DynamoDbRequest> requests = pageCalls(slow);
        assertThat(requests).hasSize(3);
        assertThat(requests.get(requests.size() - 1).overrideConfiguration().orElseThrow().apiCallTimeout().orElseThrow())
                .isLessThanOrEqualTo(Duration.ofSeconds(1));
    }

    @Test
    void fieldAddedToAProject_isQueryableAtOnce() {
        Map<String, AttributeValue> project = new LinkedHashMap<>(Map.of("id", s("project#grows"),
                "attributes", AttributeValue.fromM(Map.of("old", AttributeValue.fromM(Map.of("name", s("Old")))))));
        put(project);
        putIssue(issue("issue#g1", "project#grows", 1, Map.of("old", s("x"), "new", s("y"))));
        IndexQuery query = query(dynamoDb);
        assertThat(ids(query.page(PageRequest.first("project#grows", "old", Order.ASC, 5)))).containsExactly("issue#g1");
        assertThatThrownBy(() -> query.page(PageRequest.first("project#grows", "new", Order.ASC, 5)))
                .isInstanceOf(QueryException.class).hasMessage("project project#grows has no attribute 'new'");

        project.put("attributes", AttributeValue.fromM(Map.of("old", AttributeValue.fromM(Map.of("name", s("Old"))),
                "new", AttributeValue.fromM(Map.of("name", s("New"))))));
        put(project);

        assertThat(ids(query.page(PageRequest.first("project#grows", "new", Order.ASC, 5)))).containsExactly("issue#g1");
    }

    @Test
    void badInput_isRefusedClearly() {
        IndexQuery query = query(dynamoDb);
        PageRequest request = PageRequest.first("project#35e9", "3812", Order.ASC, 1);
        String cursor = query.page(request).nextCursor().orElseThrow();

        assertThatThrownBy(() -> query.page(PageRequest.first("project#35e9", "nope", Order.ASC, 10)))
                .isInstanceOf(QueryException.class).hasMessage("project project#35e9 has no attribute 'nope'");
        assertThatThrownBy(() -> query.page(request.after("not-a-cursor!")))
                .isInstanceOf(QueryException.class).hasMessage(CursorSealer.REFUSED);
        assertThatThrownBy(() -> query.page(request.after("eyJ2IjoxfQ")))
                .isInstanceOf(QueryException.class).hasMessage(CursorSealer.REFUSED);
        assertThatThrownBy(() -> query.page(PageRequest.first("project#35e9", "882a", Order.ASC, 1).after(cursor)))
                .isInstanceOf(QueryException.class).hasMessage(CursorSealer.REFUSED);
        assertThatThrownBy(() -> PageRequest.first("project#35e9", "3812", Order.ASC, 101))
                .hasMessage("page size must be 1 to 100, got 101");
        assertThatThrownBy(() -> PageRequest.first("p", "a", Order.ASC, 5).withFilter(new Filter.BeginsWith("x")).withMissing())
                .hasMessageContaining("match no filter");
        assertThat(ids(query.page(request.after(cursor)))).containsExactly("issue#67d1");
    }
}

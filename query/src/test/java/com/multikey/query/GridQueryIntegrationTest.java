package com.multikey.query;

import com.multikey.common.Backoff;
import com.multikey.common.Deadline;
import com.multikey.common.Sleeper;
import com.multikey.common.StructuredLog;
import com.multikey.indexer.DynamoDbIndexWriter;
import com.multikey.indexer.IndexChange;
import com.multikey.indexer.IndexItem;
import com.multikey.indexer.IndexValue;
import com.multikey.indexer.IndexerConfig;
import com.multikey.indexer.IssueIndexer;
import com.multikey.local.support.Fixtures;
import com.multikey.local.support.LocalDynamoDb;
import com.multikey.local.support.SamTemplate;
import com.multikey.local.support.TemplateTables;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;

import java.io.OutputStream;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Pages over embedded DynamoDB Local with the template's tables, against an order computed independently. */
class GridQueryIntegrationTest {

    private static final IndexerConfig CONFIG = IndexerConfig.withDefaults("IssueAttribIndexTable");
    private static LocalDynamoDb local;
    private static DynamoDbClient dynamoDb;
    private static final Map<String, Map<String, AttributeValue>> ISSUES = new LinkedHashMap<>();

    @BeforeAll
    static void load() {
        local = LocalDynamoDb.start();
        dynamoDb = local.client();
        TemplateTables.create(SamTemplate.ofRepository(), dynamoDb);
        Fixtures.GridSample grid = Fixtures.grid();
        // the project items carry the attributes map the catalog reads attribute ids from
        grid.projects().forEach(GridQueryIntegrationTest::put);
        grid.issues().forEach(GridQueryIntegrationTest::putIssue);
        Random random = new Random(5);
        for (int i = 0; i < 160; i++) {
            Map<String, AttributeValue> fields = new LinkedHashMap<>();
            if (random.nextInt(5) > 0) {
                fields.put("n", AttributeValue.fromN(Integer.toString(random.nextInt(40) - 20)));
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
            putIssue(Map.of("id", s(String.format("issue#r%03d", i)), "project", s("project#" + (i % 2)),
                    "num", AttributeValue.fromN(Integer.toString(1 + random.nextInt(60))), "custom_fields", AttributeValue.fromM(fields)));
        }
    }

    @AfterAll
    static void stop() {
        dynamoDb.close();
        local.close();
    }

    private static AttributeValue s(String value) {
        return AttributeValue.fromS(value);
    }

    private static void put(Map<String, AttributeValue> item) {
        dynamoDb.putItem(b -> b.tableName("AppTable").item(item));
    }

    private static void putIssue(Map<String, AttributeValue> item) {
        put(item);
        ISSUES.put(item.get("id").s(), item);
        List<IndexChange> puts = new IssueIndexer(CONFIG).project(item.get("id").s(), item).items().stream()
                .<IndexChange>map(IndexChange.Put::new).toList();
        new DynamoDbIndexWriter(dynamoDb, "IssueAttribIndexTable", Backoff.standard(), Sleeper.SYSTEM,
                new StructuredLog("t", new PrintStream(OutputStream.nullOutputStream()), Clock.systemUTC()))
                .write(puts, Deadline.after(Duration.ofMinutes(1)));
    }

    private static GridQuery query(DynamoDbClient client) {
        return new GridQuery(client, "AppTable", "IssueAttribIndexTable", "ByProject", CONFIG,
                AttributeCatalog.fromProjectItems(client, "AppTable"), new Backoff(Duration.ofMillis(1), Duration.ofMillis(5), new Random(1)),
                Sleeper.SYSTEM);
    }

    /** Every page of a query: the issue ids in order, and checks on each page's calls. */
    private static List<String> all(GridQuery query, PageRequest first) {
        List<String> ids = new ArrayList<>();
        PageRequest request = first;
        for (int pages = 0; pages < 1000; pages++) {
            Page page = query.page(request);
            assertThat(page.issues()).hasSizeLessThanOrEqualTo(first.pageSize());
            assertThat(page.apiCalls()).isBetween(1, 2);
            page.issues().forEach(issue -> ids.add(issue.get("id").s()));
            if (page.nextCursor().isEmpty()) {
                return ids;
            }
            request = request.after(page.nextCursor().get());
        }
        throw new AssertionError("more than 1000 pages");
    }

    /** The expected order, from the issues themselves: each issue under its first matching value in the order. */
    private static List<String> expected(String project, String attribId, Order order, Optional<Filter> filter) {
        Comparator<String> bytes = Comparator.comparing(k -> k.getBytes(StandardCharsets.UTF_8), Arrays::compareUnsigned);
        Comparator<String> direction = order == Order.ASC ? bytes : bytes.reversed();
        Map<String, String> representative = new LinkedHashMap<>();
        IssueIndexer indexer = new IssueIndexer(CONFIG);
        ISSUES.forEach((id, item) -> {
            if (!item.get("project").s().equals(project)) {
                return;
            }
            indexer.project(id, item).items().stream()
                    .filter(i -> i.attribId().equals(attribId))
                    .filter(i -> filter.map(f -> f.matches(i.value())).orElse(true))
                    .map(IndexItem::sortKey).min(direction)
                    .ifPresent(key -> representative.put(id, key));
        });
        return representative.entrySet().stream().sorted(Map.Entry.comparingByValue(direction)).map(Map.Entry::getKey).toList();
    }

    @Test
    void gridSample_pagesInTheExpectedOrder_thenTheIssuesLackingTheField() {
        GridQuery query = query(dynamoDb);

        assertThat(all(query, PageRequest.first("project#35e9", "3812", Order.ASC, 1))).containsExactly("issue#020e", "issue#67d1");
        assertThat(all(query, PageRequest.first("project#35e9", "3812", Order.DESC, 1))).containsExactly("issue#67d1", "issue#020e");
        assertThat(all(query, PageRequest.first("project#35e9", "3fe6", Order.ASC, 2).withMissing()))
                .containsExactly("issue#af34", "issue#020e", "issue#67d1");
        Page first = query.page(PageRequest.first("project#35e9", "882a", Order.ASC, 25));
        assertThat(first.apiCalls()).isEqualTo(2);
        assertThat(first.issues()).extracting(i -> i.get("name")).isNotNull();
    }

    @Test
    void randomData_everyFilterOrderAndPageSize_givesEachMatchingIssueOnceInOrder() {
        GridQuery query = query(dynamoDb);
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
        for (String project : List.of("project#0", "project#1")) {
            for (String attribId : List.of("n", "t", "tags", "b")) {
                for (Order order : Order.values()) {
                    for (Optional<Filter> filter : filters) {
                        List<String> expected = expected(project, attribId, order, filter);
                        for (int pageSize : List.of(1, 3, 17, 100)) {
                            PageRequest request = PageRequest.first(project, attribId, order, pageSize);
                            List<String> ids = all(query, filter.map(request::withFilter).orElse(request));
                            assertThat(ids).as("%s %s %s %s page %d", project, attribId, order, filter, pageSize)
                                    .doesNotHaveDuplicates().isEqualTo(expected);
                            checked += ids.size();
                        }
                    }
                }
            }
        }
        assertThat(checked).isGreaterThan(2000);
    }

    @Test
    void withMissing_everyIssueOfTheProjectAppearsOnce() {
        for (Order order : Order.values()) {
            List<String> ids = all(query(dynamoDb), PageRequest.first("project#1", "n", order, 9).withMissing());

            Set<String> projectIssues = new HashSet<>();
            ISSUES.forEach((id, item) -> {
                if (item.get("project").s().equals("project#1")) {
                    projectIssues.add(id);
                }
            });
            assertThat(ids).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(projectIssues);
            assertThat(ids.subList(0, expected("project#1", "n", order, Optional.empty()).size()))
                    .isEqualTo(expected("project#1", "n", order, Optional.empty()));
        }
    }

    @Test
    void unprocessedKeys_areRetried_andCounted() {
        DynamoDbClient halfProcessing = new DynamoDbClient() {
            private int calls;

            @Override
            public BatchGetItemResponse batchGetItem(BatchGetItemRequest request) {
                KeysAndAttributes keys = request.requestItems().get("AppTable");
                if (calls++ > 0 || keys.keys().size() < 2) {
                    return dynamoDb.batchGetItem(request);
                }
                int half = keys.keys().size() / 2;
                BatchGetItemResponse done = dynamoDb.batchGetItem(b -> b.requestItems(
                        Map.of("AppTable", keys.toBuilder().keys(keys.keys().subList(0, half)).build())));
                return done.toBuilder().unprocessedKeys(Map.of("AppTable",
                        keys.toBuilder().keys(keys.keys().subList(half, keys.keys().size())).build())).build();
            }

            @Override
            public software.amazon.awssdk.services.dynamodb.model.QueryResponse query(
                    software.amazon.awssdk.services.dynamodb.model.QueryRequest request) {
                return dynamoDb.query(request);
            }

            @Override
            public software.amazon.awssdk.services.dynamodb.model.GetItemResponse getItem(
                    software.amazon.awssdk.services.dynamodb.model.GetItemRequest request) {
                return dynamoDb.getItem(request);
            }

            @Override
            public String serviceName() {
                return "dynamodb";
            }

            @Override
            public void close() {
            }
        };

        Page page = query(halfProcessing).page(PageRequest.first("project#0", "n", Order.ASC, 20));

        assertThat(page.apiCalls()).isEqualTo(3);
        assertThat(page.issues()).isNotEmpty()
                .isEqualTo(query(dynamoDb).page(PageRequest.first("project#0", "n", Order.ASC, 20)).issues());
    }

    @Test
    void badInput_isRefusedClearly() {
        GridQuery query = query(dynamoDb);
        PageRequest request = PageRequest.first("project#35e9", "3812", Order.ASC, 1);
        String cursor = query.page(request).nextCursor().orElseThrow();

        assertThatThrownBy(() -> query.page(PageRequest.first("project#35e9", "nope", Order.ASC, 10)))
                .isInstanceOf(QueryException.class).hasMessage("project project#35e9 has no attribute 'nope'");
        assertThatThrownBy(() -> query.page(request.after("not-a-cursor!")))
                .isInstanceOf(QueryException.class).hasMessage("malformed cursor");
        assertThatThrownBy(() -> query.page(request.after("eyJ2IjoxfQ")))
                .isInstanceOf(QueryException.class).hasMessage("malformed cursor");
        assertThatThrownBy(() -> query.page(PageRequest.first("project#35e9", "882a", Order.ASC, 1).after(cursor)))
                .isInstanceOf(QueryException.class).hasMessageStartingWith("the cursor belongs to another query");
        assertThatThrownBy(() -> PageRequest.first("project#35e9", "3812", Order.ASC, 101))
                .hasMessage("page size must be 1 to 100, got 101");
        assertThatThrownBy(() -> PageRequest.first("p", "a", Order.ASC, 5).withFilter(new Filter.BeginsWith("x")).withMissing())
                .hasMessageContaining("match no filter");
        assertThat(query.page(request.after(cursor)).issues()).extracting(i -> i.get("id").s()).containsExactly("issue#67d1");
    }
}

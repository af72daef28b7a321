package com.multikey.query;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.multikey.common.Backoff;
import com.multikey.common.Sleeper;
import com.multikey.index.IndexItem;
import com.multikey.index.IndexProjector;
import com.multikey.index.IndexValue;
import com.multikey.index.definition.DefinitionsYaml;
import com.multikey.index.definition.GridState;
import com.multikey.index.definition.IndexDefinitions;
import com.multikey.testkit.LocalTables;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
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

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The planner against a brute-force model: random items of every value type (multi-valued, missing, unindexable, with
 * skewed values, so some predicates are selective and others not), projected by the indexer's own {@link IndexProjector}
 * into the local engine, and random requests (1 to 4 predicates of every operator and type, on the sorted field too,
 * both orders, page sizes 1 to 100, with and without the missing tail, read budgets from the smallest there is (2 items:
 * an index item and its item) to 2,500, or the default) read page by page to the end. The pages together list exactly the model's sequence; each page reads at most its budget,
 * makes at most {@link ReadBudget#maxCalls} calls plus the BatchGetItems of one drive (one per 100 items of the budget),
 * and a page short of its size that is not the last has spent its budget and has a cursor.
 *
 * <p>The model knows nothing of the library but the predicate records it builds requests from: a field's values come
 * from the raw attribute (S, N, BOOL themselves; SS, NS and L their elements, NULL elements skipped; NULL, a map, or a
 * list holding anything else give none); values order as the index orders them: numbers, then text, then booleans;
 * numbers by value, text by code point, false before true; then num. An item is listed under its first value in page
 * order that satisfies the sorted field's predicates; the missing tail follows in num order (the issue grid) or in the
 * table's sort key order (a grouped index whose group is the table's partition key).
 *
 * <p>Three layouts: the grouped {@code issue-grid} of the default definitions, the field-partitioned
 * {@code custom_fields} (in state {@code field-partitioned}, with another project's items in the same partitions), and a
 * declared grouped index of map entries whose attribute predicates ({@code @state}, {@code @labels}) other declared
 * indexes of the same group list.
 */
class PlannerPropertiesTest {

    private static final String PROJECT = "project#p";
    private static final String OTHER = "project#other";
    private static final String TRACKER = "Tracker";
    private static final String INDEX_TABLE = "IssueAttribIndexTable";
    private static final String DECLARED_YAML = """
            version: 1
            table: {partitionKey: {name: pk, type: S}, sortKey: {name: sk, type: S}}
            indexes:
              - name: fields
                covers: [{attribute: sk, beginsWith: "ISSUE#"}]
                group: pk
                values: {entriesOf: cf}
                orderBy: num
              - name: states
                covers: [{attribute: sk, beginsWith: "ISSUE#"}]
                group: pk
                values: {attribute: state}
                orderBy: num
              - name: labels
                covers: [{attribute: sk, beginsWith: "ISSUE#"}]
                group: pk
                values: {elementsOf: labels}
                orderBy: num
              - name: title-words
                covers: [{attribute: sk, beginsWith: "ISSUE#"}]
                group: pk
                values: {wordsOf: title}
                orderBy: [state, num]
            """;
    private static final IndexDefinitions GROUPED_GRID = IndexDefinitions.packaged().withGridState(GridState.GROUPED);
    private static final IndexDefinitions FIELD_PARTITIONED_GRID = IndexDefinitions.packaged().withGridState(GridState.FIELD_PARTITIONED);
    private static final IndexDefinitions DECLARED = DefinitionsYaml.parse(DECLARED_YAML);
    private static final List<String> ENTRIES = List.of("status", "sev", "tags", "flag", "rare");
    private static final CursorSealer SEALER = CursorSealer.of(CursorKeys.ephemeral());
    /** A run that takes more pages than this has stopped making progress. */
    private static final int MAX_PAGES = 3000;

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

    // ---------------------------------------------------------------------------------------------------------------
    // the properties

    @Property(tries = 20)
    void groupedIssueGrid_pagesListExactlyTheModel_withinTheirBudgets(@ForAll("items") List<ItemSpec> items,
                                                                     @ForAll("gridRequests") List<RequestSpec> requests) {
        checkGrid(GROUPED_GRID, items, requests);
    }

    @Property(tries = 20)
    void fieldPartitionedIssueGrid_pagesListExactlyTheModel_withinTheirBudgets(@ForAll("items") List<ItemSpec> items,
                                                                              @ForAll("gridRequests") List<RequestSpec> requests) {
        checkGrid(FIELD_PARTITIONED_GRID, items, requests);
    }

    @Property(tries = 20)
    void declaredGroupedIndex_withAttributePredicatesOtherIndexesList_pagesListExactlyTheModel(
            @ForAll("items") List<ItemSpec> items, @ForAll("declaredRequests") List<RequestSpec> requests) {
        checkDeclared(items, requests);
    }

    /**
     * The declared indexes of an attribute ({@code states}: {@code state}) and of a list's elements ({@code labels}:
     * {@code labels}) read themselves: their sorted field in both spellings ({@code labels}, {@code @labels}), other
     * attributes plainly or with {@code @}, an attribute the other index lists (a drive), bounds of two types.
     */
    @Property(tries = 20)
    void declaredIndexOfAnAttributeOrOfElements_withBothSpellingsOfItsField_pagesListExactlyTheModel(
            @ForAll("items") List<ItemSpec> items, @ForAll("valueIndexRequests") List<RequestSpec> requests) {
        checkDeclared(items, requests);
    }

    /**
     * {@code has} and {@code has prefix} on {@code @title}, which the words index {@code title-words} holds (a drive), beside
     * the other predicates, on a map's index and on indexes of an attribute or of elements; on another field (no words index)
     * they are refused, naming them.
     */
    @Property(tries = 20)
    void declaredIndexes_withWordPredicates_pagesListExactlyTheModel(@ForAll("items") List<ItemSpec> items,
                                                                     @ForAll("wordRequests") List<RequestSpec> requests) {
        checkDeclared(items, requests);
    }

    /**
     * {@code has} or {@code has prefix} on {@code @title} read sorted by {@code state}, which the words index {@code title-words}
     * orders each word's items by ({@code orderBy: [state, num]}): the one predicate an index lists, so an ordered drive (a
     * prefix's words merged), beside predicates no index lists and the sorted field's own, ascending and descending, within
     * budgets.
     */
    @Property(tries = 20)
    void declaredIndexes_withAWordTheWordsIndexOrdersBySort_pagesListExactlyTheModel(@ForAll("items") List<ItemSpec> items,
                                                                                    @ForAll("orderedWordRequests") List<RequestSpec> requests) {
        checkDeclared(items, requests);
    }

    /**
     * An or of words on {@code @title} read sorted by {@code state}, which the words index orders each word's items by: an
     * ordered union (each word's range, or a prefix's words' ranges, merged in page order page by page), beside a word the
     * index orders (an ordered drive), predicates no index lists and the sorted field's own, within budgets.
     */
    @Property(tries = 20)
    void declaredIndexes_withAnOrOfWordsTheWordsIndexOrdersBySort_pagesListExactlyTheModel(@ForAll("items") List<ItemSpec> items,
                                                                                         @ForAll("orderedWordOrRequests") List<RequestSpec> requests) {
        checkDeclared(items, requests);
    }

    /**
     * Expressions of and, or and not (depth up to 4, every operator, on multi-valued and missing fields, the sorted field
     * too), written as text and read by the where grammar, beside a request's predicates: the pages list exactly what the
     * model's independent evaluation of the expression lists.
     */
    @Property(tries = 20)
    void groupedIssueGrid_withOrAndNotExpressions_pagesListExactlyTheModel(@ForAll("items") List<ItemSpec> items,
                                                                          @ForAll("gridExpressionRequests") List<RequestSpec> requests) {
        checkGrid(GROUPED_GRID, items, requests);
    }

    @Property(tries = 15)
    void fieldPartitionedIssueGrid_withOrAndNotExpressions_pagesListExactlyTheModel(@ForAll("items") List<ItemSpec> items,
                                                                                   @ForAll("gridExpressionRequests") List<RequestSpec> requests) {
        checkGrid(FIELD_PARTITIONED_GRID, items, requests);
    }

    @Property(tries = 20)
    void declaredIndexes_withOrAndNotExpressions_pagesListExactlyTheModel(@ForAll("items") List<ItemSpec> items,
                                                                         @ForAll("declaredExpressionRequests") List<RequestSpec> requests) {
        checkDeclared(items, requests);
    }

    /**
     * Requests of two groups ({@code withGroups}, in either order), each group planned as a request of its own would be —
     * an or read as a union of drives (of word predicates too: {@code @title has timeout or @title has prefix ti}), an or
     * nested in an and, a word's ordered drive, and predicates of every operator — merged: the pages list exactly the
     * model's items of both groups in page order, then each group's missing tail in the order named, within their budgets.
     */
    @Property(tries = 25)
    void declaredIndexes_ofSeveralGroups_withOrsAndWordPredicates_pagesListExactlyTheModel(@ForAll("items") List<ItemSpec> items,
                                                                                           @ForAll("severalGroupRequests") List<RequestSpec> requests) {
        checkDeclaredGroups(items, requests);
    }

    private static synchronized void checkDeclaredGroups(List<ItemSpec> items, List<RequestSpec> requests) {
        tables.reset();
        DynamoDbClient dynamoDb = tables.dynamoDb();
        dynamoDb.createTable(b -> b.tableName(TRACKER).billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(a -> a.attributeName("pk").attributeType(ScalarAttributeType.S),
                        a -> a.attributeName("sk").attributeType(ScalarAttributeType.S))
                .keySchema(k -> k.attributeName("pk").keyType(KeyType.HASH), k -> k.attributeName("sk").keyType(KeyType.RANGE)));
        List<Map<String, AttributeValue>> written = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            written.add(declaredItem(PROJECT, i, items.get(i)));
            if (i % 3 == 0) {
                // the other group's copy of a third of the items, under nums of its own: no two items of the groups tie
                Map<String, AttributeValue> other = new LinkedHashMap<>(declaredItem(OTHER, i, items.get(i)));
                other.put("num", n(Integer.toString(items.size() + i + 1)));
                written.add(other);
            }
        }
        for (String group : List.of(PROJECT, OTHER)) {
            // in the group's partition, covered by no index: never in the missing tail
            write(dynamoDb, TRACKER, DECLARED, Map.of("pk", s(group), "sk", s("PROJECT#p"), "num", n("0")));
        }
        written.forEach(item -> write(dynamoDb, TRACKER, DECLARED, item));
        List<Model.Item> model = written.stream().map(item -> new Model.Item(item.get("pk").s() + " " + item.get("sk").s(),
                new BigDecimal(item.get("num").n()), item.get("sk").s(), item)).toList();
        for (RequestSpec spec : requests) {
            List<String> named = spec.pageSize() % 2 == 0 ? List.of(PROJECT, OTHER) : List.of(OTHER, PROJECT);
            PageRequest first = (switch (spec.sortField()) {
                case "labels" -> PageRequest.onIndex("labels", List.of(s(PROJECT)), "", spec.order(), spec.pageSize());
                case "state" -> PageRequest.onIndex("states", List.of(s(PROJECT)), "", spec.order(), spec.pageSize());
                default -> PageRequest.onIndex("fields", List.of(s(PROJECT)), spec.sortField(), spec.order(), spec.pageSize());
            }).withGroups(named.stream().map(group -> List.of(s(group))).toList());
            Model.Fields fields = switch (spec.sortField()) {
                case "labels", "state" -> Model.Fields.ofValues(spec.sortField());
                default -> Model.Fields.ofEntries("cf", spec.sortField());
            };
            check(DECLARED, TRACKER, spec, fields, first, model, Model.Tail.TABLE_SORT_KEY,
                    item -> item.get("pk").s() + " " + item.get("sk").s(), named.size(),
                    item -> named.indexOf(item.attributes().get("pk").s()));
        }
    }

    /** One try at a time: a shrink that ran out of time may still be running beside the next property. */
    private static synchronized void checkDeclared(List<ItemSpec> items, List<RequestSpec> requests) {
        tables.reset();
        DynamoDbClient dynamoDb = tables.dynamoDb();
        dynamoDb.createTable(b -> b.tableName(TRACKER).billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(a -> a.attributeName("pk").attributeType(ScalarAttributeType.S),
                        a -> a.attributeName("sk").attributeType(ScalarAttributeType.S))
                .keySchema(k -> k.attributeName("pk").keyType(KeyType.HASH), k -> k.attributeName("sk").keyType(KeyType.RANGE)));
        List<Map<String, AttributeValue>> written = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            written.add(declaredItem(PROJECT, i, items.get(i)));
            if (i % 4 == 0) {
                write(dynamoDb, TRACKER, DECLARED, declaredItem(OTHER, i, items.get(i)));
            }
        }
        // in the group's partition, covered by no index: never in the missing tail
        write(dynamoDb, TRACKER, DECLARED, Map.of("pk", s(PROJECT), "sk", s("PROJECT#p"), "num", n("0")));
        written.forEach(item -> write(dynamoDb, TRACKER, DECLARED, item));
        List<Model.Item> model = written.stream().map(item -> new Model.Item(item.get("pk").s() + " " + item.get("sk").s(),
                new BigDecimal(item.get("num").n()), item.get("sk").s(), item)).toList();
        for (RequestSpec spec : requests) {
            PageRequest first = switch (spec.sortField()) {
                case "labels" -> PageRequest.onIndex("labels", List.of(s(PROJECT)), "", spec.order(), spec.pageSize());
                case "state" -> PageRequest.onIndex("states", List.of(s(PROJECT)), "", spec.order(), spec.pageSize());
                default -> PageRequest.onIndex("fields", List.of(s(PROJECT)), spec.sortField(), spec.order(), spec.pageSize());
            };
            Model.Fields fields = switch (spec.sortField()) {
                case "labels", "state" -> Model.Fields.ofValues(spec.sortField());
                default -> Model.Fields.ofEntries("cf", spec.sortField());
            };
            check(DECLARED, TRACKER, spec, fields, first, model, Model.Tail.TABLE_SORT_KEY,
                    item -> item.get("pk").s() + " " + item.get("sk").s());
        }
    }

    private static synchronized void checkGrid(IndexDefinitions definitions, List<ItemSpec> items, List<RequestSpec> requests) {
        tables.reset();
        DynamoDbClient dynamoDb = tables.dynamoDb();
        List<Map<String, AttributeValue>> written = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            written.add(gridItem(PROJECT, i, items.get(i)));
            if (i % 4 == 0) {
                // another project's items in the same field partitions of the field-partitioned layout
                write(dynamoDb, "AppTable", definitions, gridItem(OTHER, i, items.get(i)));
            }
        }
        written.forEach(item -> write(dynamoDb, "AppTable", definitions, item));
        List<Model.Item> model = written.stream().map(item -> new Model.Item(item.get("id").s(), new BigDecimal(item.get("num").n()),
                item.get("id").s(), item)).toList();
        for (RequestSpec spec : requests) {
            check(definitions, "AppTable", spec, Model.Fields.ofEntries("custom_fields", spec.sortField()),
                    PageRequest.first(PROJECT, spec.sortField(), spec.order(), spec.pageSize()), model,
                    Model.Tail.NUM, item -> item.get("id").s());
        }
    }

    /** Reads every page of the request and checks it against the model. */
    private static void check(IndexDefinitions definitions, String table, RequestSpec spec, Model.Fields fields, PageRequest plain,
                              List<Model.Item> items, Model.Tail tail,
                              java.util.function.Function<Map<String, AttributeValue>, String> keyOf) {
        check(definitions, table, spec, fields, plain, items, tail, keyOf, 1, item -> 0);
    }

    /**
     * Reads every page of the request, of {@code groups} groups, and checks it against the model: a request of several groups
     * names a budget of at least 2 items a group, and each page makes at most the calls of one group's page per group read
     * (within the share of the groups not yet done); the missing tails follow group by group ({@code groupRank}).
     */
    private static void check(IndexDefinitions definitions, String table, RequestSpec spec, Model.Fields fields, PageRequest plain,
                              List<Model.Item> items, Model.Tail tail,
                              java.util.function.Function<Map<String, AttributeValue>, String> keyOf, int groups,
                              java.util.function.Function<Model.Item, Integer> groupRank) {
        RecordingDynamoDbClient client = new RecordingDynamoDbClient(tables.dynamoDb());
        IndexQuery query = new IndexQuery(client, table, INDEX_TABLE, definitions,
                new Backoff(Duration.ofMillis(1), Duration.ofMillis(5), new Random(1)), Sleeper.SYSTEM, Duration.ofSeconds(60),
                System::nanoTime, SEALER, new GridSettings("ByProject", (project, attribute) -> true));
        // ranges on one field (in any spelling) that leave no value, inverted or of two types: refused, naming one of them
        java.util.Set<Integer> refused = Model.refused(spec, fields);
        if (!refused.isEmpty()) {
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> query.page(plain.where(spec.predicates().stream()
                            .map(PredicateSpec::toPredicate).toList())))
                    .as("refused: %s", spec)
                    .isInstanceOfSatisfying(InvalidPredicateException.class, e -> assertThat(refused).as("%s", spec).contains(e.position()));
            return;
        }
        List<Expression> wheres = new ArrayList<>(spec.predicates().stream().map(PredicateSpec::toPredicate).toList());
        // an expression as a caller writes it: its text, read by the where grammar
        spec.expressions().forEach(e -> wheres.add(ExpressionText.parse(ExpressionText.format(e.toExpression()), wheres.size())));
        PageRequest request = plain.where(wheres);
        if (spec.missing()) {
            request = request.withMissing();
        }
        int asked = spec.budget() > 0 ? Math.max(2 * groups, spec.budget()) : 0;
        if (asked > 0) {
            request = request.withReadBudget(asked);
        }
        if (spec.explain()) {
            request = request.withExplain();
        }
        int budget = asked > 0 ? asked : Math.min(ReadBudget.DEFAULT.max(), ReadBudget.DEFAULT.standard() * groups);
        int maxCalls = 0;
        for (int reading = 1; reading <= groups; reading++) {
            int share = budget / reading;
            maxCalls = Math.max(maxCalls, reading * (ReadBudget.maxCalls(share) + (share + 99) / 100));
        }
        List<String> expected = Model.sequence(items, spec, fields, tail, groupRank);

        // every page moves on by at least one index item of the read partition or one item of the tail, or learns what lets
        // the next one do so: no request takes more than twice as many pages as the tables hold items, whatever its budget
        int maxPages = Math.min(MAX_PAGES, 2 * (itemsIn(INDEX_TABLE) + itemsIn(table)) + 2);
        List<String> listed = new ArrayList<>();
        // the first page starts where a cursor with no key stands: the beginning of the index part
        String position = "{\"part\":\"INDEX\",\"key\":{}}";
        String content = position;
        boolean stayed = false;
        for (int n = 0; ; n++) {
            assertThat(n).as("pages of %s: no end after %d pages, %d of %d items listed", spec, maxPages, listed.size(), expected.size())
                    .isLessThan(maxPages);
            client.requests.clear();
            Page page;
            try {
                page = query.page(request);
            } catch (RuntimeException e) {
                throw new AssertionError("page " + n + " of " + spec + " failed after " + client.requests, e);
            }
            int calls = client.requestsOf(QueryRequest.class).size() + client.requestsOf(BatchGetItemRequest.class).size();
            String where = "page " + n + " of " + spec;
            assertThat(page.apiCalls()).as("API calls counted, %s", where).isEqualTo(calls);
            assertThat(calls).as("API calls, %s", where).isLessThanOrEqualTo(maxCalls);
            assertThat(page.examined()).as("items read, %s", where).isBetween(0, budget);
            assertThat(page.explain().isPresent()).as("explained, %s", where).isEqualTo(spec.explain());
            page.items().forEach(item -> listed.add(keyOf.apply(item)));
            if (page.nextCursor().isEmpty()) {
                break;
            }
            // a page that lists nothing moves its cursor on, or learns what lets the next page do so (a plan that did not fit):
            // else the next page is this one again, and the reading never ends
            String next = positionOf(page.nextCursor().get(), request, false);
            String nextContent = positionOf(page.nextCursor().get(), request, true);
            if (page.items().isEmpty() && next.equals(position)) {
                assertThat(stayed).as("two pages in a row listed nothing and left the cursor where it was, %s (read %d items)", where,
                        page.examined()).isFalse();
                assertThat(nextContent).as("the cursor of a page that listed nothing moved on or learned, %s (read %d items)", where,
                        page.examined()).isNotEqualTo(content);
                stayed = true;
            } else {
                stayed = false;
            }
            position = next;
            content = nextContent;
            if (page.items().size() < spec.pageSize()) {
                assertThat(page.budgetSpent()).as("a short page that is not the last spent its budget, %s", where).isTrue();
            }
            request = request.after(page.nextCursor().get());
        }
        assertThat(listed).as("every page of %s", spec).isEqualTo(expected);
    }

    /** Where a cursor resumes: its content, without what the request learned unless {@code learned}. */
    private static String positionOf(String cursor, PageRequest request, boolean learned) {
        try {
            JsonNode node = new ObjectMapper()
                    .readTree(new String(SEALER.open(cursor, request.identity()), StandardCharsets.UTF_8));
            List<JsonNode> parts = new ArrayList<>(List.of(node));
            node.path("groups").forEach(parts::add);
            parts.stream().filter(part -> !learned).filter(ObjectNode.class::isInstance)
                    .forEach(part -> ((ObjectNode) part).remove("k"));
            return node.toString();
        } catch (java.io.IOException e) {
            throw new AssertionError("a cursor that does not read as JSON", e);
        }
    }

    private static int itemsIn(String table) {
        return tables.dynamoDb().scanPaginator(b -> b.tableName(table)).stream().mapToInt(r -> r.items().size()).sum();
    }

    // ---------------------------------------------------------------------------------------------------------------
    // items

    /** One generated item: its custom fields (a missing entry is absent) and a few top-level attributes, null when absent. */
    record ItemSpec(Map<String, AttributeValue> fields, boolean noFieldMap, AttributeValue title, AttributeValue state,
                    AttributeValue labels) {
    }

    private static Map<String, AttributeValue> gridItem(String project, int i, ItemSpec spec) {
        Map<String, AttributeValue> item = new LinkedHashMap<>();
        // ids in another order than nums
        item.put("id", s("issue#" + project.substring(8) + "-" + Integer.toString((i * 7919) % 100_003, 36)));
        item.put("project", s(project));
        item.put("num", n(Integer.toString(i + 1)));
        attributes(item, spec, "custom_fields");
        return item;
    }

    private static Map<String, AttributeValue> declaredItem(String group, int i, ItemSpec spec) {
        Map<String, AttributeValue> item = new LinkedHashMap<>();
        item.put("pk", s(group));
        // sort keys in another order than nums: ISSUE#10 before ISSUE#2
        item.put("sk", s("ISSUE#" + (i + 1)));
        item.put("num", n(Integer.toString(i + 1)));
        attributes(item, spec, "cf");
        return item;
    }

    private static void attributes(Map<String, AttributeValue> item, ItemSpec spec, String map) {
        if (!spec.noFieldMap()) {
            item.put(map, AttributeValue.fromM(spec.fields()));
        }
        if (spec.title() != null) {
            item.put("title", spec.title());
        }
        if (spec.state() != null) {
            item.put("state", spec.state());
        }
        if (spec.labels() != null) {
            item.put("labels", spec.labels());
        }
    }

    /** The item, and the index items the stream indexer keeps for it (its own projection), written directly. */
    private static void write(DynamoDbClient dynamoDb, String table, IndexDefinitions definitions, Map<String, AttributeValue> item) {
        dynamoDb.putItem(b -> b.tableName(table).item(item));
        IndexProjector projector = new IndexProjector(definitions);
        List<WriteRequest> puts = projector.project(projector.keyOf(item).orElseThrow(), item).items().stream()
                .map(IndexItem::toItem)
                .map(indexItem -> WriteRequest.builder().putRequest(PutRequest.builder().item(indexItem).build()).build())
                .toList();
        for (int from = 0; from < puts.size(); from += 25) {
            List<WriteRequest> chunk = puts.subList(from, Math.min(puts.size(), from + 25));
            dynamoDb.batchWriteItem(b -> b.requestItems(Map.of(INDEX_TABLE, chunk)));
        }
    }

    @Provide
    Arbitrary<List<ItemSpec>> items() {
        Arbitrary<Map<String, AttributeValue>> fields = Combinators.combine(
                field(95, status(), Arbitraries.just(n("1"))),
                field(85, severity(), Arbitraries.just(s("high"))),
                field(60, tag(), Arbitraries.just(n("3"))),
                field(30, Arbitraries.of(true, false).map(AttributeValue::fromBool), Arbitraries.just(s("yes"))),
                field(4, Arbitraries.of(s("x"), n("7")), Arbitraries.just(AttributeValue.fromBool(true)))
        ).as((status, sev, tags, flag, rare) -> {
            Map<String, AttributeValue> map = new LinkedHashMap<>();
            List<Optional<AttributeValue>> values = List.of(status, sev, tags, flag, rare);
            for (int i = 0; i < ENTRIES.size(); i++) {
                int at = i;
                values.get(i).ifPresent(value -> map.put(ENTRIES.get(at), value));
            }
            return map;
        });
        Arbitrary<AttributeValue> title = Arbitraries.frequencyOf(Tuple.of(2, Arbitraries.just((AttributeValue) null)),
                Tuple.of(8, Arbitraries.of("Fix crash", "Fix typo", "Add test", "fix", "Z").map(PlannerPropertiesTest::s)),
                Tuple.of(6, Arbitraries.of("Fix the timeout", "Timeout in DB", "time-out: timer", "TIMEOUTS", "Time, timer & TIME",
                        "db: don't time out", "Caf\u00e9 timer", "cafe\u0301", "", "--", "42 times").map(PlannerPropertiesTest::s)),
                Tuple.of(1, Arbitraries.of(n("42"), AttributeValue.fromL(List.of(s("timeout"), s("Fix DB"))),
                        AttributeValue.fromSs(List.of("time out", "crash")), AttributeValue.fromL(List.of(s("timer"), AttributeValue.fromM(Map.of()))))));
        Arbitrary<AttributeValue> state = Arbitraries.frequencyOf(Tuple.of(1, Arbitraries.just((AttributeValue) null)),
                Tuple.of(8, status()), Tuple.of(1, severity()));
        Arbitrary<AttributeValue> labels = Arbitraries.frequencyOf(Tuple.of(4, Arbitraries.just((AttributeValue) null)),
                Tuple.of(5, multi(tag(), true)), Tuple.of(1, odd()));
        Arbitrary<ItemSpec> item = Combinators.combine(fields, Arbitraries.integers().between(0, 39).map(i -> i == 0), title, state, labels)
                .as(ItemSpec::new);
        return item.list().ofMinSize(50).ofMaxSize(300);
    }

    /** Text, skewed: most items are open. */
    private static Arbitrary<AttributeValue> status() {
        return Arbitraries.frequencyOf(Tuple.of(60, Arbitraries.just(s("open"))), Tuple.of(25, Arbitraries.just(s("closed"))),
                Tuple.of(8, Arbitraries.just(s("triage"))), Tuple.of(3, Arbitraries.just(s("Open"))), Tuple.of(2, Arbitraries.just(s("op"))),
                Tuple.of(1, Arbitraries.just(s(""))), Tuple.of(1, Arbitraries.just(s("\u00e9t\u00e9"))),
                Tuple.of(1, Arbitraries.just(s("\uD83D\uDE00 smile"))), Tuple.of(1, Arbitraries.just(s("\uFF5Ewide"))));
    }

    /** Numbers, skewed to small ones, in several spellings. */
    private static Arbitrary<AttributeValue> severity() {
        return Arbitraries.frequencyOf(Tuple.of(45, Arbitraries.just(n("1"))), Tuple.of(25, Arbitraries.just(n("2"))),
                Tuple.of(10, Arbitraries.just(n("3"))), Tuple.of(3, Arbitraries.just(n("3.0"))), Tuple.of(6, Arbitraries.just(n("5"))),
                Tuple.of(3, Arbitraries.just(n("-1"))), Tuple.of(3, Arbitraries.just(n("0"))), Tuple.of(3, Arbitraries.just(n("2.5"))),
                Tuple.of(1, Arbitraries.just(n("1E+3"))), Tuple.of(1, Arbitraries.just(n("-0.001"))));
    }

    private static Arbitrary<AttributeValue> tag() {
        return Arbitraries.frequencyOf(Tuple.of(40, Arbitraries.just(s("red"))), Tuple.of(25, Arbitraries.just(s("green"))),
                Tuple.of(15, Arbitraries.just(s("blue"))), Tuple.of(5, Arbitraries.just(s("amber"))), Tuple.of(3, Arbitraries.just(s("gr\u00e9y"))),
                Tuple.of(2, Arbitraries.just(s("re"))));
    }

    /**
     * A field present in {@code present} percent of the items: mostly one value of {@code scalar}, else several (a set or
     * a list, its elements possibly of other types), a value of another type, or a value that gives no index item.
     */
    private static Arbitrary<Optional<AttributeValue>> field(int present, Arbitrary<AttributeValue> scalar, Arbitrary<AttributeValue> other) {
        return Arbitraries.frequencyOf(
                Tuple.of(100 - present, Arbitraries.just(Optional.<AttributeValue>empty())),
                Tuple.of(Math.max(1, present * 70 / 100), scalar.map(Optional::of)),
                Tuple.of(Math.max(1, present * 15 / 100), multi(scalar, false).map(Optional::of)),
                Tuple.of(Math.max(1, present * 8 / 100), other.map(Optional::of)),
                Tuple.of(Math.max(1, present * 7 / 100), odd().map(Optional::of)));
    }

    /** Several values: a string or number set (distinct values) or a list that may mix in other types and NULLs. */
    private static Arbitrary<AttributeValue> multi(Arbitrary<AttributeValue> scalar, boolean setsOnly) {
        Arbitrary<AttributeValue> list = Arbitraries.oneOf(scalar, scalar, severity(), Arbitraries.of(true, false).map(AttributeValue::fromBool),
                        Arbitraries.just(AttributeValue.fromNul(true)))
                .list().ofMinSize(1).ofMaxSize(4).map(AttributeValue::fromL);
        Arbitrary<AttributeValue> set = scalar.list().ofMinSize(1).ofMaxSize(4).map(values -> {
            if (values.stream().allMatch(v -> v.s() != null)) {
                List<String> texts = values.stream().map(AttributeValue::s).filter(text -> !text.isEmpty()).distinct().toList();
                return texts.isEmpty() ? values.get(0) : AttributeValue.fromSs(texts);
            }
            if (values.stream().allMatch(v -> v.n() != null)) {
                Map<BigDecimal, String> numbers = new LinkedHashMap<>();
                values.forEach(v -> numbers.putIfAbsent(new BigDecimal(v.n()).stripTrailingZeros(), v.n()));
                return AttributeValue.fromNs(List.copyOf(numbers.values()));
            }
            return AttributeValue.fromL(values);
        });
        return setsOnly ? set : Arbitraries.oneOf(list, set);
    }

    /** Present, yet no index item: NULL, an empty list, a list of NULLs, a map, a list holding a map. */
    private static Arbitrary<AttributeValue> odd() {
        return Arbitraries.of(AttributeValue.fromNul(true), AttributeValue.fromL(List.of()),
                AttributeValue.fromL(List.of(AttributeValue.fromNul(true))), AttributeValue.fromM(Map.of("x", s("open"))),
                AttributeValue.fromL(List.of(n("1"), AttributeValue.fromM(Map.of()))));
    }

    // ---------------------------------------------------------------------------------------------------------------
    // requests

    /** A request: the sorted entry, order, page size, the missing tail or not, its predicates, a budget (0: the default). */
    record RequestSpec(String sortField, Order order, int pageSize, boolean missing, List<PredicateSpec> predicates, int budget,
                       boolean explain, List<ExprSpec> expressions) {

        RequestSpec(String sortField, Order order, int pageSize, boolean missing, List<PredicateSpec> predicates, int budget,
                    boolean explain) {
            this(sortField, order, pageSize, missing, predicates, budget, explain, List.of());
        }

        RequestSpec withExpressions(List<ExprSpec> more) {
            return new RequestSpec(sortField, order, pageSize, missing, predicates, budget, explain, more);
        }

        @Override
        public String toString() {
            return "sort " + sortField + " " + order + ", page " + pageSize + (missing ? ", with missing" : "") + ", budget "
                    + (budget == 0 ? "default" : budget) + ", where " + predicates.stream().map(p -> PredicateText.format(p.toPredicate())).toList()
                    + (expressions.isEmpty() ? "" : " and " + expressions.stream().map(e -> ExpressionText.format(e.toExpression())).toList());
        }
    }

    /** An expression as the model reads it: a predicate, or and, or, not of expressions. */
    sealed interface ExprSpec {
        record Leaf(PredicateSpec predicate) implements ExprSpec {
        }

        record All(List<ExprSpec> operands) implements ExprSpec {
        }

        record Any(List<ExprSpec> operands) implements ExprSpec {
        }

        record None(ExprSpec operand) implements ExprSpec {
        }

        default Expression toExpression() {
            return switch (this) {
                case Leaf leaf -> leaf.predicate().toPredicate();
                case All all -> new Expression.And(all.operands().stream().map(ExprSpec::toExpression).toList());
                case Any any -> new Expression.Or(any.operands().stream().map(ExprSpec::toExpression).toList());
                case None none -> new Expression.Not(none.operand().toExpression());
            };
        }

        /** Its predicates as written: a range of two bounds is written as two. */
        default int leaves() {
            return switch (this) {
                case Leaf leaf -> twoBounds(leaf) ? 2 : 1;
                case All all -> all.operands().stream().mapToInt(ExprSpec::leaves).sum();
                case Any any -> any.operands().stream().mapToInt(ExprSpec::leaves).sum();
                case None none -> none.operand().leaves();
            };
        }

        /** Its levels of nesting as written: each and, or and not one, and a range of two bounds written as an and. */
        default int levels() {
            return switch (this) {
                case Leaf leaf -> twoBounds(leaf) ? 1 : 0;
                case All all -> 1 + all.operands().stream().mapToInt(ExprSpec::levels).max().orElse(0);
                case Any any -> 1 + any.operands().stream().mapToInt(ExprSpec::levels).max().orElse(0);
                case None none -> 1 + none.operand().levels();
            };
        }

        private static boolean twoBounds(Leaf leaf) {
            return leaf.predicate().op() == Op.RANGE && leaf.predicate().values().get(0) != null && leaf.predicate().values().get(1) != null;
        }
    }

    enum Op { EQUALS, IN, NOT_EQUALS, BEGINS_WITH, RANGE, PRESENT, MISSING, HAS, HAS_PREFIX }

    /** A predicate as the model reads it; {@code values} holds the one value, the in list, or the range's low and high (null: open). */
    record PredicateSpec(String field, Op op, List<Value> values, boolean lowInclusive, boolean highInclusive) {

        Predicate toPredicate() {
            return switch (op) {
                case EQUALS -> new Predicate.Equals(field, values.get(0).toIndexValue());
                case IN -> new Predicate.In(field, values.stream().map(Value::toIndexValue).toList());
                case NOT_EQUALS -> new Predicate.NotEquals(field, values.get(0).toIndexValue());
                case BEGINS_WITH -> new Predicate.BeginsWith(field, values.get(0).text());
                case RANGE -> new Predicate.Range(field, values.get(0) == null ? null : values.get(0).toIndexValue(), lowInclusive,
                        values.get(1) == null ? null : values.get(1).toIndexValue(), highInclusive);
                case PRESENT -> new Predicate.Present(field);
                case MISSING -> new Predicate.Missing(field);
                case HAS -> new Predicate.Has(field, values.get(0).text());
                case HAS_PREFIX -> new Predicate.HasPrefix(field, values.get(0).text());
            };
        }
    }

    @Provide
    Arbitrary<List<RequestSpec>> wordRequests() {
        Arbitrary<List<RequestSpec>> base = Arbitraries.oneOf(declaredRequests(), valueIndexRequests());
        Arbitrary<String> field = Arbitraries.frequencyOf(Tuple.of(8, Arbitraries.just("@title")), Tuple.of(1, Arbitraries.of("@state", "status")));
        Arbitrary<List<PredicateSpec>> words = field.flatMap(PlannerPropertiesTest::word).list().ofMinSize(1).ofMaxSize(2);
        return base.flatMap(requests -> words.list().ofSize(requests.size()).map(added -> {
            List<RequestSpec> out = new ArrayList<>();
            for (int i = 0; i < requests.size(); i++) {
                RequestSpec spec = requests.get(i);
                List<PredicateSpec> predicates = new ArrayList<>(added.get(i));
                predicates.addAll(spec.predicates().subList(0, Math.min(spec.predicates().size(), 3)));
                if (i % 2 == 1) {
                    java.util.Collections.reverse(predicates);
                }
                out.add(new RequestSpec(spec.sortField(), spec.order(), spec.pageSize(), spec.missing(), predicates, spec.budget(),
                        spec.explain()));
            }
            return out;
        }));
    }

    /** {@code has} a word some titles hold (or none does), or {@code has prefix} the start of one. */
    private static Arbitrary<PredicateSpec> word(String field) {
        Arbitrary<PredicateSpec> has = Arbitraries.of("timeout", "time", "fix", "db", "caf\u00e9", "42", "t", "nowhere", "timeouts")
                .map(word -> new PredicateSpec(field, Op.HAS, List.of(Value.text(word)), false, false));
        Arbitrary<PredicateSpec> prefix = Arbitraries.of("t", "ti", "time", "timeo", "f", "caf", "caf\u00e9", "4", "d", "zz")
                .map(start -> new PredicateSpec(field, Op.HAS_PREFIX, List.of(Value.text(start)), false, false));
        return Arbitraries.oneOf(has, prefix);
    }

    @Provide
    Arbitrary<List<RequestSpec>> gridRequests() {
        // an entry's @ spelling is the entry: @custom_fields.tags is tags
        return requests(Arbitraries.of(ENTRIES), Arbitraries.frequencyOf(Tuple.of(6, Arbitraries.of(ENTRIES)), Tuple.of(3, Arbitraries.of(
                "@title", "@state", "@labels", "@custom_fields.status", "@custom_fields.sev", "@custom_fields.tags", "@custom_fields.flag"))),
                sorted -> Arbitraries.of(sorted, sorted, "@custom_fields." + sorted));
    }

    @Provide
    Arbitrary<List<RequestSpec>> declaredRequests() {
        // @state and @labels are listed by the indexes states and labels; @title by none; @cf.<entry> is the entry
        return requests(Arbitraries.of(ENTRIES), Arbitraries.frequencyOf(Tuple.of(6, Arbitraries.of(ENTRIES)), Tuple.of(3, Arbitraries.of(
                "@state", "@labels", "@labels", "@state", "@title", "@cf.tags", "@cf.status", "@cf.sev"))),
                sorted -> Arbitraries.of(sorted, sorted, "@cf." + sorted));
    }

    @Provide
    Arbitrary<List<RequestSpec>> orderedWordRequests() {
        Arbitrary<PredicateSpec> has = Arbitraries.oneOf(Arbitraries.of("timeout", "time", "fix", "db", "caf\u00e9", "42", "t", "nowhere")
                        .map(word -> new PredicateSpec("@title", Op.HAS, List.of(Value.text(word)), false, false)),
                // several words' ranges, merged in page order
                Arbitraries.of("time", "ti", "t", "fi", "caf", "d", "4", "no")
                        .map(start -> new PredicateSpec("@title", Op.HAS_PREFIX, List.of(Value.text(start)), false, false)));
        // @title (plainly) and @cf.status are listed by no index: has is the only predicate a drive may start from
        return requests(Arbitraries.just("state"), Arbitraries.of("@title", "@cf.status", "@cf.sev"),
                sorted -> Arbitraries.of(sorted, "@" + sorted))
                .flatMap(requests -> has.list().ofSize(requests.size()).map(words -> {
                    List<RequestSpec> out = new ArrayList<>();
                    for (int i = 0; i < requests.size(); i++) {
                        RequestSpec spec = requests.get(i);
                        List<PredicateSpec> predicates = new ArrayList<>(spec.predicates().subList(0, Math.min(spec.predicates().size(), 2)));
                        predicates.add(i % 2, words.get(i));
                        out.add(new RequestSpec(spec.sortField(), spec.order(), spec.pageSize(), spec.missing(), predicates, spec.budget(),
                                spec.explain()));
                    }
                    return out;
                }));
    }

    @Provide
    Arbitrary<List<RequestSpec>> valueIndexRequests() {
        // on an index of an attribute or of a list's elements a plain name is an attribute: state and @state are one field;
        // @state is listed by the index states, @labels by the index labels, @title and @cf.status by none
        return requests(Arbitraries.of("labels", "state"), Arbitraries.of("@state", "state", "@labels", "labels", "@title", "title",
                        "@cf.status", "@cf.sev"), sorted -> Arbitraries.of(sorted, "@" + sorted));
    }

    /**
     * Requests on the declared indexes with expressions (ors a union may read, alone or in an and), with word predicates,
     * or with a word the words index orders by the sorted field; two in three with an or of words before their expressions
     * and the default budget, so that a union reads it.
     */
    @Provide
    Arbitrary<List<RequestSpec>> severalGroupRequests() {
        return withWordOrs(Arbitraries.oneOf(declaredExpressionRequests(), wordRequests(), orderedWordRequests()), true);
    }

    /** Requests sorted by {@code state}, with a word the words index orders by it, two in three with an or of words besides. */
    @Provide
    Arbitrary<List<RequestSpec>> orderedWordOrRequests() {
        // their budgets as generated: an ordered union gives way when a budget is too small for its reads
        return withWordOrs(orderedWordRequests(), false);
    }

    /** Two in three of the requests with an or of words before their expressions (with the default budget when asked). */
    private static Arbitrary<List<RequestSpec>> withWordOrs(Arbitrary<List<RequestSpec>> base, boolean defaultBudget) {
        // words most titles' words are, so that each disjunct lists items of its own
        Arbitrary<PredicateSpec> word = Arbitraries.oneOf(
                Arbitraries.of("fix", "crash", "timeout", "time", "timer", "db", "test", "typo")
                        .map(w -> new PredicateSpec("@title", Op.HAS, List.of(Value.text(w)), false, false)),
                Arbitraries.of("ti", "fi", "cr", "ty", "te", "d")
                        .map(start -> new PredicateSpec("@title", Op.HAS_PREFIX, List.of(Value.text(start)), false, false)));
        Arbitrary<ExprSpec> wordOr = word.list().ofMinSize(2).ofMaxSize(3)
                .map(words -> new ExprSpec.Any(words.stream().<ExprSpec>map(ExprSpec.Leaf::new).toList()));
        return base.flatMap(requests -> wordOr.list().ofSize(requests.size()).map(ors -> {
                    List<RequestSpec> out = new ArrayList<>();
                    for (int i = 0; i < requests.size(); i++) {
                        RequestSpec spec = requests.get(i);
                        int leaves = spec.predicates().size() + spec.expressions().stream().mapToInt(ExprSpec::leaves).sum();
                        if (i % 3 != 2) {
                            // the first or a union may read, within the default budget (two groups': 4,000), which its ranges fit
                            // (the other expressions left out when the predicates would be more than a request may have)
                            List<ExprSpec> expressions = new ArrayList<>(List.of(ors.get(i)));
                            if (leaves + ors.get(i).leaves() <= PredicateText.MAX_PREDICATES) {
                                expressions.addAll(spec.expressions());
                            }
                            spec = new RequestSpec(spec.sortField(), spec.order(), spec.pageSize(), spec.missing(), spec.predicates(),
                                    defaultBudget ? -1 : spec.budget(), spec.explain(), expressions);
                        }
                        out.add(spec);
                    }
                    return out;
                }));
    }

    @Provide
    Arbitrary<List<RequestSpec>> gridExpressionRequests() {
        return withExpressions(gridRequests(), Arbitraries.frequencyOf(Tuple.of(6, Arbitraries.of(ENTRIES)), Tuple.of(2, Arbitraries.of(
                "@title", "@state", "@labels", "@custom_fields.status", "@custom_fields.tags"))));
    }

    @Provide
    Arbitrary<List<RequestSpec>> declaredExpressionRequests() {
        return withExpressions(Arbitraries.oneOf(declaredRequests(), valueIndexRequests()), Arbitraries.frequencyOf(
                Tuple.of(5, Arbitraries.of(ENTRIES)), Tuple.of(4, Arbitraries.of("@state", "@labels", "@title", "@cf.tags"))));
    }

    /**
     * The requests, each with one or two expressions besides its first predicates (or none: expressions alone), on
     * {@code field} or the sorted field, at most 8 predicates in all.
     */
    private static Arbitrary<List<RequestSpec>> withExpressions(Arbitrary<List<RequestSpec>> requests, Arbitrary<String> field) {
        return requests.flatMap(specs -> Combinators.combine(specs.stream().map(spec -> {
            Arbitrary<String> anyField = Arbitraries.frequencyOf(Tuple.of(4, field), Tuple.of(1, Arbitraries.just(spec.sortField())));
            // now and then an or each of whose disjuncts an index may list: read as a union of drives when it fits
            Arbitrary<String> otherField = field.filter(f -> !f.equals(spec.sortField()));
            // and such an or as a conjunct of an and, which reads as a where of its own would
            Arbitrary<ExprSpec> andOfOr = Combinators.combine(expression(anyField, 1), drivableOr(otherField, anyField))
                    .as((e, or) -> new ExprSpec.All(List.of(e, or)));
            Arbitrary<ExprSpec> expression = Arbitraries.frequencyOf(Tuple.of(3, expression(anyField, 4)), Tuple.of(2, drivableOr(otherField, anyField)),
                            Tuple.of(1, andOfOr))
                    .filter(e -> !(e instanceof ExprSpec.Leaf) && e.levels() <= ExpressionText.MAX_DEPTH
                            && e.leaves() <= PredicateText.MAX_PREDICATES);
            return Combinators.combine(Arbitraries.integers().between(0, 2), expression.list().ofMinSize(1).ofMaxSize(2))
                    .as((keep, expressions) -> {
                        List<PredicateSpec> kept = spec.predicates().subList(0, Math.min(keep, spec.predicates().size()));
                        List<ExprSpec> fitting = new ArrayList<>();
                        int leaves = kept.size();
                        for (ExprSpec e : expressions) {
                            if (leaves + e.leaves() <= PredicateText.MAX_PREDICATES) {
                                fitting.add(e);
                                leaves += e.leaves();
                            }
                        }
                        return new RequestSpec(spec.sortField(), spec.order(), spec.pageSize(), spec.missing(), kept, spec.budget(),
                                spec.explain(), fitting);
                    });
        }).toList()).as(List::copyOf));
    }

    /**
     * An or of 2 or 3 disjuncts, each a predicate an index may list ({@code =}, a short {@code in}, {@code beginsWith}, a
     * range, {@code present}) on {@code field}, alone or in an and with another expression.
     */
    private static Arbitrary<ExprSpec> drivableOr(Arbitrary<String> field, Arbitrary<String> anyField) {
        Arbitrary<ExprSpec> drivable = field.flatMap(f -> Arbitraries.frequencyOf(Tuple.of(4, predicate(f)), Tuple.of(1, in(f))))
                .filter(p -> p.op() != Op.NOT_EQUALS && p.op() != Op.MISSING && (p.op() != Op.IN || p.values().size() <= 10))
                .map(ExprSpec.Leaf::new);
        Arbitrary<ExprSpec> disjunct = Arbitraries.frequencyOf(Tuple.of(3, drivable),
                Tuple.of(1, Combinators.combine(drivable, expression(anyField, 2)).as((d, e) -> new ExprSpec.All(List.of(e, d)))));
        return disjunct.list().ofMinSize(2).ofMaxSize(3).map(ExprSpec.Any::new);
    }

    /** An expression of depth at most {@code depth} (each and, or, not a level), its predicates of every operator. */
    private static Arbitrary<ExprSpec> expression(Arbitrary<String> field, int depth) {
        Arbitrary<ExprSpec> leaf = field.flatMap(f -> Arbitraries.frequencyOf(Tuple.of(4, predicate(f)), Tuple.of(1, in(f))))
                .filter(p -> p.op() != Op.IN || p.values().size() <= 100).map(ExprSpec.Leaf::new);
        if (depth == 0) {
            return leaf;
        }
        Arbitrary<ExprSpec> inner = Arbitraries.lazy(() -> expression(field, depth - 1));
        return Arbitraries.frequencyOf(
                Tuple.of(depth == 4 ? 1 : 3, leaf),
                Tuple.of(1, inner.map(ExprSpec.None::new)),
                Tuple.of(1, inner.list().ofMinSize(2).ofMaxSize(3).map(ExprSpec.All::new)),
                Tuple.of(2, inner.list().ofMinSize(2).ofMaxSize(3).map(ExprSpec.Any::new)));
    }

    /**
     * Requests sorted by one of {@code sortFields}, with 1 to 4 predicates on {@code fields}, now and then one or two more on
     * the sorted field (spelled as {@code sortedSpellings} gives it), or two ranges on one field (often of two types).
     */
    private static Arbitrary<List<RequestSpec>> requests(Arbitrary<String> sortField, Arbitrary<String> field,
                                                         java.util.function.Function<String, Arbitrary<String>> sortedSpellings) {
        Arbitrary<Integer> pageSize = Arbitraries.frequencyOf(Tuple.of(4, Arbitraries.integers().between(1, 10)),
                Tuple.of(3, Arbitraries.integers().between(11, 40)), Tuple.of(2, Arbitraries.integers().between(41, 100)));
        // -1: the default budget; else a budget from the smallest there is (an index item and its item) up
        Arbitrary<Integer> budget = Arbitraries.frequencyOf(Tuple.of(2, Arbitraries.just(-1)),
                Tuple.of(1, Arbitraries.integers().between(2, 20)), Tuple.of(3, Arbitraries.integers().between(21, 150)),
                Tuple.of(2, Arbitraries.integers().between(151, 2500)));
        Arbitrary<RequestSpec> request = Combinators.combine(sortField, Arbitraries.of(Order.values()), pageSize,
                Arbitraries.integers().between(0, 2).map(i -> i == 0), field.flatMap(PlannerPropertiesTest::predicate).list().ofMinSize(1).ofMaxSize(4),
                budget, Arbitraries.of(true, false)).as((sort, order, size, missing, predicates, extra, explain) -> new RequestSpec(sort,
                        order, size, missing, predicates, extra < 0 ? 0 : extra, explain));
        // a predicate on the sorted field now and then, an in list often
        Arbitrary<RequestSpec> onSorted = request.flatMap(spec -> sortedSpellings.apply(spec.sortField())
                .flatMap(spelled -> Arbitraries.frequencyOf(Tuple.of(3, predicate(spelled)), Tuple.of(2, in(spelled)))).map(p -> {
            List<PredicateSpec> predicates = new ArrayList<>(spec.predicates().subList(0, Math.min(3, spec.predicates().size())));
            predicates.add(0, p);
            return new RequestSpec(spec.sortField(), spec.order(), spec.pageSize(), spec.missing(), predicates, spec.budget(), spec.explain());
        }));
        // two on the sorted field, in any spelling: their intersection narrows the read (or leaves nothing)
        Arbitrary<RequestSpec> twoOnSorted = request.flatMap(spec -> Combinators.combine(
                sortedSpellings.apply(spec.sortField()).flatMap(spelled -> Arbitraries.frequencyOf(Tuple.of(2, predicate(spelled)),
                        Tuple.of(2, in(spelled)))),
                sortedSpellings.apply(spec.sortField()).flatMap(spelled -> Arbitraries.frequencyOf(Tuple.of(2, predicate(spelled)),
                        Tuple.of(1, in(spelled)), Tuple.of(2, range(spelled))))).as((a, b) -> {
            List<PredicateSpec> predicates = new ArrayList<>(spec.predicates().subList(0, Math.min(2, spec.predicates().size())));
            predicates.add(0, b);
            predicates.add(0, a);
            return new RequestSpec(spec.sortField(), spec.order(), spec.pageSize(), spec.missing(), predicates, spec.budget(), spec.explain());
        }));
        // two ranges on one field (the sorted one or another, in any spelling), their bounds of any types
        Arbitrary<RequestSpec> twoRanges = request.flatMap(spec -> Arbitraries.oneOf(sortedSpellings.apply(spec.sortField()), field)
                .flatMap(PlannerPropertiesTest::range).flatMap(a -> Arbitraries.frequencyOf(Tuple.of(2, Arbitraries.just(a.field())),
                        Tuple.of(1, sortedSpellings.apply(spec.sortField())), Tuple.of(1, field)).flatMap(PlannerPropertiesTest::range).map(b -> {
                    List<PredicateSpec> predicates = new ArrayList<>(spec.predicates().subList(0, Math.min(2, spec.predicates().size())));
                    predicates.add(a);
                    predicates.add(b);
                    return new RequestSpec(spec.sortField(), spec.order(), spec.pageSize(), spec.missing(), predicates, spec.budget(),
                            spec.explain());
                })));
        return Arbitraries.frequencyOf(Tuple.of(3, request), Tuple.of(2, onSorted), Tuple.of(2, twoOnSorted), Tuple.of(1, twoRanges))
                .list().ofMinSize(1).ofMaxSize(3);
    }

    /** An in list: mostly a few values, now and then more than an index lists (10). */
    private static Arbitrary<PredicateSpec> in(String field) {
        return Arbitraries.frequencyOf(Tuple.of(5, values().list().ofMinSize(1).ofMaxSize(4)),
                        Tuple.of(1, values().list().ofMinSize(11).ofMaxSize(14)))
                .map(vs -> new PredicateSpec(field, Op.IN, vs, false, false));
    }

    /** A range of one type, one bound or two. */
    private static Arbitrary<PredicateSpec> range(String field) {
        return Arbitraries.of(0, 1, 2).flatMap(type -> {
            Arbitrary<Value> bound = switch (type) {
                case 0 -> numbers();
                case 1 -> texts();
                default -> Arbitraries.of(Value.bool(false), Value.bool(true));
            };
            Arbitrary<Value> optional = Arbitraries.frequencyOf(Tuple.of(1, Arbitraries.just((Value) null)), Tuple.of(3, bound));
            return Combinators.combine(optional, optional, Arbitraries.of(true, false), Arbitraries.of(true, false))
                    .filter((low, high, li, hi) -> low != null || high != null)
                    .as((low, high, li, hi) -> new PredicateSpec(field, Op.RANGE, Arrays.asList(low, high), li, hi));
        });
    }

    private static Arbitrary<PredicateSpec> predicate(String field) {
        Arbitrary<Value> value = values();
        Arbitrary<PredicateSpec> equals = value.map(v -> new PredicateSpec(field, Op.EQUALS, List.of(v), false, false));
        Arbitrary<PredicateSpec> in = in(field);
        Arbitrary<PredicateSpec> notEquals = value.map(v -> new PredicateSpec(field, Op.NOT_EQUALS, List.of(v), false, false));
        Arbitrary<PredicateSpec> beginsWith = Arbitraries.of("o", "op", "", "Op", "gr", "re", "c", "\u00e9", "\uD83D", "zz")
                .map(prefix -> new PredicateSpec(field, Op.BEGINS_WITH, List.of(Value.text(prefix)), false, false));
        Arbitrary<PredicateSpec> range = range(field);
        Arbitrary<PredicateSpec> present = Arbitraries.just(new PredicateSpec(field, Op.PRESENT, List.of(), false, false));
        Arbitrary<PredicateSpec> missing = Arbitraries.just(new PredicateSpec(field, Op.MISSING, List.of(), false, false));
        return Arbitraries.frequencyOf(Tuple.of(4, equals), Tuple.of(2, in), Tuple.of(2, notEquals), Tuple.of(2, beginsWith),
                Tuple.of(4, range), Tuple.of(1, present), Tuple.of(1, missing));
    }

    private static Arbitrary<Value> values() {
        return Arbitraries.frequencyOf(Tuple.of(4, texts()), Tuple.of(4, numbers()), Tuple.of(1, Arbitraries.of(Value.bool(false), Value.bool(true))));
    }

    private static Arbitrary<Value> texts() {
        return Arbitraries.of("open", "closed", "triage", "Open", "op", "", "\u00e9t\u00e9", "\uD83D\uDE00 smile", "\uFF5Ewide", "red", "green",
                "blue", "amber", "gr\u00e9y", "re", "high", "yes", "x", "zzz", "Fix crash").map(Value::text);
    }

    private static Arbitrary<Value> numbers() {
        return Arbitraries.of("1", "2", "3", "3.00", "5", "-1", "0", "2.5", "1000", "-0.001", "7", "4", "-50").map(Value::number);
    }

    // ---------------------------------------------------------------------------------------------------------------
    // the model

    /** A value of the model: a number, a text or a boolean; ordered as the index orders them. */
    record Value(int type, BigDecimal number, String text, boolean bool) implements Comparable<Value> {

        static Value number(String text) {
            return new Value(0, new BigDecimal(text), null, false);
        }

        static Value text(String text) {
            return new Value(1, null, text, false);
        }

        static Value bool(boolean bool) {
            return new Value(2, null, null, bool);
        }

        IndexValue toIndexValue() {
            return switch (type) {
                case 0 -> new IndexValue.Num(number);
                case 1 -> new IndexValue.Text(text);
                default -> new IndexValue.Bool(bool);
            };
        }

        boolean sameAs(Value other) {
            return type == other.type && compareTo(other) == 0;
        }

        @Override
        public int compareTo(Value other) {
            if (type != other.type) {
                return Integer.compare(type, other.type);
            }
            return switch (type) {
                case 0 -> number.compareTo(other.number);
                case 1 -> Arrays.compare(text.codePoints().toArray(), other.text.codePoints().toArray());
                default -> Boolean.compare(bool, other.bool);
            };
        }

        @Override
        public String toString() {
            return switch (type) {
                case 0 -> number.toString();
                case 1 -> '"' + text + '"';
                default -> Boolean.toString(bool);
            };
        }
    }

    static final class Model {

        enum Tail { NUM, TABLE_SORT_KEY }

        /** An item as the model sees it: its key as listed, its num, the key its missing tail is ordered by, its attributes. */
        record Item(String key, BigDecimal num, String tailKey, Map<String, AttributeValue> attributes) {
        }

        private Model() {
        }

        /** The items the request lists, in page order. */
        /**
         * What a field names on the index read (docs/read-api.md, docs/query.md): an entry of the index's map, or {@code @} and
         * an attribute path; on an index of one attribute or of a list's elements a plain name is an attribute too. A field
         * and its {@code @} spelling are one field: {@code @<map>.<entry>} is the entry, {@code @<values attribute>} the
         * sorted field itself.
         *
         * @param map    the index's map (entries), or null for an index of an attribute or of a list's elements
         * @param sorted the sorted field's one name: the entry, or {@code @} and the values attribute
         */
        record Fields(String map, String sorted) {

            static Fields ofEntries(String map, String entry) {
                return new Fields(map, entry);
            }

            static Fields ofValues(String attribute) {
                return new Fields(null, "@" + attribute);
            }

            String identity(String field) {
                if (map == null) {
                    return field.startsWith("@") ? field : "@" + field;
                }
                String entryOf = "@" + map + ".";
                if (field.startsWith(entryOf) && !field.substring(entryOf.length()).contains(".")) {
                    return field.substring(entryOf.length());
                }
                return field;
            }
        }

        /**
         * The predicates refused as leaving no value with an earlier one on the same field (docs: "an inverted range with
         * another"; a range stays within its bound's type, so bounds of two types leave none either), or alone (an inverted
         * range): the positions a refusal may name; empty when the request is read.
         */
        static java.util.Set<Integer> refused(RequestSpec request, Fields fields) {
            java.util.Set<Integer> refused = new java.util.TreeSet<>();
            List<PredicateSpec> predicates = request.predicates();
            for (int i = 0; i < predicates.size(); i++) {
                PredicateSpec later = predicates.get(i);
                // has and has prefix read a declared words index: only @title has one
                if ((later.op() == Op.HAS || later.op() == Op.HAS_PREFIX) && !fields.identity(later.field()).equals("@title")) {
                    refused.add(i);
                }
                if (later.op() != Op.RANGE) {
                    continue;
                }
                if (noValueWithin(later, later)) {
                    refused.add(i);
                }
                for (int j = 0; j < i; j++) {
                    PredicateSpec earlier = predicates.get(j);
                    if (earlier.op() == Op.RANGE && fields.identity(earlier.field()).equals(fields.identity(later.field()))
                            && noValueWithin(earlier, later)) {
                        refused.add(i);
                    }
                }
            }
            return refused;
        }

        /** Two ranges' bounds of two types, or the higher low bound above the lower high one (equal: unless both include it). */
        private static boolean noValueWithin(PredicateSpec a, PredicateSpec b) {
            if (type(a) != type(b)) {
                return true;
            }
            Value low = null;
            boolean lowInclusive = true;
            Value high = null;
            boolean highInclusive = true;
            for (PredicateSpec p : List.of(a, b)) {
                Value l = p.values().get(0);
                if (l != null && (low == null || l.compareTo(low) > 0 || l.compareTo(low) == 0 && !p.lowInclusive())) {
                    low = l;
                    lowInclusive = p.lowInclusive();
                }
                Value h = p.values().get(1);
                if (h != null && (high == null || h.compareTo(high) < 0 || h.compareTo(high) == 0 && !p.highInclusive())) {
                    high = h;
                    highInclusive = p.highInclusive();
                }
            }
            return low != null && high != null && (low.compareTo(high) > 0 || low.compareTo(high) == 0 && !(lowInclusive && highInclusive));
        }

        private static int type(PredicateSpec range) {
            return (range.values().get(0) != null ? range.values().get(0) : range.values().get(1)).type();
        }

        static List<String> sequence(List<Item> items, RequestSpec request, Fields fields, Tail tail) {
            return sequence(items, request, fields, tail, item -> 0);
        }

        /**
         * The items the request lists, in page order, its items drawn from several groups: those with the sorted field merged
         * in page order, then the missing tail group by group ({@code groupRank}: the order the request names them).
         */
        static List<String> sequence(List<Item> items, RequestSpec request, Fields fields, Tail tail,
                                     java.util.function.Function<Item, Integer> groupRank) {
            String sorted = fields.sorted();
            List<PredicateSpec> named = request.predicates().stream()
                    .map(p -> new PredicateSpec(fields.identity(p.field()), p.op(), p.values(), p.lowInclusive(), p.highInclusive())).toList();
            List<PredicateSpec> onSorted = named.stream().filter(p -> p.field().equals(sorted)).toList();
            List<PredicateSpec> others = named.stream().filter(p -> !p.field().equals(sorted)).toList();
            boolean descending = request.order() == Order.DESC;
            record Listed(Value value, Item item) {
            }
            List<Listed> index = new ArrayList<>();
            List<Item> missing = new ArrayList<>();
            for (Item item : items) {
                if (!othersMatch(item, others) || !request.expressions().stream().allMatch(e -> holds(e, item, fields))) {
                    continue;
                }
                List<Value> values = values(item, sorted);
                if (values.isEmpty()) {
                    if (fieldMatches(values, onSorted)) {
                        missing.add(item);
                    }
                    continue;
                }
                values.stream().filter(v -> onSorted.stream().allMatch(p -> test(p, v)))
                        .min(descending ? Comparator.<Value>reverseOrder() : Comparator.<Value>naturalOrder())
                        .ifPresent(first -> index.add(new Listed(first, item)));
            }
            Comparator<Listed> ascending = Comparator.comparing(Listed::value).thenComparing(listed -> listed.item().num());
            index.sort(descending ? ascending.reversed() : ascending);
            List<String> sequence = new ArrayList<>(index.stream().map(listed -> listed.item().key()).toList());
            boolean withTail = request.missing() || onSorted.stream().anyMatch(p -> p.op() == Op.MISSING);
            if (withTail) {
                Comparator<Item> order = tail == Tail.NUM ? Comparator.comparing(Item::num)
                        : Comparator.comparing(item -> item.tailKey().getBytes(StandardCharsets.UTF_8), Arrays::compareUnsigned);
                missing.sort(Comparator.comparing(groupRank).thenComparing(descending ? order.reversed() : order));
                missing.forEach(item -> sequence.add(item.key()));
            }
            return sequence;
        }

        /**
         * Whether an expression holds for an item (docs/query.md): a predicate as a request's; under one and, its predicates
         * on one field by one value of the field; or, one operand; not, not its operand (so an item lacking the field
         * satisfies not of a predicate on it, and not (labels = a) holds when no element is a).
         */
        static boolean holds(ExprSpec expression, Item item, Fields fields) {
            return switch (expression) {
                case ExprSpec.Leaf leaf -> fieldMatches(values(item, fields.identity(leaf.predicate().field())), List.of(leaf.predicate()));
                case ExprSpec.All all -> {
                    Map<String, List<PredicateSpec>> byField = new LinkedHashMap<>();
                    boolean holds = true;
                    for (ExprSpec operand : all.operands()) {
                        if (operand instanceof ExprSpec.Leaf leaf) {
                            byField.computeIfAbsent(fields.identity(leaf.predicate().field()), f -> new ArrayList<>()).add(leaf.predicate());
                        } else {
                            holds &= holds(operand, item, fields);
                        }
                    }
                    for (Map.Entry<String, List<PredicateSpec>> e : byField.entrySet()) {
                        holds &= fieldMatches(values(item, e.getKey()), e.getValue());
                    }
                    yield holds;
                }
                case ExprSpec.Any any -> any.operands().stream().anyMatch(operand -> holds(operand, item, fields));
                case ExprSpec.None none -> !holds(none.operand(), item, fields);
            };
        }

        private static boolean othersMatch(Item item, List<PredicateSpec> predicates) {
            Map<String, List<PredicateSpec>> byField = new LinkedHashMap<>();
            predicates.forEach(p -> byField.computeIfAbsent(p.field(), f -> new ArrayList<>()).add(p));
            return byField.entrySet().stream().allMatch(e -> fieldMatches(values(item, e.getKey()), e.getValue()));
        }

        /** One value satisfies every predicate of the field; missing: the field holds no value (and nothing else is asked). */
        private static boolean fieldMatches(List<Value> values, List<PredicateSpec> predicates) {
            if (predicates.isEmpty()) {
                return true;
            }
            if (predicates.stream().anyMatch(p -> p.op() == Op.MISSING)) {
                return values.isEmpty() && predicates.stream().allMatch(p -> p.op() == Op.MISSING);
            }
            return values.stream().anyMatch(v -> predicates.stream().allMatch(p -> test(p, v)));
        }

        private static boolean test(PredicateSpec p, Value v) {
            return switch (p.op()) {
                case EQUALS -> v.sameAs(p.values().get(0));
                case IN -> p.values().stream().anyMatch(v::sameAs);
                // another value of the predicate's type: a value of another type never matches
                case NOT_EQUALS -> v.type() == p.values().get(0).type() && !v.sameAs(p.values().get(0));
                case BEGINS_WITH -> v.type() == 1 && v.text().startsWith(p.values().get(0).text());
                case RANGE -> {
                    Value low = p.values().get(0);
                    Value high = p.values().get(1);
                    int type = (low != null ? low : high).type();
                    yield v.type() == type && (low == null || (p.lowInclusive() ? v.compareTo(low) >= 0 : v.compareTo(low) > 0))
                            && (high == null || (p.highInclusive() ? v.compareTo(high) <= 0 : v.compareTo(high) < 0));
                }
                case PRESENT -> true;
                case MISSING -> false;
                case HAS -> v.type() == 1 && words(v.text()).contains(p.values().get(0).text());
                case HAS_PREFIX -> v.type() == 1 && words(v.text()).stream().anyMatch(w -> w.startsWith(p.values().get(0).text()));
            };
        }

        /**
         * The words of a text as docs/index-definitions.md writes the rule: each code point lower-cased, NFC, runs of letters,
         * digits and marks, none over 64 code points, the first 200 distinct.
         */
        static List<String> words(String text) {
            StringBuilder lower = new StringBuilder();
            text.codePoints().forEach(cp -> lower.appendCodePoint(Character.toLowerCase(cp)));
            List<String> words = new ArrayList<>();
            for (String run : java.text.Normalizer.normalize(lower, java.text.Normalizer.Form.NFC).split("[^\\p{L}\\p{Nd}\\p{M}]+")) {
                if (!run.isEmpty() && run.codePointCount(0, run.length()) <= 64 && !words.contains(run) && words.size() < 200) {
                    words.add(run);
                }
            }
            return words;
        }

        /** The values of a field: an entry of the item's map, or an attribute ({@code @path}, one level of map allowed). */
        static List<Value> values(Item item, String field) {
            AttributeValue raw;
            if (field.startsWith("@")) {
                String[] path = field.substring(1).split("\\.");
                raw = item.attributes().get(path[0]);
                if (path.length == 2) {
                    raw = raw == null || raw.m() == null || !raw.hasM() ? null : raw.m().get(path[1]);
                }
            } else {
                AttributeValue map = item.attributes().containsKey("cf") ? item.attributes().get("cf") : item.attributes().get("custom_fields");
                raw = map == null ? null : map.m().get(field);
            }
            return raw == null ? List.of() : values(raw);
        }

        private static List<Value> values(AttributeValue raw) {
            if (raw.s() != null) {
                return List.of(Value.text(raw.s()));
            }
            if (raw.n() != null) {
                return List.of(Value.number(raw.n()));
            }
            if (raw.bool() != null) {
                return List.of(Value.bool(raw.bool()));
            }
            if (raw.hasSs()) {
                return raw.ss().stream().map(Value::text).toList();
            }
            if (raw.hasNs()) {
                return raw.ns().stream().map(Value::number).toList();
            }
            if (raw.hasL()) {
                List<Value> values = new ArrayList<>();
                for (AttributeValue element : raw.l()) {
                    if (Boolean.TRUE.equals(element.nul())) {
                        continue;
                    }
                    List<Value> one = element.s() != null || element.n() != null || element.bool() != null ? values(element) : null;
                    if (one == null) {
                        return List.of();   // an element of another type: the whole field gives no value
                    }
                    values.addAll(one);
                }
                return values;
            }
            return List.of();   // NULL, a map, anything else
        }
    }

    private static AttributeValue s(String value) {
        return AttributeValue.fromS(value);
    }

    private static AttributeValue n(String value) {
        return AttributeValue.fromN(value);
    }
}

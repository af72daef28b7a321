package com.multikey.query;

import com.multikey.common.Backoff;
import com.multikey.common.Sleeper;
import com.multikey.index.IndexItem;
import com.multikey.index.IndexProjector;
import com.multikey.index.definition.DefinitionsYaml;
import com.multikey.index.definition.IndexDefinitions;
import com.multikey.testkit.LocalTables;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Tuple;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.IntFunction;
import java.util.function.Predicate;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the ordered drive's and ordered union's tests share: a table of issues ({@code pk}, {@code sk}) under one project,
 * indexed by {@code rank} and by the title's words (ordered by {@code rank}), written item and index items together, an
 * {@link IndexQuery} over them, and the long values' items, brute force and read to the end.
 */
final class OrderedDriveFixture {

    static final String INDEX_TABLE = "IssueAttribIndexTable";
    static final String PROJECT = "project#p";

    /** The definitions' start: the table's keys and the sorted index, {@code by-rank}; the indexes that follow it are added. */
    private static final String BY_RANK = """
            version: 1
            table: {partitionKey: {name: pk, type: S}, sortKey: {name: sk, type: S}}
            indexes:
              - name: by-rank
                covers: [{attribute: sk, beginsWith: "ISSUE#"}]
                group: pk
                values: {attribute: rank}
            """;

    /** The title's words, each word's items ordered by {@code rank}. */
    static final String TITLE_WORDS_BY_RANK = """
              - name: title-words
                covers: [{attribute: sk, beginsWith: "ISSUE#"}]
                group: pk
                values: {wordsOf: title}
                orderBy: rank
            """;

    /** {@code by-rank} and {@code title-words} ordered by {@code rank}. */
    static final IndexDefinitions WORDS_BY_RANK = definitions(TITLE_WORDS_BY_RANK);

    private OrderedDriveFixture() {
    }

    /** {@code by-rank} then the indexes given (YAML list entries, indented as under {@code indexes:}). */
    static IndexDefinitions definitions(String indexes) {
        return DefinitionsYaml.parse(BY_RANK + indexes);
    }

    static AttributeValue s(String value) {
        return AttributeValue.fromS(value);
    }

    /** Item i's sort key, zero-padded so that the keys sort as the numbers. */
    static String key(int i) {
        return String.format("ISSUE#%04d", i);
    }

    static void createTable(DynamoDbClient dynamoDb, String table) {
        dynamoDb.createTable(b -> b.tableName(table).billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(a -> a.attributeName("pk").attributeType(ScalarAttributeType.S),
                        a -> a.attributeName("sk").attributeType(ScalarAttributeType.S))
                .keySchema(k -> k.attributeName("pk").keyType(KeyType.HASH), k -> k.attributeName("sk").keyType(KeyType.RANGE)));
    }

    /** Writes the item and its index items (as the stream indexer would). */
    static void put(DynamoDbClient dynamoDb, IndexDefinitions definitions, String table, Map<String, AttributeValue> item) {
        dynamoDb.putItem(b -> b.tableName(table).item(item));
        IndexProjector projector = new IndexProjector(definitions);
        projector.project(projector.keyOf(item).orElseThrow(), item).items().stream().map(IndexItem::toItem)
                .forEach(indexItem -> dynamoDb.putItem(b -> b.tableName(INDEX_TABLE).item(indexItem)));
    }

    /** Deletes the item's index items, then the item (by its key). */
    static void delete(DynamoDbClient dynamoDb, IndexDefinitions definitions, String table, Map<String, AttributeValue> item) {
        IndexProjector projector = new IndexProjector(definitions);
        projector.project(projector.keyOf(item).orElseThrow(), item).items().stream().map(IndexItem::toItem)
                .forEach(indexItem -> dynamoDb.deleteItem(b -> b.tableName(INDEX_TABLE).key(Map.of(
                        "attribId", indexItem.get("attribId"), "sortKey", indexItem.get("sortKey")))));
        dynamoDb.deleteItem(b -> b.tableName(table).key(Map.of("pk", item.get("pk"), "sk", item.get("sk"))));
    }

    static IndexQuery indexQuery(DynamoDbClient dynamoDb, String table, IndexDefinitions definitions, CursorSealer sealer) {
        return new IndexQuery(dynamoDb, table, INDEX_TABLE, definitions,
                new Backoff(Duration.ofMillis(1), Duration.ofMillis(5), new Random(1)), Sleeper.SYSTEM, Duration.ofSeconds(60),
                System::nanoTime, sealer, new GridSettings("ByProject", (project, attribute) -> true));
    }

    /** Creates the table, writes items 0 to {@code count - 1} and their index items, and queries them. */
    static IndexQuery load(LocalTables tables, String table, IndexDefinitions definitions, CursorSealer sealer, int count,
                           IntFunction<Map<String, AttributeValue>> items) {
        DynamoDbClient dynamoDb = tables.dynamoDb();
        createTable(dynamoDb, table);
        for (int i = 0; i < count; i++) {
            put(dynamoDb, definitions, table, items.apply(i));
        }
        return indexQuery(dynamoDb, table, definitions, sealer);
    }

    /**
     * The long values' indexes: {@code by-rank}, the title's words ordered by {@code rank} cut at 48 bytes, and the tags'
     * elements ordered by {@code rank} cut at {@code tagsMaxBytes}.
     */
    static IndexDefinitions longValuesDefinitions(int tagsMaxBytes) {
        return definitions("""
                  - name: title-words
                    covers: [{attribute: sk, beginsWith: "ISSUE#"}]
                    group: pk
                    values: {wordsOf: title}
                    orderBy: [{attribute: rank, maxBytes: 48}]
                  - name: by-tag
                    covers: [{attribute: sk, beginsWith: "ISSUE#"}]
                    group: pk
                    values: {elementsOf: tags}
                    orderBy: [{attribute: rank, maxBytes: %d}]
                """.formatted(tagsMaxBytes));
    }

    /** A long values' item: its rank (null: none), its title's marker words and its tags (a list, maybe with repeats). */
    record LongValueItem(String rank, List<String> words, List<String> tags) {
    }

    /** Writes the long values' items (item i with the key {@link #key}) into a new table {@code table}. */
    static void putLongValueItems(DynamoDbClient dynamoDb, IndexDefinitions definitions, String table, List<LongValueItem> items) {
        createTable(dynamoDb, table);
        for (int i = 0; i < items.size(); i++) {
            Map<String, AttributeValue> item = new HashMap<>(Map.of("pk", s(PROJECT), "sk", s(key(i)),
                    "title", s("Crash " + String.join(" ", items.get(i).words()) + " " + i)));
            if (!items.get(i).tags().isEmpty()) {
                item.put("tags", AttributeValue.fromL(items.get(i).tags().stream().map(OrderedDriveFixture::s).toList()));
            }
            if (items.get(i).rank() != null) {
                item.put("rank", s(items.get(i).rank()));
            }
            put(dynamoDb, definitions, table, item);
        }
    }

    /** The model: the items that match and have a rank, by the rank's UTF-8 bytes, then the item key. */
    static List<String> longValuesModel(List<LongValueItem> items, Predicate<LongValueItem> matches, Order order) {
        Comparator<Integer> byRank = Comparator.<Integer, byte[]>comparing(i -> items.get(i).rank().getBytes(StandardCharsets.UTF_8),
                Arrays::compareUnsigned).thenComparing(i -> key(i));
        return IntStream.range(0, items.size()).boxed()
                .filter(i -> matches.test(items.get(i)) && items.get(i).rank() != null)
                .sorted(order == Order.ASC ? byRank : byRank.reversed()).map(OrderedDriveFixture::key).toList();
    }

    /** A long values' where: its text and its brute force on the items as written. */
    interface LongValuesWhere {
        String text();

        boolean matches(LongValueItem item);
    }

    /** A long values' request: its where, the order, the page size and the read budget (0: the default). */
    record LongValuesRequest<W extends LongValuesWhere>(W where, Order order, int pageSize, int budget) {
    }

    /** One to four requests of the wheres given, both orders, pages of 1 to 6, {@link #budgets}. */
    static <W extends LongValuesWhere> Arbitrary<List<LongValuesRequest<W>>> longValuesRequests(W[] wheres) {
        return Combinators.combine(Arbitraries.of(wheres), Arbitraries.of(Order.values()), Arbitraries.integers().between(1, 6),
                budgets()).as(LongValuesRequest<W>::new).list().ofMinSize(1).ofMaxSize(4);
    }

    /**
     * Writes the items into a new table and reads each request to the end: the pages list exactly the model's sequence
     * ({@link #longValuesModel}), each within its budget, and each page that lists nothing moves its cursor.
     */
    static void pagesListExactlyTheModel(LocalTables tables, IndexDefinitions definitions, CursorSealer sealer,
                                         List<LongValueItem> items, List<? extends LongValuesRequest<?>> requests) {
        // given
        DynamoDbClient dynamoDb = tables.dynamoDb();
        tables.reset();
        String table = "Tracker";
        putLongValueItems(dynamoDb, definitions, table, items);
        IndexQuery query = indexQuery(dynamoDb, table, definitions, sealer);

        for (LongValuesRequest<?> spec : requests) {
            // the model: the items with the word and a rank, by the rank's UTF-8 bytes, then the item key
            List<String> expected = longValuesModel(items, spec.where()::matches, spec.order());
            PageRequest request = longValuesRequest(spec.where().text(), spec.order(), spec.pageSize(), spec.budget());
            int budget = spec.budget() > 0 ? spec.budget() : ReadBudget.DEFAULT.standard();

            // when: read to the end, at most a page per item and index item
            List<String> listed = readToTheEnd(query, request, sealer, budget, items.size(), spec);

            // then
            assertThat(listed).as("every page of %s", spec).isEqualTo(expected);
        }
    }

    /** A request sorted by {@code rank} in the project, with the where and the read budget (0: the default). */
    static PageRequest longValuesRequest(String where, Order order, int pageSize, int budget) {
        PageRequest request = PageRequest.onIndex("by-rank", List.of(s(PROJECT)), "", order, pageSize)
                .where(List.of(ExpressionText.parse(where, 0)));
        return budget > 0 ? request.withReadBudget(budget) : request;
    }

    /**
     * Reads to the end, at most {@code 3 × items + 2} pages; each page within {@code budget} items read, and each page that
     * lists nothing moves its cursor. Returns the keys listed.
     */
    static List<String> readToTheEnd(IndexQuery query, PageRequest request, CursorSealer sealer, int budget, int items, Object spec) {
        List<String> listed = new ArrayList<>();
        List<Object> position = List.of(Cursor.Part.INDEX, Map.of());
        for (int n = 0; ; n++) {
            assertThat(n).as("pages of %s", spec).isLessThan(3 * items + 2);
            Page page = query.page(request);
            String where = "page " + n + " of " + spec;
            assertThat(page.examined()).as("items read, %s", where).isBetween(0, budget);
            page.items().forEach(item -> listed.add(item.get("sk").s()));
            if (page.nextCursor().isEmpty()) {
                return listed;
            }
            Cursor cursor = Cursor.decode(page.nextCursor().get(), request, sealer);
            List<Object> next = List.of(cursor.part(), cursor.startKey());
            if (page.items().isEmpty()) {
                assertThat(next).as("the cursor of a page that listed nothing moved on, %s", where).isNotEqualTo(position);
            }
            position = next;
            request = request.after(page.nextCursor().get());
        }
    }

    /**
     * The long values' items: short ranks, long ones sharing their first 46 bytes or more with {@code longRank} (or 44 of
     * them), as many sharing 62 or 60 bytes with {@code longerRank} (null: none such), and none; many of them with the word.
     */
    static Arbitrary<List<LongValueItem>> longValueItems(String longRank, String longerRank) {
        Arbitrary<String> suffix = Arbitraries.of("", "a", "b", "z", "ab", "\u00e9", "\uD83D\uDE00", "aaaaaaaaaa", "zz");
        Arbitrary<String> rank = longerRank == null
                ? Arbitraries.frequencyOf(
                        Tuple.of(2, Arbitraries.of("a", "m", "r", "rr", "z", longRank.substring(0, 40))),
                        Tuple.of(6, suffix.map(end -> longRank + end)),
                        Tuple.of(2, suffix.map(end -> longRank.substring(0, 44) + end)),
                        Tuple.of(1, Arbitraries.just((String) null)))
                : Arbitraries.frequencyOf(
                        Tuple.of(2, Arbitraries.of("a", "m", "r", "rr", "z", longRank.substring(0, 40))),
                        Tuple.of(6, suffix.map(end -> longRank + end)),
                        Tuple.of(2, suffix.map(end -> longRank.substring(0, 44) + end)),
                        Tuple.of(4, suffix.map(end -> longerRank + end)),
                        Tuple.of(2, suffix.map(end -> longerRank.substring(0, 60) + end)),
                        Tuple.of(1, Arbitraries.just((String) null)));
        Arbitrary<List<String>> words = Arbitraries.of("timeout", "timer", "time", "tim", "ti", "fix").list().ofMaxSize(3);
        Arbitrary<List<String>> tags = Arbitraries.of("a", "b", "c").list().ofMaxSize(3);
        return Combinators.combine(rank, words, tags).as(LongValueItem::new).list().ofMinSize(5).ofMaxSize(80);
    }

    /** The read budgets of the long values' requests (0: the default). */
    static Arbitrary<Integer> budgets() {
        return Arbitraries.frequencyOf(Tuple.of(2, Arbitraries.just(0)),
                Tuple.of(3, Arbitraries.integers().between(2, 12)), Tuple.of(2, Arbitraries.integers().between(13, 200)));
    }
}

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
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
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

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An {@code or} read as an ordered union where the sorted values are longer than the drivers' indexes keep: the words index
 * cuts at {@code maxBytes: 48}, the tags index at 64, so a value may be cut in one disjunct's index and whole in the other's
 * (an item in both then has two places) and either may order otherwise than the sorted index. Random ranks near both cuts,
 * unions of {@code has}, {@code has prefix}, {@code =} and {@code in} over one index or both, both orders, small pages and
 * budgets: read to the end, the pages list exactly a brute force's sequence (ranks by their UTF-8 bytes, then the item
 * key), each within its budget, and each page that lists nothing moves its cursor.
 */
class OrderedUnionLongValuesPropertiesTest {

    private static final IndexDefinitions DEFINITIONS = DefinitionsYaml.parse("""
            version: 1
            table: {partitionKey: {name: pk, type: S}, sortKey: {name: sk, type: S}}
            indexes:
              - name: by-rank
                covers: [{attribute: sk, beginsWith: "ISSUE#"}]
                group: pk
                values: {attribute: rank}
              - name: title-words
                covers: [{attribute: sk, beginsWith: "ISSUE#"}]
                group: pk
                values: {wordsOf: title}
                orderBy: [{attribute: rank, maxBytes: 48}]
              - name: by-tag
                covers: [{attribute: sk, beginsWith: "ISSUE#"}]
                group: pk
                values: {elementsOf: tags}
                orderBy: [{attribute: rank, maxBytes: 64}]
            """);
    private static final String INDEX_TABLE = "IssueAttribIndexTable";
    private static final String PROJECT = "project#p";
    /** 46 bytes: with its type tag as long as the longest value the words index's tie-breaker keeps whole may be. */
    private static final String LONG = "r".repeat(46);
    /** The same for the tags index's tie-breaker (64 bytes). */
    private static final String LONGER = "r".repeat(62);
    private static final CursorSealer SEALER = CursorSealer.of(CursorKeys.ephemeral());

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

    /** An item: its rank (null: none), its title's marker words and its tags (a list, maybe with repeats). */
    record ItemSpec(String rank, List<String> words, List<String> tags) {
    }

    /** A request: its where, the order, the page size and the read budget (0: the default). */
    record RequestSpec(Where where, Order order, int pageSize, int budget) {
    }

    /** The ors read as an ordered union (and one ordered drive on the tags index alone). */
    enum Where {
        HAS_OR_EQUALS("title has timeout or tags = b"), PREFIX_OR_IN("title has prefix tim or tags in (a, b)"),
        TWO_TAGS("tags = a or tags = c"), PREFIX_OR_HAS("title has prefix ti or title has timeout"),
        NESTED("(title has prefix tim or tags = a) and not (title has fix)"), EQUALS("tags = b");

        final String text;

        Where(String text) {
            this.text = text;
        }

        /** The brute force: the item's title words and tags as written. */
        boolean matches(ItemSpec item) {
            return switch (this) {
                case HAS_OR_EQUALS -> item.words().contains("timeout") || item.tags().contains("b");
                case PREFIX_OR_IN -> prefix(item, "tim") || item.tags().contains("a") || item.tags().contains("b");
                case TWO_TAGS -> item.tags().contains("a") || item.tags().contains("c");
                case PREFIX_OR_HAS -> prefix(item, "ti");
                case NESTED -> (prefix(item, "tim") || item.tags().contains("a")) && !item.words().contains("fix");
                case EQUALS -> item.tags().contains("b");
            };
        }

        private static boolean prefix(ItemSpec item, String prefix) {
            return item.words().stream().anyMatch(word -> word.startsWith(prefix));
        }
    }

    @Property(tries = 25)
    synchronized void or_sortedByLongerValuesThanTheDisjunctsIndexesKeep_pagesListExactlyTheModel(
            @ForAll("items") List<ItemSpec> items, @ForAll("requests") List<RequestSpec> requests) {
        // given
        DynamoDbClient dynamoDb = tables.dynamoDb();
        tables.reset();
        String table = "Tracker";
        dynamoDb.createTable(b -> b.tableName(table).billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(a -> a.attributeName("pk").attributeType(ScalarAttributeType.S),
                        a -> a.attributeName("sk").attributeType(ScalarAttributeType.S))
                .keySchema(k -> k.attributeName("pk").keyType(KeyType.HASH), k -> k.attributeName("sk").keyType(KeyType.RANGE)));
        IndexProjector projector = new IndexProjector(DEFINITIONS);
        for (int i = 0; i < items.size(); i++) {
            Map<String, AttributeValue> item = new HashMap<>(Map.of("pk", s(PROJECT), "sk", s(String.format("ISSUE#%04d", i)),
                    "title", s("Crash " + String.join(" ", items.get(i).words()) + " " + i)));
            if (!items.get(i).tags().isEmpty()) {
                item.put("tags", AttributeValue.fromL(items.get(i).tags().stream().map(OrderedUnionLongValuesPropertiesTest::s).toList()));
            }
            if (items.get(i).rank() != null) {
                item.put("rank", s(items.get(i).rank()));
            }
            dynamoDb.putItem(b -> b.tableName(table).item(item));
            projector.project(projector.keyOf(item).orElseThrow(), item).items().stream().map(IndexItem::toItem)
                    .forEach(indexItem -> dynamoDb.putItem(b -> b.tableName(INDEX_TABLE).item(indexItem)));
        }
        IndexQuery query = new IndexQuery(dynamoDb, table, INDEX_TABLE, DEFINITIONS,
                new Backoff(Duration.ofMillis(1), Duration.ofMillis(5), new Random(1)), Sleeper.SYSTEM, Duration.ofSeconds(60),
                System::nanoTime, SEALER, new GridSettings("ByProject", (project, attribute) -> true));

        for (RequestSpec spec : requests) {
            // the model: the items with the word and a rank, by the rank's UTF-8 bytes, then the item key
            Comparator<Integer> byRank = Comparator.<Integer, byte[]>comparing(i -> items.get(i).rank().getBytes(StandardCharsets.UTF_8),
                    Arrays::compareUnsigned).thenComparing(i -> String.format("ISSUE#%04d", i));
            List<String> expected = java.util.stream.IntStream.range(0, items.size()).boxed()
                    .filter(i -> spec.where().matches(items.get(i)) && items.get(i).rank() != null)
                    .sorted(spec.order() == Order.ASC ? byRank : byRank.reversed()).map(i -> String.format("ISSUE#%04d", i)).toList();
            PageRequest request = PageRequest.onIndex("by-rank", List.of(s(PROJECT)), "", spec.order(), spec.pageSize())
                    .where(List.of(ExpressionText.parse(spec.where().text, 0)));
            if (spec.budget() > 0) {
                request = request.withReadBudget(spec.budget());
            }
            int budget = spec.budget() > 0 ? spec.budget() : ReadBudget.DEFAULT.standard();

            // when: read to the end, at most a page per item and index item
            List<String> listed = new ArrayList<>();
            List<Object> position = List.of(Cursor.Part.INDEX, Map.of());
            for (int n = 0; ; n++) {
                assertThat(n).as("pages of %s", spec).isLessThan(3 * items.size() + 2);
                Page page = query.page(request);
                String where = "page " + n + " of " + spec;
                assertThat(page.examined()).as("items read, %s", where).isBetween(0, budget);
                page.items().forEach(item -> listed.add(item.get("sk").s()));
                if (page.nextCursor().isEmpty()) {
                    break;
                }
                Cursor cursor = Cursor.decode(page.nextCursor().get(), request, SEALER);
                List<Object> next = List.of(cursor.part(), cursor.startKey());
                if (page.items().isEmpty()) {
                    assertThat(next).as("the cursor of a page that listed nothing moved on, %s", where).isNotEqualTo(position);
                }
                position = next;
                request = request.after(page.nextCursor().get());
            }

            // then
            assertThat(listed).as("every page of %s", spec).isEqualTo(expected);
        }
    }

    @Provide
    Arbitrary<List<ItemSpec>> items() {
        // short ranks, long ones sharing their first 46 bytes or more, and none; many of them with the word
        Arbitrary<String> suffix = Arbitraries.of("", "a", "b", "z", "ab", "\u00e9", "\uD83D\uDE00", "aaaaaaaaaa", "zz");
        Arbitrary<String> rank = Arbitraries.frequencyOf(
                Tuple.of(2, Arbitraries.of("a", "m", "r", "rr", "z", LONG.substring(0, 40))),
                Tuple.of(6, suffix.map(end -> LONG + end)),
                Tuple.of(2, suffix.map(end -> LONG.substring(0, 44) + end)),
                Tuple.of(4, suffix.map(end -> LONGER + end)),
                Tuple.of(2, suffix.map(end -> LONGER.substring(0, 60) + end)),
                Tuple.of(1, Arbitraries.just((String) null)));
        Arbitrary<List<String>> words = Arbitraries.of("timeout", "timer", "time", "tim", "ti", "fix").list().ofMaxSize(3);
        Arbitrary<List<String>> tags = Arbitraries.of("a", "b", "c").list().ofMaxSize(3);
        return Combinators.combine(rank, words, tags).as(ItemSpec::new).list().ofMinSize(5).ofMaxSize(80);
    }

    @Provide
    Arbitrary<List<RequestSpec>> requests() {
        Arbitrary<Integer> budget = Arbitraries.frequencyOf(Tuple.of(2, Arbitraries.just(0)),
                Tuple.of(3, Arbitraries.integers().between(2, 12)), Tuple.of(2, Arbitraries.integers().between(13, 200)));
        return Combinators.combine(Arbitraries.of(Where.values()), Arbitraries.of(Order.values()), Arbitraries.integers().between(1, 6),
                budget).as(RequestSpec::new).list().ofMinSize(1).ofMaxSize(4);
    }

    private static AttributeValue s(String value) {
        return AttributeValue.fromS(value);
    }
}

package com.multikey.query;

import com.multikey.index.definition.IndexDefinitions;
import com.multikey.testkit.LocalTables;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static com.multikey.query.OrderedDriveFixture.PROJECT;
import static com.multikey.query.OrderedDriveFixture.WORDS_BY_RANK;
import static com.multikey.query.OrderedDriveFixture.createTable;
import static com.multikey.query.OrderedDriveFixture.indexQuery;
import static com.multikey.query.OrderedDriveFixture.key;
import static com.multikey.query.OrderedDriveFixture.s;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A {@code has prefix} read as an ordered drive page by page while items are written between pages, against a brute force
 * written from the docs: a page lists the items whose title has a word the prefix starts, in the sorted field's order (then
 * the item key) after the cursor, which stands on the last item listed; so an item written between pages is listed exactly
 * when it matches and sorts after the last item listed before it was written (whatever word it brings: one the cursor
 * remembers, or a new one before, between or after those), and nothing is listed twice.
 */
class OrderedDrivePrefixPropertiesTest {

    private static final IndexDefinitions DEFINITIONS = WORDS_BY_RANK;
    /** Ten words at most, so that every prefix's words fit an ordered drive (more: it gives way to another plan). */
    private static final List<String> WORDS = List.of("t", "ti", "tim", "time", "timeout", "timer", "timeq", "tz", "fix", "b");
    /** The words of the items written before the first page. */
    private static final List<String> FIRST_WORDS = List.of("timeout", "timer", "tz", "fix");
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

    /** An item: its rank and its title's words; {@code after}: written after that page (-1: before the first). */
    record ItemSpec(int rank, List<String> words, int after) {
    }

    @Property(tries = 40)
    synchronized void hasPrefix_itemsWrittenBetweenPages_pagesListExactlyTheBruteForce(@ForAll("items") List<ItemSpec> items,
                                                                                       @ForAll("prefixes") String prefix,
                                                                                       @ForAll @IntRange(min = 1, max = 6) int pageSize,
                                                                                       @ForAll boolean ascending) {
        // given
        DynamoDbClient dynamoDb = tables.dynamoDb();
        tables.reset();
        String table = "Tracker";
        createTable(dynamoDb, table);
        for (int i = 0; i < items.size(); i++) {
            if (items.get(i).after() < 0) {
                put(dynamoDb, table, items, i);
            }
        }
        IndexQuery query = indexQuery(dynamoDb, table, DEFINITIONS, SEALER);
        Order order = ascending ? Order.ASC : Order.DESC;
        Comparator<Integer> pageOrder = Comparator.<Integer>comparingInt(i -> items.get(i).rank()).thenComparing(OrderedDriveFixture::key);
        if (!ascending) {
            pageOrder = pageOrder.reversed();
        }
        PageRequest request = PageRequest.onIndex("by-rank", List.of(s(PROJECT)), "", order, pageSize)
                .where(List.of(ExpressionText.parse("title has prefix " + prefix, 0))).withExplain();

        // when: read to the end, the items of each page's turn written after it
        List<String> listed = new ArrayList<>();
        List<Integer> expected = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            if (items.get(i).after() < 0 && matches(items.get(i), prefix)) {
                expected.add(i);
            }
        }
        for (int n = 0; ; n++) {
            assertThat(n).as("pages").isLessThan(2 * items.size() + 2);
            Page page = query.page(request);
            assertThat(page.explain().orElseThrow().plan()).startsWith("ordered-drive(");
            page.items().forEach(item -> listed.add(item.get("sk").s()));
            if (page.nextCursor().isEmpty()) {
                break;
            }
            // the brute force: an item written now is listed when it matches and follows the last item listed
            int last = Integer.parseInt(listed.get(listed.size() - 1).substring("ISSUE#".length()));
            for (int i = 0; i < items.size(); i++) {
                if (items.get(i).after() == n) {
                    put(dynamoDb, table, items, i);
                    if (matches(items.get(i), prefix) && pageOrder.compare(i, last) > 0) {
                        expected.add(i);
                    }
                }
            }
            request = request.after(page.nextCursor().get());
        }

        // then
        assertThat(listed).isEqualTo(expected.stream().sorted(pageOrder).map(OrderedDriveFixture::key).toList());
    }

    private static boolean matches(ItemSpec item, String prefix) {
        return item.words().stream().anyMatch(word -> word.startsWith(prefix));
    }

    private static void put(DynamoDbClient dynamoDb, String table, List<ItemSpec> items, int i) {
        Map<String, AttributeValue> item = new HashMap<>(Map.of("pk", s(PROJECT), "sk", s(key(i)),
                "title", s("Crash " + String.join(" ", items.get(i).words())), "rank", AttributeValue.fromN(Integer.toString(items.get(i).rank()))));
        OrderedDriveFixture.put(dynamoDb, DEFINITIONS, table, item);
    }

    @Provide
    Arbitrary<List<ItemSpec>> items() {
        Arbitrary<Integer> after = Arbitraries.frequencyOf(net.jqwik.api.Tuple.of(3, Arbitraries.just(-1)),
                net.jqwik.api.Tuple.of(2, Arbitraries.integers().between(0, 3)));
        // the items written before the first page hold a few of the words; those written later any: new words appear
        return after.flatMap(turn -> Combinators.combine(Arbitraries.integers().between(0, 60),
                        Arbitraries.of(turn < 0 ? FIRST_WORDS : WORDS).list().ofMaxSize(3))
                .as((rank, words) -> new ItemSpec(rank, words, turn))).list().ofMinSize(8).ofMaxSize(50);
    }

    @Provide
    Arbitrary<String> prefixes() {
        return Arbitraries.frequencyOf(net.jqwik.api.Tuple.of(4, Arbitraries.of("t", "ti", "tim", "time")),
                net.jqwik.api.Tuple.of(1, Arbitraries.of("timeo", "tz", "x")));
    }
}

package com.multikey.query;

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

import java.util.List;

import static com.multikey.query.OrderedDriveFixture.LongValueItem;
import static com.multikey.query.OrderedDriveFixture.budgets;
import static com.multikey.query.OrderedDriveFixture.definitions;
import static com.multikey.query.OrderedDriveFixture.indexQuery;
import static com.multikey.query.OrderedDriveFixture.longValueItems;
import static com.multikey.query.OrderedDriveFixture.longValuesModel;
import static com.multikey.query.OrderedDriveFixture.longValuesRequest;
import static com.multikey.query.OrderedDriveFixture.putLongValueItems;
import static com.multikey.query.OrderedDriveFixture.readToTheEnd;
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

    private static final IndexDefinitions DEFINITIONS = definitions("""
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
        boolean matches(LongValueItem item) {
            return switch (this) {
                case HAS_OR_EQUALS -> item.words().contains("timeout") || item.tags().contains("b");
                case PREFIX_OR_IN -> prefix(item, "tim") || item.tags().contains("a") || item.tags().contains("b");
                case TWO_TAGS -> item.tags().contains("a") || item.tags().contains("c");
                case PREFIX_OR_HAS -> prefix(item, "ti");
                case NESTED -> (prefix(item, "tim") || item.tags().contains("a")) && !item.words().contains("fix");
                case EQUALS -> item.tags().contains("b");
            };
        }

        private static boolean prefix(LongValueItem item, String prefix) {
            return item.words().stream().anyMatch(word -> word.startsWith(prefix));
        }
    }

    @Property(tries = 25)
    synchronized void or_sortedByLongerValuesThanTheDisjunctsIndexesKeep_pagesListExactlyTheModel(
            @ForAll("items") List<LongValueItem> items, @ForAll("requests") List<RequestSpec> requests) {
        // given
        DynamoDbClient dynamoDb = tables.dynamoDb();
        tables.reset();
        String table = "Tracker";
        putLongValueItems(dynamoDb, DEFINITIONS, table, items);
        IndexQuery query = indexQuery(dynamoDb, table, DEFINITIONS, SEALER);

        for (RequestSpec spec : requests) {
            // the model: the items with the word and a rank, by the rank's UTF-8 bytes, then the item key
            List<String> expected = longValuesModel(items, spec.where()::matches, spec.order());
            PageRequest request = longValuesRequest(spec.where().text, spec.order(), spec.pageSize(), spec.budget());
            int budget = spec.budget() > 0 ? spec.budget() : ReadBudget.DEFAULT.standard();

            // when: read to the end, at most a page per item and index item
            List<String> listed = readToTheEnd(query, request, SEALER, budget, items.size(), spec);

            // then
            assertThat(listed).as("every page of %s", spec).isEqualTo(expected);
        }
    }

    @Provide
    Arbitrary<List<LongValueItem>> items() {
        return longValueItems(LONG, LONGER);
    }

    @Provide
    Arbitrary<List<RequestSpec>> requests() {
        return Combinators.combine(Arbitraries.of(Where.values()), Arbitraries.of(Order.values()), Arbitraries.integers().between(1, 6),
                budgets()).as(RequestSpec::new).list().ofMinSize(1).ofMaxSize(4);
    }
}

package com.multikey.query;

import com.multikey.index.definition.IndexDefinitions;
import com.multikey.testkit.LocalTables;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

import java.util.List;

import static com.multikey.query.OrderedDriveFixture.LongValueItem;
import static com.multikey.query.OrderedDriveFixture.LongValuesRequest;
import static com.multikey.query.OrderedDriveFixture.LongValuesWhere;
import static com.multikey.query.OrderedDriveFixture.longValueItems;
import static com.multikey.query.OrderedDriveFixture.longValuesDefinitions;
import static com.multikey.query.OrderedDriveFixture.longValuesRequests;
import static com.multikey.query.OrderedDriveFixture.pagesListExactlyTheModel;

/**
 * An {@code or} read as an ordered union where the sorted values are longer than the drivers' indexes keep: the words index
 * cuts at {@code maxBytes: 48}, the tags index at 64, so a value may be cut in one disjunct's index and whole in the other's
 * (an item in both then has two places) and either may order otherwise than the sorted index. Random ranks near both cuts,
 * unions of {@code has}, {@code has prefix}, {@code =} and {@code in} over one index or both, both orders, small pages and
 * budgets: read to the end, the pages list exactly a brute force's sequence (ranks by their UTF-8 bytes, then the item
 * key), each within its budget, and each page that lists nothing moves its cursor.
 */
class OrderedUnionLongValuesPropertiesTest {

    private static final IndexDefinitions DEFINITIONS = longValuesDefinitions(64);
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

    /** The ors read as an ordered union (and one ordered drive on the tags index alone). */
    enum Where implements LongValuesWhere {
        HAS_OR_EQUALS("title has timeout or tags = b"), PREFIX_OR_IN("title has prefix tim or tags in (a, b)"),
        TWO_TAGS("tags = a or tags = c"), PREFIX_OR_HAS("title has prefix ti or title has timeout"),
        NESTED("(title has prefix tim or tags = a) and not (title has fix)"), EQUALS("tags = b");

        final String text;

        Where(String text) {
            this.text = text;
        }

        @Override
        public String text() {
            return text;
        }

        /** The brute force: the item's title words and tags as written. */
        @Override
        public boolean matches(LongValueItem item) {
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
            @ForAll("items") List<LongValueItem> items, @ForAll("requests") List<LongValuesRequest<Where>> requests) {
        pagesListExactlyTheModel(tables, DEFINITIONS, SEALER, items, requests);
    }

    @Provide
    Arbitrary<List<LongValueItem>> items() {
        return longValueItems(LONG, LONGER);
    }

    @Provide
    Arbitrary<List<LongValuesRequest<Where>>> requests() {
        return longValuesRequests(Where.values());
    }
}

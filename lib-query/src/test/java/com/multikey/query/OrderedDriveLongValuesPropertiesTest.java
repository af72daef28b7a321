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
 * The ordered drive where the sorted values are longer than the words index's tie-breaker keeps ({@code maxBytes: 48}):
 * there a value is cut and ends with a digest, so two values that agree on their first bytes may order one way in the words
 * index (cut: by the digest, then the item key) and the other in the sorted index (whole). Random ranks, short and long
 * ones sharing long prefixes, some missing; {@code has}, {@code has prefix} (several words' ranges merged), {@code in} and
 * {@code =} on a list's elements (an item in several ranges) sorted by rank, both orders, small pages, budgets
 * from the smallest: read to the end, the pages list exactly a brute force's sequence (ranks by their UTF-8 bytes, then the
 * item key), each within its budget, and each page that lists nothing moves its cursor.
 */
class OrderedDriveLongValuesPropertiesTest {

    private static final IndexDefinitions DEFINITIONS = longValuesDefinitions(48);
    /** 46 bytes: with its type tag as long as the longest value the tie-breaker keeps whole may be. */
    private static final String LONG = "r".repeat(46);
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

    /** The predicates read as an ordered drive: one word, the words of a prefix, values of a list's elements. */
    enum Where implements LongValuesWhere {
        HAS("title has timeout"), HAS_PREFIX("title has prefix tim"), IN("tags in (a, b)"), EQUALS("tags = b");

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
                case HAS -> item.words().contains("timeout");
                case HAS_PREFIX -> item.words().stream().anyMatch(word -> word.startsWith("tim"));
                case IN -> item.tags().contains("a") || item.tags().contains("b");
                case EQUALS -> item.tags().contains("b");
            };
        }
    }

    @Property(tries = 25)
    synchronized void has_sortedByALongerValueThanTheTieBreakerKeeps_pagesListExactlyTheModel(
            @ForAll("items") List<LongValueItem> items, @ForAll("requests") List<LongValuesRequest<Where>> requests) {
        pagesListExactlyTheModel(tables, DEFINITIONS, SEALER, items, requests);
    }

    @Provide
    Arbitrary<List<LongValueItem>> items() {
        return longValueItems(LONG, null);
    }

    @Provide
    Arbitrary<List<LongValuesRequest<Where>>> requests() {
        return longValuesRequests(Where.values());
    }
}

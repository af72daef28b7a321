package com.multikey.query;

import com.multikey.index.definition.IndexDefinitions;
import com.multikey.testkit.LocalTables;
import com.multikey.testkit.LocalTablesExtension;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;
import java.util.stream.IntStream;

import static com.multikey.query.OrderedDriveFixture.WORDS_BY_RANK;
import static com.multikey.query.OrderedDriveFixture.s;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A selective word ({@code title has timeout}, 2% of the titles) read sorted by {@code rank} when the words index orders
 * each word's items by {@code rank}: an ordered drive, each page read from the cursor in page order, for at most two items
 * read (an index item and its item) per item listed over the whole read, in both orders.
 */
@ExtendWith(LocalTablesExtension.class)
class OrderedDriveIntegrationTest {

    private static final IndexDefinitions DEFINITIONS = WORDS_BY_RANK;
    private static final String TABLE = "Tracker";
    private static final int ITEMS = 1000;
    private static final CursorSealer SEALER = CursorSealer.of(CursorKeys.ephemeral());

    /**
     * Item i: rank (i × 37) % 1000 (each once), a title with "timeout" when i % 50 == 3 and "timer" when i % 40 == 3, every
     * fifth without a rank.
     */
    private static Map<String, AttributeValue> item(int i) {
        String title = (i % 50 == 3 ? "Fix the Timeout in " : "Crash in ") + "module " + i % 7 + (i % 40 == 3 ? " timer" : "");
        return i % 5 == 0 && i % 50 != 3
                ? Map.of("pk", s("project#p"), "sk", s("ISSUE#" + i), "title", s(title))
                : Map.of("pk", s("project#p"), "sk", s("ISSUE#" + i), "title", s(title),
                "rank", AttributeValue.fromN(Integer.toString(i * 37 % ITEMS)));
    }

    @ParameterizedTest
    @EnumSource(Order.class)
    void selectiveWord_sortedByTheWordsIndexOrderBy_isReadInPageOrder_forAtMostTwoItemsReadPerItemListed(Order order,
                                                                                                         LocalTables tables) {
        // given: 20 titles with "timeout", pages of 3
        IndexQuery query = load(tables, TABLE + "-" + order);
        Comparator<Integer> byRank = Comparator.comparingInt(i -> i * 37 % ITEMS);
        List<String> expected = IntStream.range(0, ITEMS).filter(i -> i % 50 == 3).boxed()
                .sorted(order == Order.ASC ? byRank : byRank.reversed()).map(i -> "ISSUE#" + i).toList();
        PageRequest request = PageRequest.onIndex("by-rank", List.of(s("project#p")), "", order, 3)
                .where(List.of(ExpressionText.parse("title has timeout", 0))).withExplain();

        // when
        List<String> listed = new ArrayList<>();
        List<String> plans = new ArrayList<>();
        long examined = 0;
        for (int n = 0; request != null && n < 100; n++) {
            Page page = query.page(request);
            examined += page.examined();
            plans.add(page.explain().orElseThrow().plan());
            page.items().forEach(item -> listed.add(item.get("sk").s()));
            request = page.nextCursor().map(request::after).orElse(null);
        }

        // then
        assertThat(expected).hasSize(20);
        assertThat(listed).isEqualTo(expected);
        assertThat(plans).containsOnly("ordered-drive(where[0]: title has \"timeout\")");
        assertThat(examined).as("items read over the whole read").isLessThanOrEqualTo(2L * expected.size());
    }

    @ParameterizedTest
    @EnumSource(Order.class)
    void selectiveWordWithAPredicateFewOfItsItemsPass_smallBudget_everyPageMovesOnToTheEnd(Order order, LocalTables tables) {
        // given: 20 titles with "timeout", 3 of which pass the title's other predicate (no index lists it); 10 items a page
        IndexQuery query = load(tables, TABLE + "-budget-" + order);
        Comparator<Integer> byRank = Comparator.comparingInt(i -> i * 37 % ITEMS);
        List<String> expected = IntStream.range(0, ITEMS).filter(i -> i % 50 == 3 && i % 7 == 3).boxed()
                .sorted(order == Order.ASC ? byRank : byRank.reversed()).map(i -> "ISSUE#" + i).toList();
        PageRequest request = PageRequest.onIndex("by-rank", List.of(s("project#p")), "", order, 2)
                .where(List.of(ExpressionText.parse("title has timeout and title beginsWith \"Fix the Timeout in module 3\"", 0)))
                .withReadBudget(10);

        // when: read to the end, at most a page per index item and item of the table
        List<String> listed = new ArrayList<>();
        Map<String, AttributeValue> position = Map.of();
        for (int n = 0; request != null; n++) {
            assertThat(n).as("pages").isLessThan(3 * ITEMS);
            Page page = query.page(request);
            assertThat(page.examined()).as("items read on page %d", n).isLessThanOrEqualTo(10);
            page.items().forEach(item -> listed.add(item.get("sk").s()));
            if (page.nextCursor().isPresent()) {
                Map<String, AttributeValue> next = Cursor.decode(page.nextCursor().get(), request, SEALER).startKey();
                if (page.items().isEmpty()) {
                    assertThat(next).as("the cursor of page %d, which listed nothing, moved on", n).isNotEqualTo(position);
                }
                position = next;
            }
            request = page.nextCursor().map(request::after).orElse(null);
        }

        // then
        assertThat(expected).hasSize(3);
        assertThat(listed).isEqualTo(expected);
    }

    @ParameterizedTest
    @EnumSource(Order.class)
    void prefixOfTwoWords_sortedByTheWordsIndexOrderBy_isReadInPageOrder_eachItemOnce(Order order, LocalTables tables) {
        // given: "tim" starts "timeout" (i % 50 == 3) and "timer" (i % 40 == 3, i % 200 == 3 in both): 40 titles, pages of 10
        IndexQuery query = load(tables, TABLE + "-prefix-" + order);
        Comparator<Integer> byRank = Comparator.comparingInt(i -> i * 37 % ITEMS);
        List<String> expected = IntStream.range(0, ITEMS).filter(i -> i % 50 == 3 || i % 40 == 3).boxed()
                .sorted(order == Order.ASC ? byRank : byRank.reversed()).map(i -> "ISSUE#" + i).toList();
        PageRequest request = PageRequest.onIndex("by-rank", List.of(s("project#p")), "", order, 10)
                .where(List.of(ExpressionText.parse("title has prefix tim", 0))).withExplain();

        // when
        List<String> listed = new ArrayList<>();
        List<String> plans = new ArrayList<>();
        long examined = 0;
        int pages = 0;
        for (; request != null && pages < 100; pages++) {
            Page page = query.page(request);
            examined += page.examined();
            plans.add(page.explain().orElseThrow().plan());
            page.items().forEach(item -> listed.add(item.get("sk").s()));
            request = page.nextCursor().map(request::after).orElse(null);
        }

        // then: the two words' ranges merged, each item once; two items read per item listed, and a page's few more: its words
        // found (a Query of one index item each, and one for the end), the ranges' items read past the page's last
        assertThat(expected).hasSize(40);
        assertThat(listed).isEqualTo(expected);
        assertThat(plans).containsOnly("ordered-drive(where[0]: title has prefix \"tim\")");
        assertThat(examined).as("items read over the whole read").isLessThanOrEqualTo(2L * expected.size() + 6L * pages);
    }

    @ParameterizedTest
    @EnumSource(Order.class)
    void prefixOfACommonAndARareWord_eachRangeReadAsFarAsTheMergeTakesFromIt_itemsReadOnlyWhenTheMergeReachesThem(
            Order order, LocalTables tables) {
        // given: "tim" starts "timeout" (5% of the titles) and "timer" (0.5%), 55 titles in all, pages of 10
        IntFunction<Map<String, AttributeValue>> titled = i -> Map.of("pk", s("project#p"), "sk", s("ISSUE#" + i),
                "title", s((i % 20 == 3 ? "Fix the Timeout in " : "Crash in ") + "module " + i % 7 + (i % 200 == 7 ? " timer" : "")),
                "rank", AttributeValue.fromN(Integer.toString(i * 37 % ITEMS)));
        IndexQuery query = load(tables, TABLE + "-prefix-sized-" + order, titled);
        Comparator<Integer> byRank = Comparator.comparingInt(i -> i * 37 % ITEMS);
        List<String> expected = IntStream.range(0, ITEMS).filter(i -> i % 20 == 3 || i % 200 == 7).boxed()
                .sorted(order == Order.ASC ? byRank : byRank.reversed()).map(i -> "ISSUE#" + i).toList();
        PageRequest request = PageRequest.onIndex("by-rank", List.of(s("project#p")), "", order, 10)
                .where(List.of(ExpressionText.parse("title has prefix tim", 0)));

        // when
        List<String> listed = new ArrayList<>();
        long examined = 0;
        int pages = 0;
        for (; request != null && pages < 100; pages++) {
            Page page = query.page(request);
            examined += page.examined();
            page.items().forEach(item -> listed.add(item.get("sk").s()));
            request = page.nextCursor().map(request::after).orElse(null);
        }

        // then: an item is read only for an index item the merge passed, and the rare word's range is read a few index items
        // past the page's last, not an even share of the page: two items read per item listed, and a page's few more (its
        // two words found, an index item each, and three past its last)
        assertThat(expected).hasSize(55);
        assertThat(listed).isEqualTo(expected);
        assertThat(examined).as("items read over the whole read, in %d pages", pages)
                .isLessThanOrEqualTo(2L * expected.size() + 5L * pages);
    }

    private static IndexQuery load(LocalTables tables, String table) {
        return load(tables, table, OrderedDriveIntegrationTest::item);
    }

    private static IndexQuery load(LocalTables tables, String table, IntFunction<Map<String, AttributeValue>> items) {
        return OrderedDriveFixture.load(tables, table, DEFINITIONS, SEALER, ITEMS, items);
    }
}

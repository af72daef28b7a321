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
import java.util.stream.IntStream;

import static com.multikey.query.OrderedDriveFixture.WORDS_BY_RANK;
import static com.multikey.query.OrderedDriveFixture.s;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * An {@code or} of two words ({@code title has timeout or title has deadlock}) read sorted by {@code rank} when the words
 * index orders each word's items by {@code rank}: the two words' ranges merged in page order, each page read from the
 * cursor (not each range whole on every page), every item once, every {@code where} tested on it.
 */
@ExtendWith(LocalTablesExtension.class)
class OrderedUnionIntegrationTest {

    private static final IndexDefinitions DEFINITIONS = WORDS_BY_RANK;
    private static final int ITEMS = 1000;

    /**
     * Item i: rank (i × 37) % 1000 (each once), "timeout" in its title when i % 25 == 3, "deadlock" when i % 20 == 3 (both
     * when i % 100 == 3), "module" and i % 7.
     */
    private static Map<String, AttributeValue> item(int i) {
        String title = "Crash in module " + i % 7 + (i % 25 == 3 ? " timeout" : "") + (i % 20 == 3 ? " deadlock" : "");
        return Map.of("pk", s("project#p"), "sk", s("ISSUE#" + i), "title", s(title),
                "rank", AttributeValue.fromN(Integer.toString(i * 37 % ITEMS)));
    }

    @ParameterizedTest
    @EnumSource(Order.class)
    void orOfTwoWords_sortedByTheWordsIndexOrderBy_isReadPageByPageInPageOrder_eachItemOnce(Order order, LocalTables tables) {
        // given: 40 titles with "timeout", 50 with "deadlock", 10 with both: 80 items, 69 of them not in module 0; pages of 5
        IndexQuery query = load(tables, "Tracker-" + order);
        Comparator<Integer> byRank = Comparator.comparingInt(i -> i * 37 % ITEMS);
        List<String> expected = IntStream.range(0, ITEMS).filter(i -> (i % 25 == 3 || i % 20 == 3) && i % 7 != 0).boxed()
                .sorted(order == Order.ASC ? byRank : byRank.reversed()).map(i -> "ISSUE#" + i).toList();
        PageRequest request = PageRequest.onIndex("by-rank", List.of(s("project#p")), "", order, 5)
                .where(List.of(ExpressionText.parse("title has timeout or title has deadlock", 0),
                        ExpressionText.parse("not (title has \"0\")", 1)))
                .withExplain();

        // when
        List<String> listed = new ArrayList<>();
        List<String> plans = new ArrayList<>();
        List<Integer> examined = new ArrayList<>();
        for (int n = 0; request != null && n < 100; n++) {
            Page page = query.page(request);
            examined.add(page.examined());
            plans.add(page.explain().orElseThrow().plan());
            page.items().forEach(item -> listed.add(item.get("sk").s()));
            request = page.nextCursor().map(request::after).orElse(null);
        }

        // then
        assertThat(expected).hasSize(69);
        assertThat(listed).isEqualTo(expected);
        assertThat(plans).containsOnly("ordered-union(where[0]: title has \"timeout\", where[0]: title has \"deadlock\")");
        // a page reads about its share of the two ranges and their items, not both ranges (90 index items) whole
        assertThat(examined).allSatisfy(read -> assertThat(read).isLessThanOrEqualTo(40));
        assertThat(examined.stream().mapToInt(Integer::intValue).sum()).as("items read over the whole read")
                .isLessThanOrEqualTo(3 * 90);
    }

    private static IndexQuery load(LocalTables tables, String table) {
        return OrderedDriveFixture.load(tables, table, DEFINITIONS, CursorSealer.of(CursorKeys.ephemeral()), ITEMS,
                OrderedUnionIntegrationTest::item);
    }
}

package com.multikey.query;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.multikey.index.definition.IndexDefinitions;
import com.multikey.testkit.LocalTables;
import com.multikey.testkit.LocalTablesExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;
import java.util.stream.IntStream;

import static com.multikey.query.OrderedDriveFixture.WORDS_BY_RANK;
import static com.multikey.query.OrderedDriveFixture.s;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A {@code has prefix} read as an ordered drive, page after page: the words its range holds are remembered in the cursor
 * (when few and short), so that a later page checks the gaps between them for new words (Queries that read nothing unless
 * a word appeared) rather than finding each word again, and each word's range is read about as far as the page takes from
 * it. Exact whatever is written between pages; an edited cursor's words are refused.
 */
@ExtendWith(LocalTablesExtension.class)
class OrderedDrivePrefixWordsIntegrationTest {

    private static final IndexDefinitions DEFINITIONS = WORDS_BY_RANK;
    private static final int ITEMS = 1000;
    private static final CursorSealer SEALER = CursorSealer.of(CursorKeys.ephemeral());
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Item i: rank (i × 37) % 1000, "timeout" in its title when i % 20 == 3 and "timer" when i % 50 == 7. */
    private static Map<String, AttributeValue> item(int i) {
        return titled(i, (i % 20 == 3 ? "Fix the Timeout in " : "Crash in ") + "module " + i % 7 + (i % 50 == 7 ? " timer" : ""));
    }

    private static Map<String, AttributeValue> titled(int i, String title) {
        return Map.of("pk", s("project#p"), "sk", s("ISSUE#" + i), "title", s(title), "rank", AttributeValue.fromN(Integer.toString(i * 37 % ITEMS)));
    }

    @ParameterizedTest
    @EnumSource(Order.class)
    void orOfTwoPrefixes_laterPages_rememberTheirWords_readAnIndexItemAndAnItemPerItemListed(Order order, LocalTables tables) {
        // given: "timeo" starts one word, "timeout" (50 titles), "time" two, "timeout" and "timer" (20 titles, 2 with both);
        // an or of the two prefixes is an ordered union; pages of 10
        IndexQuery query = load(tables, "Tracker-or-" + order, OrderedDrivePrefixWordsIntegrationTest::item);
        PageRequest request = PageRequest.onIndex("by-rank", List.of(s("project#p")), "", order, 10)
                .where(List.of(ExpressionText.parse("title has prefix timeo or title has prefix timer", 0))).withExplain();

        // when
        List<String> listed = new ArrayList<>();
        List<Integer> examined = new ArrayList<>();
        List<Integer> listedOnPage = new ArrayList<>();
        List<String> remembered = new ArrayList<>();
        List<String> plans = new ArrayList<>();
        while (request != null) {
            Page page = query.page(request);
            if (remembered.isEmpty() && page.nextCursor().isPresent()) {
                remembered.add(Cursor.decode(page.nextCursor().get(), request.after(page.nextCursor().get()), SEALER).toJson()
                        .path("k").path("w").toString());
            }
            plans.add(page.explain().orElseThrow().plan());
            examined.add(page.examined());
            listedOnPage.add(page.items().size());
            page.items().forEach(item -> listed.add(item.get("sk").s()));
            request = page.nextCursor().map(request::after).orElse(null);
        }

        // then: the cursor remembers both disjuncts' words, and later pages check the gaps between them (reading nothing)
        // instead of finding them again: an index item and an item per item listed, and the few index items the merge reads
        // past the page's last
        assertThat(listed).isEqualTo(expected(order, i -> i % 20 == 3 || i % 50 == 7));
        assertThat(plans).containsOnly("ordered-union(where[0]: title has prefix \"timeo\", where[0]: title has prefix \"timer\")");
        assertThat(remembered).hasSize(1);
        assertThat(remembered.get(0)).startsWith("[[\"Stimeout\\u0001\",").contains("],[\"Stimer\\u0001\",");
        int later = 0;
        int listedLater = 0;
        for (int n = 1; n < examined.size(); n++) {
            later += examined.get(n);
            listedLater += listedOnPage.get(n);
        }
        assertThat(later).as("items read after the first page, %s", examined).isLessThanOrEqualTo(2 * listedLater + examined.size());
    }

    @ParameterizedTest
    @EnumSource(Order.class)
    void prefixOfOneWord_laterPages_readAnIndexItemAndAnItemPerItemListed_theWordIsNotFoundAgain(Order order, LocalTables tables) {
        // given: "timeo" starts one word, "timeout" (50 titles); pages of 10
        IndexQuery query = load(tables, "Tracker-one-" + order, OrderedDrivePrefixWordsIntegrationTest::item);
        PageRequest request = PageRequest.onIndex("by-rank", List.of(s("project#p")), "", order, 10)
                .where(List.of(ExpressionText.parse("title has prefix timeo", 0)));

        // when
        List<String> listed = new ArrayList<>();
        List<Integer> examined = new ArrayList<>();
        List<Integer> listedOnPage = new ArrayList<>();
        List<String> remembered = new ArrayList<>();
        while (request != null) {
            Page page = query.page(request);
            if (remembered.isEmpty() && page.nextCursor().isPresent()) {
                remembered.add(Cursor.decode(page.nextCursor().get(), request.after(page.nextCursor().get()), SEALER).toJson()
                        .path("k").path("w").toString());
            }
            examined.add(page.examined());
            listedOnPage.add(page.items().size());
            page.items().forEach(item -> listed.add(item.get("sk").s()));
            request = page.nextCursor().map(request::after).orElse(null);
        }

        // then: the cursor remembers the word; after the first page (which finds the word, an index item, and checks for the end), each page reads the
        // word's index items from the cursor and their items, and checks the prefix's range before and after the word
        assertThat(listed).isEqualTo(expected(order, i -> i % 20 == 3));
        assertThat(examined.get(0)).isEqualTo(2 * listedOnPage.get(0) + 1);
        for (int n = 1; n < examined.size(); n++) {
            assertThat(examined.get(n)).as("items read on page %d", n).isLessThanOrEqualTo(2 * listedOnPage.get(n));
        }
        assertThat(remembered).containsExactly("[[\"Stimeout\\u0001\",10]]");
    }

    @ParameterizedTest
    @EnumSource(Order.class)
    void prefixOfACommonAndARareWord_eachRangeReadUpToWhereThePageEnds_aboutTheIndexItemsAndItemsOfTheMatches(Order order,
                                                                                                               LocalTables tables) {
        // given: "tim" starts "timeout" (5% of the titles) and "timer" (2%, some with both), pages of 10
        IndexQuery query = load(tables, "Tracker-two-" + order, OrderedDrivePrefixWordsIntegrationTest::item);
        List<String> expected = expected(order, i -> i % 20 == 3 || i % 50 == 7);
        long both = IntStream.range(0, ITEMS).filter(i -> i % 20 == 3 && i % 50 == 7).count();
        PageRequest request = PageRequest.onIndex("by-rank", List.of(s("project#p")), "", order, 10)
                .where(List.of(ExpressionText.parse("title has prefix tim", 0)));

        // when
        List<String> listed = new ArrayList<>();
        long examined = 0;
        int pages = 0;
        for (; request != null; pages++) {
            Page page = query.page(request);
            examined += page.examined();
            page.items().forEach(item -> listed.add(item.get("sk").s()));
            request = page.nextCursor().map(request::after).orElse(null);
        }

        // then: what a reader knowing the matches reads (each match's index items in the two ranges, and the item), the
        // first page's two words found, and about an index item a page past the page's last
        long oracle = expected.size() + (expected.size() + both);
        assertThat(listed).isEqualTo(expected);
        assertThat(examined).as("items read over the whole read, %d pages, the oracle's %d", pages, oracle)
                .isLessThanOrEqualTo(oracle + 2 + pages);
    }

    @ParameterizedTest
    @EnumSource(Order.class)
    void wordsWrittenBetweenPages_inEveryGapBetweenTheRememberedWords_areListedFromTheCursor(Order order, LocalTables tables) {
        // given: the first page of "tim" (timeout, timer) read
        String table = "Tracker-new-" + order;
        IndexQuery query = load(tables, table, OrderedDrivePrefixWordsIntegrationTest::item);
        PageRequest request = PageRequest.onIndex("by-rank", List.of(s("project#p")), "", order, 10)
                .where(List.of(ExpressionText.parse("title has prefix tim", 0)));
        Page first = query.page(request);
        List<String> listed = new ArrayList<>(first.items().stream().map(item -> item.get("sk").s()).toList());

        // when: new words before, between and after the remembered ones, on items after the cursor and one before it
        IntFunction<String> word = i -> switch (i % 4) {
            case 0 -> "tim";
            case 1 -> "timeouts";
            case 2 -> "timeq";
            default -> "timez";
        };
        IntFunction<Integer> rank = i -> i < ITEMS ? i * 37 % ITEMS : order == Order.ASC ? 100 * (i - 2000) + 150 : 1000 - 100 * (i - 2000) - 150;
        List<Integer> added = IntStream.range(2000, 2012).boxed().toList();
        for (int i : added) {
            put(tables.dynamoDb(), table, Map.of("pk", s("project#p"), "sk", s("ISSUE#" + i), "title", s("New " + word.apply(i)),
                    "rank", AttributeValue.fromN(Integer.toString(rank.apply(i)))));
        }
        int behind = 3000;
        put(tables.dynamoDb(), table, Map.of("pk", s("project#p"), "sk", s("ISSUE#" + behind), "title", s("Old timeq"),
                "rank", AttributeValue.fromN(order == Order.ASC ? "-1" : "5000")));
        request = request.after(first.nextCursor().orElseThrow());
        while (request != null) {
            Page page = query.page(request);
            page.items().forEach(item -> listed.add(item.get("sk").s()));
            request = page.nextCursor().map(request::after).orElse(null);
        }

        // then: each item once, in page order: the new ones after the cursor among them, the one behind it not
        int cursorRank = rank.apply(Integer.parseInt(listed.get(9).substring("ISSUE#".length())));
        Comparator<Integer> byRank = Comparator.comparing(rank::apply);
        List<String> expected = IntStream.concat(IntStream.range(0, ITEMS).filter(i -> i % 20 == 3 || i % 50 == 7),
                        added.stream().mapToInt(Integer::intValue).filter(i -> order == Order.ASC ? rank.apply(i) > cursorRank : rank.apply(i) < cursorRank))
                .boxed().sorted(order == Order.ASC ? byRank : byRank.reversed()).map(i -> "ISSUE#" + i).toList();
        assertThat(first.items()).hasSize(10);
        assertThat(added.stream().filter(i -> expected.contains("ISSUE#" + i))).as("new items after the cursor").hasSizeGreaterThan(8);
        assertThat(listed).isEqualTo(expected);
        assertThat(listed).doesNotContain("ISSUE#" + behind);
    }

    @Test
    void rememberedWords_editedInACursorSealedUnderTheSameKey_areRefused(LocalTables tables) {
        // given: a page of "tim", whose cursor remembers its words
        IndexQuery query = load(tables, "Tracker-edited", OrderedDrivePrefixWordsIntegrationTest::item);
        PageRequest request = PageRequest.onIndex("by-rank", List.of(s("project#p")), "", Order.ASC, 10)
                .where(List.of(ExpressionText.parse("title has prefix tim", 0)));
        Page first = query.page(request);
        ObjectNode content = Cursor.decode(first.nextCursor().orElseThrow(), request.after(first.nextCursor().get()), SEALER).toJson();

        // when: a word that is not the prefix's, words out of order, words that are not a list, more than a cursor holds
        ObjectNode other = words(content, "[[\"Stimeout\\u0001\", 3], [\"Sfix\\u0001\", 1]]");
        ObjectNode reordered = words(content, "[[\"Stimer\\u0001\", 3], [\"Stimeout\\u0001\", 7]]");
        ObjectNode notAList = words(content, "\"Stimeout\\u0001\"");
        ObjectNode tooMany = words(content, IntStream.range(0, 11).mapToObj(n -> "[\"Stim" + (char) ('a' + n) + "\\u0001\", 1]")
                .collect(java.util.stream.Collectors.joining(", ", "[", "]")));

        // then
        for (ObjectNode edited : List.of(other, reordered, notAList, tooMany)) {
            PageRequest next = request.after(SEALER.seal(edited.toString().getBytes(StandardCharsets.UTF_8), request.identity()));
            assertThatThrownBy(() -> query.page(next)).as("%s", edited).isInstanceOf(QueryException.class)
                    .hasMessageContaining("malformed cursor");
        }
    }

    @Test
    void rememberedWordsOfAnOrderedUnion_aWordOfNeitherPrefix_isRefused(LocalTables tables) {
        // given: a page of "timeo or timer", whose cursor remembers both prefixes' words
        IndexQuery query = load(tables, "Tracker-edited-or", OrderedDrivePrefixWordsIntegrationTest::item);
        PageRequest request = PageRequest.onIndex("by-rank", List.of(s("project#p")), "", Order.ASC, 10)
                .where(List.of(ExpressionText.parse("title has prefix timeo or title has prefix timer", 0)));
        Page first = query.page(request);
        ObjectNode content = Cursor.decode(first.nextCursor().orElseThrow(), request.after(first.nextCursor().get()), SEALER).toJson();

        // when: a word of neither prefix among them
        ObjectNode other = words(content, "[[\"Stimeout\\u0001\", 3], [\"Stimer\\u0001\", 1], [\"Sz\\u0001\", 1]]");
        PageRequest next = request.after(SEALER.seal(other.toString().getBytes(StandardCharsets.UTF_8), request.identity()));

        // then
        assertThatThrownBy(() -> query.page(next)).isInstanceOf(QueryException.class).hasMessageContaining("malformed cursor");
    }

    @Test
    void cursorMadeBeforeWordsWereRemembered_opens_andTheReadGoesOnExactly(LocalTables tables) {
        // given: the first page of "tim", its cursor without the words (as one made before they were carried)
        IndexQuery query = load(tables, "Tracker-before", OrderedDrivePrefixWordsIntegrationTest::item);
        PageRequest request = PageRequest.onIndex("by-rank", List.of(s("project#p")), "", Order.ASC, 10)
                .where(List.of(ExpressionText.parse("title has prefix tim", 0)));
        Page first = query.page(request);
        ObjectNode content = Cursor.decode(first.nextCursor().orElseThrow(), request.after(first.nextCursor().get()), SEALER).toJson();
        ((ObjectNode) content.get("k")).remove("w");

        // when
        List<String> listed = new ArrayList<>(first.items().stream().map(item -> item.get("sk").s()).toList());
        request = request.after(SEALER.seal(content.toString().getBytes(StandardCharsets.UTF_8), request.identity()));
        while (request != null) {
            Page page = query.page(request);
            page.items().forEach(item -> listed.add(item.get("sk").s()));
            request = page.nextCursor().map(request::after).orElse(null);
        }

        // then
        assertThat(listed).isEqualTo(expected(Order.ASC, i -> i % 20 == 3 || i % 50 == 7));
    }

    @Test
    void prefixOfWordsLongerThanACursorRemembers_isFoundOnEveryPage_andListedExactly(LocalTables tables) {
        // given: "tim" starts six words of 60 letters (more bytes than a cursor remembers) and "timer"
        String[] words = IntStream.range(0, 6).mapToObj(n -> "tim" + (char) ('a' + n) + "x".repeat(56)).toArray(String[]::new);
        IndexQuery query = load(tables, "Tracker-long", i -> titled(i, "Crash " + (i % 10 == 1 ? words[i / 10 % 6] : "")
                + (i % 50 == 7 ? " timer" : "")));
        PageRequest request = PageRequest.onIndex("by-rank", List.of(s("project#p")), "", Order.ASC, 7)
                .where(List.of(ExpressionText.parse("title has prefix tim", 0)));

        // when
        List<String> listed = new ArrayList<>();
        while (request != null) {
            Page page = query.page(request);
            page.items().forEach(item -> listed.add(item.get("sk").s()));
            if (page.nextCursor().isPresent()) {
                PageRequest next = request.after(page.nextCursor().get());
                assertThat(Cursor.decode(page.nextCursor().get(), next, SEALER).toJson().path("k").has("w")).as("words remembered").isFalse();
            }
            request = page.nextCursor().map(request::after).orElse(null);
        }

        // then
        assertThat(listed).isEqualTo(expected(Order.ASC, i -> i % 10 == 1 || i % 50 == 7));
    }

    /** The cursor's content with these remembered words. */
    private static ObjectNode words(ObjectNode content, String words) {
        ObjectNode edited = content.deepCopy();
        ObjectNode k = edited.with("k");
        if (!k.has("r")) {
            // what a cursor carries with any knowledge: the sorted index's reads
            k.put("r", 0).put("l", 0);
        }
        try {
            k.set("w", JSON.readTree(words));
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException(e);
        }
        return edited;
    }

    private static List<String> expected(Order order, java.util.function.IntPredicate matches) {
        Comparator<Integer> byRank = Comparator.comparingInt(i -> i * 37 % ITEMS);
        return IntStream.range(0, ITEMS).filter(matches).boxed().sorted(order == Order.ASC ? byRank : byRank.reversed())
                .map(i -> "ISSUE#" + i).toList();
    }

    private static void put(DynamoDbClient dynamoDb, String table, Map<String, AttributeValue> item) {
        OrderedDriveFixture.put(dynamoDb, DEFINITIONS, table, item);
    }

    private static IndexQuery load(LocalTables tables, String table, IntFunction<Map<String, AttributeValue>> items) {
        return OrderedDriveFixture.load(tables, table, DEFINITIONS, SEALER, ITEMS, items);
    }
}

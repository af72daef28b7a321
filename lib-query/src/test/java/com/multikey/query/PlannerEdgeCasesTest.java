package com.multikey.query;

import com.multikey.common.Backoff;
import com.multikey.common.Sleeper;
import com.multikey.index.IndexProjector;
import com.multikey.index.IndexValue;
import com.multikey.index.definition.GridState;
import com.multikey.index.definition.IndexDefinitions;
import com.multikey.testkit.LocalTables;
import com.multikey.testkit.LocalTablesExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The planner at its edges, each test a documented promise and an input chosen to break it (the first two broke it
 * before their fixes): many empty ranges under a small budget, long texts past the sort key's kept part, 38-digit
 * numbers, attribute predicates on nested, NULL, map, list and set values.
 */
@ExtendWith(LocalTablesExtension.class)
class PlannerEdgeCasesTest {

    private static final IndexDefinitions DEFINITIONS = IndexDefinitions.packaged().withGridState(GridState.GROUPED);

    /**
     * docs/query.md: "a range's reading leaves the sorted read an index item and its item, so every page moves on,
     * whatever its budget". An {@code in} of 10 values is a driver of 10 ranges, one Query each; with a budget under 50
     * the page may make 8 calls. The probe once spent all 8 on the first 8 (empty) ranges, the sorted read never ran, and
     * the page came back empty with a cursor at the start; the next page did the same: the result never ended.
     */
    @Test
    void inOfTenValues_withABudgetOf10_pagesMoveOn(LocalTables tables) {
        // given: 30 open issues; sev 1..30; status in (a, b, c, d, e, f, g, h, i, open); budget 10
        IndexQuery query = grid(tables, 30, i -> "open");
        List<IndexValue> values = new ArrayList<>();
        for (String v : List.of("a", "b", "c", "d", "e", "f", "g", "h", "i", "open")) {
            values.add(new IndexValue.Text(v));
        }
        PageRequest request = PageRequest.first("project#p", "sev", Order.ASC, 10)
                .where(List.of(new Predicate.In("status", values))).withReadBudget(10);

        // when
        List<String> ids = readAll(query, request, 200);

        // then
        assertThat(ids).hasSize(30).doesNotHaveDuplicates().doesNotContain("(no end after 200 pages)");
    }

    /**
     * docs/query.md: a value longer than the part a sort key keeps "is asked by that part and decided on the whole
     * value". Texts sharing an 800-character prefix, sorted by title or filtered on it: every predicate form on the long
     * values, on the sorted field (narrowing the sorted read) and on another field (a driver's range), must list exactly
     * the items whose whole value satisfies it.
     */
    @Test
    void predicatesOnLongTexts_pastTheKeptPart_listExactlyTheMatchingItems(LocalTables tables) {
        // given: issue#i has title P + i (P of 800 characters), sev i, status open
        DynamoDbClient dynamoDb = tables.dynamoDb();
        String p = "x".repeat(800);
        for (int i = 1; i <= 3; i++) {
            put(dynamoDb, Map.of("id", AttributeValue.fromS("issue#" + i), "project", AttributeValue.fromS("project#p"),
                    "num", AttributeValue.fromN(Integer.toString(i)), "custom_fields", AttributeValue.fromM(Map.of(
                            "sev", AttributeValue.fromN(Integer.toString(i)), "title", AttributeValue.fromS(p + i)))));
        }
        IndexQuery query = query(dynamoDb);
        Map<String, List<Predicate>> cases = new java.util.LinkedHashMap<>();
        cases.put("= P2", List.of(new Predicate.Equals("title", text(p + 2))));
        cases.put("in (P1, P3)", List.of(new Predicate.In("title", List.of(text(p + 1), text(p + 3)))));
        cases.put(">= P2", List.of(new Predicate.Range("title", text(p + 2), true, null, false)));
        cases.put("> P1", List.of(new Predicate.Range("title", text(p + 1), false, null, false)));
        cases.put("<= P2", List.of(new Predicate.Range("title", null, false, text(p + 2), true)));
        cases.put("< P3", List.of(new Predicate.Range("title", null, false, text(p + 3), false)));
        cases.put("!= P2", List.of(new Predicate.NotEquals("title", text(p + 2))));
        cases.put("beginsWith P + 2", List.of(new Predicate.BeginsWith("title", p + 2)));
        Map<String, List<String>> expected = Map.of("= P2", List.of("issue#2"), "in (P1, P3)", List.of("issue#1", "issue#3"),
                ">= P2", List.of("issue#2", "issue#3"), "> P1", List.of("issue#2", "issue#3"), "<= P2", List.of("issue#1", "issue#2"),
                "< P3", List.of("issue#1", "issue#2"), "!= P2", List.of("issue#1", "issue#3"), "beginsWith P + 2", List.of("issue#2"));

        // when / then: sorted by title (the sorted field's predicates narrow its read), and sorted by sev (title drives)
        org.assertj.core.api.SoftAssertions soft = new org.assertj.core.api.SoftAssertions();
        for (Map.Entry<String, List<Predicate>> each : cases.entrySet()) {
            for (String sortedBy : List.of("title", "sev")) {
                for (int size : List.of(1, 10)) {
                    List<String> ids = readAll(query, PageRequest.first("project#p", sortedBy, Order.ASC, size).where(each.getValue()), 20);
                    // sorted by title, long values that differ after the cut are ordered by their hash (docs/key-encoding.md):
                    // only membership is asserted; sorted by sev, the order too
                    if (sortedBy.equals("title")) {
                        soft.assertThat(ids).as("title " + each.getKey() + ", sorted by title, pages of " + size)
                                .containsExactlyInAnyOrderElementsOf(expected.get(each.getKey()));
                    } else {
                        soft.assertThat(ids).as("title " + each.getKey() + ", sorted by sev, pages of " + size)
                                .containsExactlyElementsOf(expected.get(each.getKey()));
                    }
                }
            }
        }
        // today's one-filter requests on the long values: a range filter is decided on whole values too
        for (int size : List.of(1, 10)) {
            soft.assertThat(readAll(query, PageRequest.first("project#p", "title", Order.ASC, size)
                    .withFilter(Filter.Range.greaterThan(text(p + 1))), 20)).as("filter > P1, pages of " + size)
                    .containsExactlyInAnyOrder("issue#2", "issue#3");
            soft.assertThat(readAll(query, PageRequest.first("project#p", "title", Order.DESC, size)
                    .withFilter(Filter.Range.atMost(text(p + 2))), 20)).as("filter <= P2, pages of " + size)
                    .containsExactlyInAnyOrder("issue#1", "issue#2");
        }
        soft.assertAll();
    }

    /**
     * Several predicates on a sorted field of long texts (past the part a sort key keeps, whose keys sort by digest): their
     * key ranges intersect as covering ranges, so every value that satisfies them all is read, and decided on the whole
     * value; texts no value satisfies with a prefix of another type's range are read with no call.
     */
    @Test
    void severalPredicatesOnALongTextSortedField_intersect_andDecideOnWholeValues(LocalTables tables) {
        // given: issue#i has title P + i (P of 800 characters), i = 1..3
        DynamoDbClient dynamoDb = tables.dynamoDb();
        String p = "x".repeat(800);
        for (int i = 1; i <= 3; i++) {
            put(dynamoDb, Map.of("id", AttributeValue.fromS("issue#" + i), "project", AttributeValue.fromS("project#p"),
                    "num", AttributeValue.fromN(Integer.toString(i)), "custom_fields", AttributeValue.fromM(Map.of(
                            "title", AttributeValue.fromS(p + i)))));
        }
        IndexQuery query = query(dynamoDb);
        Map<List<Predicate>, List<String>> cases = new java.util.LinkedHashMap<>();
        cases.put(List.of(new Predicate.In("title", List.of(text(p + 1), text(p + 3))), new Predicate.Range("title", text(p + 2), true, null, false)),
                List.of("issue#3"));
        cases.put(List.of(new Predicate.BeginsWith("title", p), new Predicate.Range("title", null, false, text(p + 3), false)),
                List.of("issue#1", "issue#2"));
        cases.put(List.of(new Predicate.Range("title", text(p + 1), false, null, false), new Predicate.Range("title", null, false, text(p + 3), true),
                new Predicate.In("title", List.of(text(p + 2), text(p + 3), text("q")))), List.of("issue#2", "issue#3"));
        cases.put(List.of(new Predicate.Equals("title", text(p + 2)), new Predicate.BeginsWith("title", p + "2")), List.of("issue#2"));
        cases.put(List.of(new Predicate.In("title", List.of(text(p + 1), text(p + 2))), new Predicate.BeginsWith("title", p + "3")), List.of());

        // when / then, both orders, pages of 1 and 10
        org.assertj.core.api.SoftAssertions soft = new org.assertj.core.api.SoftAssertions();
        cases.forEach((predicates, expected) -> {
            for (Order order : Order.values()) {
                for (int size : List.of(1, 10)) {
                    soft.assertThat(readAll(query, PageRequest.first("project#p", "title", order, size).where(predicates), 20))
                            .as("%s %s, pages of %d", predicates.stream().map(PredicateText::format).toList(), order, size)
                            .containsExactlyInAnyOrderElementsOf(expected);
                }
            }
        });
        soft.assertThat(query.page(PageRequest.first("project#p", "title", Order.ASC, 10).where(List.of(new Predicate.BeginsWith("title", p),
                new Predicate.Range("title", num(1), true, null, false)))).apiCalls()).as("a text prefix and a number range").isZero();
        soft.assertAll();
    }

    /**
     * Numbers of 38 significant digits that differ in their last digit: every predicate form decides on the whole number,
     * sorted by the field or filtering another.
     */
    @Test
    void predicatesOnNumbersOf38Digits_listExactlyTheMatchingItems(LocalTables tables) {
        // given: issue#i has big = B + i (B = 1234...0, 38 digits), sev i
        DynamoDbClient dynamoDb = tables.dynamoDb();
        BigDecimal b = new BigDecimal("12345678901234567890123456789012345670");
        for (int i = 1; i <= 3; i++) {
            put(dynamoDb, Map.of("id", AttributeValue.fromS("issue#" + i), "project", AttributeValue.fromS("project#p"),
                    "num", AttributeValue.fromN(Integer.toString(i)), "custom_fields", AttributeValue.fromM(Map.of(
                            "sev", AttributeValue.fromN(Integer.toString(i)), "big", AttributeValue.fromN(b.add(BigDecimal.valueOf(i)).toPlainString())))));
        }
        IndexQuery query = query(dynamoDb);
        IndexValue b1 = new IndexValue.Num(b.add(BigDecimal.ONE));
        IndexValue b2 = new IndexValue.Num(b.add(BigDecimal.valueOf(2)));
        Map<String, List<Predicate>> cases = new java.util.LinkedHashMap<>();
        cases.put("= B2", List.of(new Predicate.Equals("big", b2)));
        cases.put("> B1", List.of(new Predicate.Range("big", b1, false, null, false)));
        cases.put("<= B2", List.of(new Predicate.Range("big", null, false, b2, true)));
        cases.put("!= B2", List.of(new Predicate.NotEquals("big", b2)));
        Map<String, List<String>> expected = Map.of("= B2", List.of("issue#2"), "> B1", List.of("issue#2", "issue#3"),
                "<= B2", List.of("issue#1", "issue#2"), "!= B2", List.of("issue#1", "issue#3"));
        org.assertj.core.api.SoftAssertions soft = new org.assertj.core.api.SoftAssertions();
        for (Map.Entry<String, List<Predicate>> each : cases.entrySet()) {
            for (String sortedBy : List.of("big", "sev")) {
                List<String> ids = readAll(query, PageRequest.first("project#p", sortedBy, Order.ASC, 1).where(each.getValue()), 20);
                soft.assertThat(ids).as("big " + each.getKey() + ", sorted by " + sortedBy).containsExactlyElementsOf(expected.get(each.getKey()));
            }
        }
        soft.assertAll();
    }

    /** {@code @attribute} predicates on nested paths, NULL, maps, lists and sets, against Predicate's documented semantics. */
    @Test
    void attributePredicates_onNestedNullMapListAndSetValues_followTheDocumentedSemantics(LocalTables tables) {
        DynamoDbClient dynamoDb = tables.dynamoDb();
        List<Map<String, AttributeValue>> details = List.of(
                Map.of("details", AttributeValue.fromM(Map.of("team", AttributeValue.fromS("core"))), "tags", AttributeValue.fromSs(List.of("a", "b"))),
                Map.of("details", AttributeValue.fromNul(true)),
                Map.of("details", AttributeValue.fromM(Map.of("team", AttributeValue.fromNul(true)))),
                Map.of("details", AttributeValue.fromM(Map.of("team", AttributeValue.fromL(List.of(AttributeValue.fromS("core"), AttributeValue.fromS("web")))))),
                Map.of(),
                Map.of("details", AttributeValue.fromM(Map.of("team", AttributeValue.fromM(Map.of("x", AttributeValue.fromN("1")))))));
        for (int i = 1; i <= details.size(); i++) {
            Map<String, AttributeValue> item = new java.util.HashMap<>(details.get(i - 1));
            item.putAll(Map.of("id", AttributeValue.fromS("issue#" + i), "project", AttributeValue.fromS("project#p"),
                    "num", AttributeValue.fromN(Integer.toString(i)), "custom_fields", AttributeValue.fromM(Map.of(
                            "sev", AttributeValue.fromN(Integer.toString(i))))));
            put(dynamoDb, item);
        }
        IndexQuery query = query(dynamoDb);
        Map<String, Predicate> cases = new java.util.LinkedHashMap<>();
        cases.put("@details.team = core", PredicateText.parse("@details.team = core", 0));
        cases.put("@details.team missing", PredicateText.parse("@details.team missing", 0));
        cases.put("@details.team present", PredicateText.parse("@details.team present", 0));
        cases.put("@details.team != core", PredicateText.parse("@details.team != core", 0));
        cases.put("@tags in (a)", PredicateText.parse("@tags in (a)", 0));
        cases.put("@tags != a", PredicateText.parse("@tags != a", 0));
        Map<String, List<String>> expected = Map.of("@details.team = core", List.of("issue#1", "issue#4"),
                "@details.team missing", List.of("issue#2", "issue#3", "issue#5", "issue#6"),
                "@details.team present", List.of("issue#1", "issue#4"), "@details.team != core", List.of("issue#4"),
                "@tags in (a)", List.of("issue#1"), "@tags != a", List.of("issue#1"));
        org.assertj.core.api.SoftAssertions soft = new org.assertj.core.api.SoftAssertions();
        cases.forEach((name, predicate) -> soft.assertThat(readAll(query, PageRequest.first("project#p", "sev", Order.ASC, 2)
                .where(List.of(predicate)), 20)).as(name).containsExactlyElementsOf(expected.get(name)));
        soft.assertAll();
    }

    /**
     * docs/query.md: an item "is listed once, under its first value of the sorted field (in page order) that satisfies the
     * sorted field's predicates"; docs/read-api.md: "On a list or set field one element must satisfy every predicate on the
     * field". On the single-table example's {@code issue-labels} index (values: the elements of {@code labels}),
     * {@code @labels} is the sorted field: item {labels: [a, b, e]} with {@code @labels = b} and {@code @labels <= "b"} is
     * listed under b (it was listed under a, which satisfies neither), with {@code @labels >= d} under e, and
     * {@code labels = a} with {@code @labels = e} matches nothing (no one element is both).
     */
    @Test
    void theSortedAttributesAtSpelling_onAListElementsIndex_isTheSortedField(LocalTables tables) {
        // given: the example's definitions on a pk/sk table; issues 7 [a, b, e], 8 [c, d], 9 [f]
        DynamoDbClient dynamoDb = tables.dynamoDb();
        IndexQuery query = singleTable(dynamoDb, List.of(labelled(7, "a", "b", "e"), labelled(8, "c", "d"), labelled(9, "f")));
        Function<List<String>, PageRequest> request = texts -> PageRequest.onIndex("issue-labels",
                List.of(AttributeValue.fromS("PROJECT#r7")), "", Order.ASC, 10).where(parse(texts));

        // when
        Page equalsB = query.page(request.apply(List.of("@labels = b", "@labels <= \"b\"")));
        Page fromD = query.page(request.apply(List.of("@labels >= d")));
        Page fromDDescending = query.page(PageRequest.onIndex("issue-labels", List.of(AttributeValue.fromS("PROJECT#r7")), "",
                Order.DESC, 10).where(parse(List.of("@labels >= d"))));
        Page mixed = query.page(request.apply(List.of("labels = a", "@labels = e")));
        Page mixedOtherWay = query.page(request.apply(List.of("@labels = a", "labels = e")));

        // then
        assertThat(equalsB.items()).extracting(item -> item.get("sk").s()).containsExactly("ISSUE#7");
        assertThat(equalsB.listedValue(0)).contains(AttributeValue.fromS("b"));
        assertThat(fromD.items()).extracting(item -> item.get("sk").s()).containsExactly("ISSUE#8", "ISSUE#7", "ISSUE#9");
        assertThat(List.of(fromD.listedValue(0), fromD.listedValue(1), fromD.listedValue(2)))
                .extracting(value -> value.orElseThrow().s()).containsExactly("d", "e", "f");
        assertThat(fromDDescending.items()).extracting(item -> item.get("sk").s()).containsExactly("ISSUE#9", "ISSUE#7", "ISSUE#8");
        assertThat(mixed.items()).isEmpty();
        assertThat(mixedOtherWay.items()).isEmpty();
    }

    /**
     * The same on a map-entries index (the grid: {@code @custom_fields.tags} is the entry {@code tags}, sorted or not), and
     * two range bounds of two types on one field, in either spelling, are refused naming the second, as an inverted range is.
     */
    @Test
    void theAtSpellingOfAMapEntry_isTheEntry_andBoundsOfTwoTypesAreRefused(LocalTables tables) {
        // given: issue#1 tags [a, b, e], sev 1; issue#2 tags [c], sev 2
        DynamoDbClient dynamoDb = tables.dynamoDb();
        put(dynamoDb, Map.of("id", AttributeValue.fromS("issue#1"), "project", AttributeValue.fromS("project#p"), "num", AttributeValue.fromN("1"),
                "custom_fields", AttributeValue.fromM(Map.of("sev", AttributeValue.fromN("1"),
                        "tags", AttributeValue.fromSs(List.of("a", "b", "e"))))));
        put(dynamoDb, Map.of("id", AttributeValue.fromS("issue#2"), "project", AttributeValue.fromS("project#p"), "num", AttributeValue.fromN("2"),
                "custom_fields", AttributeValue.fromM(Map.of("sev", AttributeValue.fromN("2"), "tags", AttributeValue.fromSs(List.of("c"))))));
        IndexQuery query = query(dynamoDb);

        // when
        Page sortedUnderB = query.page(PageRequest.first("project#p", "tags", Order.ASC, 10)
                .where(parse(List.of("@custom_fields.tags >= b", "@custom_fields.tags < c"))));
        Page oneElementBoth = query.page(PageRequest.first("project#p", "sev", Order.ASC, 10)
                .where(parse(List.of("tags = a", "@custom_fields.tags = e"))));

        // then
        assertThat(sortedUnderB.items()).extracting(item -> item.get("id").s()).containsExactly("issue#1");
        assertThat(sortedUnderB.listedValue(0)).contains(AttributeValue.fromS("b"));
        assertThat(oneElementBoth.items()).isEmpty();
        org.assertj.core.api.ThrowableAssert.ThrowingCallable twoTypes = () -> PageRequest.first("project#p", "sev", Order.ASC, 10)
                .where(parse(List.of("sev >= 3", "sev < \"m\"")));
        assertThatThrownBy(twoTypes).isInstanceOfSatisfying(InvalidPredicateException.class, e -> assertThat(e.position()).isEqualTo(1))
                .hasMessageContaining("two types");
        assertThatThrownBy(() -> query.page(PageRequest.first("project#p", "sev", Order.ASC, 10)
                .where(parse(List.of("status = open", "tags >= N:3", "@custom_fields.tags <= z")))))
                .isInstanceOfSatisfying(InvalidPredicateException.class, e -> assertThat(e.position()).isEqualTo(2));
        assertThatThrownBy(() -> query.page(PageRequest.first("project#p", "sev", Order.ASC, 10)
                .where(parse(List.of("tags >= m", "@custom_fields.tags < c")))))
                .isInstanceOfSatisfying(InvalidPredicateException.class, e -> assertThat(e.position()).isEqualTo(1))
                .hasMessageContaining("inverted");
    }

    private static List<Predicate> parse(List<String> texts) {
        List<Predicate> predicates = new ArrayList<>();
        for (int i = 0; i < texts.size(); i++) {
            predicates.add(PredicateText.parse(texts.get(i), i));
        }
        return predicates;
    }

    /** An issue of the single-table example in project r7, with these labels. */
    private static Map<String, AttributeValue> labelled(int num, String... labels) {
        return Map.of("pk", AttributeValue.fromS("PROJECT#r7"), "sk", AttributeValue.fromS("ISSUE#" + num),
                "num", AttributeValue.fromN(Integer.toString(num)), "title", AttributeValue.fromS("issue " + num),
                "labels", AttributeValue.fromSs(List.of(labels)));
    }

    /** The single-table example's definitions on a pk/sk table {@code Tracker} holding these items and their index items. */
    static IndexQuery singleTable(DynamoDbClient dynamoDb, List<Map<String, AttributeValue>> items) {
        IndexDefinitions example = com.multikey.index.definition.DefinitionsYaml.read(
                java.nio.file.Path.of("..", "examples", "single-table", "index-definitions.yaml"));
        dynamoDb.createTable(b -> b.tableName("Tracker").billingMode(software.amazon.awssdk.services.dynamodb.model.BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(a -> a.attributeName("pk").attributeType(software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType.S),
                        a -> a.attributeName("sk").attributeType(software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType.S))
                .keySchema(k -> k.attributeName("pk").keyType(software.amazon.awssdk.services.dynamodb.model.KeyType.HASH),
                        k -> k.attributeName("sk").keyType(software.amazon.awssdk.services.dynamodb.model.KeyType.RANGE)));
        IndexProjector projector = new IndexProjector(example);
        for (Map<String, AttributeValue> item : items) {
            dynamoDb.putItem(b -> b.tableName("Tracker").item(item));
            projector.project(projector.keyOf(item).orElseThrow(), item).items()
                    .forEach(indexItem -> dynamoDb.putItem(b -> b.tableName("IssueAttribIndexTable").item(indexItem.toItem())));
        }
        return new IndexQuery(dynamoDb, "Tracker", "IssueAttribIndexTable", example,
                new Backoff(Duration.ofMillis(1), Duration.ofMillis(5), new Random(1)), Sleeper.SYSTEM, Duration.ofSeconds(60),
                System::nanoTime, CursorSealer.of(CursorKeys.ephemeral()), GridSettings.NONE);
    }

    static IndexValue text(String value) {
        return new IndexValue.Text(value);
    }

    /** {@code count} issues of project#p: sev i, status status(i). */
    static IndexQuery grid(LocalTables tables, int count, Function<Integer, String> status) {
        DynamoDbClient dynamoDb = tables.dynamoDb();
        for (int i = 1; i <= count; i++) {
            put(dynamoDb, Map.of("id", AttributeValue.fromS("issue#" + i), "project", AttributeValue.fromS("project#p"),
                    "num", AttributeValue.fromN(Integer.toString(i)), "custom_fields", AttributeValue.fromM(Map.of(
                            "sev", AttributeValue.fromN(Integer.toString(i)), "status", AttributeValue.fromS(status.apply(i))))));
        }
        return query(dynamoDb);
    }

    static void put(DynamoDbClient dynamoDb, Map<String, AttributeValue> item) {
        IndexProjector projector = new IndexProjector(DEFINITIONS);
        dynamoDb.putItem(b -> b.tableName("AppTable").item(item));
        projector.project(projector.keyOf(item).orElseThrow(), item).items()
                .forEach(indexItem -> dynamoDb.putItem(b -> b.tableName("IssueAttribIndexTable").item(indexItem.toItem())));
    }

    static IndexQuery query(DynamoDbClient dynamoDb) {
        return new IndexQuery(dynamoDb, "AppTable", "IssueAttribIndexTable", DEFINITIONS,
                new Backoff(Duration.ofMillis(1), Duration.ofMillis(5), new Random(1)), Sleeper.SYSTEM, Duration.ofSeconds(60),
                System::nanoTime, CursorSealer.of(CursorKeys.ephemeral()), new GridSettings("ByProject", (project, attribute) -> true));
    }

    /** The ids of every page, or of the first {@code maxPages} when the result has not ended by then. */
    static List<String> readAll(IndexQuery query, PageRequest first, int maxPages) {
        List<String> ids = new ArrayList<>();
        PageRequest request = first;
        for (int n = 0; n < maxPages; n++) {
            Page page = query.page(request);
            page.items().forEach(issue -> ids.add(issue.get("id").s()));
            if (page.nextCursor().isEmpty()) {
                return ids;
            }
            request = request.after(page.nextCursor().get());
        }
        ids.add("(no end after " + maxPages + " pages)");
        return ids;
    }

    static IndexValue num(long value) {
        return new IndexValue.Num(BigDecimal.valueOf(value));
    }
}

package com.multikey.query;

import com.multikey.common.Backoff;
import com.multikey.common.Sleeper;
import com.multikey.index.IndexItem;
import com.multikey.index.IndexProjector;
import com.multikey.index.definition.DefinitionsYaml;
import com.multikey.index.definition.IndexDefinitions;
import com.multikey.testkit.LocalTables;
import com.multikey.testkit.LocalTablesExtension;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Several groups with where expressions, cursors, totals and facets, against a brute force from the docs. */
class SeveralGroupsEdgeCasesTest {

    @RegisterExtension
    static final LocalTablesExtension TABLES = LocalTablesExtension.createdOnce();

    private static final String TABLE = "Incidents";
    private static final String INDEX_TABLE = "IssueAttribIndexTable";
    private static final IndexDefinitions DEFINITIONS = DefinitionsYaml.parse("""
            version: 1
            table: {partitionKey: {name: pk, type: S}, sortKey: {name: sk, type: S}}
            indexes:
              - name: by-created
                covers: [{attribute: sk, beginsWith: "INC#"}]
                group: pk
                values: {attribute: created}
                orderBy: num
              - name: by-label
                covers: [{attribute: sk, beginsWith: "INC#"}]
                group: pk
                values: {elementsOf: labels}
                orderBy: num
              - name: by-state
                covers: [{attribute: sk, beginsWith: "INC#"}]
                group: pk
                values: {attribute: state}
                orderBy: num
              - name: title-words
                covers: [{attribute: sk, beginsWith: "INC#"}]
                group: pk
                values: {wordsOf: title}
                orderBy: num
            """);
    private static final List<String> TITLES = List.of("Timeout in DB", "TIMEOUTS everywhere", "Caf\u00e9 crash", "Cafe\u0301 slow",
            "Stra\u00dfe closed", "\u0130stanbul outage", "time-out", "nai\u0308ve bug", "\u6771\u4eac down", "quiet");
    private static final List<String> TEAMS = List.of("TEAM#a", "TEAM#b", "TEAM#c", "TEAM#d", "TEAM#e");
    private static final List<String> STATES = List.of("open", "closed", "new");
    private static final List<String> LABELS = List.of("bug", "ui", "db", "perf");
    private static final List<Map<String, AttributeValue>> ITEMS = new ArrayList<>();
    private static DynamoDbClient dynamoDb;

    @BeforeAll
    static void load(LocalTables tables) {
        dynamoDb = tables.dynamoDb();
        dynamoDb.createTable(b -> b.tableName(TABLE).billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(a -> a.attributeName("pk").attributeType(ScalarAttributeType.S),
                        a -> a.attributeName("sk").attributeType(ScalarAttributeType.S))
                .keySchema(k -> k.attributeName("pk").keyType(KeyType.HASH), k -> k.attributeName("sk").keyType(KeyType.RANGE)));
        Random random = new Random(11);
        List<Integer> created = new ArrayList<>(IntStream.range(0, 300).boxed().toList());
        java.util.Collections.shuffle(created, random);
        for (int i = 0; i < 300; i++) {
            Map<String, AttributeValue> item = new LinkedHashMap<>();
            item.put("pk", s(TEAMS.get(random.nextInt(TEAMS.size()))));
            item.put("sk", s(String.format("INC#%04d", i)));
            item.put("num", AttributeValue.fromN(Integer.toString(i)));
            if (random.nextInt(5) != 0) {
                item.put("created", AttributeValue.fromN(Integer.toString(created.get(i))));
            }
            item.put("state", s(STATES.get(random.nextInt(STATES.size()))));
            if (i % 7 != 3) {
                item.put("title", s(TITLES.get(i % TITLES.size())));
            }
            if (random.nextInt(4) != 0) {
                List<AttributeValue> labels = new ArrayList<>();
                for (String label : LABELS) {
                    if (random.nextInt(3) == 0) {
                        labels.add(s(label));
                    }
                }
                item.put("labels", AttributeValue.fromL(labels));
            }
            ITEMS.add(item);
            dynamoDb.putItem(b -> b.tableName(TABLE).item(item));
            IndexProjector projector = new IndexProjector(DEFINITIONS);
            for (IndexItem indexItem : projector.project(projector.keyOf(item).orElseThrow(), item).items()) {
                dynamoDb.putItem(b -> b.tableName(INDEX_TABLE).item(indexItem.toItem()));
            }
        }
    }

    private static IndexQuery query() {
        return new IndexQuery(dynamoDb, TABLE, INDEX_TABLE, DEFINITIONS,
                new Backoff(Duration.ofMillis(1), Duration.ofMillis(5), new Random(1)), Sleeper.SYSTEM, Duration.ofSeconds(60),
                System::nanoTime, CursorSealer.of(CursorKeys.ephemeral()), GridSettings.NONE);
    }

    private static final IndexQuery QUERY_HOLDER[] = new IndexQuery[1];

    private static IndexQuery shared() {
        if (QUERY_HOLDER[0] == null) {
            QUERY_HOLDER[0] = query();
        }
        return QUERY_HOLDER[0];
    }

    private static AttributeValue s(String text) {
        return AttributeValue.fromS(text);
    }

    private static List<List<AttributeValue>> groups(List<String> teams) {
        return teams.stream().map(team -> List.of(s(team))).toList();
    }

    private static boolean hasLabel(Map<String, AttributeValue> item, String label) {
        return item.containsKey("labels") && item.get("labels").l().stream().anyMatch(v -> v.s().equals(label));
    }

    private static String key(Map<String, AttributeValue> item) {
        return item.get("pk").s() + " " + item.get("sk").s();
    }

    private static List<String> readAll(PageRequest first) {
        List<String> listed = new ArrayList<>();
        PageRequest request = first;
        for (int n = 0; request != null; n++) {
            assertThat(n).isLessThan(2000);
            Page page = shared().page(request);
            page.items().forEach(item -> listed.add(key(item)));
            request = page.nextCursor().map(request::after).orElse(null);
        }
        return listed;
    }

    /** Items with created, matching, by created ascending; then with the tail each team's items lacking it, teams in the order named. */
    private static List<String> model(List<String> teams, Predicate<Map<String, AttributeValue>> where, boolean tail) {
        List<String> distinct = teams.stream().distinct().toList();
        List<String> expected = new ArrayList<>(ITEMS.stream()
                .filter(item -> distinct.contains(item.get("pk").s()) && item.containsKey("created") && where.test(item))
                .sorted(Comparator.comparingInt(item -> Integer.parseInt(item.get("created").n())))
                .map(SeveralGroupsEdgeCasesTest::key).toList());
        if (tail) {
            for (String team : distinct) {
                ITEMS.stream().filter(item -> item.get("pk").s().equals(team) && !item.containsKey("created") && where.test(item))
                        .map(SeveralGroupsEdgeCasesTest::key).sorted().forEach(expected::add);
            }
        }
        return expected;
    }

    private static PageRequest request(List<String> teams, int pageSize, String... wheres) {
        return PageRequest.onIndex("by-created", List.of(s(teams.get(0))), "", Order.ASC, pageSize)
                .withGroups(groups(teams)).where(ExpressionText.parseAll(List.of(wheres)));
    }

    @Test
    void severalGroups_anOrOnOtherFields_withTheMissingTail_listTheModel() {
        List<String> teams = List.of("TEAM#c", "TEAM#a", "TEAM#e");
        Predicate<Map<String, AttributeValue>> where = item -> item.get("state").s().equals("closed") || hasLabel(item, "bug");
        assertThat(readAll(request(teams, 3, "state = closed or labels = bug").withMissing())).isEqualTo(model(teams, where, true));
    }

    @Test
    void severalGroups_notOfALabel_andNotNot_listTheModel() {
        List<String> teams = List.of("TEAM#b", "TEAM#d");
        Predicate<Map<String, AttributeValue>> notBug = item -> !hasLabel(item, "bug");
        assertThat(readAll(request(teams, 4, "not (labels = bug)").withMissing())).isEqualTo(model(teams, notBug, true));
        Predicate<Map<String, AttributeValue>> open = item -> item.get("state").s().equals("open");
        assertThat(readAll(request(teams, 4, "not not state = open"))).isEqualTo(model(teams, open, false));
    }

    @Test
    void severalGroups_anOrWithTheSortedField_andTheTail_listTheItemsLackingItThatMatch() {
        List<String> teams = List.of("TEAM#a", "TEAM#b");
        Predicate<Map<String, AttributeValue>> where = item -> (item.containsKey("created") && Integer.parseInt(item.get("created").n()) >= 250)
                || item.get("state").s().equals("closed");
        assertThat(readAll(request(teams, 5, "created >= 250 or state = closed").withMissing())).isEqualTo(model(teams, where, true));
    }

    @Test
    void severalGroups_smallBudgets_listTheModel() {
        List<String> teams = List.of("TEAM#a", "TEAM#b");
        Predicate<Map<String, AttributeValue>> where = item -> item.get("state").s().equals("new") || hasLabel(item, "perf");
        assertThat(readAll(request(teams, 3, "state = new or labels = perf").withReadBudget(4))).isEqualTo(model(teams, where, false));
        assertThatThrownBy(() -> shared().page(request(teams, 3, "state = new or labels = perf").withReadBudget(2)))
                .isInstanceOf(FilterParameters.InvalidParameterException.class);
    }

    @Test
    void duplicateGroups_listEachItemOnce_andFiftyOneDistinctAreRefused() {
        List<String> teams = List.of("TEAM#a", "TEAM#b", "TEAM#a", "TEAM#b");
        Predicate<Map<String, AttributeValue>> all = item -> true;
        assertThat(readAll(request(teams, 7, "state present"))).isEqualTo(model(teams, all, false));
        List<String> fifty = new ArrayList<>(TEAMS);
        IntStream.range(0, 45).forEach(i -> fifty.add("TEAM#z" + i));
        assertThat(readAll(request(fifty, 20, "labels = ui or labels = db"))).isEqualTo(model(fifty,
                item -> hasLabel(item, "ui") || hasLabel(item, "db"), false));
        List<String> fiftyOne = new ArrayList<>(fifty);
        fiftyOne.add("TEAM#y");
        assertThatThrownBy(() -> request(fiftyOne, 20, "state present")).isInstanceOf(QueryException.class);
    }

    @Test
    void aCursor_nextPageOfAnotherPageSizeOrBudget_goesOn_listingTheModel_oneGroupAndSeveral() {
        // the page size may change between pages, and the budget is no part of what a cursor binds
        int[] sizes = {1, 7, 2, 100, 3, 1, 13};
        int[] budgets = {0, 6, 2_000, 10, 0, 40};
        for (List<String> teams : List.of(List.of("TEAM#a"), List.of("TEAM#c", "TEAM#a", "TEAM#e"))) {
            for (String where : List.of("state = closed or labels = bug", "not (labels = ui)")) {
                Predicate<Map<String, AttributeValue>> model = where.startsWith("not") ? item -> !hasLabel(item, "ui")
                        : item -> item.get("state").s().equals("closed") || hasLabel(item, "bug");
                List<String> listed = new ArrayList<>();
                PageRequest request = request(teams, sizes[0], where).withMissing();
                for (int n = 0; request != null; n++) {
                    assertThat(n).isLessThan(2000);
                    Page page = shared().page(request);
                    page.items().forEach(item -> listed.add(key(item)));
                    PageRequest next = request(teams, sizes[(n + 1) % sizes.length], where).withMissing();
                    int budget = budgets[(n + 1) % budgets.length] * teams.size();
                    PageRequest budgeted = budget > 0 ? next.withReadBudget(budget) : next;
                    request = page.nextCursor().map(budgeted::after).orElse(null);
                }
                assertThat(listed).as("%s %s", teams, where).isEqualTo(model(teams, model, true));
            }
        }
    }

    @Test
    void aCursor_reusedWithAnotherWhere_isRefused() {
        List<String> teams = List.of("TEAM#a", "TEAM#b");
        Page first = shared().page(request(teams, 3, "state = closed or labels = bug"));
        String cursor = first.nextCursor().orElseThrow();
        for (String other : List.of("state = closed or labels = ui", "labels = bug or state = closed", "state = closed and labels = bug",
                "not (state = closed or labels = bug)")) {
            assertThatThrownBy(() -> shared().page(request(teams, 3, other).after(cursor))).as(other).isInstanceOf(QueryException.class);
        }
        Page one = shared().page(request(List.of("TEAM#a"), 3, "state = closed or labels = bug"));
        String oneCursor = one.nextCursor().orElseThrow();
        assertThatThrownBy(() -> shared().page(request(List.of("TEAM#a"), 3, "state = closed or labels = ui").after(oneCursor)))
                .isInstanceOf(QueryException.class);
    }

    @Test
    void total_ofAnOr_countsTheModel_oneGroupAndSeveral() {
        Counts counts = new Counts(shared(), dynamoDb, INDEX_TABLE, DEFINITIONS);
        Predicate<Map<String, AttributeValue>> where = item -> item.get("state").s().equals("closed") || hasLabel(item, "bug");
        for (List<String> teams : List.of(List.of("TEAM#a"), List.of("TEAM#a", "TEAM#c"), List.of("TEAM#c", "TEAM#a", "TEAM#c"))) {
            Total total = counts.total(request(teams, 3, "state = closed or labels = bug"));
            assertThat(total.value()).as("%s", teams).isEqualTo(model(teams, where, false).size());
            assertThat(total.relation()).isEqualTo(Total.Relation.EQ);
            Total withTail = counts.total(request(teams, 3, "state = closed or labels = bug").withMissing());
            assertThat(withTail.value()).as("tail %s", teams).isEqualTo(model(teams, where, true).size());
            Page page = counts.pageWithTotal(request(teams, 3, "not (state = closed or labels = bug)").withMissing());
            assertThat(page.total().orElseThrow().value()).as("not %s", teams)
                    .isEqualTo(model(teams, where.negate(), true).size());
        }
    }

    @Test
    void facets_ofLabels_withAWhereOfOrAndNot_countTheMatchingItemsPerLabel() {
        Counts counts = new Counts(shared(), dynamoDb, INDEX_TABLE, DEFINITIONS);
        for (String text : List.of("state = closed or state = new", "not (labels = bug)", "not (state = open) and not labels = ui")) {
            Predicate<Map<String, AttributeValue>> where = switch (text) {
                case "state = closed or state = new" -> item -> !item.get("state").s().equals("open");
                case "not (labels = bug)" -> item -> !hasLabel(item, "bug");
                default -> item -> !item.get("state").s().equals("open") && !hasLabel(item, "ui");
            };
            Map<String, Long> expected = new TreeMap<>();
            ITEMS.stream().filter(item -> item.get("pk").s().equals("TEAM#b") && item.containsKey("labels") && where.test(item))
                    .forEach(item -> item.get("labels").l().stream().map(AttributeValue::s).distinct()
                            .forEach(label -> expected.merge(label, 1L, Long::sum)));
            Facets facets = counts.facets(FacetRequest.of("by-label", List.of(s("TEAM#b")), List.of("labels"))
                    .where(List.of(ExpressionText.parse(text, 0))));
            Map<String, Long> actual = new TreeMap<>();
            facets.facets().get(0).values().forEach(v -> actual.put(v.value().s(), v.count()));
            assertThat(actual).as(text).isEqualTo(expected);
            assertThat(facets.facets().get(0).relation()).isEqualTo(Total.Relation.EQ);
        }
    }

    /** Items with a label, matching, each once under its first label in page order (then num), by-label. */
    private static List<String> byLabel(List<String> teams, Predicate<Map<String, AttributeValue>> where, Order order) {
        List<String> distinct = teams.stream().distinct().toList();
        Comparator<Map.Entry<String, Map<String, AttributeValue>>> cmp = Comparator.<Map.Entry<String, Map<String, AttributeValue>>, String>comparing(Map.Entry::getKey)
                .thenComparingInt(e -> Integer.parseInt(e.getValue().get("num").n()));
        return ITEMS.stream()
                .filter(item -> distinct.contains(item.get("pk").s()) && item.containsKey("labels") && !item.get("labels").l().isEmpty() && where.test(item))
                .map(item -> {
                    List<String> labels = item.get("labels").l().stream().map(AttributeValue::s).sorted().toList();
                    return Map.entry(order == Order.ASC ? labels.get(0) : labels.get(labels.size() - 1), item);
                })
                .sorted(order == Order.ASC ? cmp : cmp.reversed())
                .map(e -> key(e.getValue())).toList();
    }

    @Test
    void anOrOfTwoValuesOfTheSortedMultiValuedField_listsEachItemOnceUnderItsFirstValue_oneGroupAndSeveral() {
        Predicate<Map<String, AttributeValue>> where = item -> hasLabel(item, "ui") || hasLabel(item, "db");
        for (List<String> teams : List.of(List.of("TEAM#a"), List.of("TEAM#a", "TEAM#d"))) {
            for (Order order : Order.values()) {
                for (int size : List.of(1, 2, 5)) {
                    PageRequest request = PageRequest.onIndex("by-label", List.of(s(teams.get(0))), "", order, size)
                            .withGroups(groups(teams)).where(List.of(ExpressionText.parse("labels = ui or labels = db", 0)));
                    assertThat(readAll(request)).as("%s %s %d", teams, order, size).isEqualTo(byLabel(teams, where, order));
                }
            }
        }
    }

    @Test
    void anOrOfTwoRangesOfTheSortedField_listsTheModel_bothOrders() {
        Predicate<Map<String, AttributeValue>> where = item -> item.containsKey("created")
                && (Integer.parseInt(item.get("created").n()) < 40 || Integer.parseInt(item.get("created").n()) > 260);
        for (List<String> teams : List.of(List.of("TEAM#b"), List.of("TEAM#b", "TEAM#e", "TEAM#c"))) {
            for (Order order : Order.values()) {
                PageRequest request = PageRequest.onIndex("by-created", List.of(s(teams.get(0))), "", order, 2)
                        .withGroups(groups(teams)).where(List.of(ExpressionText.parse("created < 40 or created > 260", 0)));
                List<String> expected = new ArrayList<>(model(teams, where, false));
                if (order == Order.DESC) {
                    java.util.Collections.reverse(expected);
                }
                assertThat(readAll(request)).as("%s %s", teams, order).isEqualTo(expected);
                assertThat(readAll(request.withReadBudget(6 * teams.size()))).as("budget %s %s", teams, order).isEqualTo(expected);
            }
        }
    }

    private static Predicate<Map<String, AttributeValue>> titleIn(int... titles) {
        return item -> item.containsKey("title") && IntStream.of(titles).anyMatch(t -> TITLES.get(t).equals(item.get("title").s()));
    }

    @Test
    void wordsPredicates_inOrAndNot_overSeveralGroups_listTheItemsWhoseTitleHoldsTheWord() {
        List<String> teams = List.of("TEAM#e", "TEAM#a", "TEAM#c");
        Map<String, Predicate<Map<String, AttributeValue>>> cases = new LinkedHashMap<>();
        cases.put("title has timeout", titleIn(0));
        cases.put("title has \"caf\u00e9\"", titleIn(2, 3));
        cases.put("title has \"Cafe\u0301\"", titleIn(2, 3));
        cases.put("title has prefix time", titleIn(0, 1, 6));
        cases.put("title has \"\u0130stanbul\"", titleIn(5));
        cases.put("title has \"na\u00efve\"", titleIn(7));
        cases.put("title has \"\u6771\u4eac\"", titleIn(8));
        cases.put("title has strasse or title has \"stra\u00dfe\"", titleIn(4));
        cases.put("title has timeout or state = closed", titleIn(0).or(item -> item.get("state").s().equals("closed")));
        cases.put("not (title has prefix time)", titleIn(0, 1, 6).negate());
        cases.put("title has out and not title has timeout", titleIn(6));
        cases.forEach((text, where) -> {
            assertThat(readAll(request(teams, 4, text).withMissing())).as(text).isEqualTo(model(teams, where, true));
            assertThat(readAll(request(List.of("TEAM#b"), 4, text))).as("one group: " + text).isEqualTo(model(List.of("TEAM#b"), where, false));
        });
    }

    @Test
    void notEqualsOnAMultiValuedField_andNotOfARange_andAnOrWithMissing_listTheModel() {
        List<String> teams = List.of("TEAM#d", "TEAM#b");
        Map<String, Predicate<Map<String, AttributeValue>>> cases = new LinkedHashMap<>();
        cases.put("labels != bug", item -> item.containsKey("labels") && item.get("labels").l().stream().anyMatch(v -> !v.s().equals("bug")));
        cases.put("not (created > 100)", item -> !(item.containsKey("created") && Integer.parseInt(item.get("created").n()) > 100));
        cases.put("created missing or state = closed", item -> !item.containsKey("created") || item.get("state").s().equals("closed"));
        cases.put("labels missing or labels = ui", item -> !item.containsKey("labels") || item.get("labels").l().isEmpty() || hasLabel(item, "ui"));
        cases.put("created in (1, 2, 3, 250, 251) or state = new", item -> item.get("state").s().equals("new")
                || item.containsKey("created") && List.of("1", "2", "3", "250", "251").contains(item.get("created").n()));
        cases.forEach((text, where) -> {
            assertThat(readAll(request(teams, 3, text).withMissing())).as(text).isEqualTo(model(teams, where, true));
            assertThat(readAll(request(teams, 3, text))).as("no tail: " + text).isEqualTo(model(teams, where, false));
        });
    }

    @Test
    void predicatesOnOneFieldDirectlyUnderOneAnd_areSatisfiedByOneValue_underTwoAndsEachGroupAlone() {
        List<String> teams = List.of("TEAM#a", "TEAM#e");
        Predicate<Map<String, AttributeValue>> both = item -> hasLabel(item, "bug") && hasLabel(item, "ui");
        Map<List<String>, Predicate<Map<String, AttributeValue>>> cases = new LinkedHashMap<>();
        cases.put(List.of("(labels = bug and labels = ui) or state = zzz"), item -> false);
        cases.put(List.of("labels = bug and (labels = ui or state = zzz)"), both);
        cases.put(List.of("not (labels = bug and labels = ui)"), item -> true);
        cases.put(List.of("(labels = bug or state = zzz) and (labels = ui or state = zzz)"), both);
        cases.forEach((texts, where) -> {
            assertThat(readAll(request(teams, 4, texts.toArray(String[]::new)).withMissing())).as("%s", texts).isEqualTo(model(teams, where, true));
        });
    }

    @Test
    void facets_ofLabels_withPredicatesOnTheSortedFieldItself_countEveryLabelOfTheMatchingItems_topAndOthers() {
        Counts counts = new Counts(shared(), dynamoDb, INDEX_TABLE, DEFINITIONS);
        Map<String, Predicate<Map<String, AttributeValue>>> cases = new LinkedHashMap<>();
        cases.put("labels = bug", item -> hasLabel(item, "bug"));
        cases.put("labels in (ui, db)", item -> hasLabel(item, "ui") || hasLabel(item, "db"));
        cases.put("labels beginsWith d", item -> hasLabel(item, "db"));
        cases.put("labels != bug", item -> item.containsKey("labels") && item.get("labels").l().stream().anyMatch(v -> !v.s().equals("bug")));
        cases.put("title has timeout or labels = perf", titleIn(0).or(item -> hasLabel(item, "perf")));
        cases.forEach((text, where) -> {
            Map<String, Long> expected = new TreeMap<>();
            ITEMS.stream().filter(item -> item.get("pk").s().equals("TEAM#c") && item.containsKey("labels") && where.test(item))
                    .forEach(item -> item.get("labels").l().stream().map(AttributeValue::s).distinct()
                            .forEach(label -> expected.merge(label, 1L, Long::sum)));
            Facets all = counts.facets(FacetRequest.of("by-label", List.of(s("TEAM#c")), List.of("labels"))
                    .where(List.of(ExpressionText.parse(text, 0))));
            Map<String, Long> actual = new TreeMap<>();
            all.facets().get(0).values().forEach(v -> actual.put(v.value().s(), v.count()));
            assertThat(actual).as(text).isEqualTo(expected);
            List<Map.Entry<String, Long>> ranked = expected.entrySet().stream()
                    .sorted(Map.Entry.<String, Long>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey())).toList();
            Facets.Facet top = counts.facets(FacetRequest.of("by-label", List.of(s("TEAM#c")), List.of("labels")).withTop(2)
                    .where(List.of(ExpressionText.parse(text, 0)))).facets().get(0);
            assertThat(top.values().stream().map(v -> v.value().s()).toList()).as("top " + text)
                    .isEqualTo(ranked.stream().limit(2).map(Map.Entry::getKey).toList());
            assertThat(top.otherValues()).as("others " + text).isEqualTo(Math.max(0, ranked.size() - 2));
            assertThat(top.otherCount()).as("other count " + text).isEqualTo(ranked.stream().skip(2).mapToLong(Map.Entry::getValue).sum());
        });
    }

    @Test
    void aUnionOfDrives_descending_pagesOfOne_withTheTail_andSmallBudgets_listTheModel() {
        Predicate<Map<String, AttributeValue>> where = item -> item.get("state").s().equals("new") || hasLabel(item, "perf");
        for (List<String> teams : List.of(List.of("TEAM#c"), List.of("TEAM#c", "TEAM#e"))) {
            List<String> withCreated = new ArrayList<>(model(teams, where, false));
            java.util.Collections.reverse(withCreated);
            List<String> expected = new ArrayList<>(withCreated);
            List<String> tail = model(teams, where, true).subList(withCreated.size(), model(teams, where, true).size());
            // the tail: each group in turn, within a group in sort key order reversed in a descending request
            for (String team : teams) {
                List<String> ofTeam = new ArrayList<>(tail.stream().filter(k -> k.startsWith(team + " ")).toList());
                java.util.Collections.reverse(ofTeam);
                expected.addAll(ofTeam);
            }
            for (int budget : List.of(0, 4 * teams.size(), 9 * teams.size())) {
                PageRequest request = PageRequest.onIndex("by-created", List.of(s(teams.get(0))), "", Order.DESC, 1)
                        .withGroups(groups(teams)).where(List.of(ExpressionText.parse("state = new or labels = perf", 0))).withMissing();
                if (budget > 0) {
                    request = request.withReadBudget(budget);
                }
                assertThat(readAll(request)).as("%s budget %d", teams, budget).isEqualTo(expected);
            }
        }
    }

    @Test
    void has_onAFieldWithoutAWordsIndex_orOfTwoWords_isRefused_evenUnderNotAndOr() {
        for (String text : List.of("labels has bug", "state = new or labels has bug", "not (state has new)", "title has \"time out\"",
                "title has \"!!\"")) {
            assertThatThrownBy(() -> shared().page(request(List.of("TEAM#a", "TEAM#b"), 3, text))).as(text).isInstanceOf(InvalidPredicateException.class);
            assertThatThrownBy(() -> shared().page(request(List.of("TEAM#a"), 3, text))).as("one group " + text).isInstanceOf(InvalidPredicateException.class);
        }
    }
}

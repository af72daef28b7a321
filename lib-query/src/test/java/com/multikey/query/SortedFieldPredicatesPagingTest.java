package com.multikey.query;

import com.multikey.index.IndexValue;
import com.multikey.testkit.LocalTables;
import com.multikey.testkit.LocalTablesExtension;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.function.Function;

import static com.multikey.query.PlannerEdgeCasesTest.put;
import static com.multikey.query.PlannerEdgeCasesTest.query;
import static com.multikey.query.PlannerEdgeCasesTest.readAll;
import static com.multikey.query.PlannerEdgeCasesTest.text;

/**
 * The sorted read narrowed by its predicates ({@code in} ranges in page order, both orders, resuming inside a
 * range), the {@code @} spelling mixed with the plain one, list-valued sorted fields, long texts in an {@code in} list;
 * every page walk compared with a brute force written from docs/query.md (ties by num, reversed with the order).
 */
@ExtendWith(LocalTablesExtension.class)
class SortedFieldPredicatesPagingTest {

    private record Issue(int num, List<String> values) {
    }

    private static List<Predicate> parse(String... texts) {
        List<Predicate> predicates = new ArrayList<>();
        for (int i = 0; i < texts.length; i++) {
            predicates.add(PredicateText.parse(texts[i], i));
        }
        return predicates;
    }

    /** Brute force: each issue under its first value (in page order) that matches, sorted by (value, num), reversed for DESC. */
    private static List<String> expected(List<Issue> issues, java.util.function.Predicate<String> matches,
                                         Comparator<String> valueOrder, Order order) {
        record Listed(String value, int num) {
        }
        List<Listed> listed = new ArrayList<>();
        for (Issue issue : issues) {
            Optional<String> first = issue.values().stream().filter(matches)
                    .min(order == Order.ASC ? valueOrder : valueOrder.reversed());
            first.ifPresent(v -> listed.add(new Listed(v, issue.num())));
        }
        Comparator<Listed> c = Comparator.comparing(Listed::value, valueOrder).thenComparingInt(Listed::num);
        return listed.stream().sorted(order == Order.ASC ? c : c.reversed()).map(l -> "issue#" + l.num()).toList();
    }

    private static final Comparator<String> NUMERIC = Comparator.comparing(java.math.BigDecimal::new);

    /** 24 issues, sev = num % 5 (values repeat); sorted by sev with in lists, ranges, @ spellings; pages of 1, 2, 3. */
    @Test
    void inListsOnTheSortedNumberField_withRepeatsRangesAndAtSpelling_pageToTheEndLikeTheBruteForce(LocalTables tables) {
        DynamoDbClient dynamoDb = tables.dynamoDb();
        List<Issue> issues = new ArrayList<>();
        for (int i = 1; i <= 24; i++) {
            String sev = Integer.toString(i % 5);
            issues.add(new Issue(i, List.of(sev)));
            put(dynamoDb, Map.of("id", AttributeValue.fromS("issue#" + i), "project", AttributeValue.fromS("project#p"),
                    "num", AttributeValue.fromN(Integer.toString(i)), "custom_fields", AttributeValue.fromM(Map.of(
                            "sev", AttributeValue.fromN(sev), "status", AttributeValue.fromS(i % 2 == 0 ? "open" : "closed")))));
        }
        IndexQuery query = query(dynamoDb);
        Map<List<String>, java.util.function.Predicate<String>> cases = new LinkedHashMap<>();
        cases.put(List.of("sev in (0, 2, 3)"), v -> List.of("0", "2", "3").contains(v));
        cases.put(List.of("sev in (3, 0, 2)"), v -> List.of("0", "2", "3").contains(v));
        cases.put(List.of("sev in (4, 1, 2, 3, 0)", "sev > 0", "sev <= 3"), v -> List.of("1", "2", "3").contains(v));
        cases.put(List.of("sev in (1, 2, 3, 7)", "sev >= 2"), v -> List.of("2", "3").contains(v));
        cases.put(List.of("@custom_fields.sev in (1, 3, 4)", "sev != 3"), v -> List.of("1", "4").contains(v));
        cases.put(List.of("sev in (0, 1, 2, 4)", "@custom_fields.sev in (2, 4, 3)"), v -> List.of("2", "4").contains(v));
        cases.put(List.of("@custom_fields.sev in (2, 4)", "sev < 4", "@custom_fields.sev >= 1"), v -> v.equals("2"));
        cases.put(List.of("sev in (1, 2)", "sev in (3, 4)"), v -> false);
        cases.put(List.of("sev in (2, 3)", "sev present"), v -> List.of("2", "3").contains(v));
        SoftAssertions soft = new SoftAssertions();
        cases.forEach((texts, matches) -> {
            for (Order order : Order.values()) {
                for (int size : List.of(1, 2, 3)) {
                    List<String> ids = readAll(query, PageRequest.first("project#p", "sev", order, size)
                            .where(parse(texts.toArray(String[]::new))), 100);
                    soft.assertThat(ids).as("%s %s pages of %d", texts, order, size)
                            .containsExactlyElementsOf(expected(issues, matches, NUMERIC, order));
                }
            }
        });
        // with a second predicate on another field (status), the in list stays the sorted read's narrowing
        for (Order order : Order.values()) {
            List<String> ids = readAll(query, PageRequest.first("project#p", "sev", order, 2)
                    .where(parse("sev in (0, 2, 3)", "status = open")), 100);
            List<Issue> open = issues.stream().filter(i -> i.num() % 2 == 0).toList();
            soft.assertThat(ids).as("sev in (0, 2, 3), status = open, %s pages of 2", order)
                    .containsExactlyElementsOf(expected(open, v -> List.of("0", "2", "3").contains(v), NUMERIC, order));
        }
        soft.assertAll();
    }

    /** A list-valued sorted field (grid entry tags, a string set): in lists, ranges, @ spellings, pages of 1 and 2. */
    @Test
    void inListsOnAListValuedSortedField_listEachItemOnceUnderItsFirstMatchingElement(LocalTables tables) {
        DynamoDbClient dynamoDb = tables.dynamoDb();
        Random random = new Random(7);
        List<String> letters = List.of("a", "b", "c", "d", "e", "f");
        List<Issue> issues = new ArrayList<>();
        for (int i = 1; i <= 18; i++) {
            List<String> tags = new ArrayList<>();
            for (String l : letters) {
                if (random.nextInt(3) == 0) {
                    tags.add(l);
                }
            }
            if (tags.isEmpty()) {
                tags.add(letters.get(i % 6));
            }
            issues.add(new Issue(i, tags));
            put(dynamoDb, Map.of("id", AttributeValue.fromS("issue#" + i), "project", AttributeValue.fromS("project#p"),
                    "num", AttributeValue.fromN(Integer.toString(i)), "custom_fields", AttributeValue.fromM(Map.of(
                            "sev", AttributeValue.fromN(Integer.toString(i)), "tags", AttributeValue.fromSs(tags)))));
        }
        IndexQuery query = query(dynamoDb);
        Map<List<String>, java.util.function.Predicate<String>> cases = new LinkedHashMap<>();
        cases.put(List.of("tags in (b, d, f)"), v -> List.of("b", "d", "f").contains(v));
        cases.put(List.of("tags in (f, a, c)"), v -> List.of("a", "c", "f").contains(v));
        cases.put(List.of("@custom_fields.tags in (a, b, c, d, e)", "tags > a", "tags < \"e\""), v -> List.of("b", "c", "d").contains(v));
        cases.put(List.of("tags in (a, c, e)", "@custom_fields.tags in (c, e, f)"), v -> List.of("c", "e").contains(v));
        cases.put(List.of("tags in (b, e)", "tags != b"), v -> v.equals("e"));
        cases.put(List.of("tags in (a, b, c)", "tags beginsWith b"), v -> v.equals("b"));
        SoftAssertions soft = new SoftAssertions();
        cases.forEach((texts, matches) -> {
            for (Order order : Order.values()) {
                for (int size : List.of(1, 2, 5)) {
                    List<String> ids = readAll(query, PageRequest.first("project#p", "tags", order, size)
                            .where(parse(texts.toArray(String[]::new))), 100);
                    soft.assertThat(ids).as("%s %s pages of %d", texts, order, size)
                            .containsExactlyElementsOf(expected(issues, matches, Comparator.naturalOrder(), order));
                }
            }
        });
        soft.assertAll();
    }

    /** The single-table example's issue-labels index: @labels / labels in lists, pages of 1 and 2, both orders, listed values. */
    @Test
    void inListsOnAListElementsIndex_inEitherSpelling_pageLikeTheBruteForce(LocalTables tables) {
        DynamoDbClient dynamoDb = tables.dynamoDb();
        Random random = new Random(11);
        List<String> letters = List.of("a", "b", "c", "d", "e");
        List<Issue> issues = new ArrayList<>();
        List<Map<String, AttributeValue>> items = new ArrayList<>();
        for (int i = 1; i <= 14; i++) {
            List<String> labels = new ArrayList<>();
            for (String l : letters) {
                if (random.nextInt(2) == 0) {
                    labels.add(l);
                }
            }
            if (labels.isEmpty()) {
                labels.add("c");
            }
            issues.add(new Issue(i, labels));
            items.add(Map.of("pk", AttributeValue.fromS("PROJECT#r7"), "sk", AttributeValue.fromS("ISSUE#" + i),
                    "num", AttributeValue.fromN(Integer.toString(i)), "title", AttributeValue.fromS("issue " + i),
                    "labels", AttributeValue.fromSs(labels)));
        }
        IndexQuery query = PlannerEdgeCasesTest.singleTable(dynamoDb, items);
        Map<List<String>, java.util.function.Predicate<String>> cases = new LinkedHashMap<>();
        cases.put(List.of("@labels in (b, d)"), v -> List.of("b", "d").contains(v));
        cases.put(List.of("labels in (e, a, c)"), v -> List.of("a", "c", "e").contains(v));
        cases.put(List.of("@labels in (a, b, d, e)", "labels >= b"), v -> List.of("b", "d", "e").contains(v));
        cases.put(List.of("labels in (a, b, d)", "@labels in (d, b, e)"), v -> List.of("b", "d").contains(v));
        cases.put(List.of("@labels in (a, b)", "labels in (c, d)"), v -> false);
        SoftAssertions soft = new SoftAssertions();
        cases.forEach((texts, matches) -> {
            for (Order order : Order.values()) {
                for (int size : List.of(1, 2)) {
                    List<String> ids = new ArrayList<>();
                    List<String> listed = new ArrayList<>();
                    PageRequest request = PageRequest.onIndex("issue-labels", List.of(AttributeValue.fromS("PROJECT#r7")), "",
                            order, size).where(parse(texts.toArray(String[]::new)));
                    for (int n = 0; n < 100; n++) {
                        Page page = query.page(request);
                        for (int k = 0; k < page.items().size(); k++) {
                            ids.add("issue#" + page.items().get(k).get("sk").s().substring("ISSUE#".length()));
                            listed.add(page.listedValue(k).map(AttributeValue::s).orElse("?"));
                        }
                        if (page.nextCursor().isEmpty()) {
                            break;
                        }
                        request = request.after(page.nextCursor().get());
                    }
                    soft.assertThat(ids).as("%s %s pages of %d", texts, order, size)
                            .containsExactlyElementsOf(expected(issues, matches, Comparator.naturalOrder(), order));
                    List<String> expectedListed = new ArrayList<>();
                    for (String id : ids) {
                        Issue issue = issues.get(Integer.parseInt(id.substring("issue#".length())) - 1);
                        expectedListed.add(issue.values().stream().filter(matches)
                                .min(order == Order.ASC ? Comparator.<String>naturalOrder() : Comparator.<String>reverseOrder()).orElse("-"));
                    }
                    soft.assertThat(listed).as("listed values, %s %s pages of %d", texts, order, size).containsExactlyElementsOf(expectedListed);
                }
            }
        });
        soft.assertAll();
    }

    /** Long texts (over 700 bytes) in an in list on the sorted field and on another field, values repeating, pages of 1 and 2. */
    @Test
    void longTextsInAnInList_repeatingAcrossItems_listExactlyTheMatchingItemsOnce(LocalTables tables) {
        DynamoDbClient dynamoDb = tables.dynamoDb();
        String p = "y".repeat(750);
        List<Issue> issues = new ArrayList<>();
        for (int i = 1; i <= 15; i++) {
            String title = p + (i % 4);
            issues.add(new Issue(i, List.of(title)));
            put(dynamoDb, Map.of("id", AttributeValue.fromS("issue#" + i), "project", AttributeValue.fromS("project#p"),
                    "num", AttributeValue.fromN(Integer.toString(i)), "custom_fields", AttributeValue.fromM(Map.of(
                            "sev", AttributeValue.fromN(Integer.toString(i)), "title", AttributeValue.fromS(title)))));
        }
        IndexQuery query = query(dynamoDb);
        Map<String, List<Predicate>> cases = new LinkedHashMap<>();
        Map<String, java.util.function.Predicate<String>> matches = new HashMap<>();
        cases.put("in (P3, P1)", List.of(new Predicate.In("title", List.of(text(p + 3), text(p + 1)))));
        matches.put("in (P3, P1)", v -> v.equals(p + 3) || v.equals(p + 1));
        cases.put("in (P0, P2, P3), != P2", List.of(new Predicate.In("title", List.of(text(p + 0), text(p + 2), text(p + 3))),
                new Predicate.NotEquals("@custom_fields.title", text(p + 2))));
        matches.put("in (P0, P2, P3), != P2", v -> v.equals(p + 0) || v.equals(p + 3));
        cases.put("in (P1, P2, short), >= P2", List.of(new Predicate.In("@custom_fields.title", List.of(text(p + 1), text(p + 2), text("short"))),
                new Predicate.Range("title", text(p + 2), true, null, false)));
        matches.put("in (P1, P2, short), >= P2", v -> v.equals(p + 2));
        SoftAssertions soft = new SoftAssertions();
        Function<Order, Comparator<String>> any = o -> Comparator.naturalOrder();
        cases.forEach((name, predicates) -> {
            for (Order order : Order.values()) {
                for (int size : List.of(1, 2)) {
                    // sorted by title: long values past the cut order by digest; membership and no duplicate
                    List<String> byTitle = readAll(query, PageRequest.first("project#p", "title", order, size).where(predicates), 100);
                    soft.assertThat(byTitle).as("%s sorted by title %s pages of %d", name, order, size)
                            .containsExactlyInAnyOrderElementsOf(expected(issues, matches.get(name), any.apply(order), order));
                    // sorted by sev: exact order
                    List<String> bySev = readAll(query, PageRequest.first("project#p", "sev", order, size).where(predicates), 100);
                    List<String> want = new ArrayList<>(issues.stream().filter(i -> matches.get(name).test(i.values().get(0)))
                            .map(i -> "issue#" + i.num()).toList());
                    if (order == Order.DESC) {
                        java.util.Collections.reverse(want);
                    }
                    soft.assertThat(bySev).as("%s sorted by sev %s pages of %d", name, order, size).containsExactlyElementsOf(want);
                }
            }
        });
        soft.assertAll();
    }

    /** Negative and fractional values, an in list of 15 values (duplicates, unsorted, a text among numbers), small budgets. */
    @Test
    void largeUnsortedInLists_withDuplicatesMixedTypesAndSmallBudgets_pageLikeTheBruteForce(LocalTables tables) {
        DynamoDbClient dynamoDb = tables.dynamoDb();
        List<String> values = List.of("-10", "-2.5", "-1", "0", "0.25", "1", "2", "10", "100");
        List<Issue> issues = new ArrayList<>();
        for (int i = 1; i <= 40; i++) {
            String sev = values.get((i * 7) % values.size());
            issues.add(new Issue(i, List.of(sev)));
            put(dynamoDb, Map.of("id", AttributeValue.fromS("issue#" + i), "project", AttributeValue.fromS("project#p"),
                    "num", AttributeValue.fromN(Integer.toString(i)), "custom_fields", AttributeValue.fromM(Map.of(
                            "sev", AttributeValue.fromN(sev)))));
        }
        IndexQuery query = query(dynamoDb);
        List<IndexValue> in = new ArrayList<>();
        for (String v : List.of("100", "-2.5", "7", "0.25", "-10", "100", "3", "-1", "55", "0.26", "-2.50", "1e2", "8", "9", "-3")) {
            in.add(new IndexValue.Num(new java.math.BigDecimal(v)));
        }
        in.add(text("0"));
        java.util.Set<java.math.BigDecimal> set = new java.util.HashSet<>();
        in.stream().filter(v -> v instanceof IndexValue.Num).forEach(v -> set.add(((IndexValue.Num) v).value().stripTrailingZeros()));
        java.util.function.Predicate<String> matches = v -> set.contains(new java.math.BigDecimal(v).stripTrailingZeros());
        SoftAssertions soft = new SoftAssertions();
        for (Order order : Order.values()) {
            for (int size : List.of(1, 2, 3)) {
                for (int budget : List.of(2, 5, 2000)) {
                    List<String> ids = readAll(query, PageRequest.first("project#p", "sev", order, size)
                            .where(List.of(new Predicate.In("sev", in))).withReadBudget(budget), 500);
                    soft.assertThat(ids).as("in of 16 %s pages of %d budget %d", order, size, budget)
                            .containsExactlyElementsOf(expected(issues, matches, NUMERIC, order));
                    List<String> ranged = readAll(query, PageRequest.first("project#p", "sev", order, size)
                            .where(List.of(new Predicate.In("sev", in), new Predicate.Range("sev", new IndexValue.Num(new java.math.BigDecimal("-2.5")), false,
                                    new IndexValue.Num(new java.math.BigDecimal("100")), false))).withReadBudget(budget), 500);
                    soft.assertThat(ranged).as("in of 16, -2.5 < sev < 100, %s pages of %d budget %d", order, size, budget)
                            .containsExactlyElementsOf(expected(issues, v -> matches.test(v) && new java.math.BigDecimal(v).compareTo(new java.math.BigDecimal("-2.5")) > 0
                                    && new java.math.BigDecimal(v).compareTo(new java.math.BigDecimal("100")) < 0, NUMERIC, order));
                }
            }
        }
        soft.assertAll();
    }

    /** Empty intersections answer with 0 calls; withMissing plus an in on the sorted field leaves the missing tail out. */
    @Test
    void emptyIntersectionsCostNoCall_andAnInOnTheSortedFieldLeavesTheMissingTailOut(LocalTables tables) {
        DynamoDbClient dynamoDb = tables.dynamoDb();
        for (int i = 1; i <= 6; i++) {
            Map<String, AttributeValue> fields = i <= 4 ? Map.of("sev", AttributeValue.fromN(Integer.toString(i % 3))) : Map.of("other", AttributeValue.fromS("x"));
            put(dynamoDb, Map.of("id", AttributeValue.fromS("issue#" + i), "project", AttributeValue.fromS("project#p"),
                    "num", AttributeValue.fromN(Integer.toString(i)), "custom_fields", AttributeValue.fromM(fields)));
        }
        IndexQuery query = query(dynamoDb);
        SoftAssertions soft = new SoftAssertions();
        for (List<String> texts : List.of(List.of("sev in (1, 2)", "@custom_fields.sev in (0, 3)"), List.of("sev in (1, 2)", "sev > 2"),
                List.of("@custom_fields.sev in (1, 2)", "sev beginsWith \"1\""), List.of("sev = 1", "@custom_fields.sev in (0, 2)"))) {
            for (Order order : Order.values()) {
                Page page = query.page(PageRequest.first("project#p", "sev", order, 2).where(parse(texts.toArray(String[]::new))).withMissing());
                soft.assertThat(page.items()).as("%s %s items", texts, order).isEmpty();
                soft.assertThat(page.apiCalls()).as("%s %s calls", texts, order).isZero();
                soft.assertThat(page.nextCursor()).as("%s %s cursor", texts, order).isEmpty();
            }
        }
        for (Order order : Order.values()) {
            List<String> ids = readAll(query, PageRequest.first("project#p", "sev", order, 1).where(parse("sev in (0, 1)")).withMissing(), 50);
            soft.assertThat(ids).as("sev in (0, 1) withMissing %s", order)
                    .containsExactlyElementsOf(order == Order.ASC ? List.of("issue#3", "issue#1", "issue#4") : List.of("issue#4", "issue#1", "issue#3"));
        }
        soft.assertAll();
    }
}

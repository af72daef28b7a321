package com.multikey.query;

import com.multikey.common.Backoff;
import com.multikey.common.Sleeper;
import com.multikey.index.IndexProjector;
import com.multikey.index.ItemKey;
import com.multikey.index.definition.IndexDefinitions;
import com.multikey.testkit.LocalTables;
import com.multikey.testkit.LocalTablesExtension;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The planner over the issue grid on the embedded engine: one project of 3,000 issues whose fields are common
 * ({@code status}: half open), rare ({@code assignee = me}: 1 in 100) or sparse ({@code priority}: 4 in 5 have one);
 * each query's pages are compared with the order computed here from the items alone.
 */
class PlannerIntegrationTest {

    private static final IndexDefinitions CONFIG = IndexDefinitions.packaged();
    private static final String PROJECT = "project#planner";
    private static final int ISSUES = 3000;
    @RegisterExtension
    static final LocalTablesExtension TABLES = LocalTablesExtension.createdOnce();
    private static DynamoDbClient dynamoDb;
    private static final List<Map<String, AttributeValue>> ALL = new ArrayList<>();

    @BeforeAll
    static void load(LocalTables tables) {
        dynamoDb = tables.dynamoDb();
        Random random = new Random(11);
        List<WriteRequest> index = new ArrayList<>();
        IndexProjector projector = new IndexProjector(CONFIG);
        for (int i = 0; i < ISSUES; i++) {
            Map<String, AttributeValue> fields = new LinkedHashMap<>();
            fields.put("status", AttributeValue.fromS(random.nextBoolean() ? "open" : random.nextBoolean() ? "closed" : "triage"));
            if (random.nextInt(100) == 0) {
                fields.put("assignee", AttributeValue.fromS("me"));
            } else if (random.nextInt(3) > 0) {
                fields.put("assignee", AttributeValue.fromS("user" + random.nextInt(50)));
            }
            if (random.nextInt(5) > 0) {
                fields.put("priority", AttributeValue.fromN(Integer.toString(random.nextInt(100))));
            }
            fields.put("severity", AttributeValue.fromN(Integer.toString(1 + random.nextInt(5))));
            String id = String.format("issue#p%05d", i);
            Map<String, AttributeValue> issue = Map.of("id", AttributeValue.fromS(id), "project", AttributeValue.fromS(PROJECT),
                    "num", AttributeValue.fromN(Integer.toString(i + 1)), "custom_fields", AttributeValue.fromM(fields));
            ALL.add(issue);
            dynamoDb.putItem(b -> b.tableName("AppTable").item(issue));
            projector.project(ItemKey.ofString("id", id), issue).items()
                    .forEach(item -> index.add(WriteRequest.builder().putRequest(PutRequest.builder().item(item.toItem()).build()).build()));
        }
        for (int from = 0; from < index.size(); from += 25) {
            List<WriteRequest> chunk = index.subList(from, Math.min(index.size(), from + 25));
            dynamoDb.batchWriteItem(b -> b.requestItems(Map.of("IssueAttribIndexTable", chunk)));
        }
    }

    private static IndexQuery query() {
        return new IndexQuery(dynamoDb, "AppTable", "IssueAttribIndexTable", CONFIG,
                new Backoff(Duration.ofMillis(1), Duration.ofMillis(5), new Random(1)), Sleeper.SYSTEM, IndexQuery.DEFAULT_PAGE_BUDGET,
                System::nanoTime, new GridSettings("ByProject", (project, field) -> true));
    }

    private static List<Predicate> where(String... texts) {
        List<Predicate> predicates = new ArrayList<>();
        for (int i = 0; i < texts.length; i++) {
            predicates.add(PredicateText.parse(texts[i], i));
        }
        return predicates;
    }

    private static String field(Map<String, AttributeValue> issue, String name) {
        AttributeValue value = issue.get("custom_fields").m().get(name);
        return value == null ? null : value.s() != null ? value.s() : value.n();
    }

    /** The ids the request lists, sorted by priority (a number), then num, issues without a priority left out. */
    private static List<String> expected(java.util.function.Predicate<Map<String, AttributeValue>> matches, Order order) {
        Comparator<Map<String, AttributeValue>> byPriority = Comparator.comparing(
                (Map<String, AttributeValue> issue) -> new BigDecimal(field(issue, "priority")))
                .thenComparing(issue -> new BigDecimal(issue.get("num").n()));
        return ALL.stream().filter(issue -> field(issue, "priority") != null).filter(matches)
                .sorted(order == Order.ASC ? byPriority : byPriority.reversed())
                .map(issue -> issue.get("id").s()).toList();
    }

    private record Read(List<String> ids, List<Page> pages) {
    }

    private static Read readAll(IndexQuery query, PageRequest first) {
        List<String> ids = new ArrayList<>();
        List<Page> pages = new ArrayList<>();
        PageRequest request = first;
        for (int n = 0; n < 10_000; n++) {
            Page page = query.page(request);
            pages.add(page);
            page.items().forEach(issue -> ids.add(issue.get("id").s()));
            if (page.nextCursor().isEmpty()) {
                return new Read(ids, pages);
            }
            request = request.after(page.nextCursor().get());
        }
        throw new AssertionError("10,000 pages and still a cursor: the pages do not move on");
    }

    private static PageRequest byPriority(Order order, int pageSize, String... predicates) {
        return PageRequest.first(PROJECT, "priority", order, pageSize).where(where(predicates)).withExplain();
    }

    @Test
    void openAndMine_byPriority_drivesFromTheRareAssignee_andListsExactlyTheMatchesInOrder() {
        Read read = readAll(query(), byPriority(Order.ASC, 10, "status = open", "assignee = me"));

        assertThat(read.ids()).isEqualTo(expected(issue -> "open".equals(field(issue, "status")) && "me".equals(field(issue, "assignee")),
                Order.ASC));
        Explain first = read.pages().get(0).explain().orElseThrow();
        assertThat(first.plan()).isEqualTo("drive(where[1]: assignee = me)");
        // about 30 issues are mine: their index items and the items themselves, far less than the 3,000 of the project
        assertThat(read.pages().get(0).examined()).isLessThan(200);
        assertThat(first.alternatives()).extracting(Explain.Alternative::plan)
                .contains("sort-index(priority)", "drive(where[0]: status = open)", "drive(where[1]: assignee = me)");
    }

    @Test
    void aCommonPredicate_byPriority_readsTheSortedIndex_aboutTwiceThePageOverTheSelectivity() {
        Read read = readAll(query(), byPriority(Order.DESC, 25, "status = open"));

        assertThat(read.ids()).isEqualTo(expected(issue -> "open".equals(field(issue, "status")), Order.DESC));
        Page first = read.pages().get(0);
        assertThat(first.explain().orElseThrow().plan()).isEqualTo("sort-index(priority)");
        assertThat(first.items()).hasSize(25);
        // half the issues are open: about 50 candidates, each an index item and an item, and the predicate's first read
        assertThat(first.examined()).isLessThan(25 * 2 * 2 + 2 * 25 + 60);
        // later pages know the predicate's range holds more than a page: they read the sorted index, about 50 candidates
        // (an index item and an item each) a page, and the predicate's range only while it may still pay
        List<Page> later = read.pages().subList(1, read.pages().size() - 1);
        assertThat(later).allSatisfy(page -> assertThat(page.explain().orElseThrow().plan()).isEqualTo("sort-index(priority)"));
        assertThat(later.stream().mapToInt(Page::examined).average().orElseThrow()).isLessThan(140);
        assertThat(later).allSatisfy(page -> assertThat(page.apiCalls()).isLessThanOrEqualTo(6));
    }

    @Test
    void laterPages_ofADrive_useTheCountTheFirstPageLearned() {
        Read read = readAll(query(), byPriority(Order.ASC, 5, "assignee = me"));

        assertThat(read.ids()).isEqualTo(expected(issue -> "me".equals(field(issue, "assignee")), Order.ASC));
        assertThat(read.pages()).hasSizeGreaterThan(2);
        assertThat(read.pages().get(1).explain().orElseThrow().reason()).contains("on an earlier page");
    }

    @Test
    void aSmallBudget_givesShortPagesThatSaySo_andTheResultIsTheSameToTheEnd() {
        Read read = readAll(query(), byPriority(Order.ASC, 20, "severity >= 4", "status != closed", "@project = " + PROJECT)
                .withReadBudget(60));

        assertThat(read.ids()).isEqualTo(expected(issue -> new BigDecimal(field(issue, "severity")).intValue() >= 4
                && !"closed".equals(field(issue, "status")), Order.ASC));
        assertThat(read.pages()).allSatisfy(page -> assertThat(page.examined()).isLessThanOrEqualTo(60));
        List<Page> notLast = read.pages().subList(0, read.pages().size() - 1);
        assertThat(notLast).anySatisfy(page -> assertThat(page.items()).hasSizeLessThan(20));
        assertThat(notLast).allSatisfy(page -> assertThat(page.budgetSpent()).isEqualTo(page.items().size() < 20));
    }

    @Test
    void aBudgetOfAFewItems_stillMovesOnEveryPage_toTheEnd() {
        for (int budget : new int[] {2, 4, 26}) {
            Read read = readAll(query(), byPriority(Order.ASC, 3, "status = open", "severity >= 3", "priority < 8")
                    .withReadBudget(budget));

            assertThat(read.ids()).as("budget %d", budget).isEqualTo(expected(issue -> "open".equals(field(issue, "status"))
                    && new BigDecimal(field(issue, "severity")).intValue() >= 3 && new BigDecimal(field(issue, "priority")).intValue() < 8,
                    Order.ASC));
            assertThat(read.pages()).allSatisfy(page -> assertThat(page.examined()).isLessThanOrEqualTo(budget));
        }
    }

    @Test
    void withTheMissingTail_theIssuesWithoutAPriorityFollow_tested_inNumOrder() {
        Read read = readAll(query(), byPriority(Order.ASC, 50, "assignee = me").withMissing());

        List<String> tail = ALL.stream().filter(issue -> field(issue, "priority") == null && "me".equals(field(issue, "assignee")))
                .map(issue -> issue.get("id").s()).toList();
        List<String> all = new ArrayList<>(expected(issue -> "me".equals(field(issue, "assignee")), Order.ASC));
        all.addAll(tail);
        assertThat(tail).isNotEmpty();
        assertThat(read.ids()).isEqualTo(all);
    }

    @Test
    void aMissingPredicateOnTheSortedField_listsTheTailAlone() {
        Read read = readAll(query(), byPriority(Order.ASC, 100, "priority missing", "status = triage"));

        assertThat(read.ids()).isEqualTo(ALL.stream().filter(issue -> field(issue, "priority") == null
                && "triage".equals(field(issue, "status"))).map(issue -> issue.get("id").s()).toList());
    }

    @Test
    void aCursor_bindsEveryPredicate() {
        IndexQuery query = query();
        Page first = query.page(byPriority(Order.ASC, 5, "status = open"));
        String cursor = first.nextCursor().orElseThrow();

        assertThatThrownBy(() -> query.page(byPriority(Order.ASC, 5, "status = closed").after(cursor)))
                .isInstanceOf(QueryException.class).hasMessageContaining("cursor");
        assertThatThrownBy(() -> query.page(byPriority(Order.ASC, 5, "status = open", "severity > 1").after(cursor)))
                .isInstanceOf(QueryException.class).hasMessageContaining("cursor");
        assertThat(query.page(byPriority(Order.ASC, 5, "status = open").after(cursor)).items()).hasSize(5);
    }

    /** The ids the request lists sorted by status (a text every issue has), then num, of the issues that match. */
    private static List<String> byStatus(java.util.function.Predicate<Map<String, AttributeValue>> matches, Order order) {
        Comparator<Map<String, AttributeValue>> byStatus = Comparator.comparing((Map<String, AttributeValue> issue) -> field(issue, "status"))
                .thenComparing(issue -> new BigDecimal(issue.get("num").n()));
        return ALL.stream().filter(matches).sorted(order == Order.ASC ? byStatus : byStatus.reversed())
                .map(issue -> issue.get("id").s()).toList();
    }

    /**
     * docs/query.md: the sorted field's predicates narrow the sorted read, all of them: an {@code in} list is one key range
     * per value, read in page order. {@code status in (triage, blocked)} sorted by status once read every closed and open
     * issue (a range from blocked to triage) before the first triage one; now a first page of 25 reads about its 25 index
     * items and their items. Paged to the end in both orders, the pages go from one value's range into the next.
     */
    @Test
    void anInListOnTheSortedField_readsAboutWhatItsRangesHold_andPagesAcrossTheRangesInOrder() {
        // when
        Page first = query().page(PageRequest.first(PROJECT, "status", Order.ASC, 25).where(where("status in (triage, blocked)")));

        // then: 25 of the ~750 triage issues; their index items (a quarter more, and the empty blocked range) and items
        assertThat(first.items()).hasSize(25).allSatisfy(issue -> assertThat(field(issue, "status")).isEqualTo("triage"));
        assertThat(first.examined()).as("items read for a first page of 25").isLessThanOrEqualTo(2 * 25 + 25);
        for (Order order : Order.values()) {
            Read read = readAll(query(), PageRequest.first(PROJECT, "status", order, 100)
                    .where(where("status in (triage, closed)", "severity >= 4")));
            assertThat(read.ids()).as("order %s", order).isEqualTo(byStatus(issue -> !"open".equals(field(issue, "status"))
                    && new BigDecimal(field(issue, "severity")).intValue() >= 4, order));
        }
    }

    /** Two range predicates on the sorted field narrow its read to both, whichever comes first. */
    @Test
    void twoRangePredicatesOnTheSortedField_costTheSame_inEitherOrder() {
        // when
        Page lowFirst = query().page(byPriority(Order.ASC, 25, "priority >= 10", "priority < 12"));
        Page highFirst = query().page(byPriority(Order.ASC, 25, "priority < 12", "priority >= 10"));
        Page descending = query().page(byPriority(Order.DESC, 25, "priority >= 10", "priority < 12"));

        // then: about 48 issues have priority 10 or 11; a page of 25 reads about 25 index items and their items
        List<String> expected = expected(issue -> { int p = new BigDecimal(field(issue, "priority")).intValue(); return p >= 10 && p < 12; },
                Order.ASC);
        assertThat(lowFirst.items()).extracting(issue -> issue.get("id").s()).isEqualTo(expected.subList(0, 25));
        assertThat(highFirst.items()).extracting(issue -> issue.get("id").s()).isEqualTo(expected.subList(0, 25));
        assertThat(highFirst.examined()).isEqualTo(lowFirst.examined());
        assertThat(lowFirst.examined()).isLessThanOrEqualTo(2 * 25 + 25);
        assertThat(descending.examined()).isLessThanOrEqualTo(2 * 25 + 25);
    }

    /** Predicates on the sorted field that no value satisfies together: an empty last page, read with no call. */
    @Test
    void predicatesOnTheSortedFieldThatNoValueSatisfies_readNothing() {
        List<String[]> cases = List.of(new String[] {"status in (a, b)", "status in (c, d)"},
                new String[] {"status = open", "status beginsWith \"x\""},
                new String[] {"status in (open, closed)", "status > \"p\""},
                new String[] {"status >= open", "status = 3"},
                new String[] {"priority > 50", "priority = 3"},
                new String[] {"priority in (1, 2)", "priority beginsWith \"1\""});
        for (String[] predicates : cases) {
            String sorted = predicates[0].substring(0, predicates[0].indexOf(' '));
            for (Order order : Order.values()) {
                Page page = query().page(PageRequest.first(PROJECT, sorted, order, 25).where(where(predicates)).withMissing());

                assertThat(page.items()).as("%s %s", List.of(predicates), order).isEmpty();
                assertThat(page.nextCursor()).as("%s %s", List.of(predicates), order).isEmpty();
                assertThat(page.apiCalls()).as("%s %s", List.of(predicates), order).isZero();
                assertThat(page.examined()).as("%s %s", List.of(predicates), order).isZero();
            }
        }
    }

    /** Range bounds of two types on one field leave no value: refused, naming the second, as an inverted range is. */
    @Test
    void rangeBoundsOfTwoTypesOnOneField_areRefused_namingTheSecond() {
        assertThatThrownBy(() -> byPriority(Order.ASC, 5, "status = open", "priority >= 3", "priority < \"m\""))
                .isInstanceOfSatisfying(InvalidPredicateException.class, e -> assertThat(e.position()).isEqualTo(2))
                .hasMessageContaining("two types");
        assertThatThrownBy(() -> byPriority(Order.ASC, 5, "severity > BOOL:false", "severity <= 3"))
                .isInstanceOfSatisfying(InvalidPredicateException.class, e -> assertThat(e.position()).isEqualTo(1));
    }

    @Test
    void anExpensiveQuery_explainsWhichIndexToDeclare() {
        Page page = query().page(byPriority(Order.ASC, 20, "status = open", "severity = 5").withReadBudget(100));

        assertThat(page.explain().orElseThrow().suggestion()).hasValueSatisfying(yaml -> assertThat(yaml)
                .contains("group: [project, custom_fields.status, custom_fields.severity]")
                .contains("values: {attribute: custom_fields.priority}")
                .contains("covers: [{attribute: id, beginsWith: \"issue#\"}]"));
    }

    @Test
    void predicatesThatCannotBeEvaluated_nameThemselves() {
        Function<String[], PageRequest> request = texts -> byPriority(Order.ASC, 5, texts);

        assertThatThrownBy(() -> request.apply(new String[] {"severity >= 5", "severity < 3"}))
                .isInstanceOfSatisfying(InvalidPredicateException.class, e -> assertThat(e.position()).isEqualTo(1))
                .hasMessageContaining("inverted range");
        assertThatThrownBy(() -> request.apply(new String[] {"a = 1", "b = 1", "c = 1", "d = 1", "e = 1", "f = 1", "g = 1", "h = 1", "i = 1"}))
                .isInstanceOf(InvalidPredicateException.class).hasMessageContaining("too many predicates");
        assertThatThrownBy(() -> request.apply(new String[] {"severity >= N:x"}))
                .isInstanceOfSatisfying(InvalidPredicateException.class, e -> assertThat(e.position()).isEqualTo(0));
        assertThatThrownBy(() -> request.apply(new String[] {"status", "x"}))
                .isInstanceOf(InvalidPredicateException.class).hasMessageContaining("predicate 0");
        assertThatThrownBy(() -> query().page(request.apply(new String[] {"status = open"}).withReadBudget(20_001)))
                .isInstanceOfSatisfying(FilterParameters.InvalidParameterException.class, e -> assertThat(e.parameter()).isEqualTo("budget"));
    }
}

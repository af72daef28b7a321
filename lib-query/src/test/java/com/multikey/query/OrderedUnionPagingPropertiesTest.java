package com.multikey.query;

import com.multikey.index.definition.IndexDefinitions;
import com.multikey.testkit.LocalTables;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

import static com.multikey.query.OrderedDriveFixture.PROJECT;
import static com.multikey.query.OrderedDriveFixture.TITLE_WORDS_BY_RANK;
import static com.multikey.query.OrderedDriveFixture.createTable;
import static com.multikey.query.OrderedDriveFixture.definitions;
import static com.multikey.query.OrderedDriveFixture.indexQuery;
import static com.multikey.query.OrderedDriveFixture.key;
import static com.multikey.query.OrderedDriveFixture.s;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * An {@code or} of predicates an ordered drive reads ({@code has prefix}, {@code has}, {@code =}, {@code in}, on two
 * indexes), read page by page while items are written, changed and deleted between pages, against a brute force written
 * from the docs: a page lists the items that match the {@code where} in the sorted field's order (then the item key) after
 * the cursor, which stands on the last item listed; so an item written or changed between pages is listed exactly when it
 * then matches and sorts after the last item listed before, an item deleted before it was listed is not listed, and nothing
 * else is listed twice.
 */
class OrderedUnionPagingPropertiesTest {

    private static final IndexDefinitions DEFINITIONS = definitions(TITLE_WORDS_BY_RANK + """
              - name: by-label
                covers: [{attribute: sk, beginsWith: "ISSUE#"}]
                group: pk
                values: {attribute: label}
                orderBy: rank
            """);
    private static final List<String> WORDS = List.of("t", "ti", "tim", "time", "timeout", "timer", "tz", "fix", "b");
    private static final List<String> LABELS = List.of("a", "b", "c");
    private static final CursorSealer SEALER = CursorSealer.of(CursorKeys.ephemeral());

    /** A where and its brute force. */
    record Where(String text, Predicate<Spec> matches) {
        @Override
        public String toString() {
            return text;
        }
    }

    private static final List<Where> WHERES = List.of(
            new Where("title has prefix ti or title has fix", s -> prefix(s, "ti") || word(s, "fix")),
            new Where("title has prefix ti or title has prefix tim", s -> prefix(s, "ti")),
            new Where("title has prefix t or label = a", s -> prefix(s, "t") || "a".equals(s.label())),
            new Where("title has prefix tim or label in (a, b)", s -> prefix(s, "tim") || "a".equals(s.label()) || "b".equals(s.label())),
            new Where("label in (a, b) or title has timeout", s -> "a".equals(s.label()) || "b".equals(s.label()) || word(s, "timeout")),
            new Where("title has timeout or title has prefix timeo", s -> prefix(s, "timeo")),
            new Where("title has prefix ti or title has prefix tz or label = b", s -> prefix(s, "ti") || prefix(s, "tz") || "b".equals(s.label())),
            new Where("(title has prefix ti or label = c) and not (title has fix)", s -> (prefix(s, "ti") || "c".equals(s.label())) && !word(s, "fix")),
            new Where("title has prefix time", s -> prefix(s, "time")),
            new Where("label = a and (title has prefix ti or title has fix)", s -> "a".equals(s.label()) && (prefix(s, "ti") || word(s, "fix"))),
            new Where("title has prefix ti and (label = a or label = c)", s -> prefix(s, "ti") && ("a".equals(s.label()) || "c".equals(s.label()))),
            new Where("(title has prefix tim and label = b) or title has prefix tz", s -> prefix(s, "tim") && "b".equals(s.label()) || prefix(s, "tz")));

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

    /** An item's content: its rank (negative: none), its title's words, its label (null: none). */
    record Spec(int rank, List<String> words, String label) {
    }

    /** A change after page {@code after} (-1: before the first) to item {@code item}: its new content, or deleted (null). */
    record Change(int after, int item, Spec spec) {
    }

    @Property(tries = 60)
    synchronized void orderedUnion_itemsChangedBetweenPages_pagesListExactlyTheBruteForce(@ForAll("changes") List<Change> changes,
                                                                                          @ForAll("wheres") Where where,
                                                                                          @ForAll("pageSizes") int pageSize,
                                                                                          @ForAll boolean ascending) {
        // given
        DynamoDbClient dynamoDb = tables.dynamoDb();
        tables.reset();
        String table = "Tracker";
        createTable(dynamoDb, table);
        Map<Integer, Spec> state = new HashMap<>();
        for (Change change : changes) {
            if (change.after() < 0) {
                apply(dynamoDb, table, state, change);
            }
        }
        IndexQuery query = indexQuery(dynamoDb, table, DEFINITIONS, SEALER);
        PageRequest request = PageRequest.onIndex("by-rank", List.of(s(PROJECT)), "", ascending ? Order.ASC : Order.DESC, pageSize)
                .where(List.of(ExpressionText.parse(where.text(), 0))).withExplain();

        // when: read to the end, the changes of each page's turn made after it
        List<String> listed = new ArrayList<>();
        List<String> expected = new ArrayList<>();
        Map<Integer, Spec> pending = new HashMap<>();
        state.forEach((i, spec) -> {
            if (where.matches().test(spec)) {
                pending.put(i, spec);
            }
        });
        List<String> plans = new ArrayList<>();
        for (int n = 0; ; n++) {
            assertThat(n).as("pages").isLessThan(3 * changes.size() + 3);
            Page page = query.page(request);
            plans.add(page.explain().orElseThrow().plan());
            // the brute force: the next page's items are the pending ones in page order
            List<Map.Entry<Integer, Spec>> inOrder = pending.entrySet().stream().sorted(order(ascending)).toList();
            int count = Math.min(pageSize, inOrder.size());
            List<String> want = inOrder.subList(0, count).stream().map(e -> key(e.getKey())).toList();
            assertThat(page.items().stream().map(item -> item.get("sk").s()).toList()).as("page %d of %s, plans %s", n, where, plans)
                    .isEqualTo(want);
            page.items().forEach(item -> listed.add(item.get("sk").s()));
            expected.addAll(want);
            Map.Entry<Integer, Spec> last = count == 0 ? null : inOrder.get(count - 1);
            inOrder.subList(0, count).forEach(e -> pending.remove(e.getKey()));
            if (page.nextCursor().isEmpty()) {
                assertThat(pending).as("left after the last page of %s", where).isEmpty();
                break;
            }
            assertThat(last).as("a page with a cursor lists something").isNotNull();
            for (Change change : changes) {
                if (change.after() == n) {
                    apply(dynamoDb, table, state, change);
                    pending.remove(change.item());
                    if (change.spec() != null && where.matches().test(change.spec())
                            && order(ascending).compare(Map.entry(change.item(), change.spec()), last) > 0) {
                        pending.put(change.item(), change.spec());
                    }
                }
            }
            request = request.after(page.nextCursor().get());
        }

        // then
        assertThat(listed).isEqualTo(expected);
    }

    /**
     * With a read budget (as small as 2 items), of one group or of two merged ({@code withGroups}), nothing written between
     * pages: the pages list each matching item once in page order, every page reads within its budget and makes at most
     * {@code ReadBudget.maxCalls(budget)} calls a group, and the read ends.
     */
    @Property(tries = 60)
    synchronized void orderedUnion_smallBudgetsAndGroups_pagesListEachItemOnceWithinTheirBudgets(@ForAll("items") List<Spec> items,
                                                                                               @ForAll("wheres") Where where,
                                                                                               @ForAll("pageSizes") int pageSize,
                                                                                               @ForAll("budgets") int budgetAsked,
                                                                                               @ForAll boolean twoGroups,
                                                                                               @ForAll boolean missing,
                                                                                               @ForAll boolean ascending) {
        // given: item i in group p (or, of two groups, q when i is odd); ranks distinct when merged (ties across groups aside)
        int budget = twoGroups ? Math.max(4, budgetAsked) : budgetAsked;
        DynamoDbClient dynamoDb = tables.dynamoDb();
        tables.reset();
        String table = "Tracker";
        createTable(dynamoDb, table);
        Map<Integer, Spec> specs = new HashMap<>();
        for (int i = 0; i < items.size(); i++) {
            Spec spec = twoGroups && items.get(i).rank() >= 0 ? new Spec(items.get(i).rank() * 100 + i, items.get(i).words(), items.get(i).label())
                    : items.get(i);
            specs.put(i, spec);
            Map<String, AttributeValue> item = item(i, spec);
            if (twoGroups && i % 2 == 1) {
                item.put("pk", s("project#q"));
            }
            OrderedDriveFixture.put(dynamoDb, DEFINITIONS, table, item);
        }
        IndexQuery query = indexQuery(dynamoDb, table, DEFINITIONS, SEALER);
        PageRequest request = PageRequest.onIndex("by-rank", List.of(s(PROJECT)), "", ascending ? Order.ASC : Order.DESC, pageSize)
                .where(List.of(ExpressionText.parse(where.text(), 0))).withReadBudget(budget).withExplain();
        if (missing) {
            request = request.withMissing();
        }
        if (twoGroups) {
            request = request.withGroups(List.of(List.of(s(PROJECT)), List.of(s("project#q"))));
        }
        // the ranked items in page order, then (asked for) those lacking a rank: each group's in its sort key's order
        List<String> expected = new ArrayList<>(specs.entrySet().stream().filter(e -> e.getValue().rank() >= 0 && where.matches().test(e.getValue()))
                .sorted(order(ascending)).map(e -> key(e.getKey())).toList());
        if (missing) {
            Comparator<Integer> byKey = Comparator.comparing(OrderedDriveFixture::key);
            for (int group = 0; group < (twoGroups ? 2 : 1); group++) {
                int of = group;
                expected.addAll(specs.entrySet().stream().filter(e -> e.getValue().rank() < 0 && where.matches().test(e.getValue())
                                && (!twoGroups || e.getKey() % 2 == of)).map(Map.Entry::getKey)
                        .sorted(ascending ? byKey : byKey.reversed()).map(OrderedDriveFixture::key).toList());
            }
        }

        // when
        List<String> listed = new ArrayList<>();
        List<String> plans = new ArrayList<>();
        for (int n = 0; ; n++) {
            assertThat(n).as("pages of %s: %s, listed %s", where, plans, listed).isLessThan(4 * items.size() + 4);
            Page page = query.page(request);
            plans.add(page.explain().orElseThrow().plan());
            assertThat(page.examined()).as("items read by page %d of %s (%s)", n, where, plans).isLessThanOrEqualTo(budget);
            assertThat(page.apiCalls()).as("calls of page %d of %s (%s)", n, where, plans)
                    .isLessThanOrEqualTo((twoGroups ? 2 : 1) * (8 + budget / 50));
            page.items().forEach(item -> listed.add(item.get("sk").s()));
            if (page.nextCursor().isEmpty()) {
                break;
            }
            request = request.after(page.nextCursor().get());
        }

        // then
        assertThat(listed).as("%s, plans %s", where, plans).isEqualTo(expected);
    }

    private static Comparator<Map.Entry<Integer, Spec>> order(boolean ascending) {
        Comparator<Map.Entry<Integer, Spec>> order = Comparator.<Map.Entry<Integer, Spec>>comparingInt(e -> e.getValue().rank())
                .thenComparing(e -> key(e.getKey()));
        return ascending ? order : order.reversed();
    }

    private static boolean prefix(Spec spec, String prefix) {
        return spec.words().stream().anyMatch(word -> word.startsWith(prefix));
    }

    private static boolean word(Spec spec, String word) {
        return spec.words().contains(word);
    }

    private static Map<String, AttributeValue> item(int i, Spec spec) {
        Map<String, AttributeValue> item = new HashMap<>(Map.of("pk", s(PROJECT), "sk", s(key(i)),
                "title", s("Crash " + String.join(" ", spec.words()))));
        if (spec.rank() >= 0) {
            item.put("rank", AttributeValue.fromN(Integer.toString(spec.rank())));
        }
        if (spec.label() != null) {
            item.put("label", s(spec.label()));
        }
        return item;
    }

    private static void apply(DynamoDbClient dynamoDb, String table, Map<Integer, Spec> state, Change change) {
        Spec old = state.remove(change.item());
        if (old != null) {
            OrderedDriveFixture.delete(dynamoDb, DEFINITIONS, table, item(change.item(), old));
        }
        if (change.spec() != null) {
            state.put(change.item(), change.spec());
            OrderedDriveFixture.put(dynamoDb, DEFINITIONS, table, item(change.item(), change.spec()));
        }
    }

    @Provide
    Arbitrary<Where> wheres() {
        return Arbitraries.of(WHERES);
    }

    @Provide
    Arbitrary<Integer> budgets() {
        return Arbitraries.frequencyOf(Tuple.of(3, Arbitraries.integers().between(2, 8)), Tuple.of(2, Arbitraries.integers().between(9, 40)),
                Tuple.of(1, Arbitraries.just(2000)));
    }

    @Provide
    Arbitrary<List<Spec>> items() {
        return Combinators.combine(Arbitraries.frequencyOf(Tuple.of(6, Arbitraries.integers().between(0, 12)), Tuple.of(1, Arbitraries.just(-1))), Arbitraries.of(WORDS).list().ofMaxSize(3),
                Arbitraries.of(LABELS).injectNull(0.4)).as(Spec::new).list().ofMinSize(5).ofMaxSize(40);
    }

    @Provide
    Arbitrary<Integer> pageSizes() {
        return Arbitraries.frequencyOf(Tuple.of(3, Arbitraries.just(1)), Tuple.of(4, Arbitraries.integers().between(2, 6)),
                Tuple.of(1, Arbitraries.just(100)));
    }

    @Provide
    Arbitrary<List<Change>> changes() {
        Arbitrary<Spec> spec = Combinators.combine(Arbitraries.integers().between(0, 12), Arbitraries.of(WORDS).list().ofMaxSize(3),
                Arbitraries.of(LABELS).injectNull(0.4)).as(Spec::new);
        Arbitrary<Integer> after = Arbitraries.frequencyOf(Tuple.of(3, Arbitraries.just(-1)), Tuple.of(2, Arbitraries.integers().between(0, 4)));
        return Combinators.combine(after, Arbitraries.integers().between(0, 30), spec.injectNull(0.15)).as(Change::new)
                .list().ofMinSize(8).ofMaxSize(50);
    }
}

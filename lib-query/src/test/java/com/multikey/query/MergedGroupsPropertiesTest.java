package com.multikey.query;

import com.multikey.common.Backoff;
import com.multikey.common.Sleeper;
import com.multikey.index.IndexItem;
import com.multikey.index.IndexProjector;
import com.multikey.index.IndexValue;
import com.multikey.index.definition.DefinitionsYaml;
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
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Requests of several groups against a brute force written from the docs alone: random incidents of five teams (each
 * team a group: the table's partition), a created time (sometimes missing, sometimes text), a state and labels (a list,
 * indexed element by element); random requests naming 1 to 6 of the teams (in any order, some twice), sorted by the
 * created time or by the labels, both orders, with random predicates on the state, the labels and the sorted field, with
 * and without the missing tail, page sizes 1 to 40, read budgets from the smallest a request of its groups may name to
 * 3,000 or the default, read page by page to the end.
 *
 * <p>The model: an item of a named team matches when, for each predicated field, one of its values satisfies the field's
 * predicates; it is listed once, under its first value of the sorted field in page order (numbers before text, numbers
 * by value, text by code point; then num), the items of all the named teams merged in that order; with the tail asked
 * (and no predicate on the sorted field), the items lacking the sorted field follow: each named team's in turn, in the
 * order first named, within a team in sort key order (reversed in a descending request). Each page reads at most its
 * budget, makes at most its calls (the bound of one group's page, per group) and a short page that is not the last has
 * spent its budget.
 */
class MergedGroupsPropertiesTest {

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
            """);
    private static final List<String> TEAMS = List.of("TEAM#a", "TEAM#b", "TEAM#c", "TEAM#d", "TEAM#e");
    private static final CursorSealer SEALER = CursorSealer.of(CursorKeys.ephemeral());
    private static final int MAX_PAGES = 2000;

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

    @Property(tries = 25)
    void severalGroups_pagesListTheMergedModel_eachItemOnce_withinTheirBudgets(@ForAll("incidents") List<Incident> incidents,
                                                                             @ForAll("requests") List<Ask> asks) {
        synchronized (MergedGroupsPropertiesTest.class) {
            tables.reset();
            DynamoDbClient dynamoDb = tables.dynamoDb();
            dynamoDb.createTable(b -> b.tableName(TABLE).billingMode(BillingMode.PAY_PER_REQUEST)
                    .attributeDefinitions(a -> a.attributeName("pk").attributeType(ScalarAttributeType.S),
                            a -> a.attributeName("sk").attributeType(ScalarAttributeType.S))
                    .keySchema(k -> k.attributeName("pk").keyType(KeyType.HASH), k -> k.attributeName("sk").keyType(KeyType.RANGE)));
            List<Map<String, AttributeValue>> items = new ArrayList<>();
            for (int i = 0; i < incidents.size(); i++) {
                items.add(incidents.get(i).item(i));
            }
            items.forEach(item -> write(dynamoDb, item));
            // a team's own item, in its partition but covered by no index: in no page
            write(dynamoDb, Map.of("pk", s("TEAM#a"), "sk", s("TEAM#a"), "num", AttributeValue.fromN("0")));
            for (Ask ask : asks) {
                check(ask, items);
            }
        }
    }

    private static void check(Ask ask, List<Map<String, AttributeValue>> items) {
        RecordingDynamoDbClient client = new RecordingDynamoDbClient(tables.dynamoDb());
        IndexQuery query = new IndexQuery(client, TABLE, INDEX_TABLE, DEFINITIONS,
                new Backoff(Duration.ofMillis(1), Duration.ofMillis(5), new Random(1)), Sleeper.SYSTEM, Duration.ofSeconds(60),
                System::nanoTime, SEALER, GridSettings.NONE);
        List<String> distinct = List.copyOf(new LinkedHashSet<>(ask.teams()));
        PageRequest request = PageRequest.onIndex(ask.sortedBy().equals("created") ? "by-created" : "by-label",
                        List.of(s(ask.teams().get(0))), "", ask.order(), ask.pageSize())
                .withGroups(ask.teams().stream().map(team -> List.of(s(team))).toList())
                .where(ask.predicates());
        if (ask.missing()) {
            request = request.withMissing();
        }
        if (ask.budget() > 0) {
            request = request.withReadBudget(ask.budget());
        }
        boolean budgeted = ask.budget() > 0 || !ask.predicates().isEmpty();
        // a request of several groups that names no budget: the standard one for each group, up to the most
        int budget = ask.budget() > 0 ? ask.budget() : distinct.size() == 1 ? ReadBudget.DEFAULT.standard()
                : Math.min(ReadBudget.DEFAULT.max(), ReadBudget.DEFAULT.standard() * distinct.size());
        if (budgeted && budget / distinct.size() < 2) {
            PageRequest refused = request;
            assertThatThrownBy(() -> query.page(refused)).as("%s", ask)
                    .isInstanceOfSatisfying(FilterParameters.InvalidParameterException.class,
                            e -> assertThat(e.kind()).isEqualTo(PageParameters.Parameter.BUDGET));
            return;
        }
        List<String> expected = Model.sequence(items, ask, distinct);
        List<String> listed = new ArrayList<>();
        for (int n = 0; ; n++) {
            assertThat(n).as("%s: no end after %d pages, %d of %d listed", ask, MAX_PAGES, listed.size(), expected.size())
                    .isLessThan(MAX_PAGES);
            client.requests.clear();
            Page page = query.page(request);
            String where = "page " + n + " of " + ask;
            int calls = client.requestsOf(QueryRequest.class).size() + client.requestsOf(BatchGetItemRequest.class).size();
            // groups read on this page: at most every group named
            int share = budget / distinct.size();
            int maxCalls = budgeted ? distinct.size() * (ReadBudget.maxCalls(share) + (share + 99) / 100)
                    : distinct.size() * IndexQuery.MAX_READS_PER_PAGE;
            assertThat(page.apiCalls()).as("calls counted, %s", where).isEqualTo(calls);
            assertThat(calls).as("calls, %s", where).isLessThanOrEqualTo(maxCalls);
            if (budgeted) {
                assertThat(page.examined()).as("items read, %s", where).isBetween(0, budget);
            }
            assertThat(page.items()).as("page size, %s", where).hasSizeLessThanOrEqualTo(ask.pageSize());
            page.items().forEach(item -> listed.add(item.get("pk").s() + " " + item.get("sk").s()));
            if (page.nextCursor().isEmpty()) {
                break;
            }
            if (page.items().size() < ask.pageSize()) {
                assertThat(page.budgetSpent()).as("a short page that is not the last spent its budget, %s", where).isTrue();
            }
            request = request.after(page.nextCursor().get());
        }
        assertThat(listed).as("every page of %s", ask).isEqualTo(expected);
    }

    // ---------------------------------------------------------------------------------------------------------------
    // the model: from the docs, nothing of the library but the predicate records

    static final class Model {

        private Model() {
        }

        static List<String> sequence(List<Map<String, AttributeValue>> items, Ask ask, List<String> teams) {
            String sorted = ask.sortedBy();
            List<Predicate> onSorted = ask.predicates().stream().filter(p -> field(p).equals(sorted)).toList();
            Comparator<Listed> order = Comparator.comparing(Listed::value, Model::compare).thenComparing(Listed::num);
            if (ask.order() == Order.DESC) {
                order = order.reversed();
            }
            List<Listed> listed = new ArrayList<>();
            Map<String, List<Map<String, AttributeValue>>> tails = new LinkedHashMap<>();
            teams.forEach(team -> tails.put(team, new ArrayList<>()));
            for (Map<String, AttributeValue> item : items) {
                if (!teams.contains(item.get("pk").s()) || !othersMatch(item, ask.predicates(), sorted)) {
                    continue;
                }
                List<IndexValue> values = values(item, sorted);
                List<IndexValue> passing = values.stream().filter(v -> onSorted.stream().allMatch(p -> test(p, v))).toList();
                if (!passing.isEmpty()) {
                    IndexValue under = ask.order() == Order.ASC ? passing.stream().min(Model::compare).orElseThrow()
                            : passing.stream().max(Model::compare).orElseThrow();
                    listed.add(new Listed(key(item), under, new BigDecimal(item.get("num").n())));
                } else if (values.isEmpty() && ask.missing() && onSorted.isEmpty()) {
                    tails.get(item.get("pk").s()).add(item);
                }
            }
            listed.sort(order);
            List<String> sequence = new ArrayList<>(listed.stream().map(Listed::key).toList());
            for (List<Map<String, AttributeValue>> tail : tails.values()) {
                Comparator<Map<String, AttributeValue>> bySortKey = Comparator.comparing(item -> item.get("sk").s());
                tail.stream().sorted(ask.order() == Order.ASC ? bySortKey : bySortKey.reversed()).map(Model::key).forEach(sequence::add);
            }
            return sequence;
        }

        private static boolean othersMatch(Map<String, AttributeValue> item, List<Predicate> predicates, String sorted) {
            for (String field : List.of("created", "labels", "state")) {
                if (field.equals(sorted)) {
                    continue;
                }
                List<Predicate> on = predicates.stream().filter(p -> field(p).equals(field)).toList();
                if (on.isEmpty()) {
                    continue;
                }
                List<IndexValue> values = values(item, field);
                boolean matches = on.stream().anyMatch(p -> p instanceof Predicate.Missing) ? values.isEmpty()
                        : values.stream().anyMatch(v -> on.stream().allMatch(p -> test(p, v)));
                if (!matches) {
                    return false;
                }
            }
            return true;
        }

        /** A field's values: a scalar S or N itself, a list's S and N elements; nothing else. */
        static List<IndexValue> values(Map<String, AttributeValue> item, String field) {
            AttributeValue raw = item.get(field);
            if (raw == null) {
                return List.of();
            }
            List<AttributeValue> each = raw.hasL() ? raw.l() : List.of(raw);
            List<IndexValue> values = new ArrayList<>();
            for (AttributeValue value : each) {
                IndexValue v = value.s() != null ? new IndexValue.Text(value.s())
                        : value.n() != null ? new IndexValue.Num(new BigDecimal(value.n())) : null;
                if (v != null && values.stream().noneMatch(other -> compare(other, v) == 0)) {
                    values.add(v);
                }
            }
            return values;
        }

        /** Whether a value satisfies a predicate, as docs/query.md says: of its type, a range within its bounds' type. */
        static boolean test(Predicate predicate, IndexValue value) {
            return switch (predicate) {
                case Predicate.Equals equals -> sameType(equals.value(), value) && compare(equals.value(), value) == 0;
                case Predicate.In in -> in.values().stream().anyMatch(v -> sameType(v, value) && compare(v, value) == 0);
                case Predicate.NotEquals notEquals -> !(sameType(notEquals.value(), value) && compare(notEquals.value(), value) == 0);
                case Predicate.BeginsWith beginsWith -> value instanceof IndexValue.Text text && text.value().startsWith(beginsWith.prefix());
                case Predicate.Range range -> (range.low() == null || sameType(range.low(), value)
                        && (range.lowInclusive() ? compare(range.low(), value) <= 0 : compare(range.low(), value) < 0))
                        && (range.high() == null || sameType(range.high(), value)
                        && (range.highInclusive() ? compare(value, range.high()) <= 0 : compare(value, range.high()) < 0));
                case Predicate.Present present -> true;
                case Predicate.Missing missing -> false;
                default -> throw new IllegalArgumentException("not generated: " + predicate);
            };
        }

        private static boolean sameType(IndexValue a, IndexValue b) {
            return a.getClass() == b.getClass();
        }

        /** Numbers before text; numbers by value, text by code point. */
        static int compare(IndexValue a, IndexValue b) {
            if (a instanceof IndexValue.Num x && b instanceof IndexValue.Num y) {
                return x.value().compareTo(y.value());
            }
            if (a instanceof IndexValue.Text x && b instanceof IndexValue.Text y) {
                return x.value().compareTo(y.value());
            }
            return a instanceof IndexValue.Num ? -1 : 1;
        }

        private static String field(Predicate predicate) {
            String field = predicate.field();
            return field.startsWith("@") ? field.substring(1) : field;
        }

        private static String key(Map<String, AttributeValue> item) {
            return item.get("pk").s() + " " + item.get("sk").s();
        }

        private record Listed(String key, IndexValue value, BigDecimal num) {
        }
    }

    // ---------------------------------------------------------------------------------------------------------------
    // incidents and requests

    /** One incident: its team (index into TEAMS), created (N, or S, or null), state (or null), labels (or null). */
    record Incident(int team, AttributeValue created, String state, List<String> labels) {
        Map<String, AttributeValue> item(int i) {
            Map<String, AttributeValue> item = new LinkedHashMap<>();
            item.put("pk", s(TEAMS.get(team)));
            // sort keys in another order than nums
            item.put("sk", s("INC#" + Integer.toString((i * 7919) % 10_007, 36)));
            item.put("num", AttributeValue.fromN(Integer.toString(i + 1)));
            if (created != null) {
                item.put("created", created);
            }
            if (state != null) {
                item.put("state", s(state));
            }
            if (labels != null) {
                item.put("labels", AttributeValue.fromL(labels.stream().map(MergedGroupsPropertiesTest::s).toList()));
            }
            return item;
        }
    }

    record Ask(List<String> teams, String sortedBy, Order order, int pageSize, List<Predicate> predicates, boolean missing,
               int budget) {
    }

    @Provide
    Arbitrary<List<Incident>> incidents() {
        // team a holds most, team e few
        Arbitrary<Integer> team = Arbitraries.frequency(Tuple.of(6, 0), Tuple.of(3, 1), Tuple.of(2, 2), Tuple.of(2, 3), Tuple.of(1, 4));
        Arbitrary<AttributeValue> created = Arbitraries.frequencyOf(
                Tuple.of(2, Arbitraries.just((AttributeValue) null)),
                Tuple.of(16, Arbitraries.integers().between(1, 40).map(n -> AttributeValue.fromN(Integer.toString(n)))),
                Tuple.of(1, Arbitraries.of("late", "early").map(MergedGroupsPropertiesTest::s)));
        Arbitrary<String> state = Arbitraries.frequencyOf(Tuple.of(1, Arbitraries.just((String) null)),
                Tuple.of(5, Arbitraries.just("closed")), Tuple.of(3, Arbitraries.just("open")), Tuple.of(1, Arbitraries.just("ack")));
        Arbitrary<List<String>> labels = Arbitraries.frequencyOf(Tuple.of(2, Arbitraries.just((List<String>) null)),
                Tuple.of(5, Arbitraries.of("db", "net", "ui", "sev1", "sev2").list().ofMinSize(0).ofMaxSize(3)));
        return Combinators.combine(team, created, state, labels).as(Incident::new).list().ofMinSize(20).ofMaxSize(200);
    }

    @Provide
    Arbitrary<List<Ask>> requests() {
        Arbitrary<List<String>> teams = Arbitraries.of(TEAMS).list().ofMinSize(1).ofMaxSize(6);
        Arbitrary<String> sortedBy = Arbitraries.of("created", "labels");
        Arbitrary<Integer> pageSize = Arbitraries.frequencyOf(Tuple.of(3, Arbitraries.integers().between(1, 5)),
                Tuple.of(3, Arbitraries.integers().between(6, 40)));
        Arbitrary<Integer> budget = Arbitraries.frequencyOf(Tuple.of(4, Arbitraries.just(0)),
                Tuple.of(1, Arbitraries.integers().between(2, 14)), Tuple.of(3, Arbitraries.integers().between(15, 200)),
                Tuple.of(1, Arbitraries.integers().between(201, 3000)));
        Arbitrary<Boolean> missing = Arbitraries.frequency(Tuple.of(3, false), Tuple.of(1, true));
        return Combinators.combine(teams, sortedBy, Arbitraries.of(Order.class), pageSize, missing, budget)
                .flatAs((t, by, order, size, tail, items) -> predicates(by)
                        .map(predicates -> new Ask(t, by, order, size, predicates, tail, items)))
                .list().ofMinSize(1).ofMaxSize(4);
    }

    /** At most one predicate a field: on the state, on the other field, on the sorted field (a range or an equality). */
    private static Arbitrary<List<Predicate>> predicates(String sortedBy) {
        String other = sortedBy.equals("created") ? "@labels" : "@created";
        Arbitrary<Predicate> state = Arbitraries.oneOf(
                Arbitraries.of("closed", "open", "ack").map(v -> (Predicate) new Predicate.Equals("@state", text(v))),
                Arbitraries.just(new Predicate.In("@state", List.of(text("closed"), text("ack")))),
                Arbitraries.of("closed", "open").map(v -> (Predicate) new Predicate.NotEquals("@state", text(v))),
                Arbitraries.just(new Predicate.Missing("@state")),
                Arbitraries.just(new Predicate.Present("@state")));
        Arbitrary<Predicate> onOther = sortedBy.equals("created")
                ? Arbitraries.oneOf(Arbitraries.of("db", "sev1", "ui").map(v -> (Predicate) new Predicate.Equals(other, text(v))),
                Arbitraries.just(new Predicate.BeginsWith(other, "sev")), Arbitraries.just(new Predicate.Present(other)))
                : Arbitraries.integers().between(1, 40).map(n -> (Predicate) new Predicate.Range(other, num(n), true, num(n + 12), false));
        Arbitrary<Predicate> onSorted = sortedBy.equals("created")
                ? Arbitraries.integers().between(1, 40).map(n -> (Predicate) new Predicate.Range("created", num(n), true, num(n + 15), true))
                : Arbitraries.of("db", "net", "sev1").map(v -> (Predicate) new Predicate.Equals("labels", text(v)));
        return Combinators.combine(maybe(state, 2), maybe(onOther, 4), maybe(onSorted, 4)).as((a, b, c) -> {
            List<Predicate> predicates = new ArrayList<>();
            a.forEach(predicates::add);
            b.forEach(predicates::add);
            c.forEach(predicates::add);
            return predicates;
        });
    }

    /** The predicate, once in {@code oneIn} (the others: none). */
    private static Arbitrary<List<Predicate>> maybe(Arbitrary<Predicate> predicate, int oneIn) {
        return Arbitraries.integers().between(1, oneIn).flatMap(n -> n == 1 ? predicate.map(List::of) : Arbitraries.just(List.of()));
    }

    // ---------------------------------------------------------------------------------------------------------------

    /** The item, and the index items the stream indexer keeps for it (its own projection), written directly. */
    private static void write(DynamoDbClient dynamoDb, Map<String, AttributeValue> item) {
        dynamoDb.putItem(b -> b.tableName(TABLE).item(item));
        IndexProjector projector = new IndexProjector(DEFINITIONS);
        List<WriteRequest> puts = projector.project(projector.keyOf(item).orElseThrow(), item).items().stream()
                .map(IndexItem::toItem)
                .map(indexItem -> WriteRequest.builder().putRequest(PutRequest.builder().item(indexItem).build()).build())
                .toList();
        for (int from = 0; from < puts.size(); from += 25) {
            List<WriteRequest> chunk = puts.subList(from, Math.min(puts.size(), from + 25));
            dynamoDb.batchWriteItem(b -> b.requestItems(Map.of(INDEX_TABLE, chunk)));
        }
    }

    private static IndexValue text(String value) {
        return new IndexValue.Text(value);
    }

    private static IndexValue num(int value) {
        return new IndexValue.Num(BigDecimal.valueOf(value));
    }

    private static AttributeValue s(String value) {
        return AttributeValue.fromS(value);
    }
}

package com.multikey.query;

import com.multikey.common.Backoff;
import com.multikey.common.Sleeper;
import com.multikey.index.IndexItem;
import com.multikey.index.IndexProjector;
import com.multikey.index.definition.DefinitionsYaml;
import com.multikey.index.definition.IndexDefinitions;
import com.multikey.testkit.LocalTables;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The "Ready Five" shape ({@code examples/ready-five}): incidents owned by teams, with participants (users and teams) in
 * a list. "My teams' closed incidents, newest first" is one request across the user's teams, paged to the end against a
 * brute force over the items; "closed incidents my teams take part in" is one request of the org with a predicate on the
 * participants list (indexed element by element), an incident that several of my teams take part in listed once.
 */
class ReadyFiveIncidentsTest {

    private static final String TABLE = "Incidents";
    private static final String INDEX_TABLE = "IssueAttribIndexTable";
    private static final List<String> TEAMS = List.of("sre", "payments", "mobile", "web", "data", "search", "infra", "billing");
    private static final List<String> MY_TEAMS = List.of("sre", "payments", "mobile");

    private static LocalTables tables;
    private static IndexDefinitions definitions;
    private static List<Map<String, AttributeValue>> incidents;

    @BeforeAll
    static void start() throws Exception {
        tables = LocalTables.startQuietly();
        definitions = DefinitionsYaml.parse(Files.readString(repository().resolve("examples/ready-five/index-definitions.yaml")));
        DynamoDbClient dynamoDb = tables.dynamoDb();
        dynamoDb.createTable(b -> b.tableName(TABLE).billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(a -> a.attributeName("pk").attributeType(ScalarAttributeType.S),
                        a -> a.attributeName("sk").attributeType(ScalarAttributeType.S))
                .keySchema(k -> k.attributeName("pk").keyType(KeyType.HASH), k -> k.attributeName("sk").keyType(KeyType.RANGE)));
        incidents = incidents(new Random(5), 400);
        incidents.forEach(item -> write(dynamoDb, item));
    }

    @AfterAll
    static void stop() {
        if (tables != null) {
            tables.close();
        }
    }

    @Test
    void myTeamsClosedIncidents_newestFirst_oneRequestAcrossTheTeams_matchesTheBruteForce() {
        // given
        PageRequest request = PageRequest.onIndex("incidents-by-team", List.of(s(MY_TEAMS.get(0))), "", Order.DESC, 10)
                .withGroups(MY_TEAMS.stream().map(team -> List.of(s(team))).toList())
                .where(List.of(PredicateText.parse("state = closed", 0)));
        List<String> expected = incidents.stream()
                .filter(item -> MY_TEAMS.contains(item.get("team").s()) && item.get("state").s().equals("closed"))
                .sorted(newestFirst()).map(ReadyFiveIncidentsTest::key).toList();

        // when
        List<String> listed = readAll(query(), request);

        // then
        assertThat(expected).hasSizeGreaterThan(30);
        assertThat(listed).isEqualTo(expected);
    }

    @Test
    void myTeamsClosedIncidents_theirTotal_countsTheMergedItemsOnce_exactWithinTheBudget_elseALowerBound() {
        // given
        PageRequest request = PageRequest.onIndex("incidents-by-team", List.of(s(MY_TEAMS.get(0))), "", Order.DESC, 10)
                .withGroups(MY_TEAMS.stream().map(team -> List.of(s(team))).toList())
                .where(List.of(ExpressionText.parse("state = closed or title = \"Incident 1\"", 0)));
        long expected = incidents.stream()
                .filter(item -> MY_TEAMS.contains(item.get("team").s())
                        && (item.get("state").s().equals("closed") || item.get("title").s().equals("Incident 1")))
                .count();
        Counts counts = new Counts(query(), tables.dynamoDb(), INDEX_TABLE, definitions);

        // when
        Page page = counts.pageWithTotal(request);
        Total small = counts.total(request.withReadBudget(20));

        // then
        assertThat(expected).isGreaterThan(30);
        assertThat(page.items()).hasSize(10);
        assertThat(page.total()).hasValueSatisfying(total -> {
            assertThat(total.value()).isEqualTo(expected);
            assertThat(total.relation()).isEqualTo(Total.Relation.EQ);
        });
        assertThat(small.relation()).isEqualTo(Total.Relation.GTE);
        assertThat(small.value()).isLessThan(expected);
    }

    @Test
    void closedIncidentsMyTeamsTakePartIn_oneGroupAndAListPredicate_eachIncidentOnce() {
        // given
        PageRequest request = PageRequest.onIndex("incidents-by-org", List.of(s("acme")), "", Order.DESC, 10)
                .where(List.of(PredicateText.parse("state = closed", 0),
                        PredicateText.parse("participants in (team#sre, team#payments, team#mobile)", 1)));
        Set<String> mine = MY_TEAMS.stream().map(team -> "team#" + team).collect(Collectors.toSet());
        List<String> expected = incidents.stream()
                .filter(item -> item.get("state").s().equals("closed")
                        && item.get("participants").l().stream().anyMatch(p -> mine.contains(p.s())))
                .sorted(newestFirst()).map(ReadyFiveIncidentsTest::key).toList();

        // when
        List<String> listed = readAll(query(), request);

        // then: incidents that two of my teams take part in are among them, each listed once
        assertThat(incidents.stream().filter(item -> item.get("participants").l().stream().filter(p -> mine.contains(p.s())).count() > 1))
                .isNotEmpty();
        assertThat(listed).doesNotHaveDuplicates().isEqualTo(expected);
    }

    @Test
    void myTeamsIncidents_aPageWithinItsBudget_saysItIsShortAndGoesOn() {
        // given: 30 items a page for three teams: 10 each
        PageRequest request = PageRequest.onIndex("incidents-by-team", List.of(s("sre")), "", Order.DESC, 20)
                .withGroups(MY_TEAMS.stream().map(team -> List.of(s(team))).toList())
                .where(List.of(PredicateText.parse("state = closed", 0)))
                .withReadBudget(30);
        List<String> expected = incidents.stream()
                .filter(item -> MY_TEAMS.contains(item.get("team").s()) && item.get("state").s().equals("closed"))
                .sorted(newestFirst()).map(ReadyFiveIncidentsTest::key).toList();

        // when
        IndexQuery query = query();
        Page first = query.page(request);

        // then
        assertThat(first.examined()).isLessThanOrEqualTo(30);
        assertThat(first.items()).hasSizeLessThan(20);
        assertThat(first.budgetSpent()).isTrue();
        assertThat(first.nextCursor()).isPresent();
        assertThat(readAll(query, request)).isEqualTo(expected);
    }

    @Test
    void severalGroups_explainNamesTheMerge_andTheCursorIsBoundToTheGroups() {
        // given
        PageRequest request = PageRequest.onIndex("incidents-by-team", List.of(s("sre")), "", Order.DESC, 5)
                .withGroups(MY_TEAMS.stream().map(team -> List.of(s(team))).toList())
                .where(List.of(PredicateText.parse("state = closed", 0)))
                .withExplain();
        IndexQuery query = query();

        // when
        Page page = query.page(request);

        // then
        assertThat(page.explain().orElseThrow().plan()).startsWith("merge(3 groups: ");
        String cursor = page.nextCursor().orElseThrow();
        PageRequest fewerTeams = request.withGroups(MY_TEAMS.subList(0, 2).stream().map(team -> List.of(s(team))).toList()).after(cursor);
        assertThatThrownBy(() -> query.page(fewerTeams)).isInstanceOfSatisfying(QueryException.class,
                e -> assertThat(e.subject()).isEqualTo(QueryException.Subject.CURSOR));
        PageRequest otherOrder = request.withGroups(List.of(List.of(s("payments")), List.of(s("sre")), List.of(s("mobile"))))
                .after(cursor);
        assertThatThrownBy(() -> query.page(otherOrder)).isInstanceOf(QueryException.class);
        PageRequest oneTeam = request.withGroups(List.of(List.of(s("sre")))).after(cursor);
        assertThatThrownBy(() -> query.page(oneTeam)).isInstanceOf(QueryException.class);
    }

    @Test
    void allTeams_laterPages_readOnlyTheTeamsTheyListFrom_andTheOneWhoseNextItemEndsThePage() {
        // given: every team, newest first, pages of 5
        PageRequest request = PageRequest.onIndex("incidents-by-team", List.of(s("sre")), "", Order.DESC, 5)
                .withGroups(TEAMS.stream().map(team -> List.of(s(team))).toList());
        RecordingDynamoDbClient client = new RecordingDynamoDbClient(tables.dynamoDb());
        IndexQuery query = query(client);

        // when
        List<Integer> calls = new ArrayList<>();
        List<Set<String>> teams = new ArrayList<>();
        for (int n = 0; n < 15; n++) {
            client.requests.clear();
            Page page = query.page(request);
            calls.add(client.requests.size());
            teams.add(page.items().stream().map(item -> item.get("team").s()).collect(Collectors.toSet()));
            request = request.after(page.nextCursor().orElseThrow());
        }

        // then: the first page reads every team (a Query and a BatchGetItem, a wider Query at most); a later page the teams
        // it lists from, those the last page listed to their end (their next item unknown), and one more
        assertThat(calls.get(0)).isBetween(2 * TEAMS.size(), 3 * TEAMS.size());
        for (int n = 1; n < 15; n++) {
            assertThat(calls.get(n)).as("page %d listing from %s after %s", n, teams.get(n), teams.get(n - 1))
                    .isLessThanOrEqualTo(3 * (teams.get(n).size() + teams.get(n - 1).size() + 1));
        }
        assertThat(calls.subList(1, 15).stream().mapToInt(Integer::intValue).sum()).isLessThan(14 * 2 * TEAMS.size());
    }

    @Test
    void withGroups_moreThanTheMost_isRefusedNamingTheGroup() {
        List<List<AttributeValue>> teams = new ArrayList<>();
        for (int i = 0; i <= PageRequest.MAX_GROUPS; i++) {
            teams.add(List.of(s("team-" + i)));
        }
        PageRequest request = PageRequest.onIndex("incidents-by-team", List.of(s("sre")), "", Order.DESC, 5);

        assertThatThrownBy(() -> request.withGroups(teams)).isInstanceOfSatisfying(QueryException.class, e -> {
            assertThat(e.subject()).isEqualTo(QueryException.Subject.GROUP);
            assertThat(e.getMessage()).contains("at most 50 groups");
        });
        assertThat(request.withGroups(teams.subList(0, PageRequest.MAX_GROUPS)).groups()).hasSize(PageRequest.MAX_GROUPS);
        // a group named twice is read once
        assertThat(request.withGroups(List.of(List.of(s("sre")), List.of(s("web")), List.of(s("sre")))).groups())
                .containsExactly(List.of(s("sre")), List.of(s("web")));
    }

    @Test
    void severalGroups_aGroupThatDoesNotFitTheIndex_isRefusedBeforeAnyRead() {
        RecordingDynamoDbClient client = new RecordingDynamoDbClient(tables.dynamoDb());
        IndexQuery query = query(client);
        PageRequest request = PageRequest.onIndex("incidents-by-team", List.of(s("sre")), "", Order.DESC, 5)
                .withGroups(List.of(List.of(s("sre")), List.of(s("web"), s("extra"))));

        assertThatThrownBy(() -> query.page(request)).isInstanceOfSatisfying(QueryException.class,
                e -> assertThat(e.subject()).isEqualTo(QueryException.Subject.GROUP));
        assertThat(client.requests).isEmpty();
    }

    @Test
    void fiftyTeams_theCursorStaysSmall() {
        List<List<AttributeValue>> teams = new ArrayList<>();
        for (int i = 0; i < PageRequest.MAX_GROUPS; i++) {
            teams.add(List.of(s(i < TEAMS.size() ? TEAMS.get(i) : "team-" + i)));
        }
        PageRequest request = PageRequest.onIndex("incidents-by-team", List.of(s("sre")), "", Order.DESC, 5).withGroups(teams)
                .where(List.of(PredicateText.parse("state = closed", 0)));

        Page page = query().page(request);

        assertThat(page.items()).hasSize(5);
        assertThat(page.nextCursor().orElseThrow().length()).isLessThan(8_000);
    }

    // ---------------------------------------------------------------------------------------------------------------

    private static List<String> readAll(IndexQuery query, PageRequest first) {
        List<String> listed = new ArrayList<>();
        PageRequest request = first;
        for (int n = 0; n < 1000; n++) {
            Page page = query.page(request);
            page.items().forEach(item -> listed.add(key(item)));
            if (page.nextCursor().isEmpty()) {
                return listed;
            }
            request = request.after(page.nextCursor().get());
        }
        throw new AssertionError("no end after 1000 pages");
    }

    private static IndexQuery query() {
        return query(tables.dynamoDb());
    }

    private static IndexQuery query(DynamoDbClient client) {
        return new IndexQuery(client, TABLE, INDEX_TABLE, definitions, new Backoff(Duration.ofMillis(1), Duration.ofMillis(5), new Random(1)),
                Sleeper.SYSTEM, Duration.ofSeconds(60), System::nanoTime, CursorSealer.of(CursorKeys.ephemeral()), GridSettings.NONE);
    }

    /** Newest first as the index orders them: created descending, then num descending. */
    private static Comparator<Map<String, AttributeValue>> newestFirst() {
        Comparator<Map<String, AttributeValue>> order = Comparator.comparing((Map<String, AttributeValue> item) -> Long.parseLong(item.get("created").n()))
                .thenComparing(item -> Long.parseLong(item.get("num").n()));
        return order.reversed();
    }

    /** Incidents of the org acme: an owning team each, 1 to 4 participants (users and teams), created at times that repeat. */
    static List<Map<String, AttributeValue>> incidents(Random random, int count) {
        List<Map<String, AttributeValue>> items = new ArrayList<>();
        for (int num = 1; num <= count; num++) {
            Map<String, AttributeValue> item = new LinkedHashMap<>();
            item.put("pk", s("INC#" + num));
            item.put("sk", s("INC#" + num));
            item.put("num", AttributeValue.fromN(Integer.toString(num)));
            item.put("org", s("acme"));
            String team = TEAMS.get(random.nextInt(TEAMS.size()));
            item.put("team", s(team));
            item.put("state", s(random.nextInt(3) == 0 ? "open" : "closed"));
            item.put("created", AttributeValue.fromN(Long.toString(1_767_225_600L + random.nextInt(count / 2) * 3_600L)));
            item.put("title", s("Incident " + num));
            List<AttributeValue> participants = new ArrayList<>(List.of(s("team#" + team)));
            for (int i = random.nextInt(4); i > 0; i--) {
                participants.add(random.nextBoolean() ? s("team#" + TEAMS.get(random.nextInt(TEAMS.size()))) : s("user#u" + random.nextInt(20)));
            }
            item.put("participants", AttributeValue.fromL(participants));
            items.add(item);
        }
        return items;
    }

    private static void write(DynamoDbClient dynamoDb, Map<String, AttributeValue> item) {
        dynamoDb.putItem(b -> b.tableName(TABLE).item(item));
        IndexProjector projector = new IndexProjector(definitions);
        List<WriteRequest> puts = projector.project(projector.keyOf(item).orElseThrow(), item).items().stream()
                .map(IndexItem::toItem)
                .map(indexItem -> WriteRequest.builder().putRequest(PutRequest.builder().item(indexItem).build()).build())
                .toList();
        for (int from = 0; from < puts.size(); from += 25) {
            List<WriteRequest> chunk = puts.subList(from, Math.min(puts.size(), from + 25));
            dynamoDb.batchWriteItem(b -> b.requestItems(Map.of(INDEX_TABLE, chunk)));
        }
    }

    private static String key(Map<String, AttributeValue> item) {
        return item.get("pk").s();
    }

    private static AttributeValue s(String value) {
        return AttributeValue.fromS(value);
    }

    static Path repository() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !Files.isDirectory(dir.resolve("examples"))) {
            dir = dir.getParent();
        }
        if (dir == null) {
            throw new IllegalStateException("no examples directory above " + Path.of("").toAbsolutePath());
        }
        return dir;
    }
}

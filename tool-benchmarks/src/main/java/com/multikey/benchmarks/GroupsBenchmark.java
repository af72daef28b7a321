package com.multikey.benchmarks;

import com.multikey.common.Backoff;
import com.multikey.common.Sleeper;
import com.multikey.emulator.services.dynamodb.LocalDynamoDb;
import com.multikey.emulator.template.SamTemplate;
import com.multikey.emulator.template.TemplateTables;
import com.multikey.index.IndexItem;
import com.multikey.index.IndexProjector;
import com.multikey.index.definition.DefinitionsYaml;
import com.multikey.index.definition.IndexDefinitions;
import com.multikey.query.CursorKeys;
import com.multikey.query.CursorSealer;
import com.multikey.query.GridSettings;
import com.multikey.query.IndexQuery;
import com.multikey.query.Order;
import com.multikey.query.Page;
import com.multikey.query.PageRequest;
import com.multikey.query.Predicate;
import com.multikey.query.PredicateText;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

import java.io.OutputStream;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;

/**
 * (14) several groups merged into one page stream ("my teams' incidents", the Ready Five shape): {@value #TEAMS} teams of
 * {@value #PER_TEAM} incidents each, requests naming 2, 10 and 50 of them, newest first, pages of {@value #PAGE_SIZE}, with
 * and without {@code state = closed} (two thirds of the incidents), the first {@value #PAGES} pages: calls and items read
 * per page of one request of several groups ({@link PageRequest#withGroups}) against one request per group merged by
 * hand the article's way — stateless, as an API must be between its pages: each page asks every team for a page from the
 * team's cursor, merges, keeps the first {@value #PAGE_SIZE}, and remembers per team its cursor and how many of that page
 * it already listed — and, for reference, a hand merge that keeps each team's unlisted items in memory between pages (a
 * stateful server). The three list the same items in the same order (checked).
 */
final class GroupsBenchmark {

    static final int TEAMS = 50;
    static final int PER_TEAM = 600;
    static final int PAGE_SIZE = 25;
    static final int PAGES = 40;
    private static final String TABLE = "Incidents";
    private static final String INDEX_TABLE = "IssueAttribIndexTable";
    private static final IndexDefinitions DEFINITIONS = DefinitionsYaml.parse("""
            version: 1
            table: {partitionKey: {name: pk, type: S}, sortKey: {name: sk, type: S}}
            indexes:
              - name: incidents-by-team
                covers: [{attribute: sk, beginsWith: "INC#"}]
                group: team
                values: {attribute: created}
                orderBy: num
              - name: incidents-by-team-state
                covers: [{attribute: sk, beginsWith: "INC#"}]
                group: team
                values: {attribute: state}
                orderBy: num
            """);

    private GroupsBenchmark() {
    }

    /** Calls and items read over the pages of one way, and what it listed. */
    record Read(List<Integer> calls, List<Integer> examined, List<String> listed) {
        double callsPerPage() {
            return calls.stream().mapToInt(Integer::intValue).average().orElse(0);
        }

        double examinedPerPage() {
            return examined.stream().mapToInt(Integer::intValue).average().orElse(0);
        }
    }

    static void run(PrintStream out) {
        PrintStream console = System.out;
        System.setOut(new PrintStream(OutputStream.nullOutputStream()));
        try (LocalDynamoDb local = LocalDynamoDb.start(); DynamoDbClient dynamoDb = local.client()) {
            System.setOut(console);
            TemplateTables.create(SamTemplate.ofRepository(), dynamoDb);
            dynamoDb.createTable(b -> b.tableName(TABLE).billingMode(BillingMode.PAY_PER_REQUEST)
                    .attributeDefinitions(a -> a.attributeName("pk").attributeType(ScalarAttributeType.S),
                            a -> a.attributeName("sk").attributeType(ScalarAttributeType.S))
                    .keySchema(k -> k.attributeName("pk").keyType(KeyType.HASH), k -> k.attributeName("sk").keyType(KeyType.RANGE)));
            long start = System.nanoTime();
            load(dynamoDb, new Random(14));
            out.printf("(14) several groups merged: %d teams of %d incidents loaded in %.1f s%n", TEAMS, PER_TEAM,
                    (System.nanoTime() - start) / 1e9);
            IndexQuery query = new IndexQuery(dynamoDb, TABLE, INDEX_TABLE, DEFINITIONS, Backoff.standard(), Sleeper.SYSTEM,
                    Duration.ofSeconds(60), System::nanoTime, CursorSealer.of(CursorKeys.ephemeral()), GridSettings.NONE);
            out.printf("pages of %d, newest first, the first %d pages of each way%n", PAGE_SIZE, PAGES);
            out.println("| teams | where | merged: calls / items read a page | by hand, stateless: calls / items read a page"
                    + " | by hand, unlisted items kept in memory: calls / items read a page | merged / stateless (calls, items) |");
            out.println("|---|---|---|---|---|---|");
            for (int teams : List.of(2, 10, 50)) {
                for (List<Predicate> where : List.of(List.<Predicate>of(), List.of(PredicateText.parse("state = closed", 0)))) {
                    List<String> names = new ArrayList<>();
                    for (int t = 0; t < teams; t++) {
                        names.add(team(t));
                    }
                    Read merged = merged(query, names, where);
                    Read stateless = byHand(query, names, where);
                    Read kept = byHandKept(query, names, where);
                    if (!merged.listed().equals(stateless.listed()) || !merged.listed().equals(kept.listed())) {
                        throw new IllegalStateException("the ways listed different items for " + teams + " teams, " + where);
                    }
                    out.printf(Locale.ROOT, "| %d | %s | %.1f / %.0f | %.1f / %.0f | %.1f / %.0f | %.2f, %.2f |%n", teams,
                            where.isEmpty() ? "none" : "state = closed", merged.callsPerPage(), merged.examinedPerPage(),
                            stateless.callsPerPage(), stateless.examinedPerPage(), kept.callsPerPage(), kept.examinedPerPage(),
                            merged.callsPerPage() / stateless.callsPerPage(), merged.examinedPerPage() / stateless.examinedPerPage());
                }
            }
        }
    }

    private static PageRequest single(String team, List<Predicate> where) {
        return PageRequest.onIndex("incidents-by-team", List.of(AttributeValue.fromS(team)), "", Order.DESC, PAGE_SIZE).where(where);
    }

    /** One request of every team, page by page. */
    private static Read merged(IndexQuery query, List<String> teams, List<Predicate> where) {
        PageRequest request = single(teams.get(0), where).withGroups(teams.stream().map(team -> List.of(AttributeValue.fromS(team))).toList());
        Read read = new Read(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
        for (int n = 0; n < PAGES; n++) {
            Page page = query.page(request);
            read.calls().add(page.apiCalls());
            read.examined().add(page.examined());
            page.items().forEach(item -> read.listed().add(item.get("pk").s()));
            if (page.nextCursor().isEmpty()) {
                break;
            }
            request = request.after(page.nextCursor().get());
        }
        return read;
    }

    /**
     * One request per team each page, from the cursor of the team's page the last page stopped in, merged; a team whose
     * page runs out while the page still needs items reads its next page. Between pages, per team: that cursor and how many
     * of its page were listed (what a stateless API can carry).
     */
    private static Read byHand(IndexQuery query, List<String> teams, List<Predicate> where) {
        Map<String, String> cursors = new LinkedHashMap<>();
        Map<String, Integer> listedOfPage = new LinkedHashMap<>();
        List<String> ended = new ArrayList<>();
        Read read = new Read(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
        for (int n = 0; n < PAGES && ended.size() < teams.size(); n++) {
            int[] cost = new int[2];
            Map<String, Page> pages = new LinkedHashMap<>();
            Map<String, Integer> at = new LinkedHashMap<>();
            for (String team : teams) {
                if (!ended.contains(team)) {
                    pages.put(team, fetch(query, team, where, cursors.get(team), cost));
                    at.put(team, listedOfPage.getOrDefault(team, 0));
                }
            }
            int listed = 0;
            while (listed < PAGE_SIZE) {
                for (String team : List.copyOf(pages.keySet())) {
                    Page page = pages.get(team);
                    if (at.get(team) == page.items().size() && page.nextCursor().isPresent()) {
                        // the team's page is listed: its next page before the merge goes on
                        cursors.put(team, page.nextCursor().get());
                        pages.put(team, fetch(query, team, where, cursors.get(team), cost));
                        at.put(team, 0);
                    }
                }
                Candidate first = pages.keySet().stream().filter(team -> at.get(team) < pages.get(team).items().size())
                        .map(team -> new Candidate(team, pages.get(team).items().get(at.get(team)))).min(Candidate.NEWEST_FIRST).orElse(null);
                if (first == null) {
                    break;
                }
                at.merge(first.team(), 1, Integer::sum);
                read.listed().add(first.item().get("pk").s());
                listed++;
            }
            for (String team : pages.keySet()) {
                Page page = pages.get(team);
                if (at.get(team) == page.items().size() && page.nextCursor().isEmpty()) {
                    ended.add(team);
                }
                listedOfPage.put(team, at.get(team));
            }
            read.calls().add(cost[0]);
            read.examined().add(cost[1]);
            if (listed < PAGE_SIZE) {
                break;
            }
        }
        return read;
    }

    private static Page fetch(IndexQuery query, String team, List<Predicate> where, String cursor, int[] cost) {
        PageRequest request = single(team, where);
        Page page = query.page(cursor == null ? request : request.after(cursor));
        cost[0] += page.apiCalls();
        cost[1] += page.examined();
        return page;
    }

    /** One request per team when the team's unlisted items run out, kept in memory between pages. */
    private static Read byHandKept(IndexQuery query, List<String> teams, List<Predicate> where) {
        Map<String, Deque<Map<String, AttributeValue>>> buffers = new LinkedHashMap<>();
        Map<String, String> cursors = new LinkedHashMap<>();
        List<String> ended = new ArrayList<>();
        Read read = new Read(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
        teams.forEach(team -> buffers.put(team, new ArrayDeque<>()));
        for (int n = 0; n < PAGES; n++) {
            int calls = 0;
            int examined = 0;
            int listed = 0;
            while (listed < PAGE_SIZE) {
                for (String team : teams) {
                    if (buffers.get(team).isEmpty() && !ended.contains(team)) {
                        PageRequest request = single(team, where);
                        Page page = query.page(cursors.containsKey(team) ? request.after(cursors.get(team)) : request);
                        calls += page.apiCalls();
                        examined += page.examined();
                        buffers.get(team).addAll(page.items());
                        page.nextCursor().ifPresentOrElse(next -> cursors.put(team, next), () -> ended.add(team));
                    }
                }
                Candidate first = teams.stream().filter(team -> !buffers.get(team).isEmpty())
                        .map(team -> new Candidate(team, buffers.get(team).peekFirst())).min(Candidate.NEWEST_FIRST).orElse(null);
                if (first == null) {
                    break;
                }
                buffers.get(first.team()).removeFirst();
                read.listed().add(first.item().get("pk").s());
                listed++;
            }
            read.calls().add(calls);
            read.examined().add(examined);
            if (listed < PAGE_SIZE) {
                break;
            }
        }
        return read;
    }

    private record Candidate(String team, Map<String, AttributeValue> item) {
        static final Comparator<Candidate> NEWEST_FIRST = Comparator.comparing((Candidate c) -> Long.parseLong(c.item().get("created").n()))
                .thenComparing(c -> Long.parseLong(c.item().get("num").n())).reversed();
    }

    private static String team(int t) {
        return "team-" + t;
    }

    private static void load(DynamoDbClient dynamoDb, Random random) {
        IndexProjector projector = new IndexProjector(DEFINITIONS);
        List<WriteRequest> items = new ArrayList<>();
        List<WriteRequest> indexItems = new ArrayList<>();
        int num = 0;
        for (int t = 0; t < TEAMS; t++) {
            for (int i = 0; i < PER_TEAM; i++) {
                num++;
                Map<String, AttributeValue> item = new LinkedHashMap<>();
                item.put("pk", AttributeValue.fromS("INC#" + num));
                item.put("sk", AttributeValue.fromS("INC#" + num));
                item.put("num", AttributeValue.fromN(Integer.toString(num)));
                item.put("team", AttributeValue.fromS(team(t)));
                item.put("state", AttributeValue.fromS(random.nextInt(3) == 0 ? "open" : "closed"));
                item.put("created", AttributeValue.fromN(Long.toString(1_767_225_600L + random.nextInt(10_000_000))));
                items.add(WriteRequest.builder().putRequest(PutRequest.builder().item(item).build()).build());
                projector.project(projector.keyOf(item).orElseThrow(), item).items().stream().map(IndexItem::toItem)
                        .forEach(indexItem -> indexItems.add(WriteRequest.builder().putRequest(PutRequest.builder().item(indexItem).build()).build()));
            }
        }
        write(dynamoDb, TABLE, items);
        write(dynamoDb, INDEX_TABLE, indexItems);
    }

    private static void write(DynamoDbClient dynamoDb, String table, List<WriteRequest> writes) {
        for (int from = 0; from < writes.size(); from += 25) {
            List<WriteRequest> chunk = writes.subList(from, Math.min(writes.size(), from + 25));
            dynamoDb.batchWriteItem(b -> b.requestItems(Map.of(table, chunk)));
        }
    }
}

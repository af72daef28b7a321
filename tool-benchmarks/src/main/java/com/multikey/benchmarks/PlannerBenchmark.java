package com.multikey.benchmarks;

import com.multikey.common.Backoff;
import com.multikey.common.Sleeper;
import com.multikey.emulator.services.dynamodb.LocalDynamoDb;
import com.multikey.emulator.template.SamTemplate;
import com.multikey.emulator.template.TemplateTables;
import com.multikey.index.IndexItem;
import com.multikey.index.IndexProjector;
import com.multikey.index.IndexValue;
import com.multikey.index.definition.GridState;
import com.multikey.index.definition.IndexDefinitions;
import com.multikey.query.CursorKeys;
import com.multikey.query.CursorSealer;
import com.multikey.query.Expression;
import com.multikey.query.GridSettings;
import com.multikey.query.IndexQuery;
import com.multikey.query.Order;
import com.multikey.query.Page;
import com.multikey.query.PageRequest;
import com.multikey.query.Predicate;
import com.multikey.query.PredicateText;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

import java.io.OutputStream;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;

/**
 * (11) the query planner on one project of {@value #ISSUES} issues with 20 custom fields (the grouped issue grid), sorted
 * by {@code rank} with predicates on other fields of 50%, 5%, 0.5% and 0.05% selectivity, alone and two together: items
 * read and API calls per page over a full read, against, in the same run, (a) a Query of the project on
 * {@code ByProject} with the filter and the sort in the application (every page reads the whole project), (b) the sorted
 * field's index with each candidate tested (the planner's own sort-index plan, forced by writing each predicate on a copy
 * of the fields no index lists, {@code @unlisted.<field>}: {@code @custom_fields.<field>} is the entry itself, which the
 * grid lists) and the plan an oracle that knew the counts
 * would pick: the cheaper of (b) and reading the most selective predicate's matching items whole, twice its matches a
 * page.
 *
 * <p>The issues and their index items (the indexer's own projection, {@link IndexProjector}) are written straight to the
 * engine's tables by BatchWriteItem, not through the stream indexer, which would take far longer for the same items.
 */
final class PlannerBenchmark {

    static final int ISSUES = 100_000;
    private static final String PROJECT = "project#planner";
    private static final int PAGE_SIZE = 25;
    private static final Map<String, Integer> HITS = Map.of("s50", 50_000, "s5", 5_000, "s05", 500, "s005", 50);

    private PlannerBenchmark() {
    }

    /** A request's predicates as the planner gets them, and the same predicates as attribute predicates no index lists. */
    record Scenario(String name, List<Predicate> predicates) {

        List<Predicate> unlisted() {
            return predicates.stream().map(PlannerBenchmark::asAttribute).toList();
        }
    }

    /** The pages of one full read: per page, items read and API calls. */
    record Read(List<Integer> examined, List<Integer> calls, int listed) {

        double meanExamined() {
            return examined.stream().mapToInt(Integer::intValue).average().orElse(0);
        }

        double meanCalls() {
            return calls.stream().mapToInt(Integer::intValue).average().orElse(0);
        }

        long totalExamined() {
            return examined.stream().mapToLong(Integer::longValue).sum();
        }

        long totalCalls() {
            return calls.stream().mapToLong(Integer::longValue).sum();
        }
    }

    static void run(PrintStream out) {
        PrintStream console = System.out;
        System.setOut(new PrintStream(OutputStream.nullOutputStream()));
        try (LocalDynamoDb local = LocalDynamoDb.start(); DynamoDbClient dynamoDb = local.client()) {
            System.setOut(console);
            TemplateTables.create(SamTemplate.ofRepository(), dynamoDb);
            IndexDefinitions definitions = IndexDefinitions.packaged().withGridState(GridState.GROUPED);
            long start = System.nanoTime();
            long indexItems = load(dynamoDb, definitions);
            out.printf("(11) query planner: %,d issues of one project, 20 custom fields, %,d index items of the grouped grid, written"
                    + " in %.1f s; pages of %d sorted by rank (a number every issue has)%n", ISSUES, indexItems,
                    (System.nanoTime() - start) / 1e9, PAGE_SIZE);
            IndexQuery query = new IndexQuery(dynamoDb, "AppTable", "IssueAttribIndexTable", definitions, Backoff.standard(),
                    Sleeper.SYSTEM, Duration.ofSeconds(60), System::nanoTime, CursorSealer.of(CursorKeys.ephemeral()),
                    new GridSettings("ByProject", (project, attribute) -> true));
            long[] byProject = readProject(dynamoDb);
            out.printf("(a) Query ByProject + filter + sort in the application: every page reads the whole project: %,d items in %d"
                    + " Queries%n%n", byProject[0], byProject[1]);

            List<Scenario> scenarios = List.of(
                    new Scenario("s50 = hit (50%)", List.of(eq("s50"))),
                    new Scenario("s5 = hit (5%)", List.of(eq("s5"))),
                    new Scenario("s05 = hit (0.5%)", List.of(eq("s05"))),
                    new Scenario("s005 = hit (0.05%)", List.of(eq("s005"))),
                    new Scenario("s50 = hit, s5 = hit (2.5%)", List.of(eq("s50"), eq("s5"))),
                    new Scenario("s5 = hit, s05 = hit (0.025%)", List.of(eq("s5"), eq("s05"))),
                    new Scenario("s50 = hit, score < 500 (0.25%)", List.of(eq("s50"),
                            new Predicate.Range("score", null, false, new IndexValue.Num(BigDecimal.valueOf(500)), false))));
            out.println("| predicates | matches | pages | planner: items read a page, mean / p50 / p95 / first page | planner: API calls a"
                    + " page, mean / p50 / p95 / first | (b) sort index, each item tested: items read a page, mean / first | (b) API"
                    + " calls a page, mean | items read per page of the result: planner / (a) / (b) / oracle | planner / oracle |");
            out.println("|---|---|---|---|---|---|---|---|---|");
            for (Scenario scenario : scenarios) {
                Read planned = readAll(query, scenario.predicates());
                Read sortIndex = readAll(query, scenario.unlisted());
                int matches = planned.listed();
                if (sortIndex.listed() != matches) {
                    throw new IllegalStateException(scenario.name() + ": the planner listed " + matches + ", the sort index plan "
                            + sortIndex.listed());
                }
                int resultPages = Math.max(1, (matches + PAGE_SIZE - 1) / PAGE_SIZE);
                double plannerPerPage = (double) planned.totalExamined() / resultPages;
                double sortPerPage = (double) sortIndex.totalExamined() / resultPages;
                long driven = scenario.predicates().stream().mapToLong(PlannerBenchmark::matches).min().orElseThrow();
                double oracle = Math.min(sortPerPage, 2.0 * driven);
                out.printf(Locale.ROOT, "| %s | %,d | %d (%d requests) | %.0f / %d / %d / %d | %.2f / %d / %d / %d | %.0f / %d | %.2f | %.0f / %,d"
                                + " / %.0f / %.0f | %.2f |%n",
                        scenario.name(), matches, resultPages, planned.examined().size(), planned.meanExamined(),
                        percentile(planned.examined(), 0.5), percentile(planned.examined(), 0.95), planned.examined().get(0),
                        planned.meanCalls(), percentile(planned.calls(), 0.5), percentile(planned.calls(), 0.95), planned.calls().get(0),
                        sortIndex.meanExamined(), sortIndex.examined().get(0), sortIndex.meanCalls(), plannerPerPage, byProject[0],
                        sortPerPage, oracle, plannerPerPage / oracle);
            }
        } finally {
            System.setOut(console);
        }
    }

    /**
     * (11b) an {@code or} of two predicates on the same issues, sorted by rank, read to the end: items read per page of the
     * result by the planner (a union of the two predicates' drives when their ranges fit a page's budget, else the sorted
     * index with the expression tested on each item), by (b) (the same expression on {@code @unlisted}, which no index
     * lists), and by an oracle that knows each disjunct's matches: the cheaper of (b) and reading both disjuncts' matching
     * items whole, twice their matches a page.
     */
    static void runOr(PrintStream out) {
        PrintStream console = System.out;
        System.setOut(new PrintStream(OutputStream.nullOutputStream()));
        try (LocalDynamoDb local = LocalDynamoDb.start(); DynamoDbClient dynamoDb = local.client()) {
            System.setOut(console);
            TemplateTables.create(SamTemplate.ofRepository(), dynamoDb);
            IndexDefinitions definitions = IndexDefinitions.packaged().withGridState(GridState.GROUPED);
            long start = System.nanoTime();
            long indexItems = load(dynamoDb, definitions);
            out.printf("(11b) query planner, or: %,d issues of one project, %,d index items of the grouped grid, written in %.1f s;"
                    + " pages of %d sorted by rank%n", ISSUES, indexItems, (System.nanoTime() - start) / 1e9, PAGE_SIZE);
            IndexQuery query = new IndexQuery(dynamoDb, "AppTable", "IssueAttribIndexTable", definitions, Backoff.standard(),
                    Sleeper.SYSTEM, Duration.ofSeconds(60), System::nanoTime, CursorSealer.of(CursorKeys.ephemeral()),
                    new GridSettings("ByProject", (project, attribute) -> true));
            List<List<String>> scenarios = List.of(List.of("s5", "s05"), List.of("s05", "s005"), List.of("s5", "s005"));
            out.println("| where | matches | pages (requests) | planner: items read a page, mean / first; API calls a page, mean | items"
                    + " read per page of the result: planner / (b) / oracle | planner / oracle | plan of the first page |");
            out.println("|---|---|---|---|---|---|---|");
            for (List<String> fields : scenarios) {
                Expression or = new Expression.Or(fields.stream().<Expression>map(PlannerBenchmark::eq).toList());
                Expression unlisted = new Expression.Or(fields.stream().map(PlannerBenchmark::eq).<Expression>map(PlannerBenchmark::asAttribute)
                        .toList());
                Read planned = readAll(query, List.of(or));
                Read sortIndex = readAll(query, List.of(unlisted));
                if (sortIndex.listed() != planned.listed()) {
                    throw new IllegalStateException(PredicateText.format(or) + ": the planner listed " + planned.listed()
                            + ", the sort index plan " + sortIndex.listed());
                }
                int matches = planned.listed();
                int resultPages = Math.max(1, (matches + PAGE_SIZE - 1) / PAGE_SIZE);
                double plannerPerPage = (double) planned.totalExamined() / resultPages;
                double sortPerPage = (double) sortIndex.totalExamined() / resultPages;
                long disjuncts = fields.stream().mapToLong(HITS::get).sum();
                double oracle = Math.min(sortPerPage, 2.0 * disjuncts);
                String plan = query.page(PageRequest.first(PROJECT, "rank", Order.ASC, PAGE_SIZE).where(List.of(or)).withExplain())
                        .explain().orElseThrow().plan();
                out.printf(Locale.ROOT, "| %s | %,d | %d (%d) | %.0f / %d; %.2f | %.0f / %.0f / %.0f | %.2f | %s |%n",
                        PredicateText.format(or), matches, resultPages, planned.examined().size(), planned.meanExamined(),
                        planned.examined().get(0), planned.meanCalls(), plannerPerPage, sortPerPage, oracle, plannerPerPage / oracle, plan);
            }
        } finally {
            System.setOut(console);
        }
    }

    /** Every page of the request, sorted by rank ascending, the default read budget. */
    private static Read readAll(IndexQuery query, List<? extends Expression> predicates) {
        List<Integer> examined = new ArrayList<>();
        List<Integer> calls = new ArrayList<>();
        int listed = 0;
        PageRequest request = PageRequest.first(PROJECT, "rank", Order.ASC, PAGE_SIZE).where(predicates);
        while (true) {
            Page page = query.page(request);
            examined.add(page.examined());
            calls.add(page.apiCalls());
            listed += page.items().size();
            if (page.nextCursor().isEmpty()) {
                return new Read(examined, calls, listed);
            }
            request = request.after(page.nextCursor().get());
        }
    }

    /** A full read of the project on ByProject, as an application would make each page: items and Queries. */
    private static long[] readProject(DynamoDbClient dynamoDb) {
        long items = 0;
        long queries = 0;
        Map<String, AttributeValue> start = null;
        do {
            Map<String, AttributeValue> from = start;
            QueryResponse response = dynamoDb.query(b -> b.tableName("AppTable").indexName("ByProject").keyConditionExpression("#p = :p")
                    .expressionAttributeNames(Map.of("#p", "project")).expressionAttributeValues(Map.of(":p", AttributeValue.fromS(PROJECT)))
                    .exclusiveStartKey(from));
            items += response.scannedCount();
            queries++;
            start = response.hasLastEvaluatedKey() && !response.lastEvaluatedKey().isEmpty() ? response.lastEvaluatedKey() : null;
        } while (start != null);
        return new long[] {items, queries};
    }

    private static Predicate eq(String field) {
        return new Predicate.Equals(field, new IndexValue.Text("hit"));
    }

    private static Predicate asAttribute(Predicate predicate) {
        String field = "@unlisted." + predicate.field();
        return switch (predicate) {
            case Predicate.Equals p -> new Predicate.Equals(field, p.value());
            case Predicate.Range p -> new Predicate.Range(field, p.low(), p.lowInclusive(), p.high(), p.highInclusive());
            default -> throw new IllegalArgumentException("not in the benchmark: " + PredicateText.format(predicate));
        };
    }

    /** The issues one predicate of the benchmark matches. */
    private static long matches(Predicate predicate) {
        if (predicate instanceof Predicate.Range) {
            return 500;   // score is a permutation of 0..99,999: 500 below 500
        }
        return HITS.get(predicate.field());
    }

    private static int percentile(List<Integer> values, double q) {
        List<Integer> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        return sorted.get((int) Math.min(sorted.size() - 1, Math.max(0, Math.ceil(sorted.size() * q) - 1)));
    }

    /**
     * The issues: {@code rank} and {@code score} random permutations of 0..99,999 on every issue; s50, s5, s05 and s005
     * "hit" on exactly 50%, 5%, 0.5% and 0.05% of the issues (chosen at random), "miss" on the rest; 14 more fields, each on
     * a third of the issues, with Zipf-like skewed text values (value k about twice as often as value k+1).
     *
     * @return the index items written
     */
    private static long load(DynamoDbClient dynamoDb, IndexDefinitions definitions) {
        Random random = new Random(2026_11_27L);
        List<Integer> rank = BatchLoads.permutation(ISSUES, random);
        List<Integer> score = BatchLoads.permutation(ISSUES, random);
        Map<String, boolean[]> hits = new LinkedHashMap<>();
        HITS.forEach((field, count) -> {
            List<Integer> order = BatchLoads.permutation(ISSUES, random);
            boolean[] hit = new boolean[ISSUES];
            for (int i = 0; i < count; i++) {
                hit[order.get(i)] = true;
            }
            hits.put(field, hit);
        });
        IndexProjector projector = new IndexProjector(definitions);
        Function<Integer, String> skewed = k -> "v" + Integer.numberOfTrailingZeros(k | 1 << 10);
        List<WriteRequest> issues = new ArrayList<>();
        List<WriteRequest> index = new ArrayList<>();
        long indexItems = 0;
        for (int i = 0; i < ISSUES; i++) {
            Map<String, AttributeValue> fields = new LinkedHashMap<>();
            fields.put("rank", AttributeValue.fromN(Integer.toString(rank.get(i))));
            fields.put("score", AttributeValue.fromN(Integer.toString(score.get(i))));
            for (Map.Entry<String, boolean[]> hit : hits.entrySet()) {
                fields.put(hit.getKey(), AttributeValue.fromS(hit.getValue()[i] ? "hit" : "miss"));
            }
            for (int f = 0; f < 14; f++) {
                if (random.nextInt(3) == 0) {
                    fields.put("f" + f, AttributeValue.fromS(skewed.apply(1 + random.nextInt(1 << 10))));
                }
            }
            Map<String, AttributeValue> item = Map.of("id", AttributeValue.fromS(String.format("issue#%06d", i)),
                    "project", AttributeValue.fromS(PROJECT), "num", AttributeValue.fromN(Integer.toString(i + 1)),
                    "title", AttributeValue.fromS("planner benchmark issue " + i), "custom_fields", AttributeValue.fromM(fields),
                    "unlisted", AttributeValue.fromM(fields));
            issues.add(BatchLoads.put(item));
            for (IndexItem indexItem : projector.project(projector.keyOf(item).orElseThrow(), item).items()) {
                index.add(BatchLoads.put(indexItem.toItem()));
                indexItems++;
            }
            BatchLoads.flush(dynamoDb, "AppTable", issues, false);
            BatchLoads.flush(dynamoDb, "IssueAttribIndexTable", index, false);
        }
        BatchLoads.flush(dynamoDb, "AppTable", issues, true);
        BatchLoads.flush(dynamoDb, "IssueAttribIndexTable", index, true);
        return indexItems;
    }
}

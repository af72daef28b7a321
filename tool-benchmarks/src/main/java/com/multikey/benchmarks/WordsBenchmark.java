package com.multikey.benchmarks;

import com.multikey.common.Backoff;
import com.multikey.common.Sleeper;
import com.multikey.emulator.services.dynamodb.LocalDynamoDb;
import com.multikey.emulator.template.SamTemplate;
import com.multikey.emulator.template.TemplateTables;
import com.multikey.index.IndexItem;
import com.multikey.index.IndexProjector;
import com.multikey.index.Words;
import com.multikey.index.definition.DefinitionsYaml;
import com.multikey.index.definition.IndexDefinitions;
import com.multikey.query.CursorKeys;
import com.multikey.query.CursorSealer;
import com.multikey.query.Expression;
import com.multikey.query.ExpressionText;
import com.multikey.query.GridSettings;
import com.multikey.query.IndexQuery;
import com.multikey.query.Order;
import com.multikey.query.Page;
import com.multikey.query.PageRequest;
import com.multikey.query.Predicate;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

import java.io.OutputStream;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;

/**
 * (15) word predicates on one group of {@value #ITEMS} items with titles of 4 to 9 words (a declared words index of the
 * title, {@code values: {wordsOf: title}}), read sorted by {@code rank} (another declared index) page by page to the end:
 * items read per item listed (index items and items, as the page counts them) and API calls a page, for {@code has} words
 * in 5%, 0.5% and 0.05% of the titles, {@code has prefix} starts matching several words per title, and two together.
 * The target: at most twice the matches (one index item and one item per match). The oracle is what a reader knowing
 * exactly the matches reads: each match's index items in the ranges of one predicate (the fewest) and the match itself.
 *
 * <p>The items and their index items (the indexer's own projection) are written straight to the engine's tables.
 */
final class WordsBenchmark {

    static final int ITEMS = 100_000;
    private static final String GROUP = "project#words";
    private static final int PAGE_SIZE = 25;
    private static final IndexDefinitions DEFINITIONS = DefinitionsYaml.parse("""
            version: 1
            table: {partitionKey: {name: id, type: S}}
            indexes:
              - name: by-rank
                covers: [{attribute: id, beginsWith: "issue#"}]
                group: project
                values: {attribute: rank}
              - name: title-words
                covers: [{attribute: id, beginsWith: "issue#"}]
                group: project
                values: {wordsOf: title}
                orderBy: rank
            """);
    /** Marker words and the share of titles that hold each (exactly, at random items). */
    private static final Map<String, Integer> MARKERS = Map.of("timeout", 5_000, "timer", 2_000, "deadlock", 500, "segfault", 50);

    private WordsBenchmark() {
    }

    static void run(PrintStream out) {
        PrintStream console = System.out;
        System.setOut(new PrintStream(OutputStream.nullOutputStream()));
        try (LocalDynamoDb local = LocalDynamoDb.start(); DynamoDbClient dynamoDb = local.client()) {
            System.setOut(console);
            TemplateTables.create(SamTemplate.ofRepository(), dynamoDb);
            long start = System.nanoTime();
            List<String> titles = new ArrayList<>();
            long indexItems = load(dynamoDb, titles);
            out.printf("(15) words: %,d items of one group with titles of 4 to 9 words, %,d index items (by-rank and title-words), "
                    + "written in %.1f s; pages of %d sorted by rank%n", ITEMS, indexItems, (System.nanoTime() - start) / 1e9, PAGE_SIZE);
            IndexQuery query = new IndexQuery(dynamoDb, "AppTable", "IssueAttribIndexTable", DEFINITIONS, Backoff.standard(),
                    Sleeper.SYSTEM, Duration.ofSeconds(60), System::nanoTime, CursorSealer.of(CursorKeys.ephemeral()), GridSettings.NONE);
            out.println("| where | matches | pages | items read a page, mean / first | API calls a page, mean / max | items read per"
                    + " item listed | ≤ 2× matches | oracle | items read / oracle |");
            out.println("|---|---|---|---|---|---|---|---|---|");
            for (List<String> where : List.of(List.of("title has timeout"), List.of("title has deadlock"), List.of("title has segfault"),
                    List.of("title has prefix dead"), List.of("title has prefix time"), List.of("title has prefix seg"),
                    List.of("title has timeout", "title has prefix dead"), List.of("title has deadlock", "title has prefix time"),
                    List.of("title has timeout or title has deadlock"))) {
                List<Expression> predicates = new ArrayList<>();
                for (int i = 0; i < where.size(); i++) {
                    predicates.add(ExpressionText.parse(where.get(i), i));
                }
                List<String> matching = titles.stream().filter(title -> predicates.stream()
                        .allMatch(p -> holds(p, new com.multikey.index.IndexValue.Text(title)))).toList();
                long matches = matching.size();
                Expression all = predicates.size() == 1 ? predicates.get(0) : new Expression.And(predicates);
                long oracle = matches + matching.stream().mapToLong(title -> indexItems(all, title)).sum();
                List<Integer> examined = new ArrayList<>();
                List<Integer> calls = new ArrayList<>();
                long listed = 0;
                PageRequest request = PageRequest.onIndex("by-rank", List.of(AttributeValue.fromS(GROUP)), "", Order.ASC, PAGE_SIZE)
                        .where(predicates);
                while (true) {
                    Page page = query.page(request);
                    examined.add(page.examined());
                    calls.add(page.apiCalls());
                    listed += page.items().size();
                    if (page.nextCursor().isEmpty()) {
                        break;
                    }
                    request = request.after(page.nextCursor().get());
                }
                if (listed != matches) {
                    throw new IllegalStateException(where + ": listed " + listed + " of " + matches + " matches");
                }
                long total = examined.stream().mapToLong(Integer::longValue).sum();
                double perItem = matches == 0 ? 0 : (double) total / matches;
                out.printf(Locale.ROOT, "| `%s` | %,d | %d | %.0f / %d | %.2f / %d | %.3f | %s | %,d | %.3f |%n", String.join("` and `", where),
                        matches, examined.size(), examined.stream().mapToInt(Integer::intValue).average().orElse(0), examined.get(0),
                        calls.stream().mapToInt(Integer::intValue).average().orElse(0), Collections.max(calls), perItem,
                        perItem <= 2.0 ? "yes" : "no", oracle, oracle == 0 ? 0 : (double) total / oracle);
            }
        } finally {
            System.setOut(console);
        }
    }

    /** Whether an expression holds for a title: its predicates' own test, combined as and, or and not combine them. */
    private static boolean holds(Expression expression, com.multikey.index.IndexValue title) {
        return switch (expression) {
            case Predicate p -> p.test(title);
            case Expression.And and -> and.operands().stream().allMatch(operand -> holds(operand, title));
            case Expression.Or or -> or.operands().stream().anyMatch(operand -> holds(operand, title));
            case Expression.Not not -> !holds(not.operand(), title);
        };
    }

    /**
     * The index items a matching title has in the ranges a reader knowing the matches reads: one for a {@code has}, one per
     * distinct word the prefix starts for a {@code has prefix} (an item whose title holds {@code timeout} and {@code timer}
     * has two index items in {@code time}'s ranges, and every plan reading that index reads both), those of each disjunct
     * of an {@code or}, those of the cheapest conjunct of an {@code and}.
     */
    private static long indexItems(Expression expression, String title) {
        return switch (expression) {
            case Predicate.Has has -> Words.of(title).contains(has.word()) ? 1 : 0;
            case Predicate.HasPrefix prefix -> Words.of(title).stream().filter(word -> word.startsWith(prefix.prefix())).count();
            case Predicate other -> 1;
            case Expression.Or or -> or.operands().stream().mapToLong(operand -> indexItems(operand, title)).sum();
            case Expression.And and -> and.operands().stream().mapToLong(operand -> indexItems(operand, title)).min().orElse(1);
            case Expression.Not not -> 1;
        };
    }

    /**
     * The items: {@code rank} a random permutation; a title of 4 to 9 filler words out of 5,000 (Zipf-like: word k about
     * as often as 1/k), in mixed case and punctuation; the marker words added to exactly as many titles as {@link #MARKERS}
     * says, at random.
     *
     * @return the index items written
     */
    private static long load(DynamoDbClient dynamoDb, List<String> titles) {
        Random random = new Random(2026_12_06L);
        List<Integer> rank = BatchLoads.permutation(ITEMS, random);
        List<List<String>> words = new ArrayList<>();
        for (int i = 0; i < ITEMS; i++) {
            List<String> title = new ArrayList<>();
            for (int w = 0, n = 4 + random.nextInt(6); w < n; w++) {
                title.add("w" + (int) Math.floor(Math.pow(5_000, random.nextDouble())));
            }
            words.add(title);
        }
        MARKERS.forEach((marker, count) -> {
            List<Integer> order = BatchLoads.permutation(ITEMS, random);
            for (int i = 0; i < count; i++) {
                List<String> title = words.get(order.get(i));
                title.add(random.nextInt(title.size() + 1), random.nextBoolean() ? marker : marker.toUpperCase(Locale.ROOT));
            }
        });
        IndexProjector projector = new IndexProjector(DEFINITIONS);
        List<WriteRequest> items = new ArrayList<>();
        List<WriteRequest> index = new ArrayList<>();
        long indexItems = 0;
        for (int i = 0; i < ITEMS; i++) {
            String title = String.join(random.nextBoolean() ? " " : ", ", words.get(i)) + (random.nextBoolean() ? "." : "");
            titles.add(title);
            Map<String, AttributeValue> item = Map.of("id", AttributeValue.fromS(String.format("issue#%06d", i)),
                    "project", AttributeValue.fromS(GROUP), "num", AttributeValue.fromN(Integer.toString(i + 1)),
                    "rank", AttributeValue.fromN(Integer.toString(rank.get(i))), "title", AttributeValue.fromS(title));
            items.add(BatchLoads.put(item));
            for (IndexItem indexItem : projector.project(projector.keyOf(item).orElseThrow(), item).items()) {
                index.add(BatchLoads.put(indexItem.toItem()));
                indexItems++;
            }
            BatchLoads.flush(dynamoDb, "AppTable", items, false);
            BatchLoads.flush(dynamoDb, "IssueAttribIndexTable", index, false);
        }
        BatchLoads.flush(dynamoDb, "AppTable", items, true);
        BatchLoads.flush(dynamoDb, "IssueAttribIndexTable", index, true);
        if (Words.of(titles.get(0)).isEmpty()) {
            throw new IllegalStateException("a title without words");
        }
        return indexItems;
    }
}

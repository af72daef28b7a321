package com.multikey.query;

import com.multikey.common.Backoff;
import com.multikey.common.Sleeper;
import com.multikey.index.IndexProjector;
import com.multikey.index.definition.GridState;
import com.multikey.index.definition.IndexDefinitions;
import com.multikey.testkit.LocalTables;
import com.multikey.testkit.LocalTablesExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An {@code or} of two selective predicates on other fields than the sorted one, read as the union of their drives: the
 * items either lists, merged in the sorted field's order, each once, and for what a drive costs — not the sorted index's
 * walk over every issue.
 */
@ExtendWith(LocalTablesExtension.class)
class UnionPlanIntegrationTest {

    private static final IndexDefinitions DEFINITIONS = IndexDefinitions.packaged().withGridState(GridState.GROUPED);
    private static final int ISSUES = 400;

    /** Issue i: rank (i × 37) % 400 (each once), status "rare" when i % 40 == 0, team "core" when i % 50 == 7 or i == 400. */
    private static Map<String, AttributeValue> issue(int i) {
        Map<String, AttributeValue> fields = new LinkedHashMap<>();
        fields.put("rank", AttributeValue.fromN(Integer.toString(i * 37 % ISSUES)));
        fields.put("status", AttributeValue.fromS(i % 40 == 0 ? "rare" : "open"));
        fields.put("team", AttributeValue.fromS(i % 50 == 7 || i == 400 ? "core" : "web"));
        return Map.of("id", AttributeValue.fromS("issue#" + i), "project", AttributeValue.fromS("project#p"),
                "num", AttributeValue.fromN(Integer.toString(i)), "custom_fields", AttributeValue.fromM(fields));
    }

    @Test
    void page_ofAnOrOfTwoSelectivePredicates_isTheUnionOfTheirDrives_mergedInOrder_eachItemOnce(LocalTables tables) {
        // given: status = rare (10 issues) or team = core (9 issues; issue#400 both), by rank, pages of 4
        IndexQuery query = grid(tables);
        List<String> expected = IntStream.rangeClosed(1, ISSUES).filter(i -> i % 40 == 0 || i % 50 == 7).boxed()
                .sorted(Comparator.comparingInt(i -> i * 37 % ISSUES)).map(i -> "issue#" + i).toList();
        PageRequest first = PageRequest.first("project#p", "rank", Order.ASC, 4)
                .where(List.of(ExpressionText.parse("status = rare or team = core", 0))).withExplain();

        // when
        List<String> ids = new ArrayList<>();
        List<Page> pages = new ArrayList<>();
        PageRequest request = first;
        do {
            Page page = query.page(request);
            pages.add(page);
            page.items().forEach(item -> ids.add(item.get("id").s()));
            request = page.nextCursor().map(request::after).orElse(null);
        } while (request != null && pages.size() < 50);

        // then
        assertThat(expected).hasSize(18);
        assertThat(ids).isEqualTo(expected);
        assertThat(pages).allSatisfy(page -> {
            assertThat(page.explain().orElseThrow().plan()).isEqualTo("union(drive(where[0]: status = rare), drive(where[0]: team = core))");
            // the two ranges (19 index items) and their 18 issues, not the sorted index's 400
            assertThat(page.examined()).isLessThanOrEqualTo(2 * 19);
        });
    }

    @Test
    void page_ofAnOrNestedInAnAnd_isTheUnionOfItsDisjunctsDrives_eachItemTestedAgainstTheAnd(LocalTables tables) {
        // given: one where, an and of a predicate on the sorted field (no drive) and the or, by rank
        IndexQuery query = grid(tables);
        List<String> expected = IntStream.rangeClosed(1, ISSUES).filter(i -> i % 40 == 0 || i % 50 == 7).filter(i -> i * 37 % ISSUES < 200).boxed()
                .sorted(Comparator.comparingInt(i -> i * 37 % ISSUES)).map(i -> "issue#" + i).toList();
        PageRequest request = PageRequest.first("project#p", "rank", Order.ASC, 4)
                .where(List.of(ExpressionText.parse("rank < 200 and (status = rare or team = core)", 0)))
                .withExplain();

        // when
        List<String> ids = new ArrayList<>();
        List<Page> pages = new ArrayList<>();
        for (int n = 0; request != null && n < 50; n++) {
            Page page = query.page(request);
            pages.add(page);
            page.items().forEach(item -> ids.add(item.get("id").s()));
            request = page.nextCursor().map(request::after).orElse(null);
        }

        // then
        assertThat(ids).isEqualTo(expected);
        assertThat(pages).allSatisfy(page -> {
            assertThat(page.explain().orElseThrow().plan()).isEqualTo("union(drive(where[0]: status = rare), drive(where[0]: team = core))");
            assertThat(page.examined()).isLessThanOrEqualTo(2 * 19);
        });
    }

    @Test
    void page_ofAnOrWhoseRangesDoNotFitTheBudget_isReadTheOtherWay_andListsTheSame(LocalTables tables) {
        // given: a budget of 20 items a page, less than the ranges and their items (37)
        IndexQuery query = grid(tables);
        List<String> expected = IntStream.rangeClosed(1, ISSUES).filter(i -> i % 40 == 0 || i % 50 == 7).boxed()
                .sorted(Comparator.comparingInt(i -> i * 37 % ISSUES)).map(i -> "issue#" + i).toList();
        PageRequest request = PageRequest.first("project#p", "rank", Order.ASC, 4)
                .where(List.of(ExpressionText.parse("status = rare or team = core", 0))).withReadBudget(20).withExplain();

        // when
        List<String> ids = new ArrayList<>();
        List<String> plans = new ArrayList<>();
        for (int n = 0; request != null && n < 200; n++) {
            Page page = query.page(request);
            assertThat(page.examined()).isLessThanOrEqualTo(20);
            plans.add(page.explain().orElseThrow().plan());
            page.items().forEach(item -> ids.add(item.get("id").s()));
            request = page.nextCursor().map(request::after).orElse(null);
        }

        // then
        assertThat(ids).isEqualTo(expected);
        assertThat(plans).doesNotContain("union(drive(where[0]: status = rare), drive(where[0]: team = core))");
    }

    @Test
    void page_ofSeveralProjects_withAnOr_readsEachProjectAsTheUnionOfItsDrives_mergedInOrder(LocalTables tables) {
        // given: project#p and project#q (the same issues, ranks shifted by one), status = rare or team = core, by rank
        IndexQuery query = grid(tables);
        write(tables.dynamoDb(), IntStream.rangeClosed(1, ISSUES).mapToObj(i -> {
            Map<String, AttributeValue> item = new LinkedHashMap<>(issue(i));
            Map<String, AttributeValue> fields = new LinkedHashMap<>(item.get("custom_fields").m());
            fields.put("rank", AttributeValue.fromN(Integer.toString(i * 37 % ISSUES + 1)));
            item.put("custom_fields", AttributeValue.fromM(fields));
            item.put("id", AttributeValue.fromS("issue#q" + i));
            item.put("project", AttributeValue.fromS("project#q"));
            return item;
        }).toList());
        List<String> expected = IntStream.rangeClosed(1, ISSUES).filter(i -> i % 40 == 0 || i % 50 == 7).boxed()
                .flatMap(i -> java.util.stream.Stream.of("issue#" + i, "issue#q" + i))
                // by rank, then num
                .sorted(Comparator.comparingInt(id -> {
                    int i = Integer.parseInt(id.replaceAll("\\D", ""));
                    return (i * 37 % ISSUES + (id.startsWith("issue#q") ? 1 : 0)) * 1000 + i;
                })).toList();
        PageRequest request = PageRequest.first("project#p", "rank", Order.ASC, 4)
                .withGroups(List.of(List.of(AttributeValue.fromS("project#p")), List.of(AttributeValue.fromS("project#q"))))
                .where(List.of(ExpressionText.parse("status = rare or team = core", 0))).withExplain();

        // when
        List<String> ids = new ArrayList<>();
        List<Page> pages = new ArrayList<>();
        for (int n = 0; request != null && n < 50; n++) {
            Page page = query.page(request);
            pages.add(page);
            page.items().forEach(item -> ids.add(item.get("id").s()));
            request = page.nextCursor().map(request::after).orElse(null);
        }

        // then
        assertThat(ids).isEqualTo(expected);
        assertThat(pages).allSatisfy(page -> {
            assertThat(page.explain().orElseThrow().plan())
                    .isEqualTo("merge(2 groups: union(drive(where[0]: status = rare), drive(where[0]: team = core)))");
            // each project's two ranges (19 index items) and their 18 issues, not the sorted index's 400 each
            assertThat(page.examined()).isLessThanOrEqualTo(2 * 2 * 19);
        });
    }

    private static IndexQuery grid(LocalTables tables) {
        DynamoDbClient dynamoDb = tables.dynamoDb();
        write(dynamoDb, IntStream.rangeClosed(1, ISSUES).mapToObj(UnionPlanIntegrationTest::issue).toList());
        return new IndexQuery(dynamoDb, "AppTable", "IssueAttribIndexTable", DEFINITIONS,
                new Backoff(Duration.ofMillis(1), Duration.ofMillis(5), new Random(1)), Sleeper.SYSTEM, Duration.ofSeconds(60),
                System::nanoTime, CursorSealer.of(CursorKeys.ephemeral()), new GridSettings("ByProject", (project, attribute) -> true));
    }

    /** The issues and the index items the stream indexer keeps for them (its own projection), written directly. */
    private static void write(DynamoDbClient dynamoDb, List<Map<String, AttributeValue>> issues) {
        IndexProjector projector = new IndexProjector(DEFINITIONS);
        for (Map<String, AttributeValue> item : issues) {
            dynamoDb.putItem(b -> b.tableName("AppTable").item(item));
            projector.project(projector.keyOf(item).orElseThrow(), item).items()
                    .forEach(indexItem -> dynamoDb.putItem(b -> b.tableName("IssueAttribIndexTable").item(indexItem.toItem())));
        }
    }
}

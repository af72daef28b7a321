package com.multikey.query;

import com.multikey.common.Backoff;
import com.multikey.common.Sleeper;
import com.multikey.index.IndexProjector;
import com.multikey.index.IndexValue;
import com.multikey.index.definition.GridState;
import com.multikey.index.definition.IndexDefinitions;
import com.multikey.testkit.LocalTables;
import com.multikey.testkit.LocalTablesExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Minimal examples the planner's property ({@link PlannerPropertiesTest}) found, each of which failed before its fix: a
 * page moves on whatever its budget, and {@code !=} is decided within its value's type.
 */
@ExtendWith(LocalTablesExtension.class)
class PlannerBudgetProgressTest {

    private static final IndexDefinitions DEFINITIONS = IndexDefinitions.packaged().withGridState(GridState.GROUPED);

    /**
     * The first read of the sorted field's index once asked for min(budget, max(10, 1.25 x page + 1)) index items; when
     * that read spent the whole budget, no item could be read, the page came back empty with {@code budgetSpent} and a
     * cursor at the same position, and every next page did the same: the result never ended.
     */
    @Test
    void pages_whenTheFirstIndexReadSpendsTheBudget_stillMoveOn(LocalTables tables) {
        // given: two issues; a page of one, sorted by sev with a predicate on sev, a budget of two items
        IndexQuery query = grid(tables, 2);
        PageRequest request = PageRequest.first("project#p", "sev", Order.ASC, 1)
                .where(List.of(new Predicate.Range("sev", num(1), true, null, false))).withReadBudget(2);

        // when
        List<String> ids = readAll(query, request, 50);

        // then
        assertThat(ids).containsExactly("issue#1", "issue#2");
    }

    /** As above at an ordinary size: pages of 100 with a budget of 126 items over 200 issues. */
    @Test
    void pagesOf100_withABudgetOf126_stillMoveOn(LocalTables tables) {
        // given
        IndexQuery query = grid(tables, 200);
        PageRequest request = PageRequest.first("project#p", "sev", Order.ASC, 100)
                .where(List.of(new Predicate.Range("sev", num(1), true, null, false))).withReadBudget(126);

        // when
        List<String> ids = readAll(query, request, 50);

        // then
        assertThat(ids).hasSize(200).doesNotHaveDuplicates();
    }

    /**
     * Once failed: the first page probes the predicate's range for up to twice the page (20 index items) with a
     * Limit of the whole budget (19); the probe spends it, learns "at least 19", which is still under the probe's 20, so
     * every next page probes again from the range's start and spends its budget the same way: the result never ends.
     */
    @Test
    void pages_whenTheDriveProbeSpendsTheBudget_stillMoveOn(LocalTables tables) {
        // given: 30 open issues; pages of 10 sorted by sev, where status = open, a budget of 19 items
        IndexQuery query = grid(tables, 30);
        PageRequest request = PageRequest.first("project#p", "sev", Order.ASC, 10)
                .where(List.of(new Predicate.Equals("status", new IndexValue.Text("open")))).withReadBudget(19);

        // when
        List<String> ids = readAll(query, request, 50);

        // then
        assertThat(ids).hasSize(30).doesNotHaveDuplicates();
    }

    /**
     * "A value of another type than the predicate's never matches ... types do not mix" ({@link Predicate}): so
     * {@code status != BOOL:false} does not list an issue whose status is the text "open".
     */
    @Test
    void notEquals_ofAnotherTypeThanTheFieldsValue_matchesNothing(LocalTables tables) {
        // given
        IndexQuery query = grid(tables, 2);
        PageRequest request = PageRequest.first("project#p", "sev", Order.ASC, 10)
                .where(List.of(new Predicate.NotEquals("status", new IndexValue.Bool(false))));

        // when
        List<String> ids = readAll(query, request, 50);

        // then
        assertThat(ids).isEmpty();
    }

    /** {@code count} issues of project#p: sev 1, 2, ... and status "open". */
    private static IndexQuery grid(LocalTables tables, int count) {
        DynamoDbClient dynamoDb = tables.dynamoDb();
        IndexProjector projector = new IndexProjector(DEFINITIONS);
        for (int i = 1; i <= count; i++) {
            Map<String, AttributeValue> item = Map.of("id", AttributeValue.fromS("issue#" + i), "project", AttributeValue.fromS("project#p"),
                    "num", AttributeValue.fromN(Integer.toString(i)), "custom_fields", AttributeValue.fromM(Map.of(
                            "sev", AttributeValue.fromN(Integer.toString(i)), "status", AttributeValue.fromS("open"))));
            dynamoDb.putItem(b -> b.tableName("AppTable").item(item));
            projector.project(projector.keyOf(item).orElseThrow(), item).items()
                    .forEach(indexItem -> dynamoDb.putItem(b -> b.tableName("IssueAttribIndexTable").item(indexItem.toItem())));
        }
        return new IndexQuery(dynamoDb, "AppTable", "IssueAttribIndexTable", DEFINITIONS,
                new Backoff(Duration.ofMillis(1), Duration.ofMillis(5), new Random(1)), Sleeper.SYSTEM, Duration.ofSeconds(60),
                System::nanoTime, CursorSealer.of(CursorKeys.ephemeral()), new GridSettings("ByProject", (project, attribute) -> true));
    }

    /** The ids of every page, or of the first {@code maxPages} when the result has not ended by then. */
    private static List<String> readAll(IndexQuery query, PageRequest first, int maxPages) {
        List<String> ids = new ArrayList<>();
        PageRequest request = first;
        for (int n = 0; n < maxPages; n++) {
            Page page = query.page(request);
            page.items().forEach(issue -> ids.add(issue.get("id").s()));
            if (page.nextCursor().isEmpty()) {
                return ids;
            }
            request = request.after(page.nextCursor().get());
        }
        ids.add("(no end after " + maxPages + " pages)");
        return ids;
    }

    private static IndexValue num(long value) {
        return new IndexValue.Num(BigDecimal.valueOf(value));
    }
}

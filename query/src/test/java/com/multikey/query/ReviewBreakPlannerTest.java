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
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Review of the planner (branch review): each test states a documented promise and an input that breaks it.
 */
@ExtendWith(LocalTablesExtension.class)
class ReviewBreakPlannerTest {

    private static final IndexDefinitions DEFINITIONS = IndexDefinitions.packaged().withGridState(GridState.GROUPED);

    /**
     * docs/query.md: "a range's reading leaves the sorted read an index item and its item, so every page moves on,
     * whatever its budget". An {@code in} of 10 values is a driver of 10 ranges, one Query each; with a budget under 50
     * the page may make 8 calls. The probe spends all 8 on the first 8 (empty) ranges, the sorted read never runs, and
     * the page comes back empty with a cursor at the start; the next page does the same: the result never ends.
     */
    @Test
    void inOfTenValues_withABudgetOf10_pagesMoveOn(LocalTables tables) {
        // given: 30 open issues; sev 1..30; status in (a, b, c, d, e, f, g, h, i, open); budget 10
        GridQuery query = grid(tables, 30, i -> "open");
        List<IndexValue> values = new ArrayList<>();
        for (String v : List.of("a", "b", "c", "d", "e", "f", "g", "h", "i", "open")) {
            values.add(new IndexValue.Text(v));
        }
        PageRequest request = PageRequest.first("project#p", "sev", Order.ASC, 10)
                .where(List.of(new Predicate.In("status", values))).withReadBudget(10);

        // when
        List<String> ids = readAll(query, request, 200);

        // then
        assertThat(ids).hasSize(30).doesNotHaveDuplicates().doesNotContain("(no end after 200 pages)");
    }

    /** {@code count} issues of project#p: sev i, status status(i). */
    static GridQuery grid(LocalTables tables, int count, Function<Integer, String> status) {
        DynamoDbClient dynamoDb = tables.dynamoDb();
        for (int i = 1; i <= count; i++) {
            put(dynamoDb, Map.of("id", AttributeValue.fromS("issue#" + i), "project", AttributeValue.fromS("project#p"),
                    "num", AttributeValue.fromN(Integer.toString(i)), "custom_fields", AttributeValue.fromM(Map.of(
                            "sev", AttributeValue.fromN(Integer.toString(i)), "status", AttributeValue.fromS(status.apply(i))))));
        }
        return query(dynamoDb);
    }

    static void put(DynamoDbClient dynamoDb, Map<String, AttributeValue> item) {
        IndexProjector projector = new IndexProjector(DEFINITIONS);
        dynamoDb.putItem(b -> b.tableName("AppTable").item(item));
        projector.project(projector.keyOf(item).orElseThrow(), item).items()
                .forEach(indexItem -> dynamoDb.putItem(b -> b.tableName("IssueAttribIndexTable").item(indexItem.toItem())));
    }

    static GridQuery query(DynamoDbClient dynamoDb) {
        return new GridQuery(dynamoDb, "AppTable", "IssueAttribIndexTable", "ByProject", DEFINITIONS, (project, attribute) -> true,
                new Backoff(Duration.ofMillis(1), Duration.ofMillis(5), new Random(1)), Sleeper.SYSTEM, Duration.ofSeconds(60),
                System::nanoTime, CursorSealer.of(CursorKeys.ephemeral()));
    }

    /** The ids of every page, or of the first {@code maxPages} when the result has not ended by then. */
    static List<String> readAll(GridQuery query, PageRequest first, int maxPages) {
        List<String> ids = new ArrayList<>();
        PageRequest request = first;
        for (int n = 0; n < maxPages; n++) {
            Page page = query.page(request);
            page.issues().forEach(issue -> ids.add(issue.get("id").s()));
            if (page.nextCursor().isEmpty()) {
                return ids;
            }
            request = request.after(page.nextCursor().get());
        }
        ids.add("(no end after " + maxPages + " pages)");
        return ids;
    }

    static IndexValue num(long value) {
        return new IndexValue.Num(BigDecimal.valueOf(value));
    }
}

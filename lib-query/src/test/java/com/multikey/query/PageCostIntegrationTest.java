package com.multikey.query;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.multikey.common.Backoff;
import com.multikey.common.Sleeper;
import com.multikey.index.IndexProjector;
import com.multikey.index.IndexValue;
import com.multikey.index.definition.GridState;
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
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * What a page of the grouped issue grid costs in calls ({@link Page#apiCalls()}: Queries and BatchGetItems), walked to
 * the end over a seeded grid of two projects: the design's "a page ... costs two API calls: a Query on the index and a
 * BatchGetItem on the table", where earlier pages (their cursors) tell how many index items and items a page reads per
 * item it lists. Each walk also lists every item once.
 */
class PageCostIntegrationTest {

    @RegisterExtension
    static final LocalTablesExtension TABLES = LocalTablesExtension.createdOnce();
    private static final IndexDefinitions DEFINITIONS = IndexDefinitions.packaged().withGridState(GridState.GROUPED);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final CursorSealer SEALER = CursorSealer.of(CursorKeys.ephemeral());
    private static final List<String> PROJECTS = List.of("project#a", "project#b");
    private static final int PAGE = 25;
    /** Per project: the issues with each field, to check that a walk lists each once. */
    private static final Map<String, Map<String, Integer>> WITH_FIELD = new LinkedHashMap<>();
    private static final Map<String, Integer> ISSUES = new LinkedHashMap<>();
    private static DynamoDbClient dynamoDb;

    /**
     * Two projects of 600 and 250 issues: {@code comp}, a set of one to three components of 60 (six issues in ten have
     * one, three two, one three); {@code est}, a number for six issues in ten, a text for three, absent for one;
     * {@code due}, a number for 96 issues in a hundred, absent for the others (the missing tail). And a project of 40
     * issues whose {@code pair} holds two values next to each other in the order (p000 and p001, p002 and p003, ...).
     */
    @BeforeAll
    static void load(LocalTables tables) {
        dynamoDb = tables.dynamoDb();
        Random random = new Random(7);
        for (String project : PROJECTS) {
            int count = project.equals("project#a") ? 600 : 250;
            ISSUES.put(project, count);
            Map<String, Integer> withField = WITH_FIELD.computeIfAbsent(project, p -> new LinkedHashMap<>());
            for (int i = 1; i <= count; i++) {
                Map<String, AttributeValue> fields = new LinkedHashMap<>();
                int r = random.nextInt(10);
                int components = r < 6 ? 1 : r < 9 ? 2 : 3;
                List<String> comp = new ArrayList<>();
                while (comp.size() < components) {
                    String c = String.format("c%02d", random.nextInt(60));
                    if (!comp.contains(c)) {
                        comp.add(c);
                    }
                }
                fields.put("comp", AttributeValue.fromSs(comp));
                int kind = random.nextInt(10);
                if (kind < 6) {
                    fields.put("est", AttributeValue.fromN(Integer.toString(random.nextInt(1000))));
                } else if (kind < 9) {
                    fields.put("est", AttributeValue.fromS("t" + random.nextInt(1000)));
                }
                if (random.nextInt(100) < 96) {
                    fields.put("due", AttributeValue.fromN(Integer.toString(random.nextInt(500))));
                }
                fields.keySet().forEach(field -> withField.merge(field, 1, Integer::sum));
                if (fields.containsKey("est") && fields.get("est").n() != null) {
                    withField.merge("est number", 1, Integer::sum);
                }
                put(project, i, fields);
            }
        }
        for (int i = 0; i < 40; i++) {
            put("project#pairs", i + 1, Map.of("pair", AttributeValue.fromSs(List.of(String.format("p%03d", 2 * i),
                    String.format("p%03d", 2 * i + 1)))));
        }
    }

    private static void put(String project, int num, Map<String, AttributeValue> fields) {
        IndexProjector projector = new IndexProjector(DEFINITIONS);
        Map<String, AttributeValue> item = Map.of("id", AttributeValue.fromS(String.format("issue#%s-%04d", project.substring(8), num)),
                "project", AttributeValue.fromS(project), "num", AttributeValue.fromN(Integer.toString(num)),
                "custom_fields", AttributeValue.fromM(fields));
        dynamoDb.putItem(b -> b.tableName("AppTable").item(item));
        List<WriteRequest> puts = projector.project(projector.keyOf(item).orElseThrow(), item).items().stream()
                .map(indexItem -> WriteRequest.builder().putRequest(PutRequest.builder().item(indexItem.toItem()).build()).build())
                .toList();
        for (int from = 0; from < puts.size(); from += 25) {
            List<WriteRequest> chunk = puts.subList(from, Math.min(puts.size(), from + 25));
            dynamoDb.batchWriteItem(b -> b.requestItems(Map.of("IssueAttribIndexTable", chunk)));
        }
    }

    private static IndexQuery query() {
        return new IndexQuery(dynamoDb, "AppTable", "IssueAttribIndexTable", DEFINITIONS,
                new Backoff(Duration.ofMillis(1), Duration.ofMillis(5), new Random(1)), Sleeper.SYSTEM, Duration.ofSeconds(60),
                System::nanoTime, SEALER, new GridSettings("ByProject", (project, attribute) -> true));
    }

    /** Every page of a request, read to the end: its calls, its size, the items of its index part, the ids listed. */
    private record Walk(List<Integer> calls, List<Integer> sizes, List<Integer> indexed, List<String> ids) {
        double meanCalls() {
            return calls.stream().mapToInt(Integer::intValue).average().orElseThrow();
        }

        /** The first page whose index part does not fill it: the one that crosses into the missing tail. */
        int crossing() {
            for (int i = 0; i < sizes.size(); i++) {
                if (indexed.get(i) < PAGE) {
                    return i;
                }
            }
            throw new AssertionError("no page crosses into the tail: " + this);
        }
    }

    private static Walk walk(PageRequest first) {
        Walk walk = new Walk(new ArrayList<>(), new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
        PageRequest request = first;
        for (int n = 0; n < 1000; n++) {
            Page page = query().page(request);
            walk.calls().add(page.apiCalls());
            walk.sizes().add(page.items().size());
            walk.indexed().add(page.indexed());
            page.items().forEach(item -> walk.ids().add(item.get("id").s()));
            if (page.nextCursor().isEmpty()) {
                return walk;
            }
            request = request.after(page.nextCursor().get());
        }
        throw new AssertionError("no end after 1000 pages");
    }

    /**
     * (a) A list-valued field: an issue appears once per distinct element, and is listed under its first in page order, so
     * later pages meet ever more later elements of issues listed before them (read, and passed over). Once a page has told
     * how many index items and items that takes per issue listed, the next one reads as many in its one Query and its one
     * BatchGetItem; it once started from a quarter more than the page size whatever the field, and took 3 to 5 calls a page.
     */
    @Test
    void aListValuedField_costsOneQueryAndOneBatchGetItemEveryPage_toTheEnd() {
        for (String project : PROJECTS) {
            for (Order order : Order.values()) {
                // when
                Walk walk = walk(PageRequest.first(project, "comp", order, PAGE));

                // then
                assertThat(walk.ids()).as("%s %s", project, order).doesNotHaveDuplicates().hasSize(WITH_FIELD.get(project).get("comp"));
                assertThat(walk.calls()).as("calls of each page, %s %s: %s", project, order, walk).allSatisfy(calls -> assertThat(calls).isLessThanOrEqualTo(2));
                assertThat(walk.meanCalls()).as("%s %s", project, order).isLessThanOrEqualTo(2.0);
            }
        }
    }

    /**
     * The first page of a list-valued field nothing was read of: its first Query asks for a quarter more index items than the
     * page; when those name fewer issues than the page needs (here each issue's two values are next to each other), it
     * asks again, wider, before reading any issue: three calls, where it took a BatchGetItem, then a Query and another.
     */
    @Test
    void theFirstPageOfAListValuedField_whoseFirstIndexItemsRepeatIssues_costsThreeCalls() {
        // when
        Walk walk = walk(PageRequest.first("project#pairs", "pair", Order.ASC, PAGE));

        // then
        assertThat(walk.ids()).hasSize(40).doesNotHaveDuplicates();
        assertThat(walk.calls().get(0)).isEqualTo(3);
        assertThat(walk.calls().subList(1, walk.calls().size())).allSatisfy(calls -> assertThat(calls).isLessThanOrEqualTo(2));
    }

    /**
     * (b) A field whose values are numbers for some issues and text for others, read with a typed predicate ({@code est >=
     * 0}: numbers only) while the page is sorted by another field: the candidates that fail it are read and passed over.
     * Once the first page has told how many pass, every later page reads enough in its one Query and one BatchGetItem. The
     * first page pays for its learning (decision 0021: a look at the predicate's own range, then the sorted index read as far
     * as the page needs), so the bound is on the pages after it.
     */
    @Test
    void aTypedPredicateOnAMixedTypeField_costsOneQueryAndOneBatchGetItemEveryPageAfterTheFirst() {
        for (String project : PROJECTS) {
            for (Order order : Order.values()) {
                // when
                Walk walk = walk(PageRequest.first(project, "due", order, PAGE)
                        .where(List.of(new Predicate.Range("est", new IndexValue.Num(BigDecimal.ZERO), true, null, false))));

                // then
                assertThat(walk.ids()).as("%s %s", project, order).doesNotHaveDuplicates();
                List<Integer> later = walk.calls().subList(1, walk.calls().size());
                assertThat(later).as("calls of each page after the first, %s %s: %s", project, order, walk)
                        .allSatisfy(calls -> assertThat(calls).isLessThanOrEqualTo(2));
                assertThat(later.stream().mapToInt(Integer::intValue).average().orElseThrow()).isLessThanOrEqualTo(2.0);
            }
        }
    }

    /**
     * (c) The page that crosses into the missing tail (items lacking the field, read from {@code ByProject} among the
     * project's other issues): its index part's Query and BatchGetItem, and at most two Queries of the tail, the second
     * asking for what the first one's yield says, or the most a read asks for when it found none. The tail's own pages
     * then read as much as the last one found it takes.
     */
    @Test
    void thePageCrossingIntoTheMissingTail_costsAtMostFourCalls() {
        for (String project : PROJECTS) {
            for (Order order : Order.values()) {
                // when
                Walk walk = walk(PageRequest.first(project, "due", order, PAGE).withMissing());

                // then
                int crossing = walk.crossing();
                assertThat(walk.ids()).as("%s %s", project, order).doesNotHaveDuplicates().hasSize(ISSUES.get(project));
                assertThat(walk.calls().get(crossing)).as("the crossing page, %s %s: %s", project, order, walk).isLessThanOrEqualTo(4);
                assertThat(walk.calls().subList(0, crossing)).as("%s %s", project, order).allSatisfy(calls -> assertThat(calls).isEqualTo(2));
                assertThat(walk.calls().subList(crossing + 1, walk.calls().size())).as("the tail's pages, %s %s: %s", project, order, walk)
                        .allSatisfy(calls -> assertThat(calls).isLessThanOrEqualTo(2));
            }
        }
    }

    /**
     * A cursor made before the last page's reads were carried (its knowledge holds the sorted index's yield alone) still
     * opens, and its page reads as one with nothing known of the last page; a cursor whose last page's reads are not
     * well formed is refused.
     */
    @Test
    void aCursorWithoutTheLastPagesReads_opens_andOneWithThemMalformed_isRefused() {
        // given
        PageRequest request = PageRequest.first("project#a", "comp", Order.ASC, PAGE);
        Page first = query().page(request);
        Map<String, AttributeValue> start = Cursor.decode(first.nextCursor().orElseThrow(), request, SEALER).startKey();
        ObjectNode before = JSON.createObjectNode().put("part", "INDEX");
        start.forEach((name, value) -> before.with("key").with(name).put("S", value.s()));
        before.with("k").put("r", 25).put("l", 25);
        ObjectNode malformed = before.deepCopy();
        malformed.with("k").putArray("p").add(25).add(25);

        // when
        Page second = query().page(request.after(SEALER.seal(before.toString().getBytes(StandardCharsets.UTF_8), request.identity())));

        // then
        assertThat(second.items()).hasSize(PAGE);
        assertThat(second.items()).extracting(item -> item.get("id").s()).doesNotContainAnyElementsOf(first.items().stream()
                .map(item -> item.get("id").s()).toList());
        assertThatThrownBy(() -> query().page(request.after(SEALER.seal(malformed.toString().getBytes(StandardCharsets.UTF_8), request.identity()))))
                .isInstanceOf(QueryException.class).hasMessage("malformed cursor");
    }
}

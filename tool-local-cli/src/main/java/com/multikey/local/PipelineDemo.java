package com.multikey.local;

import com.multikey.clikit.ProgressDisplay;
import com.multikey.emulator.TemplateRuntime;
import com.multikey.emulator.fixtures.GridSample;
import com.multikey.emulator.services.lambda.LocalLambdaApi;
import com.multikey.index.GridLayoutStore;
import com.multikey.index.IndexProjector;
import com.multikey.index.definition.IndexDefinition;
import com.multikey.index.definition.IndexDefinitions;
import com.multikey.local.DemoChecks.Check;
import com.multikey.query.IndexQuery;
import com.multikey.query.Order;
import com.multikey.query.Page;
import com.multikey.query.PageRequest;
import com.multikey.reindex.IndexScope;
import com.multikey.reindex.JobStatus;
import com.multikey.reindex.JobStore;
import com.multikey.reindex.Verifier;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The main job: the whole pipeline on this machine. Loads the design's grid sample and two layer records
 * (one whose TTL has passed, one a user deletes) into the running template, lets the stream consumers and
 * the bus do their work, changes and removes an issue, and checks every expected outcome: the index order
 * of every attribute, the events routed and the rules they matched, and the one DeleteLayerVersion call.
 */
final class PipelineDemo {

    static final String EXPIRED_LAYER_ID = "layer#us-east-1#requests#12";
    static final String EXPIRED_LAYER_ARN = "arn:aws:lambda:us-east-1:123456789012:layer:multikey-requests:12";
    static final String DELETED_LAYER_ID = "layer#us-east-1#requests#11";

    /** How many checks the demo makes when the pipeline settles in time. */
    static final int CHECKS = 30;

    private final TemplateRuntime runtime;
    private final Path repository;
    private final PrintStream out;
    private final DemoChecks checks;

    /**
     * @param repository where the template is, with the grid sample under fixtures/
     * @param progress   where each check is shown as it is made
     */
    PipelineDemo(TemplateRuntime runtime, Path repository, PrintStream out, ProgressDisplay progress) {
        this.runtime = runtime;
        this.repository = repository;
        this.out = out;
        this.checks = new DemoChecks(CHECKS, progress);
    }

    /** The project of the grid sample's custom fields. */
    private static final String SAMPLE_PROJECT = "project#35e9";

    List<Check> run() throws InterruptedException {
        GridSample grid = GridSample.read(repository.resolve("fixtures"));
        out.println("== Writing the grid sample and two layer records to " + runtime.table("AppTable"));
        grid.projects().forEach(this::put);
        grid.issues().forEach(this::put);
        long past = Instant.now().getEpochSecond() - 60;
        put(Map.of("id", s(EXPIRED_LAYER_ID), "arn", s(EXPIRED_LAYER_ARN), "status", s("active"),
                "expiresAt", AttributeValue.fromN(Long.toString(past))));
        put(Map.of("id", s(DELETED_LAYER_ID), "arn", s("arn:aws:lambda:us-east-1:123456789012:layer:multikey-requests:11"),
                "status", s("retired")));
        runtime.dynamoDb().deleteItem(b -> b.tableName(runtime.table("AppTable")).key(Map.of("id", s(DELETED_LAYER_ID))));
        settle();

        printIndex();
        Map<String, List<String>> expected = new LinkedHashMap<>(grid.expectedIndexOrder());
        checkOrder("grid sample", expected);
        pageThrough();

        out.println("\n== issue#67d1 moves its Start (3812) to 2023-04-30; issue#af34 is removed");
        Map<String, AttributeValue> moved = new LinkedHashMap<>(grid.issues().stream()
                .filter(issue -> issue.get("id").s().equals("issue#67d1")).findFirst().orElseThrow());
        Map<String, AttributeValue> fields = new LinkedHashMap<>(moved.get("custom_fields").m());
        fields.put("3812", s("2023-04-30"));
        moved.put("custom_fields", AttributeValue.fromM(fields));
        put(moved);
        runtime.dynamoDb().deleteItem(b -> b.tableName(runtime.table("AppTable")).key(Map.of("id", s("issue#af34"))));
        settle();
        printIndex();
        expected.put("3812", List.of("issue#67d1", "issue#020e"));
        expected.put("3fe6", List.of());
        expected.put("47e5", List.of());
        checkOrder("after the change", expected);

        printEvents();
        Verifier.Report report = new Verifier(runtime.dynamoDb(), runtime.table("AppTable"), runtime.table("IssueAttribIndexTable"),
                IndexScope.all(current())).verify(false);
        out.printf("%n== verify: %d issues, %d index items: %d missing, %d stale, %d orphaned%n", report.items(),
                report.indexItems(), report.missingCount(), report.staleCount(), report.orphanedCount());
        checks.add(new Check("verify finds the index equal to what the table implies", true, report.clean()));
        workerVerify();
        return checks.all();
    }

    /** The same check as a job of the reindex worker function: 8 segments, each its own asynchronous invocation. */
    private void workerVerify() throws InterruptedException {
        String answer = runtime.function("ReindexWorkerFunction")
                .invoke("{\"action\":\"start\",\"jobId\":\"demo-verify\",\"kind\":\"verify\",\"totalSegments\":8}");
        boolean idle = runtime.lambdaApi().awaitAsyncIdle(Duration.ofSeconds(60));
        Optional<JobStatus> job = new JobStore(runtime.dynamoDb(), runtime.table("ReindexJobsTable")).job("demo-verify");
        out.printf("%n== reindex worker: %s%n", answer);
        job.ifPresent(status -> out.printf("   verify job over %d segments: %s, %d issues, %d missing, %d stale, %d orphaned%n",
                status.spec().totalSegments(), status.done() ? "done" : "not done", status.totals().sourceItems(), status.totals().missing(),
                status.totals().stale(), status.totals().orphaned()));
        checks.add(new Check("the reindex worker's verify job over 8 segments finishes and finds no drift", true,
                idle && job.isPresent() && job.get().done() && job.get().totals().drift() == 0));
    }

    private void settle() throws InterruptedException {
        if (!runtime.awaitQuiet(Duration.ofSeconds(60))) {
            checks.add(new Check("pipeline settled within 60 s", true, false));
        }
    }

    /** The read side: project#35e9 sorted by Start (3812), two issues a page, then its issues without a Start. */
    private void pageThrough() {
        out.println("\n== Grid pages: project#35e9 by Start (3812), 2 a page, then the issues without a Start");
        IndexQuery query = IndexQuery.of(runtime.dynamoDb(), runtime.table("AppTable"), runtime.table("IssueAttribIndexTable"));
        PageRequest request = PageRequest.first("project#35e9", "3812", Order.ASC, 2).withMissing();
        List<String> ids = new ArrayList<>();
        int maxCalls = 0;
        for (int n = 1; n <= 10; n++) {
            Page page = query.page(request);
            List<String> pageIds = page.items().stream().map(i -> i.get("id").s()).toList();
            out.printf("  page %d: %-28s %d API call(s)%n", n, String.join(", ", pageIds), page.apiCalls());
            ids.addAll(pageIds);
            maxCalls = Math.max(maxCalls, page.apiCalls());
            if (page.nextCursor().isEmpty()) {
                break;
            }
            request = request.after(page.nextCursor().get());
        }
        checks.add(new Check("grid pages by 3812, then issues without it", List.of("issue#020e", "issue#67d1", "issue#af34"), ids));
        checks.add(new Check("at most 2 API calls a page", true, maxCalls <= 2));
    }

    private void printEvents() {
        RoutedEvents routed = RoutedEvents.print(out, runtime, 15);
        Map<String, Integer> byType = routed.countByType();
        Map<String, List<String>> rulesByType = routed.rulesByType();

        checks.add(new Check("events: Issue Created", 5, byType.getOrDefault("Issue Created", 0)));
        checks.add(new Check("events: Issue Updated", 1, byType.getOrDefault("Issue Updated", 0)));
        checks.add(new Check("events: Issue Removed", 1, byType.getOrDefault("Issue Removed", 0)));
        checks.add(new Check("events: Layer Created (two written, then the tombstone)", 3, byType.getOrDefault("Layer Created", 0)));
        checks.add(new Check("events: Layer Removed (a user delete)", 1, byType.getOrDefault("Layer Removed", 0)));
        checks.add(new Check("events: Layer Expired (TTL)", 1, byType.getOrDefault("Layer Expired", 0)));
        checks.add(new Check("rules matched by Layer Expired", List.of("LayerExpiredRule"), rulesByType.getOrDefault("Layer Expired", List.of())));
        checks.add(new Check("rules matched by Layer Removed", List.of(), rulesByType.getOrDefault("Layer Removed", List.of())));
        checks.add(new Check("DeleteLayerVersion calls", List.of(
                new LocalLambdaApi.Call("DELETE", "/2018-10-31/layers/multikey-requests/versions/12", "us-east-1", 204)),
                runtime.lambdaApi().calls()));
        Map<String, AttributeValue> tombstone = runtime.dynamoDb().getItem(b -> b.tableName(runtime.table("AppTable"))
                .key(Map.of("id", s(EXPIRED_LAYER_ID)))).item();
        checks.add(new Check("tombstone of the expired layer (deletedAt, no expiresAt)", true,
                tombstone.containsKey("deletedAt") && !tombstone.containsKey("expiresAt")));
    }

    private void checkOrder(String when, Map<String, List<String>> expected) {
        out.printf("%nAscending Query per attribute (%s):%n", when);
        expected.forEach((attribId, ids) -> {
            List<String> ascending = query(attribId, true);
            List<String> descending = query(attribId, false);
            Check up = new Check(when + ": " + attribId + " ascending", ids, ascending);
            Check down = new Check(when + ": " + attribId + " descending", ids.reversed(), descending);
            checks.add(up);
            checks.add(down);
            out.printf("  %-5s %-30s %s%n", attribId, String.join(", ", ascending),
                    up.passed() && down.passed() ? "ok (descending too)" : "EXPECTED " + String.join(", ", ids));
        });
    }

    /** The definitions in the grid layout state the stack recorded: a new stack's, so the grid grouped by project. */
    private IndexDefinitions current() {
        return new GridLayoutStore(runtime.dynamoDb(), runtime.table("IssueAttribIndexTable"), IndexDefinitions.packaged(), false,
                Duration.ZERO, System::nanoTime).current();
    }

    private void printIndex() {
        String table = runtime.table("IssueAttribIndexTable");
        var items = IndexTablePrinter.scan(runtime.dynamoDb(), table);
        IndexDefinition grid = current().grid().orElseThrow();
        out.printf("%n%s (%d items of the issue grid, layout %s; ␁ is the sort key separator):%n", table, items.size(),
                grid.layout() == IndexDefinition.Layout.GROUPED ? "grouped" : "field-partitioned");
        IndexTablePrinter.print(out, items, grid.layout() == IndexDefinition.Layout.GROUPED ? IndexTablePrinter.GROUPED_COLUMNS
                : IndexTablePrinter.GRID_COLUMNS);
    }

    /** The sample's custom fields are all of project#35e9: a field's items in the grid's order, in the layout the stack keeps. */
    private List<String> query(String attribId, boolean ascending) {
        IndexDefinition grid = current().grid().orElseThrow();
        String partition = IndexProjector.partition(grid, List.of(s(SAMPLE_PROJECT)), attribId);
        List<String> ids = new ArrayList<>();
        runtime.dynamoDb().queryPaginator(b -> b.tableName(runtime.table("IssueAttribIndexTable"))
                        .keyConditionExpression("attribId = :a")
                        .expressionAttributeValues(Map.of(":a", s(partition)))
                        .scanIndexForward(ascending))
                .items().forEach(item -> ids.add(item.containsKey("issueId") ? item.get("issueId").s() : item.get("itemKey").m().get("id").s()));
        return ids;
    }

    private void put(Map<String, AttributeValue> item) {
        runtime.dynamoDb().putItem(b -> b.tableName(runtime.table("AppTable")).item(item));
    }

    private static AttributeValue s(String value) {
        return AttributeValue.fromS(value);
    }
}

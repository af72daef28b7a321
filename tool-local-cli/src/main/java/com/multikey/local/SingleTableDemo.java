package com.multikey.local;

import com.multikey.clikit.ProgressDisplay;
import com.multikey.emulator.TemplateRuntime;
import com.multikey.emulator.services.lambda.LocalLambdaApi;
import com.multikey.index.IndexValue;
import com.multikey.index.definition.DefinitionsYaml;
import com.multikey.index.definition.IndexDefinitions;
import com.multikey.local.DemoChecks.Check;
import com.multikey.query.Filter;
import com.multikey.query.IndexQuery;
import com.multikey.query.Order;
import com.multikey.query.Page;
import com.multikey.query.PageRequest;
import com.multikey.reindex.IndexScope;
import com.multikey.reindex.JobStatus;
import com.multikey.reindex.JobStore;
import com.multikey.reindex.Verifier;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The single-table example end to end ({@code demo --example single-table}): the stack deployed against a table
 * that exists before it ({@code ExistingTableName}, keyed {@code pk}/{@code sk}, with projects, issues and Lambda
 * layer versions in it), every function reading the example's definitions file. Writes the items, lets the stream
 * consumers, the bus and TTL do their work, changes and removes issues, and checks every outcome: each of the four
 * indexes read through the query library (a group's own items only, value order both ways, a filter, the missing
 * tail), the typed events and the rule they matched, the layer version a TTL expiry deleted and its tombstone
 * leaving the sparse indexes, and verify (in-process and as a worker job) at zero drift.
 */
final class SingleTableDemo {

    static final String EXAMPLE = "single-table";
    static final String TABLE = "Tracker";
    static final String TABLE_ARN = "arn:aws:dynamodb:us-east-1:123456789012:table/" + TABLE;
    private static final String P1 = "PROJECT#p1";
    private static final String P2 = "PROJECT#p2";
    private static final String EXPIRING = "lyr#us-east-1.requests/lyrVrsn12#";

    /** How many checks the demo makes when the pipeline settles in time. */
    static final int CHECKS = 27;

    private final TemplateRuntime runtime;
    private final IndexDefinitions definitions;
    private final PrintStream out;
    private final DemoChecks checks;

    SingleTableDemo(TemplateRuntime runtime, IndexDefinitions definitions, PrintStream out, ProgressDisplay progress) {
        this.runtime = runtime;
        this.definitions = definitions;
        this.out = out;
        this.checks = new DemoChecks(CHECKS, progress);
    }

    /** The example's directory under {@code repository}/examples: its definitions file and sample events. */
    static Path directory(Path repository, String name) {
        Path examples = repository.resolve("examples");
        Path example = examples.resolve(name);
        if (!name.matches("[a-z0-9-]+") || !Files.isRegularFile(example.resolve("index-definitions.yaml"))) {
            throw new IllegalArgumentException("no example '" + name + "' (examples with an index-definitions.yaml under " + examples + ")");
        }
        return example;
    }

    /**
     * The template's parameters for the example: the existing table and its stream, no indexer filter (the indexes
     * cover items of two key shapes: the indexer skips what no index covers), the key patterns of the items redrive
     * and delete-layer may touch, and the layers' TTL attribute.
     */
    static Map<String, String> parameters() {
        return Map.of("ExistingTableName", TABLE, "ExistingTableStreamArn", TABLE_ARN + "/stream/2026-01-01T00:00:00.000",
                "StreamIndexerFilterPattern", "", "IndexedItemKeyPatterns", "PROJECT#*,lyr#*", "LayerKeyPatterns", "lyr#*",
                "LayerTtlAttribute", "exDt");
    }

    /** The example's definitions as the JSON file every function reads through {@code INDEX_DEFINITIONS}. */
    static Path definitionsJson(Path example) {
        try {
            // deleted when the command ends (LocalMain#deletedAtTheEnd), or the JVM
            Path json = Files.createTempFile("multikey-" + example.getFileName() + "-", ".json");
            json.toFile().deleteOnExit();
            return Files.writeString(json, DefinitionsYaml.toJson(example.resolve("index-definitions.yaml")));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The table as its owner made it before the stack: pk/sk, both images on its stream, TTL on {@code exDt}. */
    static Consumer<DynamoDbClient> existingTable() {
        return dynamoDb -> {
            dynamoDb.createTable(b -> b.tableName(TABLE).billingMode("PAY_PER_REQUEST")
                    .attributeDefinitions(a -> a.attributeName("pk").attributeType(ScalarAttributeType.S),
                            a -> a.attributeName("sk").attributeType(ScalarAttributeType.S))
                    .keySchema(k -> k.attributeName("pk").keyType(KeyType.HASH), k -> k.attributeName("sk").keyType(KeyType.RANGE))
                    .streamSpecification(s -> s.streamEnabled(true).streamViewType(StreamViewType.NEW_AND_OLD_IMAGES)));
            dynamoDb.updateTimeToLive(b -> b.tableName(TABLE).timeToLiveSpecification(t -> t.enabled(true).attributeName("exDt")));
        };
    }

    List<Check> run() throws InterruptedException {
        out.println("== Writing two projects, five issues and five layer versions to " + TABLE + " (pk/sk)");
        put(item(P1, "PROJECT#p1", Map.of("name", s("Platform"))));
        put(item(P2, "PROJECT#p2", Map.of("name", s("Mobile"))));
        put(issue(P1, 1, "Login fails", Map.of("priority", n(2), "due", s("2026-12-01")), Set.of("bug", "auth")));
        put(issue(P1, 2, "Slow search", Map.of("priority", n(1)), Set.of("bug")));
        put(issue(P1, 3, "Write the guide", Map.of("due", s("2026-11-30")), Set.of("docs")));
        put(issue(P1, 4, "Dark mode", Map.of("priority", n(2)), Set.of()));
        put(issue(P2, 1, "Crash on start", Map.of("priority", n(1)), Set.of("bug")));
        long past = Instant.now().getEpochSecond() - 60;
        put(layer("us-east-1", "requests", 0, 13, "latest", null));
        put(layer("us-east-1", "requests", 11, 11, "deprecated", null));
        put(layer("us-east-1", "requests", 12, 12, "deprecated", past));
        put(layer("us-east-1", "boto", 0, 4, "latest", null));
        put(layer("eu-west-1", "requests", 0, 13, "latest", null));
        settle();
        printIndex();

        out.println("\n== Reading every index through the query library");
        checkPages("issue-fields: PROJECT#p1 by priority, 2 a page, then the issues without one",
                PageRequest.onIndex("issue-fields", List.of(s(P1)), "priority", Order.ASC, 2).withMissing(),
                List.of("PROJECT#p1/ISSUE#2", "PROJECT#p1/ISSUE#1", "PROJECT#p1/ISSUE#4", "PROJECT#p1/ISSUE#3"));
        checkPages("issue-fields: PROJECT#p1 by priority, descending",
                PageRequest.onIndex("issue-fields", List.of(s(P1)), "priority", Order.DESC, 10),
                List.of("PROJECT#p1/ISSUE#4", "PROJECT#p1/ISSUE#1", "PROJECT#p1/ISSUE#2"));
        checkPages("issue-fields: PROJECT#p2 by priority (its own issues only)",
                PageRequest.onIndex("issue-fields", List.of(s(P2)), "priority", Order.ASC, 10), List.of("PROJECT#p2/ISSUE#1"));
        checkPages("issue-labels: PROJECT#p1 labelled bug",
                PageRequest.onIndex("issue-labels", List.of(s(P1)), "", Order.ASC, 10).withFilter(new Filter.Equals(new IndexValue.Text("bug"))),
                List.of("PROJECT#p1/ISSUE#1", "PROJECT#p1/ISSUE#2"));
        checkPages("layers-by-package: requests, by deploy status, then version (the expired version is gone)",
                PageRequest.onIndex("layers-by-package", List.of(s("requests")), "", Order.ASC, 10),
                List.of("lyr#us-east-1.requests/lyrVrsn11#", "lyr#eu-west-1.requests/lyrVrsn0#", "lyr#us-east-1.requests/lyrVrsn0#"));
        checkPages("layers-by-region: us-east-1, by package, then version",
                PageRequest.onIndex("layers-by-region", List.of(s("us-east-1")), "", Order.ASC, 10),
                List.of("lyr#us-east-1.boto/lyrVrsn0#", "lyr#us-east-1.requests/lyrVrsn11#", "lyr#us-east-1.requests/lyrVrsn0#"));

        out.println("\n== ISSUE#4 of p1 gets priority 0 and the label bug; ISSUE#2 of p1 is removed");
        put(issue(P1, 4, "Dark mode", Map.of("priority", n(0)), Set.of("bug")));
        runtime.dynamoDb().deleteItem(b -> b.tableName(TABLE).key(Map.of("pk", s(P1), "sk", s("ISSUE#2"))));
        settle();
        checkPages("after the change, issue-fields: PROJECT#p1 by priority, then the issues without one",
                PageRequest.onIndex("issue-fields", List.of(s(P1)), "priority", Order.ASC, 2).withMissing(),
                List.of("PROJECT#p1/ISSUE#4", "PROJECT#p1/ISSUE#1", "PROJECT#p1/ISSUE#3"));
        checkPages("after the change, issue-labels: PROJECT#p1 labelled bug",
                PageRequest.onIndex("issue-labels", List.of(s(P1)), "", Order.ASC, 10).withFilter(new Filter.Equals(new IndexValue.Text("bug"))),
                List.of("PROJECT#p1/ISSUE#1", "PROJECT#p1/ISSUE#4"));

        printEvents();
        Verifier.Report report = new Verifier(runtime.dynamoDb(), TABLE, runtime.table("IssueAttribIndexTable"),
                IndexScope.all(definitions)).verify(false);
        out.printf("%n== verify, every index: %d items, %d index items: %d missing, %d stale, %d orphaned%n", report.items(),
                report.indexItems(), report.missingCount(), report.staleCount(), report.orphanedCount());
        checks.add(new Check("verify finds every index equal to what the table implies", true, report.clean()));
        workerVerify();
        return checks.all();
    }

    private void checkPages(String description, PageRequest first, List<String> expected) {
        IndexQuery query = IndexQuery.of(runtime.dynamoDb(), TABLE, runtime.table("IssueAttribIndexTable"), definitions);
        PageRequest request = first;
        List<String> keys = new ArrayList<>();
        List<String> pages = new ArrayList<>();
        int maxCalls = 0;
        for (int n = 1; n <= 20; n++) {
            Page page = query.page(request);
            List<String> pageKeys = page.items().stream().map(SingleTableDemo::key).toList();
            pages.add(String.join(", ", pageKeys) + " (" + page.apiCalls() + " API call(s))");
            keys.addAll(pageKeys);
            maxCalls = Math.max(maxCalls, page.apiCalls());
            if (page.nextCursor().isEmpty()) {
                break;
            }
            request = request.after(page.nextCursor().get());
        }
        Check check = new Check(description, expected, keys);
        checks.add(check);
        // a page that goes on from the index into the missing tail takes one more call: the Query on the table partition
        int allowed = first.includeMissing() ? 3 : 2;
        checks.add(new Check(description + ": at most " + allowed + " API calls a page", true, maxCalls <= allowed));
        out.printf("  %s%n    %s  %s%n", description, String.join(" | ", pages), check.passed() ? "ok" : "EXPECTED " + expected);
    }

    /** The same check as a job of the reindex worker function, every index, 4 segments. */
    private void workerVerify() throws InterruptedException {
        String answer = runtime.function("ReindexWorkerFunction")
                .invoke("{\"action\":\"start\",\"jobId\":\"demo-verify\",\"kind\":\"verify\",\"totalSegments\":4}");
        boolean idle = runtime.lambdaApi().awaitAsyncIdle(Duration.ofSeconds(60));
        Optional<JobStatus> job = new JobStore(runtime.dynamoDb(), runtime.table("ReindexJobsTable")).job("demo-verify");
        out.printf("%n== reindex worker: %s%n", answer);
        checks.add(new Check("the reindex worker's verify job over every index finishes and finds no drift", true,
                idle && job.isPresent() && job.get().done() && job.get().totals().drift() == 0));
    }

    private void printEvents() {
        RoutedEvents routed = RoutedEvents.print(out, runtime, 17);
        Map<String, Integer> byType = routed.countByType();
        Map<String, List<String>> rulesByType = routed.rulesByType();

        checks.add(new Check("events: Project Created", 2, byType.getOrDefault("Project Created", 0)));
        checks.add(new Check("events: Issue Created", 5, byType.getOrDefault("Issue Created", 0)));
        checks.add(new Check("events: Issue Updated", 1, byType.getOrDefault("Issue Updated", 0)));
        checks.add(new Check("events: Issue Removed", 1, byType.getOrDefault("Issue Removed", 0)));
        checks.add(new Check("events: Layer Created (five versions, then the tombstone)", 6,
                byType.getOrDefault("Layer Created", 0)));
        checks.add(new Check("events: Layer Expired (TTL on exDt)", 1, byType.getOrDefault("Layer Expired", 0)));
        checks.add(new Check("rules matched by Layer Expired", List.of("LayerExpiredRule"),
                rulesByType.getOrDefault("Layer Expired", List.of())));
        checks.add(new Check("DeleteLayerVersion calls", List.of(
                new LocalLambdaApi.Call("DELETE", "/2018-10-31/layers/multikey-requests/versions/12", "us-east-1", 204)),
                runtime.lambdaApi().calls()));
        Map<String, AttributeValue> tombstone = runtime.dynamoDb().getItem(b -> b.tableName(TABLE)
                .key(Map.of("pk", s("lyr#us-east-1.requests"), "sk", s("lyrVrsn12#")))).item();
        checks.add(new Check("tombstone of " + EXPIRING + " (deletedAt; no exDt, no dplySts: out of the sparse indexes)",
                true, tombstone.containsKey("deletedAt") && !tombstone.containsKey("exDt") && !tombstone.containsKey("dplySts")));
    }

    private void printIndex() {
        String table = runtime.table("IssueAttribIndexTable");
        var items = IndexTablePrinter.scan(runtime.dynamoDb(), table);
        out.printf("%n%s (%d items; ␁ is the sort key separator):%n", table, items.size());
        IndexTablePrinter.print(out, items, IndexTablePrinter.GROUPED_COLUMNS);
    }

    private void settle() throws InterruptedException {
        if (!runtime.awaitQuiet(Duration.ofSeconds(60))) {
            checks.add(new Check("pipeline settled within 60 s", true, false));
        }
    }

    private void put(Map<String, AttributeValue> item) {
        runtime.dynamoDb().putItem(b -> b.tableName(TABLE).item(item));
    }

    private static String key(Map<String, AttributeValue> item) {
        return item.get("pk").s() + "/" + item.get("sk").s();
    }

    private static Map<String, AttributeValue> item(String pk, String sk, Map<String, AttributeValue> attributes) {
        Map<String, AttributeValue> item = new LinkedHashMap<>(attributes);
        item.put("pk", s(pk));
        item.put("sk", s(sk));
        return item;
    }

    private static Map<String, AttributeValue> issue(String project, int num, String title, Map<String, AttributeValue> fields,
                                                     Set<String> labels) {
        Map<String, AttributeValue> attributes = new LinkedHashMap<>(Map.of("num", n(num), "title", s(title), "state", s("open"),
                "cf", AttributeValue.fromM(fields)));
        if (!labels.isEmpty()) {
            attributes.put("labels", AttributeValue.fromSs(List.copyOf(labels)));
        }
        return item(project, "ISSUE#" + num, attributes);
    }

    /** A layer version: {@code lyrVrsn0#} holds the latest; {@code exDt} (TTL) when given. */
    private static Map<String, AttributeValue> layer(String region, String pckg, int slot, int version, String status, Long expiresAt) {
        Map<String, AttributeValue> attributes = new LinkedHashMap<>(Map.of("pckg", s(pckg), "region", s(region), "vrsn", n(version),
                "dplySts", s(status), "arn", s("arn:aws:lambda:" + region + ":123456789012:layer:multikey-" + pckg + ":" + version)));
        if (expiresAt != null) {
            attributes.put("exDt", n(expiresAt));
        }
        return item("lyr#" + region + "." + pckg, "lyrVrsn" + slot + "#", attributes);
    }

    private static AttributeValue s(String value) {
        return AttributeValue.fromS(value);
    }

    private static AttributeValue n(long value) {
        return AttributeValue.fromN(Long.toString(value));
    }
}

package com.multikey.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.multikey.testkit.LocalTables;
import com.multikey.testkit.LocalTablesExtension;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The operator's commands against tables over HTTP, as against a deployed stack: issues written before
 * any indexer ran are backfilled, then queried and verified; a deliberately damaged index is repaired.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class OperatorCliTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @RegisterExtension
    static final LocalTablesExtension TABLES = LocalTablesExtension.createdOnce();

    private final LocalTables tables;
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    @org.junit.jupiter.api.io.TempDir
    java.nio.file.Path cursorKeys;

    OperatorCliTest(LocalTables tables) {
        this.tables = tables;
    }

    @BeforeAll
    static void writeIssuesBeforeAnyIndexing(LocalTables tables) {
        for (int i = 1; i <= 12; i++) {
            Map<String, AttributeValue> item = Map.of("id", AttributeValue.fromS("issue#" + i), "project", AttributeValue.fromS("project#1"),
                    "num", AttributeValue.fromN(Integer.toString(i)), "name", AttributeValue.fromS("issue " + i),
                    "custom_fields", AttributeValue.fromM(Map.of("size", AttributeValue.fromN(Integer.toString(i % 5)),
                            "label", AttributeValue.fromS(List.of("alpha", "beta", "gamma").get(i % 3)))));
            tables.dynamoDb().putItem(b -> b.tableName("AppTable").item(item));
        }
    }

    private int run(String... args) {
        boolean query = args[0].equals("query");
        String[] all = new String[args.length + (query ? 4 : 2)];
        System.arraycopy(args, 0, all, 0, args.length);
        all[args.length] = "--endpoint";
        all[args.length + 1] = tables.local().endpoint().toString();
        if (query) {
            // the cursors' keys in the test's own directory, not the home directory's
            all[args.length + 2] = "--cursor-keys";
            all[args.length + 3] = cursorKeys.resolve("cursor-keys.json").toString();
        }
        return OperatorCli.run(all, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private String printed() {
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    @Order(1)
    void verify_beforeAnyIndexing_findsEveryItemMissing_andExitsOne() {
        assertThat(run("verify")).isEqualTo(1);
        assertThat(printed()).contains("12 items, 0 index items: 24 missing, 0 stale, 0 orphaned");
    }

    @Test
    @Order(2)
    void backfill_indexesTheIssuesWrittenBeforeTheStream_andVerifyThenFindsNothing() throws Exception {
        assertThat(run("backfill", "--segments", "2")).as(err.toString(StandardCharsets.UTF_8)).isZero();
        assertThat(printed()).contains("backfill done: 12 items scanned, 12 items indexed (24 index writes)");
        assertThat(err.toString(StandardCharsets.UTF_8)).as("progress lines on standard error when it is no terminal")
                .contains("backfill: 12/12 items (100%), 12 items indexed, 24 index writes");

        assertThat(run("verify")).isZero();
        assertThat(printed()).contains("12 items, 24 index items: 0 missing, 0 stale, 0 orphaned");

        out.reset();
        assertThat(run("backfill", "--output", "json")).as(err.toString(StandardCharsets.UTF_8)).isZero();
        JsonNode done = JSON.readTree(printed());
        assertThat(done.path("itemsScanned").asLong()).isEqualTo(12);
        assertThat(done.path("itemsIndexed").asLong()).isEqualTo(12);
        assertThat(done.path("issuesIndexed").asLong()).as("the old name, kept for one release").isEqualTo(12);
    }

    @Test
    @Order(3)
    void query_printsAPageInFieldOrder_withItsCursorAndCalls() {
        assertThat(run("query", "--project", "project#1", "--attribute", "size", "--page-size", "3", "--ge", "3")).as(err.toString()).isZero();

        assertThat(printed()).contains("1    issue#3        3     issue 3                        3")
                .contains("2    issue#8        8     issue 8                        3")
                .contains("3    issue#4        4     issue 4                        4")
                .contains("3 item(s), 2 API call(s)").contains("next page: --cursor ");

        // the cursor opens in the next run: sealed under the key file, not a key of one process
        String cursor = printed().lines().filter(line -> line.startsWith("next page: --cursor ")).findFirst().orElseThrow()
                .substring("next page: --cursor ".length());
        out.reset();
        assertThat(run("query", "--project", "project#1", "--attribute", "size", "--page-size", "3", "--ge", "3", "--cursor", cursor))
                .as(err.toString()).isZero();
        assertThat(printed()).doesNotContain("issue#3 ").contains("1    issue#9 ");
    }

    @Test
    @Order(3)
    void queryJson_printsOneDocument_withTheItemsTheirValuesAndTheCursor() throws Exception {
        assertThat(run("query", "--project", "project#1", "--attribute", "size", "--page-size", "3", "--ge", "3", "--output", "json"))
                .as(err.toString()).isZero();

        JsonNode page = JSON.readTree(printed());
        assertThat(page.path("count").asInt()).isEqualTo(3);
        assertThat(page.path("apiCalls").asInt()).isEqualTo(2);
        assertThat(page.path("project").asText()).isEqualTo("project#1");
        assertThat(page.path("attribute").asText()).isEqualTo("size");
        assertThat(page.path("nextCursor").isTextual()).isTrue();
        assertThat(page.path("items")).extracting(item -> item.path("id").asText()).containsExactly("issue#3", "issue#8", "issue#4");
        JsonNode first = page.path("items").get(0);
        assertThat(first.path("num").asInt()).isEqualTo(3);
        assertThat(first.path("name").asText()).isEqualTo("issue 3");
        assertThat(first.path("value").asInt()).isEqualTo(3);
        assertThat(first.path("item").path("custom_fields").path("label").asText()).isEqualTo("alpha");
    }

    @Test
    @Order(3)
    void queryJson_ofADeclaredIndex_printsKeysAndValues_andTheLastPageHasNoCursor() throws Exception {
        assertThat(run("query", "--index", "custom_fields", "--project", "project#1", "--attribute", "label", "--equals", "beta",
                "--output", "json")).as(err.toString()).isZero();

        JsonNode page = JSON.readTree(printed());
        // the stack was backfilled from an empty index table, so it is grouped: the grid's old name reads issue-grid
        assertThat(page.path("index").asText()).isEqualTo("issue-grid");
        assertThat(page.path("group")).extracting(JsonNode::asText).containsExactly("project#1");
        assertThat(page.path("nextCursor").isNull()).isTrue();
        assertThat(page.path("items")).hasSize(4).allSatisfy(item -> {
            assertThat(item.path("value").asText()).isEqualTo("beta");
            assertThat(item.path("key").asText()).isNotEmpty();
        });
    }

    @Test
    @Order(3)
    void query_aFilterTheQueryLibraryRefuses_namesTheOptionAtFault() {
        assertThat(run("query", "--project", "project#1", "--attribute", "size", "--gt", "5", "--lt", "2")).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("error: --gt: the lower bound is above the upper bound (lt)");
        err.reset();
        assertThat(run("query", "--project", "project#1", "--attribute", "size", "--type", "number", "--begins-with", "a")).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("error: --type: beginsWith matches text values");
        err.reset();
        assertThat(run("query", "--project", "project#1", "--attribute", "size", "--type", "bool", "--equals", "yes")).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("error: --equals: a bool is true or false");
    }

    @Test
    @Order(4)
    void query_withABadCursor_failsClearly() {
        assertThat(run("query", "--project", "project#1", "--attribute", "size", "--cursor", "garbage")).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("error: the cursor is not valid for this query");
    }

    @Test
    @Order(4)
    void verifyJson_printsTheCountsAndTheKeysOfWhatDiffers_andExitsOneOnDrift() throws Exception {
        // a new stack's grid: grouped items, beside the grid layout's control item
        Map<String, AttributeValue> any = tables.dynamoDb().scan(b -> b.tableName("IssueAttribIndexTable")).items().stream()
                .filter(item -> !item.containsKey("control")).findFirst().orElseThrow();
        tables.dynamoDb().deleteItem(b -> b.tableName("IssueAttribIndexTable")
                .key(Map.of("attribId", any.get("attribId"), "sortKey", any.get("sortKey"))));

        assertThat(run("verify", "--output", "json")).isEqualTo(1);

        JsonNode report = JSON.readTree(printed());
        assertThat(report.path("items").asLong()).isEqualTo(12);
        assertThat(report.path("issues").asLong()).as("the old name, kept for one release").isEqualTo(12);
        assertThat(report.path("indexItems").asLong()).isEqualTo(23);
        assertThat(report.path("missing").asLong()).isEqualTo(1);
        assertThat(report.path("stale").asLong()).isZero();
        assertThat(report.path("orphaned").asLong()).isZero();
        assertThat(report.path("clean").asBoolean()).isFalse();
        assertThat(report.path("repair").asBoolean()).isFalse();
        assertThat(report.path("repairedItems").asLong()).isZero();
        assertThat(report.path("repairedIssues").asLong()).as("the old name, kept for one release").isZero();
        JsonNode sample = report.path("samples").path("missing").get(0);
        assertThat(sample.path("attribId").asText()).isEqualTo(any.get("attribId").s());
        assertThat(sample.path("sortKey").asText()).isEqualTo(any.get("sortKey").s());
        assertThat(sample.path("itemKey").asText()).isEqualTo(any.get("itemKey").m().get("id").s());
        assertThat(sample.path("issueId").asText()).as("the old name, kept for one release").isEqualTo(any.get("itemKey").m().get("id").s());
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("verify: 35/35 items (100%), 1 missing, 0 stale, 0 orphaned");
    }

    @Test
    @Order(5)
    void verifyRepair_putsBackADeletedIndexItem() {
        // a new stack's grid: grouped items, beside the grid layout's control item
        Map<String, AttributeValue> any = tables.dynamoDb().scan(b -> b.tableName("IssueAttribIndexTable")).items().stream()
                .filter(item -> !item.containsKey("control")).findFirst().orElseThrow();
        tables.dynamoDb().deleteItem(b -> b.tableName("IssueAttribIndexTable")
                .key(Map.of("attribId", any.get("attribId"), "sortKey", any.get("sortKey"))));

        assertThat(run("verify", "--repair")).isZero();
        assertThat(printed()).as("this one and the one the JSON test deleted").contains("2 missing");
        out.reset();
        assertThat(run("verify")).isZero();
        assertThat(printed()).contains("0 missing, 0 stale, 0 orphaned");
    }

    @Test
    @Order(6)
    void jobStatus_printsAWorkerJobsSegmentsLeftItemsAndDrift() {
        com.multikey.reindex.JobStore jobs = new com.multikey.reindex.JobStore(tables.dynamoDb(), "ReindexJobsTable");
        com.multikey.reindex.JobSpec spec = new com.multikey.reindex.JobSpec("verify-7", com.multikey.reindex.JobSpec.Kind.VERIFY, 3, 600,
                3, 100);
        java.time.Instant now = java.time.Instant.now();
        jobs.create(spec, now);
        com.multikey.reindex.JobStore.Claim claim = jobs.claim("verify-7", 2, now).orElseThrow();
        jobs.checkpoint("verify-7", claim, com.multikey.reindex.SegmentPosition.DONE,
                new com.multikey.reindex.PageCounts(40, 30, 0, 2, 1, 0, 0), now);

        assertThat(run("job-status", "verify-7", "--jobs-table", "ReindexJobsTable")).as(err.toString()).isZero();

        assertThat(printed()).contains("job verify-7 (verify, 3 segments, 600 WCU/s over 3 at once): running, 2 segment(s) left")
                .contains("40 items read, 30 source items, 0 index writes").contains("drift: 2 missing, 1 stale, 0 orphaned");
        assertThat(run("job-status", "nope", "--jobs-table", "ReindexJobsTable")).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("error: no job nope in ReindexJobsTable");
    }

    @Test
    @Order(7)
    void jobStatusJson_printsTheJobsSpecProgressAndTotals() throws Exception {
        assertThat(run("job-status", "verify-7", "--jobs-table", "ReindexJobsTable", "--output", "json")).as(err.toString()).isZero();

        JsonNode job = JSON.readTree(printed());
        assertThat(job.path("jobId").asText()).isEqualTo("verify-7");
        assertThat(job.path("kind").asText()).isEqualTo("verify");
        assertThat(job.path("index").isNull()).isTrue();
        assertThat(job.path("totalSegments").asInt()).isEqualTo(3);
        assertThat(job.path("writeUnitsPerSecond").asDouble()).isEqualTo(600);
        assertThat(job.path("concurrency").asInt()).isEqualTo(3);
        assertThat(job.path("done").asBoolean()).isFalse();
        assertThat(job.path("segmentsLeft").asLong()).isEqualTo(2);
        assertThat(java.time.Instant.parse(job.path("startedAt").asText())).isNotNull();
        assertThat(job.path("finishedAt").isNull()).isTrue();
        assertThat(job.path("totals").path("items").asLong()).isEqualTo(40);
        assertThat(job.path("totals").path("sourceItems").asLong()).isEqualTo(30);
        assertThat(job.path("totals").path("issues").asLong()).as("the old name, kept for one release").isEqualTo(30);
        assertThat(job.path("totals").path("missing").asLong()).isEqualTo(2);
        assertThat(job.path("totals").path("stale").asLong()).isEqualTo(1);
        assertThat(job.path("totals").path("drift").asLong()).isEqualTo(3);
    }

    @Test
    void backfillOnAws_withoutTheWorkerFunction_failsClearly() {
        assertThat(run("backfill", "--on-aws")).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("--on-aws needs --function <ReindexWorkerFunctionName>")
                .contains("aws cloudformation describe-stacks");
    }

    @Test
    void noCommand_printsUsage_andExitsTwo() {
        assertThat(OperatorCli.run(new String[0], new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8))).isEqualTo(2);
        assertThat(printed()).contains("query", "backfill", "verify");
    }
}

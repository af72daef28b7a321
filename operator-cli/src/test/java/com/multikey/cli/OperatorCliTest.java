package com.multikey.cli;

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

    @RegisterExtension
    static final LocalTablesExtension TABLES = LocalTablesExtension.createdOnce();

    private final LocalTables tables;
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

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
        String[] all = new String[args.length + 2];
        System.arraycopy(args, 0, all, 0, args.length);
        all[args.length] = "--endpoint";
        all[args.length + 1] = tables.local().endpoint().toString();
        return OperatorCli.run(all, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private String printed() {
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    @Order(1)
    void verify_beforeAnyIndexing_findsEveryItemMissing_andExitsOne() {
        assertThat(run("verify")).isEqualTo(1);
        assertThat(printed()).contains("12 issues, 0 index items: 24 missing, 0 stale, 0 orphaned");
    }

    @Test
    @Order(2)
    void backfill_indexesTheIssuesWrittenBeforeTheStream_andVerifyThenFindsNothing() {
        assertThat(run("backfill", "--segments", "2")).as(err.toString(StandardCharsets.UTF_8)).isZero();
        assertThat(printed()).contains("backfill done: 12 issues indexed");

        assertThat(run("verify")).isZero();
        assertThat(printed()).contains("12 issues, 24 index items: 0 missing, 0 stale, 0 orphaned");
    }

    @Test
    @Order(3)
    void query_printsAPageInFieldOrder_withItsCursorAndCalls() {
        assertThat(run("query", "--project", "project#1", "--attribute", "size", "--page-size", "3", "--ge", "3")).as(err.toString()).isZero();

        assertThat(printed()).contains("1    issue#3        3     issue 3                        3")
                .contains("2    issue#8        8     issue 8                        3")
                .contains("3    issue#4        4     issue 4                        4")
                .contains("3 issue(s), 2 API call(s)").contains("next page: --cursor ");
    }

    @Test
    @Order(4)
    void query_withABadCursor_failsClearly() {
        assertThat(run("query", "--project", "project#1", "--attribute", "size", "--cursor", "garbage")).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("error: malformed cursor");
    }

    @Test
    @Order(5)
    void verifyRepair_putsBackADeletedIndexItem() {
        Map<String, AttributeValue> any = tables.dynamoDb().scan(b -> b.tableName("IssueAttribIndexTable").limit(1)).items().getFirst();
        tables.dynamoDb().deleteItem(b -> b.tableName("IssueAttribIndexTable")
                .key(Map.of("attribId", any.get("attribId"), "sortKey", any.get("sortKey"))));

        assertThat(run("verify", "--repair")).isZero();
        assertThat(printed()).contains("1 missing");
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
                .contains("40 items read, 30 issues, 0 index writes").contains("drift: 2 missing, 1 stale, 0 orphaned");
        assertThat(run("job-status", "nope", "--jobs-table", "ReindexJobsTable")).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("error: no job nope in ReindexJobsTable");
    }

    @Test
    void backfillOnAws_withoutTheWorkerFunction_failsClearly() {
        assertThat(run("backfill", "--on-aws")).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("--on-aws needs --function <ReindexWorkerFunctionName>");
    }

    @Test
    void noCommand_printsUsage_andExitsTwo() {
        assertThat(OperatorCli.run(new String[0], new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8))).isEqualTo(2);
        assertThat(printed()).contains("query", "backfill", "verify");
    }
}

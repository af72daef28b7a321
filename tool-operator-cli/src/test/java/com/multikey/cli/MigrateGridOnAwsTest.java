package com.multikey.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.multikey.index.GridLayoutStore;
import com.multikey.index.definition.GridState;
import com.multikey.index.definition.IndexDefinitions;
import com.multikey.reindex.Backfill;
import com.multikey.reindex.CheckpointStore;
import com.multikey.reindex.IndexRemoval;
import com.multikey.reindex.IndexScope;
import com.multikey.reindex.JobSpec;
import com.multikey.reindex.JobStore;
import com.multikey.reindex.PageCounts;
import com.multikey.reindex.SegmentPosition;
import com.multikey.reindex.Verifier;
import com.multikey.testkit.IssueFixtures;
import com.multikey.testkit.LocalTables;
import com.multikey.testkit.LocalTablesExtension;
import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code migrate-grid --on-aws}: the command drives the backfill, verify and removal as reindex worker jobs. The worker
 * function is stood in for by an HTTP server on the Lambda Invoke API that does each job's work in one go with the
 * reindex library and records it done in the jobs table, as the worker leaves a finished job.
 */
@ExtendWith(LocalTablesExtension.class)
class MigrateGridOnAwsTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Map<String, String> LOCAL = Map.of("AWS_REGION", "us-east-1", "AWS_ACCESS_KEY_ID", "local",
            "AWS_SECRET_ACCESS_KEY", "local");
    private static final IndexDefinitions DEFINITIONS = IndexDefinitions.packaged();
    private static final String APP = "AppTable";
    private static final String INDEX = "IssueAttribIndexTable";

    private final LocalTables tables;
    private final HttpServer lambda;
    private final List<String> jobs = new CopyOnWriteArrayList<>();
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    MigrateGridOnAwsTest(LocalTables tables) throws IOException {
        this.tables = tables;
        lambda = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        lambda.createContext("/", exchange -> {
            byte[] body;
            try {
                JsonNode request = JSON.readTree(exchange.getRequestBody().readAllBytes());
                work(request);
                body = "{\"resumed\":false,\"segmentsInvoked\":1}".getBytes(StandardCharsets.UTF_8);
                exchange.sendResponseHeaders(200, body.length);
            } catch (Exception e) {
                body = ("{\"errorMessage\":\"" + e + "\"}").getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().add("X-Amz-Function-Error", "Unhandled");
                exchange.sendResponseHeaders(200, body.length);
            }
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        lambda.start();
    }

    @AfterEach
    void stop() {
        lambda.stop(0);
    }

    /** The job's work in one go, in the stack's recorded grid layout state, then the job recorded done with its counts. */
    private void work(JsonNode request) throws InterruptedException {
        String jobId = request.path("jobId").asText();
        JobSpec.Kind kind = JobSpec.Kind.of(request.path("kind").asText());
        String index = request.path("index").asText();
        jobs.add(kind.label() + " " + index + " " + jobId);
        IndexDefinitions current = new GridLayoutStore(tables.dynamoDb(), INDEX, DEFINITIONS, false, Duration.ZERO, System::nanoTime)
                .current();
        PageCounts counts = switch (kind) {
            case BACKFILL -> {
                Backfill.Progress done = new Backfill(tables.dynamoDb(), APP, INDEX, IndexScope.of(current, Optional.of(index)), 100_000)
                        .run(CheckpointStore.open(null, 1), 1, p -> { }, Duration.ofSeconds(1));
                yield new PageCounts(done.itemsScanned(), done.itemsIndexed(), done.indexWrites(), 0, 0, 0, 0);
            }
            case VERIFY, REPAIR -> {
                Verifier.Report report = new Verifier(tables.dynamoDb(), APP, INDEX, IndexScope.of(current, Optional.of(index)))
                        .verify(kind == JobSpec.Kind.REPAIR);
                yield new PageCounts(report.items(), report.items(), 0, report.missingCount(), report.staleCount(), report.orphanedCount(),
                        report.repairedItems());
            }
            case REMOVE -> new PageCounts(0, 0, new IndexRemoval(tables.dynamoDb(), INDEX, current, index, 100_000, 100).run(1), 0, 0, 0, 0);
        };
        JobStore store = new JobStore(tables.dynamoDb(), "ReindexJobsTable");
        Instant now = Instant.now();
        store.create(new JobSpec(jobId, kind, 1, 1000, 1, 100, Optional.of(index)), now);
        JobStore.Claim claim = store.claim(jobId, 0, now).orElseThrow();
        store.checkpoint(jobId, claim, SegmentPosition.DONE, counts, now);
        store.completeIfLast(jobId, now);
    }

    private int run(String... args) {
        List<String> all = new java.util.ArrayList<>(List.of(args));
        all.addAll(List.of("--endpoint", tables.local().endpoint().toString(), "--lambda-endpoint",
                "http://127.0.0.1:" + lambda.getAddress().getPort()));
        return OperatorCli.run(all.toArray(String[]::new), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), LOCAL, false);
    }

    @Test
    void migrateGridOnAws_runsTheBackfillVerifyAndRemovalAsWorkerJobs_andEndsGrouped() throws Exception {
        // given: a stack that had the grid before
        for (int i = 1; i <= 8; i++) {
            Map<String, AttributeValue> item = Map.of("id", AttributeValue.fromS("issue#" + i), "project", AttributeValue.fromS("project#" + i % 2),
                    "num", AttributeValue.fromN(Integer.toString(i)),
                    "custom_fields", AttributeValue.fromM(Map.of("size", AttributeValue.fromN(Integer.toString(i % 3)))));
            tables.dynamoDb().putItem(b -> b.tableName(APP).item(item));
        }
        new Backfill(tables.dynamoDb(), APP, INDEX, IndexScope.all(DEFINITIONS), 10_000).run(CheckpointStore.open(null, 1), 1, p -> { },
                Duration.ofSeconds(1));

        // when
        int exit = run("migrate-grid", "--settle-seconds", "0", "--on-aws", "--function", "ReindexWorkerFunction", "--jobs-table",
                "ReindexJobsTable", "--output", "json");

        // then
        assertThat(exit).as(err.toString(StandardCharsets.UTF_8)).isZero();
        assertThat(JSON.readTree(out.toString(StandardCharsets.UTF_8))).isEqualTo(JSON.readTree("{\"state\":\"grouped\",\"done\":true}"));
        assertThat(jobs).hasSize(3);
        assertThat(jobs.get(0)).isEqualTo("backfill issue-grid migrate-grid-backfill");
        assertThat(jobs.get(1)).startsWith("repair issue-grid migrate-grid-verify-");
        assertThat(jobs.get(2)).isEqualTo("remove (field-partitioned) migrate-grid-remove");
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("job migrate-grid-backfill: 1/1 segments (100%)",
                "migrate-grid: removed 8 item(s) of the field-partitioned layout");
        assertThat(IssueFixtures.storedIndex(tables.dynamoDb(), INDEX)).isEqualTo(IssueFixtures.expectedIndex(tables.dynamoDb(), APP,
                DEFINITIONS.withGridState(GridState.GROUPED)));
    }
}

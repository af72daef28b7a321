package com.multikey.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.multikey.reindex.JobSpec;
import com.multikey.reindex.JobStore;
import com.multikey.reindex.PageCounts;
import com.multikey.reindex.SegmentPosition;
import com.multikey.testkit.LocalTables;
import com.multikey.testkit.LocalTablesExtension;
import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code --on-aws} against a stand-in of the Lambda Invoke API (it answers as the worker function does) and a jobs
 * table in the local DynamoDB engine: the start request, {@code --wait} with its progress lines, the JSON document, the exit code.
 */
@ExtendWith(LocalTablesExtension.class)
class WorkerJobsTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Map<String, String> LOCAL = Map.of("AWS_REGION", "us-east-1", "AWS_ACCESS_KEY_ID", "local",
            "AWS_SECRET_ACCESS_KEY", "local");

    private final LocalTables tables;
    private final HttpServer lambda;
    private final List<String> invocations = new CopyOnWriteArrayList<>();
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    WorkerJobsTest(LocalTables tables) throws IOException {
        this.tables = tables;
        lambda = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        lambda.createContext("/", exchange -> {
            String path = exchange.getRequestURI().getPath();
            invocations.add(path + " " + new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            byte[] body;
            if (path.contains("/functions/ReindexWorkerFunction/")) {
                body = "{\"resumed\":false,\"segmentsInvoked\":3}".getBytes(StandardCharsets.UTF_8);
                exchange.sendResponseHeaders(200, body.length);
            } else {
                body = "{\"Type\":\"User\",\"Message\":\"Function not found\"}".getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().add("x-amzn-ErrorType", "ResourceNotFoundException");
                exchange.sendResponseHeaders(404, body.length);
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

    private int run(String... args) {
        List<String> all = new java.util.ArrayList<>(List.of(args));
        all.addAll(List.of("--endpoint", tables.local().endpoint().toString(), "--lambda-endpoint",
                "http://127.0.0.1:" + lambda.getAddress().getPort()));
        return OperatorCli.run(all.toArray(String[]::new), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), LOCAL, false);
    }

    /** The job as the worker leaves it when its three segments are done, having found drift. */
    private void finishedVerifyJob(String jobId) {
        JobStore jobs = new JobStore(tables.dynamoDb(), "ReindexJobsTable");
        Instant now = Instant.now();
        jobs.create(new JobSpec(jobId, JobSpec.Kind.VERIFY, 3, 600, 3, 100), now);
        for (int segment = 0; segment < 3; segment++) {
            JobStore.Claim claim = jobs.claim(jobId, segment, now).orElseThrow();
            jobs.checkpoint(jobId, claim, SegmentPosition.DONE, new PageCounts(10, 8, 0, segment == 1 ? 2 : 0, 0, 0, 0), now);
        }
        jobs.completeIfLast(jobId, now).orElseThrow();
    }

    @Test
    void verifyOnAwsWait_json_startsTheJob_followsIt_andExitsOneOnDrift() throws Exception {
        finishedVerifyJob("verify-9");

        int exit = run("verify", "--on-aws", "--function", "ReindexWorkerFunction", "--jobs-table", "ReindexJobsTable", "--job-id",
                "verify-9", "--total-segments", "3", "--wait", "--output", "json");

        assertThat(exit).as(err.toString(StandardCharsets.UTF_8)).isEqualTo(1);
        JsonNode document = JSON.readTree(out.toString(StandardCharsets.UTF_8));
        assertThat(document.path("jobId").asText()).isEqualTo("verify-9");
        assertThat(document.path("kind").asText()).isEqualTo("verify");
        assertThat(document.path("resumed").asBoolean()).isFalse();
        assertThat(document.path("segmentsInvoked").asInt()).isEqualTo(3);
        assertThat(document.path("status").path("done").asBoolean()).isTrue();
        assertThat(document.path("status").path("totals").path("items").asLong()).isEqualTo(30);
        assertThat(document.path("status").path("totals").path("drift").asLong()).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8).lines()).containsExactly("job verify-9: 3/3 segments (100%), 30 items read, drift 2");
        assertThat(invocations).singleElement().satisfies(request -> assertThat(request)
                .startsWith("/2015-03-31/functions/ReindexWorkerFunction/invocations ")
                .contains("\"action\":\"start\"", "\"jobId\":\"verify-9\"", "\"kind\":\"verify\"", "\"totalSegments\":3"));
    }

    @Test
    void backfillOnAws_withoutWait_printsTheJobAndHowToFollowIt() {
        assertThat(run("backfill", "--on-aws", "--function", "ReindexWorkerFunction", "--job-id", "backfill-1")).isZero();

        assertThat(out.toString(StandardCharsets.UTF_8)).contains("job backfill-1 started: 3 segment(s) invoked",
                "follow it with: job-status backfill-1 --jobs-table <ReindexJobsTableName>");
    }

    @Test
    void aFunctionThatDoesNotExist_isNamed_withTheStackOutputToPass() {
        assertThat(run("verify", "--on-aws", "--function", "multikey-worker-typo")).isEqualTo(3);

        String printed = err.toString(StandardCharsets.UTF_8);
        assertThat(printed.lines()).hasSize(1);
        assertThat(printed).startsWith("error: function multikey-worker-typo does not exist at ")
                .contains("(--lambda-endpoint)", "pass --function with the stack output ReindexWorkerFunctionName");
    }
}

package com.multikey.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.multikey.common.ClientFactory;
import com.multikey.reindex.JobSpec;
import com.multikey.reindex.JobStatus;
import com.multikey.reindex.JobStore;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.lambda.LambdaClient;
import software.amazon.awssdk.services.lambda.model.InvokeResponse;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * Reindex jobs run by the stack's reindex worker function ({@code backfill --on-aws}, {@code verify --on-aws
 * [--repair]}): the start request is a synchronous Invoke of the function the stack output
 * {@code ReindexWorkerFunctionName} names; {@code job-status} reads the table {@code ReindexJobsTableName}.
 */
final class WorkerJobs {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final DateTimeFormatter JOB_ID_TIME = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC);

    private WorkerJobs() {
    }

    /** Options of a job the worker function runs. */
    static final class Options {
        @Option(names = "--on-aws", description = "run as a job of the stack's reindex worker function, over many segments")
        boolean onAws;

        @Option(names = "--function", description = "the worker function (stack output ReindexWorkerFunctionName)")
        String function;

        @Option(names = "--jobs-table", description = "the jobs table (stack output ReindexJobsTableName), for --wait")
        String jobsTable;

        @Option(names = "--lambda-endpoint", description = "Lambda endpoint, e.g. http://localhost:4011 (default: AWS)")
        String lambdaEndpoint;

        @Option(names = "--job-id", description = "job id; an existing one resumes its unfinished segments (default: <kind>-<UTC time>)")
        String jobId;

        @Option(names = "--total-segments", defaultValue = "200", description = "scan segments of the job (default ${DEFAULT-VALUE})")
        int totalSegments;

        @Option(names = "--wcu", defaultValue = "1000", description = "index write units a second all segments share (default ${DEFAULT-VALUE})")
        double writeUnitsPerSecond;

        @Option(names = "--concurrency", description = "segments at once (default: the worker's reserved concurrency)")
        Integer concurrency;

        @Option(names = "--page-size", defaultValue = "100", description = "items per scan page and checkpoint (default ${DEFAULT-VALUE})")
        int pageSize;

        @Option(names = "--wait", description = "print the job's progress until it is done (needs --jobs-table)")
        boolean await;
    }

    /** Starts (or resumes) the job; with {@code --wait} follows it. Exit code: 0, or 1 when a verify found drift. */
    static int start(Options options, JobSpec.Kind kind, TableCommands.Tables tables, PrintStream out) throws InterruptedException {
        return start(options, kind, java.util.Optional.empty(), tables, out);
    }

    /** @param index the one index the job works on (every declared index when empty; the removed one for a removal) */
    static int start(Options options, JobSpec.Kind kind, java.util.Optional<String> index, TableCommands.Tables tables, PrintStream out)
            throws InterruptedException {
        if (options.function == null) {
            throw new IllegalArgumentException("--on-aws needs --function <ReindexWorkerFunctionName> (a stack output)");
        }
        if (options.await && options.jobsTable == null) {
            throw new IllegalArgumentException("--wait needs --jobs-table <ReindexJobsTableName> (a stack output)");
        }
        String jobId = options.jobId != null ? options.jobId : kind.label() + "-" + JOB_ID_TIME.format(Instant.now());
        ObjectNode request = JSON.createObjectNode().put("action", "start").put("jobId", jobId).put("kind", kind.label())
                .put("totalSegments", options.totalSegments).put("writeUnitsPerSecond", options.writeUnitsPerSecond)
                .put("pageSize", options.pageSize);
        if (options.concurrency != null) {
            request.put("concurrency", options.concurrency);
        }
        index.ifPresent(name -> request.put("index", name));
        JsonNode answer;
        try (LambdaClient lambda = lambda(options)) {
            InvokeResponse response = lambda.invoke(b -> b.functionName(options.function).payload(SdkBytes.fromUtf8String(request.toString())));
            String payload = response.payload().asUtf8String();
            if (response.functionError() != null) {
                JsonNode error = read(payload);
                throw new IllegalArgumentException("the worker refused the job: " + error.path("errorMessage").asText(payload));
            }
            answer = read(payload);
        }
        out.printf("job %s %s: %d segment(s) invoked%n", jobId, answer.path("resumed").asBoolean() ? "resumed" : "started",
                answer.path("segmentsInvoked").asInt());
        if (!options.await) {
            out.printf("follow it with: job-status %s --jobs-table <ReindexJobsTableName>%n", jobId);
            return 0;
        }
        try (DynamoDbClient dynamoDb = tables.client()) {
            JobStore jobs = new JobStore(dynamoDb, options.jobsTable);
            while (true) {
                JobStatus status = jobs.job(jobId).orElseThrow();
                print(status, out);
                if (status.done()) {
                    return kind == JobSpec.Kind.VERIFY && status.totals().drift() > 0 ? 1 : 0;
                }
                Thread.sleep(Duration.ofSeconds(5).toMillis());
            }
        }
    }

    private static JsonNode read(String json) {
        try {
            return JSON.readTree(json);
        } catch (IOException e) {
            throw new UncheckedIOException("the worker answered no JSON: " + json, e);
        }
    }

    private static LambdaClient lambda(Options options) {
        Map<String, String> env = new HashMap<>(System.getenv());
        if (options.lambdaEndpoint != null) {
            env.put("AWS_ENDPOINT_URL_LAMBDA", options.lambdaEndpoint);
            env.putIfAbsent("AWS_REGION", "us-east-1");
            env.putIfAbsent("AWS_ACCESS_KEY_ID", "local");
            env.putIfAbsent("AWS_SECRET_ACCESS_KEY", "local");
        }
        // the start writes one item per segment and invokes each: allow it the time a synchronous Invoke may take
        return new ClientFactory(env).configure(LambdaClient.builder(), "LAMBDA")
                .overrideConfiguration(o -> o.apiCallAttemptTimeout(Duration.ofMinutes(15)).apiCallTimeout(Duration.ofMinutes(15)))
                .httpClient(software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient.builder()
                        .socketTimeout(Duration.ofMinutes(15)).build())
                .build();
    }

    static void print(JobStatus status, PrintStream out) {
        JobSpec spec = status.spec();
        Instant end = status.finishedAt().orElse(Instant.now());
        double seconds = Math.max(1e-3, Duration.between(status.startedAt(), end).toMillis() / 1000.0);
        out.printf("job %s (%s%s, %d segments, %.0f WCU/s over %d at once): %s, %d segment(s) left%n", spec.jobId(), spec.kind().label(),
                spec.index().map(name -> " of index " + name).orElse(""), spec.totalSegments(), spec.writeUnitsPerSecond(), spec.concurrency(), status.done() ? "done" : "running",
                status.segmentsLeft());
        out.printf("  %d items read, %d issues, %d index writes, %.0f items/s over %.0f s%n", status.totals().items(),
                status.totals().issues(), status.totals().writes(), status.totals().items() / seconds, seconds);
        if (spec.kind() == JobSpec.Kind.VERIFY || spec.kind() == JobSpec.Kind.REPAIR) {
            out.printf("  drift: %d missing, %d stale, %d orphaned; %d issue repair(s)%n", status.totals().missing(),
                    status.totals().stale(), status.totals().orphaned(), status.totals().repaired());
        }
    }

    @Command(name = "job-status", description = "Prints a reindex job of the worker function: segments left, items done, drift.")
    static final class JobStatusCommand implements Callable<Integer> {
        @CommandLine.ParentCommand
        OperatorCli parent;
        @CommandLine.Mixin
        TableCommands.Tables tables = new TableCommands.Tables();
        @CommandLine.Parameters(index = "0", description = "the job id")
        String jobId;
        @Option(names = "--jobs-table", required = true, description = "the jobs table (stack output ReindexJobsTableName)")
        String jobsTable;

        @Override
        public Integer call() {
            try (DynamoDbClient dynamoDb = tables.client()) {
                JobStatus status = new JobStore(dynamoDb, jobsTable).job(jobId)
                        .orElseThrow(() -> new IllegalArgumentException("no job " + jobId + " in " + jobsTable));
                print(status, parent.out);
                return 0;
            }
        }
    }
}

package com.multikey.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.multikey.clikit.Failure;
import com.multikey.clikit.Output;
import com.multikey.clikit.ProgressDisplay;
import com.multikey.common.ClientFactory;
import com.multikey.reindex.JobSpec;
import com.multikey.reindex.JobStatus;
import com.multikey.reindex.JobStore;
import com.multikey.reindex.PageCounts;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;

/**
 * Reindex jobs run by the stack's reindex worker function ({@code backfill --on-aws}, {@code verify --on-aws
 * [--repair]}): the start request is a synchronous Invoke of the function the stack output
 * {@code ReindexWorkerFunctionName} names; {@code job-status} reads the table {@code ReindexJobsTableName}.
 */
final class WorkerJobs {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration POLL_EVERY = Duration.ofSeconds(5);
    private static final DateTimeFormatter JOB_ID_TIME = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC);

    private WorkerJobs() {
    }

    /** Options of a job the worker function runs. */
    static final class Options {
        @Option(names = "--on-aws", description = "run as a job of the stack's reindex worker function, over many segments")
        boolean onAws;

        @Option(names = "--function", description = "the worker function: the stack output ReindexWorkerFunctionName "
                + "(ReindexWorkerFunction on the local stack)")
        String function;

        @Option(names = "--jobs-table", description = "the jobs table, for --wait: the stack output ReindexJobsTableName "
                + "(ReindexJobsTable on the local stack)")
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

        @Option(names = "--wait", description = "show the job's progress until it is done, then its status (needs --jobs-table)")
        boolean await;

        List<ClientEnvironment.Endpoint> endpoints(TableCommands.Tables tables) {
            List<ClientEnvironment.Endpoint> endpoints = new ArrayList<>(tables.endpoints());
            endpoints.add(new ClientEnvironment.Endpoint("--lambda-endpoint", lambdaEndpoint, List.of("LAMBDA")));
            return endpoints;
        }

        /** Where a command that may run on AWS talks to: its tables (and jobs table), and the worker function. */
        Failures.Context context(Map<String, String> environment, TableCommands.Tables tables) {
            List<TableCommands.TableRef> refs = new ArrayList<>(tables.tables());
            if (jobsTable != null) {
                refs.add(new TableCommands.TableRef("--jobs-table", jobsTable, "ReindexJobsTableName"));
            }
            Failures.Context onTables = tables.context(environment, refs);
            Map<String, String> given = onAws ? ClientEnvironment.given(endpoints(tables)) : onTables.endpoints();
            return new Failures.Context(onTables.region(), given, e -> {
                if (e instanceof software.amazon.awssdk.services.lambda.model.ResourceNotFoundException) {
                    return Optional.of("function " + function + " does not exist " + new Failures.Context(onTables.region(), given,
                            onTables.notFound()).where() + ": pass --function with the stack output ReindexWorkerFunctionName ("
                            + Failures.STACK_OUTPUTS + "; ReindexWorkerFunction on the local stack)");
                }
                return onTables.notFound().apply(e);
            });
        }
    }

    /**
     * Starts (or resumes) the job; with {@code --wait} follows it. Exit code: 0, or 1 when a verify found drift.
     *
     * @param index the one index the job works on (every declared index when empty; the removed one for a removal)
     */
    static int start(Options options, JobSpec.Kind kind, Optional<String> index, TableCommands.Tables tables, Output output,
                     OperatorCli cli) throws InterruptedException {
        if (options.function == null) {
            throw Failure.usage("--on-aws needs --function <ReindexWorkerFunctionName> (a stack output: " + Failures.STACK_OUTPUTS + ")");
        }
        if (options.await && options.jobsTable == null) {
            throw Failure.usage("--wait needs --jobs-table <ReindexJobsTableName> (a stack output: " + Failures.STACK_OUTPUTS + ")");
        }
        String jobId = options.jobId != null ? options.jobId : kind.label() + "-" + JOB_ID_TIME.format(Instant.now());
        JsonNode answer = invokeStart(options, kind, index, jobId, tables, cli);
        boolean resumed = answer.path("resumed").asBoolean();
        int invoked = answer.path("segmentsInvoked").asInt();
        ObjectNode document = Output.object().put("jobId", jobId).put("kind", kind.label()).put("resumed", resumed)
                .put("segmentsInvoked", invoked);
        if (!output.json()) {
            cli.out.printf("job %s %s: %d segment(s) invoked%n", jobId, resumed ? "resumed" : "started", invoked);
        }
        if (!options.await) {
            if (output.json()) {
                Output.print(document, cli.out);
            } else {
                cli.out.printf("follow it with: job-status %s --jobs-table <ReindexJobsTableName>%n", jobId);
            }
            return OperatorCli.DONE;
        }
        JobStatus status = follow(jobId, options.jobsTable, tables, cli);
        if (output.json()) {
            document.set("status", json(status));
            Output.print(document, cli.out);
        } else {
            print(status, cli.out);
        }
        return kind == JobSpec.Kind.VERIFY && status.totals().drift() > 0 ? OperatorCli.FOUND : OperatorCli.DONE;
    }

    /** Asks the worker function to start (or resume) a job; its answer. */
    private static JsonNode invokeStart(Options options, JobSpec.Kind kind, Optional<String> index, String jobId,
                                        TableCommands.Tables tables, OperatorCli cli) {
        ObjectNode request = JSON.createObjectNode().put("action", "start").put("jobId", jobId).put("kind", kind.label())
                .put("totalSegments", options.totalSegments).put("writeUnitsPerSecond", options.writeUnitsPerSecond)
                .put("pageSize", options.pageSize);
        if (options.concurrency != null) {
            request.put("concurrency", options.concurrency);
        }
        index.ifPresent(name -> request.put("index", name));
        try (LambdaClient lambda = lambda(options, tables, cli.environment)) {
            InvokeResponse response = lambda.invoke(b -> b.functionName(options.function).payload(SdkBytes.fromUtf8String(request.toString())));
            String payload = response.payload().asUtf8String();
            if (response.functionError() != null) {
                JsonNode error = read(payload);
                throw Failure.usage("the worker refused the job: " + error.path("errorMessage").asText(payload));
            }
            return read(payload);
        }
    }

    /**
     * Starts (or resumes) a job and follows it to its end, its progress on standard error: a step of a command made of
     * jobs ({@code migrate-grid --on-aws}). A job id already done answers its status again.
     */
    static JobStatus run(Options options, JobSpec.Kind kind, Optional<String> index, String jobId, TableCommands.Tables tables,
                         OperatorCli cli) throws InterruptedException {
        if (options.function == null || options.jobsTable == null) {
            throw Failure.usage("--on-aws needs --function <ReindexWorkerFunctionName> and --jobs-table <ReindexJobsTableName> "
                    + "(stack outputs: " + Failures.STACK_OUTPUTS + ")");
        }
        invokeStart(options, kind, index, jobId, tables, cli);
        return follow(jobId, options.jobsTable, tables, cli);
    }

    /** Polls the job until it is done, showing its segments done as progress. */
    private static JobStatus follow(String jobId, String jobsTable, TableCommands.Tables tables, OperatorCli cli) throws InterruptedException {
        try (DynamoDbClient dynamoDb = tables.client(cli.environment);
             ProgressDisplay progress = ProgressDisplay.open("job " + jobId, "segments", cli.err, cli.terminal)) {
            JobStore jobs = new JobStore(dynamoDb, jobsTable);
            while (true) {
                JobStatus status = jobs.job(jobId).orElseThrow(() -> Failure.usage("no job " + jobId + " in " + jobsTable
                        + ": pass the jobs table of the worker's stack (stack output ReindexJobsTableName)"));
                long total = status.spec().totalSegments();
                progress.update(total - status.segmentsLeft(), total, status.totals().items() + " items read"
                        + (status.spec().kind() == JobSpec.Kind.VERIFY || status.spec().kind() == JobSpec.Kind.REPAIR
                        ? ", drift " + status.totals().drift() : ""));
                if (status.done()) {
                    return status;
                }
                Thread.sleep(POLL_EVERY.toMillis());
            }
        }
    }

    /** A job's status as {@code job-status --output json} prints it (docs/commands.md). */
    static ObjectNode json(JobStatus status) {
        JobSpec spec = status.spec();
        ObjectNode document = Output.object().put("jobId", spec.jobId()).put("kind", spec.kind().label())
                .put("index", spec.index().orElse(null)).put("totalSegments", spec.totalSegments())
                .put("writeUnitsPerSecond", spec.writeUnitsPerSecond()).put("concurrency", spec.concurrency())
                .put("pageSize", spec.pageSize()).put("done", status.done()).put("segmentsLeft", status.segmentsLeft())
                .put("startedAt", status.startedAt().toString()).put("finishedAt", status.finishedAt().map(Instant::toString).orElse(null))
                .put("seconds", seconds(status)).put("itemsPerSecond", Math.round(status.totals().items() / seconds(status)));
        PageCounts totals = status.totals();
        // issues: the old name of sourceItems, kept for one release
        document.putObject("totals").put("items", totals.items()).put("sourceItems", totals.sourceItems()).put("issues", totals.sourceItems())
                .put("writes", totals.writes())
                .put("missing", totals.missing()).put("stale", totals.stale()).put("orphaned", totals.orphaned())
                .put("repaired", totals.repaired()).put("drift", totals.drift());
        return document;
    }

    private static double seconds(JobStatus status) {
        Instant end = status.finishedAt().orElse(Instant.now());
        return Math.max(1e-3, Duration.between(status.startedAt(), end).toMillis() / 1000.0);
    }

    private static JsonNode read(String json) {
        try {
            return JSON.readTree(json);
        } catch (IOException e) {
            throw new UncheckedIOException("the worker answered no JSON: " + json, e);
        }
    }

    private static LambdaClient lambda(Options options, TableCommands.Tables tables, Map<String, String> environment) {
        Map<String, String> env = ClientEnvironment.of(environment, options.endpoints(tables));
        // the start writes one item per segment and invokes each: allow it the time a synchronous Invoke may take
        return new ClientFactory(env).configure(LambdaClient.builder(), "LAMBDA")
                .overrideConfiguration(o -> o.apiCallAttemptTimeout(Duration.ofMinutes(15)).apiCallTimeout(Duration.ofMinutes(15)))
                .httpClient(software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient.builder()
                        .socketTimeout(Duration.ofMinutes(15)).build())
                .build();
    }

    static void print(JobStatus status, PrintStream out) {
        JobSpec spec = status.spec();
        double seconds = seconds(status);
        out.printf("job %s (%s%s, %d segments, %.0f WCU/s over %d at once): %s, %d segment(s) left%n", spec.jobId(), spec.kind().label(),
                spec.index().map(name -> " of index " + name).orElse(""), spec.totalSegments(), spec.writeUnitsPerSecond(), spec.concurrency(), status.done() ? "done" : "running",
                status.segmentsLeft());
        out.printf("  %d items read, %d source items, %d index writes, %.0f items/s over %.0f s%n", status.totals().items(),
                status.totals().sourceItems(), status.totals().writes(), status.totals().items() / seconds, seconds);
        if (spec.kind() == JobSpec.Kind.VERIFY || spec.kind() == JobSpec.Kind.REPAIR) {
            out.printf("  drift: %d missing, %d stale, %d orphaned; %d item repair(s)%n", status.totals().missing(),
                    status.totals().stale(), status.totals().orphaned(), status.totals().repaired());
        }
    }

    @Command(name = "job-status", mixinStandardHelpOptions = true,
            description = "Prints a reindex job of the worker function: segments left, items done, drift.",
            exitCodeListHeading = "%nExit codes:%n",
            exitCodeList = {"0:the job's status was printed (done or running; its drift is in the output)",
                    "2:bad usage, or no such job in the jobs table", OperatorCli.SERVICE_FAILED})
    static final class JobStatusCommand implements Callable<Integer>, Failures.Located {
        @CommandLine.ParentCommand
        OperatorCli parent;
        @CommandLine.Mixin
        TableCommands.Tables tables = new TableCommands.Tables();
        @CommandLine.Mixin
        Output output = new Output();
        @CommandLine.Parameters(index = "0", paramLabel = "JOB_ID", description = "the job id (backfill and verify --on-aws print it)")
        String jobId;
        @Option(names = "--jobs-table", description = "the jobs table: the stack output ReindexJobsTableName (ReindexJobsTable on the "
                + "local stack)")
        String jobsTable;

        @Override
        public Failures.Context context() {
            return tables.context(parent.environment, jobsTable == null ? List.of()
                    : List.of(new TableCommands.TableRef("--jobs-table", jobsTable, "ReindexJobsTableName")));
        }

        @Override
        public Integer call() {
            if (jobsTable == null) {
                throw Failure.usage("job-status needs --jobs-table <ReindexJobsTableName> (a stack output: " + Failures.STACK_OUTPUTS
                        + "; ReindexJobsTable on the local stack)");
            }
            try (DynamoDbClient dynamoDb = tables.client(parent.environment)) {
                JobStatus status = new JobStore(dynamoDb, jobsTable).job(jobId)
                        .orElseThrow(() -> Failure.usage("no job " + jobId + " in " + jobsTable + ": check the id (backfill and verify "
                                + "--on-aws print it; scheduled drift checks are drift-<time>)"));
                if (output.json()) {
                    Output.print(json(status), parent.out);
                } else {
                    print(status, parent.out);
                }
                return OperatorCli.DONE;
            }
        }
    }
}

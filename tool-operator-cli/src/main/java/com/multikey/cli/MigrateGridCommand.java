package com.multikey.cli;

import com.multikey.clikit.Failure;
import com.multikey.clikit.Output;
import com.multikey.clikit.ProgressDisplay;
import com.multikey.common.Sleeper;
import com.multikey.index.GridLayoutStore;
import com.multikey.index.definition.IndexDefinitions;
import com.multikey.reindex.GridMigration;
import com.multikey.reindex.IndexRemoval;
import com.multikey.reindex.JobSpec;
import com.multikey.reindex.JobStatus;
import com.multikey.reindex.JobStore;
import com.multikey.reindex.SegmentVerifier;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;

/**
 * {@code migrate-grid}: moves a stack's issue grid from the field-partitioned layout to the grouped one beside the
 * running stream ({@link GridMigration}), its heavy steps in this process or as jobs of the stack's reindex worker.
 */
@Command(name = "migrate-grid", mixinStandardHelpOptions = true,
        description = "Moves the issue grid of a stack that had it before to the grouped layout (one partition per project and "
                + "field) while the stream runs: backfill, verify, switch the readers, remove the old layout's items. Each step "
                + "is recorded in the index table: run it again after any failure and it goes on where it stopped.",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:the grid is in the grouped layout and the old layout's items are removed",
                "1:the grouped grid still differed after the verify rounds: readers still read the old layout; run it again",
                TableCommands.BAD_USAGE, TableCommands.SERVICE_FAILED})
final class MigrateGridCommand implements Callable<Integer>, Failures.Located {

    private static final DateTimeFormatter JOB_ID_TIME = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC);

    @CommandLine.ParentCommand
    OperatorCli parent;
    @CommandLine.Mixin
    TableCommands.Tables tables = new TableCommands.Tables();
    @CommandLine.Mixin
    Output output = new Output();
    @Option(names = "--segments", defaultValue = "4", description = "parallel scan segments in this process (default ${DEFAULT-VALUE})")
    int segments;
    @Option(names = "--rate", defaultValue = "1000", description = "index writes per second at most (default ${DEFAULT-VALUE})")
    double rate;
    @Option(names = "--settle-seconds", defaultValue = "75", description = "how long every function takes to follow a recorded state: "
            + "their state cache (GRID_LAYOUT_CACHE_SECONDS, 10) plus the longest invocation of the indexer (60) and a margin; "
            + "waited after each change of who writes or reads what (default ${DEFAULT-VALUE})")
    long settleSeconds;
    @CommandLine.ArgGroup(exclusive = false, heading = "On AWS, the backfill, verify and removal as jobs of the stack's reindex worker:%n")
    WorkerJobs.Options aws = new WorkerJobs.Options();

    @Override
    public Failures.Context context() {
        return aws.context(parent.environment, tables);
    }

    @Override
    public Integer call() throws InterruptedException {
        IndexDefinitions definitions = tables.definitions(parent.environment);
        if (definitions.groupedGrid().isEmpty()) {
            throw Failure.usage("the definitions declare no grouped index that replaces the field-partitioned issue grid "
                    + "(index-definitions.yaml: an index with replaces: custom_fields); nothing to migrate to");
        }
        if (settleSeconds < 0) {
            throw Failure.usage("--settle-seconds must be 0 or more");
        }
        GridMigration.Outcome outcome;
        try (DynamoDbClient client = tables.client(parent.environment)) {
            GridLayoutStore store = new GridLayoutStore(client, tables.indexTable, definitions, true, Duration.ZERO, System::nanoTime);
            GridMigration.InProcess inProcess = new GridMigration.InProcess(client, tables.appTable, tables.indexTable, segments, rate);
            GridMigration.Work work = aws.onAws ? new OnAws(client, inProcess) : inProcess;
            outcome = new GridMigration(store, definitions, work, Duration.ofSeconds(settleSeconds), Sleeper.SYSTEM).run(new Shown());
        }
        if (output.json()) {
            Output.print(Output.object().put("state", outcome.state().label()).put("done", outcome.done()), parent.out);
        } else {
            parent.out.printf("grid layout: %s%s%n", outcome.state().label(), outcome.done() ? ", the old layout's items removed: migrated"
                    : ", not finished: run migrate-grid again");
        }
        return outcome.done() ? OperatorCli.DONE : OperatorCli.FOUND;
    }

    /** Steps as lines on standard error, the heavy steps' progress as a bar or lines. */
    private final class Shown implements GridMigration.Listener {
        private ProgressDisplay progress;

        @Override
        public synchronized void step(String message) {
            if (progress != null) {
                progress.close();
                progress = null;
            }
            parent.err.println("migrate-grid: " + message);
        }

        @Override
        public synchronized void progress(long done, long total, String detail) {
            if (progress == null) {
                progress = ProgressDisplay.open("migrate-grid", "items", parent.err, parent.terminal);
            }
            progress.update(done, Math.max(total, done), detail);
        }
    }

    /**
     * The heavy steps as reindex worker jobs, their ids fixed for the backfill and the removal so that a run again resumes the
     * job it started; a verify is a repair job of its own each round, whose segments keep the keys of the differences they
     * found in the jobs table. This process looks at each of those again after the stream's lag, as the in-process verify
     * does: a few reads and conditional writes, not a scan.
     */
    private final class OnAws implements GridMigration.Work {
        private final DynamoDbClient dynamoDb;
        private final GridMigration.InProcess here;

        OnAws(DynamoDbClient dynamoDb, GridMigration.InProcess here) {
            this.dynamoDb = dynamoDb;
            this.here = here;
        }

        @Override
        public void backfill(IndexDefinitions definitions, String index, GridMigration.Listener listener) throws InterruptedException {
            WorkerJobs.run(aws, JobSpec.Kind.BACKFILL, Optional.of(index), "migrate-grid-backfill", tables, parent);
        }

        @Override
        public GridMigration.Found verify(IndexDefinitions definitions, String index, GridMigration.Listener listener)
                throws InterruptedException {
            String jobId = "migrate-grid-verify-" + JOB_ID_TIME.format(Instant.now());
            JobStatus status = WorkerJobs.run(aws, JobSpec.Kind.REPAIR, Optional.of(index), jobId, tables, parent);
            long drift = status.totals().drift();
            if (drift == 0 || drift > GridMigration.MAX_KEPT) {
                return new GridMigration.Found(drift, List.of(), drift == 0);
            }
            // every difference when the segments kept as many as they counted (each keeps a bounded number)
            List<SegmentVerifier.Discrepancy> kept = new JobStore(dynamoDb, aws.jobsTable).found(jobId, GridMigration.MAX_KEPT);
            return new GridMigration.Found(drift, kept, kept.size() == drift);
        }

        @Override
        public List<SegmentVerifier.Discrepancy> recheck(IndexDefinitions definitions, String index, List<SegmentVerifier.Discrepancy> found) {
            return here.recheck(definitions, index, found);
        }

        @Override
        public long removeFieldPartitioned(IndexDefinitions definitions, GridMigration.Listener listener) throws InterruptedException {
            return WorkerJobs.run(aws, JobSpec.Kind.REMOVE, Optional.of(IndexRemoval.FIELD_PARTITIONED), "migrate-grid-remove", tables, parent)
                    .totals().writes();
        }
    }
}

package com.multikey.cli;

import com.multikey.clikit.Output;
import com.multikey.clikit.ProgressDisplay;
import com.multikey.reindex.Backfill;
import com.multikey.reindex.CheckpointStore;
import com.multikey.reindex.JobSpec;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Callable;

import static com.multikey.cli.TableCommands.BAD_USAGE;
import static com.multikey.cli.TableCommands.SERVICE_FAILED;

/** {@code backfill}: indexes the app table's items, in this process or as a job of the reindex worker. */
@Command(name = "backfill", mixinStandardHelpOptions = true,
        description = "Indexes the app table's existing items into every declared index, or the one --index "
                + "names (parallel scan; resumable; rate-limited).",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:backfilled (--on-aws: the job started; with --wait: it finished)", BAD_USAGE, SERVICE_FAILED})
final class BackfillCommand implements Callable<Integer>, Failures.Located {
    @CommandLine.ParentCommand
    OperatorCli parent;
    @CommandLine.Mixin
    TableCommands.Tables tables = new TableCommands.Tables();
    @CommandLine.Mixin
    Output output = new Output();
    @Option(names = "--segments", defaultValue = "4", description = "parallel scan segments (default ${DEFAULT-VALUE})")
    int segments;
    @Option(names = "--rate", defaultValue = "1000", description = "index writes per second at most (default ${DEFAULT-VALUE})")
    double rate;
    @Option(names = "--checkpoint", description = "file to resume from and record progress in (default: none, start over)")
    Path checkpoint;
    @Option(names = "--index", description = "only this declared index (default: every one)")
    String index;
    @CommandLine.ArgGroup(exclusive = false, heading = "On AWS, by the stack's reindex worker function:%n")
    WorkerJobs.Options aws = new WorkerJobs.Options();

    @Override
    public Failures.Context context() {
        return aws.context(parent.environment, tables);
    }

    @Override
    public Integer call() throws InterruptedException {
        if (aws.onAws) {
            tables.scope(parent.environment, index);
            return WorkerJobs.start(aws, JobSpec.Kind.BACKFILL, Optional.ofNullable(index), tables, output, parent);
        }
        // the definitions first: a file that cannot work is named before any endpoint is contacted
        tables.scope(parent.environment, index);
        Backfill.Progress done;
        try (DynamoDbClient client = tables.client(parent.environment);
             ProgressDisplay progress = ProgressDisplay.open("backfill", "items", parent.err, parent.terminal)) {
            done = new Backfill(client, tables.appTable, tables.indexTable, tables.scope(parent.environment, index, client), rate)
                    .run(CheckpointStore.open(checkpoint, segments), segments, p -> progress.update(p.itemsScanned(), p.itemsTotal(),
                            p.itemsIndexed() + " issues indexed, " + p.indexWrites() + " index writes"), Duration.ofSeconds(1));
        }
        if (output.json()) {
            Output.print(Output.object().put("itemsScanned", done.itemsScanned()).put("itemsIndexed", done.itemsIndexed())
                        .put("issuesIndexed", done.itemsIndexed()) // the old name, kept for one release (docs/commands.md)
                    .put("indexWrites", done.indexWrites()).put("itemsPerSecond", Math.round(done.itemsPerSecond())), parent.out);
        } else {
            parent.out.printf("backfill done: %d items scanned, %d issues indexed (%d index writes)%n", done.itemsScanned(),
                    done.itemsIndexed(), done.indexWrites());
        }
        return OperatorCli.DONE;
    }
}

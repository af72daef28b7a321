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
    TableCommands.ScanOptions scan = new TableCommands.ScanOptions();
    @Option(names = "--rate", defaultValue = "1000", description = "index writes per second at most (default ${DEFAULT-VALUE})")
    double rate;
    @Option(names = "--checkpoint", description = "file to resume from and record progress in (default: none, start over)")
    Path checkpoint;
    @Option(names = "--index", description = "only this declared index (default: every one)")
    String index;

    @Override
    public Failures.Context context() {
        return scan.context(parent.environment);
    }

    @Override
    public Integer call() throws InterruptedException {
        if (scan.aws.onAws) {
            scan.tables.scope(parent.environment, index);
            return WorkerJobs.start(scan.aws, JobSpec.Kind.BACKFILL, Optional.ofNullable(index), scan.tables, scan.output, parent);
        }
        // the definitions first: a file that cannot work is named before any endpoint is contacted
        scan.tables.scope(parent.environment, index);
        Backfill.Progress done;
        try (DynamoDbClient client = scan.tables.client(parent.environment);
             ProgressDisplay progress = ProgressDisplay.open("backfill", "items", parent.err, parent.terminal)) {
            Backfill backfill = new Backfill(client, scan.tables.appTable, scan.tables.indexTable,
                    scan.tables.scope(parent.environment, index, client), rate);
            done = backfill.run(CheckpointStore.open(checkpoint, scan.segments), scan.segments, p -> progress.update(p.itemsScanned(),
                    p.itemsTotal(), p.itemsIndexed() + " items indexed, " + p.indexWrites() + " index writes"), Duration.ofSeconds(1));
        }
        if (scan.output.json()) {
            Output.print(Output.object().put("itemsScanned", done.itemsScanned()).put("itemsIndexed", done.itemsIndexed())
                        .put("issuesIndexed", done.itemsIndexed()) // the old name, kept for one release (docs/commands.md)
                    .put("indexWrites", done.indexWrites()).put("itemsPerSecond", Math.round(done.itemsPerSecond())), parent.out);
        } else {
            parent.out.printf("backfill done: %d items scanned, %d items indexed (%d index writes)%n", done.itemsScanned(),
                    done.itemsIndexed(), done.indexWrites());
        }
        return OperatorCli.DONE;
    }
}

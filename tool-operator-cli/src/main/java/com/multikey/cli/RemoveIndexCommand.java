package com.multikey.cli;

import com.multikey.clikit.Output;
import com.multikey.clikit.ProgressDisplay;
import com.multikey.index.definition.IndexDefinitions;
import com.multikey.reindex.IndexRemoval;
import com.multikey.reindex.JobSpec;
import com.multikey.reindex.PageOutcome;
import com.multikey.reindex.SegmentPosition;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

import java.util.Optional;
import java.util.concurrent.Callable;

import static com.multikey.cli.TableCommands.BAD_USAGE;
import static com.multikey.cli.TableCommands.SERVICE_FAILED;
import static com.multikey.cli.TableCommands.itemCount;

/** {@code remove-index}: deletes the items of an index taken out of the definitions. */
@Command(name = "remove-index", mixinStandardHelpOptions = true,
        description = "Deletes the items of an index no longer declared (take it out of the definitions and "
                + "deploy first); idempotent. --index (field-partitioned) removes the original issue grid layout's items.",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:removed (--on-aws: the job started; with --wait: it finished)", BAD_USAGE, SERVICE_FAILED})
final class RemoveIndexCommand implements Callable<Integer>, Failures.Located {
    @CommandLine.ParentCommand
    OperatorCli parent;
    @CommandLine.Mixin
    TableCommands.ScanOptions scan = new TableCommands.ScanOptions();
    @Option(names = "--index", required = true, description = "the removed index's name")
    String index;
    @Option(names = "--rate", defaultValue = "1000", description = "deletes per second at most (default ${DEFAULT-VALUE})")
    double rate;

    @Override
    public Failures.Context context() {
        return scan.context(parent.environment);
    }

    @Override
    public Integer call() throws InterruptedException {
        IndexDefinitions definitions;
        try (DynamoDbClient client = scan.tables.client(parent.environment)) {
            // the field-partitioned layout is removable once the stack's grid layout state no longer keeps it
            definitions = IndexRemoval.FIELD_PARTITIONED.equals(index) ? scan.tables.current(parent.environment, client)
                    : scan.tables.definitions(parent.environment);
        }
        IndexRemoval.check(definitions, index);
        if (scan.aws.onAws) {
            return WorkerJobs.start(scan.aws, JobSpec.Kind.REMOVE, Optional.of(index), scan.tables, scan.output, parent);
        }
        long deleted = 0;
        try (DynamoDbClient client = scan.tables.client(parent.environment);
             ProgressDisplay progress = ProgressDisplay.open("remove-index", "index items", parent.err, parent.terminal)) {
            long total = itemCount(client, scan.tables.indexTable);
            long read = 0;
            IndexRemoval removal = new IndexRemoval(client, scan.tables.indexTable, definitions, index, rate, 100);
            for (int segment = 0; segment < scan.segments; segment++) {
                for (SegmentPosition at = SegmentPosition.START; !at.done(); ) {
                    PageOutcome page = removal.page(segment, scan.segments, at);
                    deleted += page.counts().writes();
                    read += page.counts().items();
                    progress.update(read, total, deleted + " deleted");
                    at = page.next();
                }
            }
        }
        if (scan.output.json()) {
            Output.print(Output.object().put("index", index).put("deleted", deleted), parent.out);
        } else {
            parent.out.printf("removed %d item(s) of index %s%n", deleted, index);
        }
        return OperatorCli.DONE;
    }
}

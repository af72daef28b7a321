package com.multikey.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.multikey.clikit.Output;
import com.multikey.clikit.ProgressDisplay;
import com.multikey.reindex.IndexScope;
import com.multikey.reindex.JobSpec;
import com.multikey.reindex.PageCounts;
import com.multikey.reindex.Verifier;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

import java.io.PrintStream;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;

import static com.multikey.cli.TableCommands.BAD_USAGE;
import static com.multikey.cli.TableCommands.SERVICE_FAILED;
import static com.multikey.cli.TableCommands.itemCount;

/** {@code verify}: compares the index with what the app table implies, and repairs it with {@code --repair}. */
@Command(name = "verify", mixinStandardHelpOptions = true,
        description = "Compares every declared index (or the one --index names) with what the app table implies; "
                + "--repair fixes what differs.",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:no drift (with --repair: what differed was repaired; --on-aws without --wait: the job started)",
                "1:drift found (missing, stale or orphaned index items) and not repaired", BAD_USAGE, SERVICE_FAILED})
final class VerifyCommand implements Callable<Integer>, Failures.Located {
    @CommandLine.ParentCommand
    OperatorCli parent;
    @CommandLine.Mixin
    TableCommands.ScanOptions scan = new TableCommands.ScanOptions();
    @Option(names = "--repair", description = "fix what differs, with writes conditioned on each item's version")
    boolean repair;
    @Option(names = "--rate", defaultValue = "1000", description = "repair write units per second at most (default ${DEFAULT-VALUE})")
    double rate;
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
            return WorkerJobs.start(scan.aws, repair ? JobSpec.Kind.REPAIR : JobSpec.Kind.VERIFY, Optional.ofNullable(index), scan.tables,
                    scan.output, parent);
        }
        // the definitions first: a file that cannot work is named before any endpoint is contacted
        scan.tables.scope(parent.environment, index);
        Verifier.Report report;
        try (DynamoDbClient client = scan.tables.client(parent.environment);
             ProgressDisplay progress = ProgressDisplay.open(repair ? "repair" : "verify", "items", parent.err, parent.terminal)) {
            IndexScope scope = scan.tables.scope(parent.environment, index, client);
            // the index table's count includes the grid layout's control item, which verify counts as no index item
            long total = itemCount(client, scan.tables.appTable) + itemCount(client, scan.tables.indexTable)
                    - (scope.definitions().groupedGrid().isPresent() ? 1 : 0);
            AtomicReference<PageCounts> sofar = new AtomicReference<>(PageCounts.NONE);
            report = new Verifier(client, scan.tables.appTable, scan.tables.indexTable, scope)
                    .verify(repair, scan.segments, rate, page -> {
                        PageCounts now = sofar.accumulateAndGet(page, PageCounts::plus);
                        progress.update(now.items(), total, now.missing() + " missing, " + now.stale() + " stale, " + now.orphaned()
                                + " orphaned");
                    });
        }
        int exit = report.clean() || repair ? OperatorCli.DONE : OperatorCli.FOUND;
        if (scan.output.json()) {
            // issues and repairedIssues: the old names, kept for one release (docs/commands.md)
            ObjectNode document = Output.object().put("items", report.items()).put("issues", report.items())
                    .put("indexItems", report.indexItems()).put("missing", report.missingCount()).put("stale", report.staleCount())
                    .put("orphaned", report.orphanedCount()).put("clean", report.clean()).put("repair", repair)
                    .put("repairedItems", report.repairedItems()).put("repairedIssues", report.repairedItems());
            ObjectNode samples = document.putObject("samples");
            samples.set("missing", discrepancies(report.missing()));
            samples.set("stale", discrepancies(report.stale()));
            samples.set("orphaned", discrepancies(report.orphaned()));
            Output.print(document, parent.out);
            return exit;
        }
        PrintStream out = parent.out;
        out.printf("%d items, %d index items: %d missing, %d stale, %d orphaned%n", report.items(), report.indexItems(),
                report.missingCount(), report.staleCount(), report.orphanedCount());
        report.missing().forEach(d -> out.printf("  missing  %s %s%n", d.itemKey(), d.key()));
        report.stale().forEach(d -> out.printf("  stale    %s %s%n", d.itemKey(), d.key()));
        report.orphaned().forEach(d -> out.printf("  orphaned %s %s%n", d.itemKey(), d.key()));
        if (repair) {
            out.printf("repaired %d item(s)%n", report.repairedItems());
        }
        return exit;
    }

    private static ArrayNode discrepancies(List<Verifier.Discrepancy> found) {
        ArrayNode array = Output.object().arrayNode();
        found.forEach(d -> array.addObject().put("itemKey", d.itemKey()).put("issueId", d.itemKey()).put("attribId", d.key().attribId())
                .put("sortKey", d.key().sortKey()));
        return array;
    }
}

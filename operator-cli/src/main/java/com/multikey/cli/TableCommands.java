package com.multikey.cli;

import com.multikey.common.ClientFactory;
import com.multikey.common.PlainJson;
import com.multikey.index.IndexValue;
import com.multikey.index.IssueSchema;
import com.multikey.query.Filter;
import com.multikey.query.GridQuery;
import com.multikey.query.Order;
import com.multikey.query.Page;
import com.multikey.query.PageRequest;
import com.multikey.reindex.Backfill;
import com.multikey.reindex.CheckpointStore;
import com.multikey.reindex.JobSpec;
import com.multikey.reindex.Verifier;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.io.PrintStream;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;

/**
 * Commands on the tables of a running stack: {@code query}, {@code backfill}, {@code verify}. They talk to
 * {@code --endpoint} (a local stack from {@code start}) or, without it, to DynamoDB in the account and
 * region of the usual AWS environment (credentials, {@code AWS_REGION}) — pass the deployed stack's table
 * names then.
 */
final class TableCommands {

    private TableCommands() {
    }

    /** Where the tables are. */
    static final class Tables {
        @Option(names = "--endpoint", description = "DynamoDB endpoint, e.g. http://localhost:8000 (default: AWS)")
        String endpoint;

        @Option(names = "--app-table", defaultValue = "AppTable", description = "app table name (default ${DEFAULT-VALUE})")
        String appTable;

        @Option(names = "--index-table", defaultValue = "IssueAttribIndexTable", description = "index table name (default ${DEFAULT-VALUE})")
        String indexTable;

        DynamoDbClient client() {
            Map<String, String> env = new HashMap<>(System.getenv());
            if (endpoint != null) {
                env.put("AWS_ENDPOINT_URL_DYNAMODB", endpoint);
                env.putIfAbsent("AWS_REGION", "us-east-1");
                env.putIfAbsent("AWS_ACCESS_KEY_ID", "local");
                env.putIfAbsent("AWS_SECRET_ACCESS_KEY", "local");
            }
            return new ClientFactory(env).dynamoDb();
        }

        IssueSchema schema() {
            return IssueSchema.DEFAULT;
        }
    }

    @Command(name = "query", description = "Prints a page of a project's issues sorted (and filtered) by a custom field.")
    static final class Query implements Callable<Integer> {
        @CommandLine.ParentCommand
        OperatorCli parent;
        @CommandLine.Mixin
        Tables tables = new Tables();
        @Option(names = "--project", required = true)
        String project;
        @Option(names = "--attribute", required = true, description = "the custom field's attribute id")
        String attribute;
        @Option(names = "--desc", description = "descending order")
        boolean descending;
        @Option(names = "--page-size", defaultValue = "25")
        int pageSize;
        @Option(names = "--cursor", description = "the next cursor a previous page printed")
        String cursor;
        @Option(names = "--missing", description = "after the issues with the field, those without it")
        boolean missing;
        @Option(names = "--type", defaultValue = "auto", description = "type of filter values: auto, number, text, bool")
        String type;
        @Option(names = "--equals")
        String equals;
        @Option(names = "--begins-with")
        String beginsWith;
        @Option(names = "--lt")
        String lessThan;
        @Option(names = "--le")
        String atMost;
        @Option(names = "--gt")
        String greaterThan;
        @Option(names = "--ge")
        String atLeast;

        @Override
        public Integer call() {
            PrintStream out = parent.out;
            PageRequest request = new PageRequest(project, attribute, descending ? Order.DESC : Order.ASC, pageSize,
                    filter().orElse(null), missing, cursor);
            try (DynamoDbClient client = tables.client()) {
                Page page = GridQuery.of(client, tables.appTable, tables.indexTable).page(request);
                out.printf("%-4s %-14s %-5s %-30s %s%n", "#", "id", "num", "name", attribute);
                int n = 0;
                for (Map<String, AttributeValue> issue : page.issues()) {
                    AttributeValue fields = issue.get("custom_fields");
                    AttributeValue value = fields != null && fields.hasM() ? fields.m().get(attribute) : null;
                    out.printf("%-4d %-14s %-5s %-30s %s%n", ++n, issue.get("id").s(), issue.get("num") == null ? "" : issue.get("num").n(),
                            issue.get("name") == null ? "" : issue.get("name").s(), value == null ? "(none)" : PlainJson.of(value));
                }
                out.printf("%d issue(s), %d API call(s)%n", page.issues().size(), page.apiCalls());
                out.println(page.nextCursor().map(c -> "next page: --cursor " + c).orElse("last page"));
                return 0;
            }
        }

        private Optional<Filter> filter() {
            int given = (equals != null ? 1 : 0) + (beginsWith != null ? 1 : 0)
                    + (lessThan != null || atMost != null || greaterThan != null || atLeast != null ? 1 : 0);
            if (given > 1) {
                throw new IllegalArgumentException("give one of --equals, --begins-with, or range bounds (--lt/--le/--gt/--ge)");
            }
            if (equals != null) {
                return Optional.of(new Filter.Equals(value(equals)));
            }
            if (beginsWith != null) {
                return Optional.of(new Filter.BeginsWith(beginsWith));
            }
            if (lessThan != null && atMost != null || greaterThan != null && atLeast != null) {
                throw new IllegalArgumentException("give at most one lower and one upper bound");
            }
            IndexValue low = greaterThan != null ? value(greaterThan) : atLeast != null ? value(atLeast) : null;
            IndexValue high = lessThan != null ? value(lessThan) : atMost != null ? value(atMost) : null;
            if (low == null && high == null) {
                return Optional.empty();
            }
            return Optional.of(new Filter.Range(low, atLeast != null, high, atMost != null));
        }

        private IndexValue value(String text) {
            return switch (type) {
                case "number" -> new IndexValue.Num(new BigDecimal(text));
                case "text" -> new IndexValue.Text(text);
                case "bool" -> new IndexValue.Bool(Boolean.parseBoolean(text));
                case "auto" -> {
                    try {
                        yield new IndexValue.Num(new BigDecimal(text));
                    } catch (NumberFormatException notANumber) {
                        yield new IndexValue.Text(text);
                    }
                }
                default -> throw new IllegalArgumentException("--type must be auto, number, text or bool");
            };
        }
    }

    @Command(name = "backfill", description = "Indexes the app table's existing issues (parallel scan; resumable; rate-limited).")
    static final class BackfillCommand implements Callable<Integer> {
        @CommandLine.ParentCommand
        OperatorCli parent;
        @CommandLine.Mixin
        Tables tables = new Tables();
        @Option(names = "--segments", defaultValue = "4", description = "parallel scan segments (default ${DEFAULT-VALUE})")
        int segments;
        @Option(names = "--rate", defaultValue = "1000", description = "index writes per second at most (default ${DEFAULT-VALUE})")
        double rate;
        @Option(names = "--checkpoint", description = "file to resume from and record progress in")
        Path checkpoint;
        @CommandLine.ArgGroup(exclusive = false, heading = "On AWS, by the stack's reindex worker function:%n")
        WorkerJobs.Options aws = new WorkerJobs.Options();

        @Override
        public Integer call() throws InterruptedException {
            PrintStream out = parent.out;
            if (aws.onAws) {
                return WorkerJobs.start(aws, JobSpec.Kind.BACKFILL, tables, out);
            }
            try (DynamoDbClient client = tables.client()) {
                Backfill.Progress done = new Backfill(client, tables.appTable, tables.indexTable, tables.schema(), rate)
                        .run(CheckpointStore.open(checkpoint, segments), segments, p -> out.printf(
                                "scanned %d items, indexed %d issues (%d index writes), %.0f items/s, ETA %ds%n",
                                p.itemsScanned(), p.issuesIndexed(), p.indexWrites(), p.itemsPerSecond(),
                                p.eta().toSeconds()), Duration.ofSeconds(2));
                out.printf("backfill done: %d issues indexed%n", done.issuesIndexed());
                return 0;
            }
        }
    }

    @Command(name = "verify", description = "Compares the index with what the app table implies; --repair fixes what differs.")
    static final class VerifyCommand implements Callable<Integer> {
        @CommandLine.ParentCommand
        OperatorCli parent;
        @CommandLine.Mixin
        Tables tables = new Tables();
        @Option(names = "--repair")
        boolean repair;
        @Option(names = "--segments", defaultValue = "4", description = "parallel scan segments (default ${DEFAULT-VALUE})")
        int segments;
        @Option(names = "--rate", defaultValue = "1000", description = "repair write units per second at most (default ${DEFAULT-VALUE})")
        double rate;
        @CommandLine.ArgGroup(exclusive = false, heading = "On AWS, by the stack's reindex worker function:%n")
        WorkerJobs.Options aws = new WorkerJobs.Options();

        @Override
        public Integer call() throws InterruptedException {
            PrintStream out = parent.out;
            if (aws.onAws) {
                return WorkerJobs.start(aws, repair ? JobSpec.Kind.REPAIR : JobSpec.Kind.VERIFY, tables, out);
            }
            try (DynamoDbClient client = tables.client()) {
                Verifier.Report report = new Verifier(client, tables.appTable, tables.indexTable, tables.schema())
                        .verify(repair, segments, rate);
                out.printf("%d issues, %d index items: %d missing, %d stale, %d orphaned%n", report.issues(), report.indexItems(),
                        report.missingCount(), report.staleCount(), report.orphanedCount());
                report.missing().forEach(d -> out.printf("  missing  %s %s%n", d.issueId(), d.key()));
                report.stale().forEach(d -> out.printf("  stale    %s %s%n", d.issueId(), d.key()));
                report.orphaned().forEach(d -> out.printf("  orphaned %s %s%n", d.issueId(), d.key()));
                if (repair) {
                    out.printf("repaired %d issue(s)%n", report.repairedIssues());
                }
                return report.clean() || repair ? 0 : 1;
            }
        }
    }
}

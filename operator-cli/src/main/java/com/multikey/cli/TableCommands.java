package com.multikey.cli;

import com.multikey.common.ClientFactory;
import com.multikey.common.PlainJson;
import com.multikey.index.IndexProjector;
import com.multikey.index.IndexValue;
import com.multikey.index.definition.DefinitionsYaml;
import com.multikey.index.definition.IndexDefinition;
import com.multikey.index.definition.IndexDefinitions;
import com.multikey.query.Filter;
import com.multikey.query.GridQuery;
import com.multikey.query.Order;
import com.multikey.query.Page;
import com.multikey.query.PageRequest;
import com.multikey.reindex.Backfill;
import com.multikey.reindex.CheckpointStore;
import com.multikey.reindex.IndexRemoval;
import com.multikey.reindex.IndexScope;
import com.multikey.reindex.JobSpec;
import com.multikey.reindex.PageOutcome;
import com.multikey.reindex.SegmentPosition;
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
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
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

        @Option(names = "--definitions", description = "index definitions file (default: $INDEX_DEFINITIONS, else the packaged "
                + "index-definitions.yaml)")
        Path definitions;

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

        IndexDefinitions definitions() {
            return definitions != null ? DefinitionsYaml.read(definitions) : IndexDefinitions.fromEnvironment(System.getenv());
        }

        /** Every declared index, or the one named. */
        IndexScope scope(String index) {
            return IndexScope.of(definitions(), Optional.ofNullable(index));
        }
    }

    @Command(name = "query", description = "Prints a page of an index: a project's issues sorted (and filtered) by a custom field, "
            + "or with --index a group of any declared index.")
    static final class Query implements Callable<Integer> {
        @CommandLine.ParentCommand
        OperatorCli parent;
        @CommandLine.Mixin
        Tables tables = new Tables();
        @Option(names = "--index", description = "the declared index to read (default: the issue grid)")
        String index;
        @Option(names = "--project", description = "the project (the issue grid's group)")
        String project;
        @Option(names = "--group", description = "a group value of --index, in the order of its group attributes; "
                + "N:<number> for a number (repeat for several)")
        List<String> group = new ArrayList<>();
        @Option(names = "--attribute", description = "the custom field's attribute id (the map entry of a map-entries index)")
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
            if (index != null) {
                return callIndex(out);
            }
            if (project == null || attribute == null) {
                throw new IllegalArgumentException("give --project and --attribute (the issue grid), or --index and --group");
            }
            PageRequest request = new PageRequest(project, attribute, descending ? Order.DESC : Order.ASC, pageSize,
                    filter().orElse(null), missing, cursor);
            try (DynamoDbClient client = tables.client()) {
                Page page = GridQuery.of(client, tables.appTable, tables.indexTable, tables.definitions()).page(request);
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

        /** A page of a declared index: each item's key and its value of the indexed field. */
        private int callIndex(PrintStream out) {
            IndexDefinitions definitions = tables.definitions();
            IndexDefinition definition = definitions.index(index).orElseThrow(() -> new IllegalArgumentException(
                    "no index named '" + index + "' is declared; declared: " + definitions.indexes().stream().map(IndexDefinition::name).toList()));
            List<AttributeValue> values = new ArrayList<>();
            if (project != null) {
                values.add(AttributeValue.fromS(project));
            }
            group.forEach(text -> values.add(text.startsWith("N:") ? AttributeValue.fromN(new BigDecimal(text.substring(2)).toString())
                    : AttributeValue.fromS(text.startsWith("S:") ? text.substring(2) : text)));
            PageRequest request = new PageRequest(index, values, attribute == null ? "" : attribute, descending ? Order.DESC : Order.ASC,
                    pageSize, filter().orElse(null), missing, cursor);
            try (DynamoDbClient client = tables.client()) {
                Page page = GridQuery.of(client, tables.appTable, tables.indexTable, definitions).page(request);
                IndexProjector projector = new IndexProjector(definitions);
                out.printf("%-4s %-40s %s%n", "#", "item", attribute == null ? definition.values().path() : attribute);
                int n = 0;
                for (Map<String, AttributeValue> item : page.issues()) {
                    AttributeValue value = definition.values().path().resolve(item);
                    if (value != null && attribute != null && value.hasM()) {
                        value = value.m().get(attribute);
                    }
                    out.printf("%-4d %-40s %s%n", ++n, projector.keyOf(item).map(Object::toString).orElse("?"),
                            value == null ? "(none)" : PlainJson.of(value));
                }
                out.printf("%d item(s), %d API call(s)%n", page.issues().size(), page.apiCalls());
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

    @Command(name = "backfill", description = "Indexes the app table's existing items into every declared index, or the one --index "
            + "names (parallel scan; resumable; rate-limited).")
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
        @Option(names = "--index", description = "only this declared index (default: every one)")
        String index;
        @CommandLine.ArgGroup(exclusive = false, heading = "On AWS, by the stack's reindex worker function:%n")
        WorkerJobs.Options aws = new WorkerJobs.Options();

        @Override
        public Integer call() throws InterruptedException {
            PrintStream out = parent.out;
            if (aws.onAws) {
                tables.scope(index);
                return WorkerJobs.start(aws, JobSpec.Kind.BACKFILL, Optional.ofNullable(index), tables, out);
            }
            try (DynamoDbClient client = tables.client()) {
                Backfill.Progress done = new Backfill(client, tables.appTable, tables.indexTable, tables.scope(index), rate)
                        .run(CheckpointStore.open(checkpoint, segments), segments, p -> out.printf(
                                "scanned %d items, indexed %d issues (%d index writes), %.0f items/s, ETA %ds%n",
                                p.itemsScanned(), p.issuesIndexed(), p.indexWrites(), p.itemsPerSecond(),
                                p.eta().toSeconds()), Duration.ofSeconds(2));
                out.printf("backfill done: %d issues indexed%n", done.issuesIndexed());
                return 0;
            }
        }
    }

    @Command(name = "verify", description = "Compares every declared index (or the one --index names) with what the app table implies; "
            + "--repair fixes what differs.")
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
        @Option(names = "--index", description = "only this declared index (default: every one)")
        String index;
        @CommandLine.ArgGroup(exclusive = false, heading = "On AWS, by the stack's reindex worker function:%n")
        WorkerJobs.Options aws = new WorkerJobs.Options();

        @Override
        public Integer call() throws InterruptedException {
            PrintStream out = parent.out;
            if (aws.onAws) {
                tables.scope(index);
                return WorkerJobs.start(aws, repair ? JobSpec.Kind.REPAIR : JobSpec.Kind.VERIFY, Optional.ofNullable(index), tables, out);
            }
            try (DynamoDbClient client = tables.client()) {
                Verifier.Report report = new Verifier(client, tables.appTable, tables.indexTable, tables.scope(index))
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

    @Command(name = "remove-index", description = "Deletes the items of an index no longer declared (take it out of the definitions and "
            + "deploy first); idempotent. --index (field-partitioned) removes the original issue grid layout's items.")
    static final class RemoveIndexCommand implements Callable<Integer> {
        @CommandLine.ParentCommand
        OperatorCli parent;
        @CommandLine.Mixin
        Tables tables = new Tables();
        @Option(names = "--index", required = true, description = "the removed index's name")
        String index;
        @Option(names = "--segments", defaultValue = "4", description = "parallel scan segments (default ${DEFAULT-VALUE})")
        int segments;
        @Option(names = "--rate", defaultValue = "1000", description = "deletes per second at most (default ${DEFAULT-VALUE})")
        double rate;
        @CommandLine.ArgGroup(exclusive = false, heading = "On AWS, by the stack's reindex worker function:%n")
        WorkerJobs.Options aws = new WorkerJobs.Options();

        @Override
        public Integer call() throws InterruptedException {
            PrintStream out = parent.out;
            IndexRemoval.check(tables.definitions(), index);
            if (aws.onAws) {
                return WorkerJobs.start(aws, JobSpec.Kind.REMOVE, Optional.of(index), tables, out);
            }
            try (DynamoDbClient client = tables.client()) {
                IndexRemoval removal = new IndexRemoval(client, tables.indexTable, tables.definitions(), index, rate, 100);
                long deleted = 0;
                for (int segment = 0; segment < segments; segment++) {
                    for (SegmentPosition at = SegmentPosition.START; !at.done(); ) {
                        PageOutcome page = removal.page(segment, segments, at);
                        deleted += page.counts().writes();
                        at = page.next();
                    }
                }
                out.printf("removed %d item(s) of index %s%n", deleted, index);
                return 0;
            }
        }
    }
}

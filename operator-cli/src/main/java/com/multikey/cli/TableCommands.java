package com.multikey.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.multikey.clikit.Failure;
import com.multikey.clikit.Output;
import com.multikey.clikit.ProgressDisplay;
import com.multikey.common.ClientFactory;
import com.multikey.common.PlainJson;
import com.multikey.index.GridLayoutStore;
import com.multikey.index.IndexProjector;
import com.multikey.index.definition.DefinitionsYaml;
import com.multikey.index.definition.IndexDefinition;
import com.multikey.index.definition.IndexDefinitions;
import com.multikey.query.Explain;
import com.multikey.query.Filter;
import com.multikey.query.FilterParameters;
import com.multikey.query.GridQuery;
import com.multikey.query.GroupValue;
import com.multikey.query.InvalidPredicateException;
import com.multikey.query.Order;
import com.multikey.query.Page;
import com.multikey.query.PageRequest;
import com.multikey.query.Predicate;
import com.multikey.query.PredicateText;
import com.multikey.query.ReadBudget;
import com.multikey.reindex.Backfill;
import com.multikey.reindex.CheckpointStore;
import com.multikey.reindex.IndexRemoval;
import com.multikey.reindex.IndexScope;
import com.multikey.reindex.JobSpec;
import com.multikey.reindex.PageCounts;
import com.multikey.reindex.PageOutcome;
import com.multikey.reindex.SegmentPosition;
import com.multikey.reindex.Verifier;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;

import java.io.PrintStream;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Commands on the tables of a running stack: {@code query}, {@code backfill}, {@code verify}, {@code remove-index}.
 * They talk to {@code --endpoint} (a local stack from {@code start}) or, without it, to DynamoDB in the account and
 * region of the usual AWS environment (credentials, {@code AWS_REGION}) — pass the deployed stack's table names then.
 */
final class TableCommands {

    static final String BAD_USAGE = OperatorCli.BAD_USAGE;
    static final String SERVICE_FAILED = OperatorCli.SERVICE_FAILED;

    private TableCommands() {
    }

    /** A table a command uses: the option that names it and the stack output that holds its name on AWS. */
    record TableRef(String option, String name, String stackOutput) {
    }

    /** Where the tables are. */
    static final class Tables {
        @Option(names = "--endpoint", description = "DynamoDB endpoint, e.g. http://localhost:8000 (default: AWS, in AWS_REGION)")
        String endpoint;

        @Option(names = "--app-table", defaultValue = "AppTable", description = "app table name: on AWS the stack output AppTableName "
                + "(default ${DEFAULT-VALUE}, as the local stack names it)")
        String appTable;

        @Option(names = "--index-table", defaultValue = "IssueAttribIndexTable", description = "index table name: on AWS the stack "
                + "output IndexTableName (default ${DEFAULT-VALUE}, as the local stack names it)")
        String indexTable;

        @Option(names = "--definitions", description = "index definitions file (default: $INDEX_DEFINITIONS, else the packaged "
                + "index-definitions.yaml)")
        Path definitions;

        List<ClientEnvironment.Endpoint> endpoints() {
            return List.of(new ClientEnvironment.Endpoint("--endpoint", endpoint, List.of("DYNAMODB")));
        }

        DynamoDbClient client(Map<String, String> environment) {
            return new ClientFactory(ClientEnvironment.of(environment, endpoints())).dynamoDb();
        }

        IndexDefinitions definitions(Map<String, String> environment) {
            return definitions != null ? DefinitionsYaml.read(definitions) : IndexDefinitions.fromEnvironment(environment);
        }

        /** Every declared index, or the one named (checked without reading the tables). */
        IndexScope scope(Map<String, String> environment, String index) {
            return IndexScope.of(definitions(environment), Optional.ofNullable(index));
        }

        /** Every index the stack keeps in its recorded grid layout state (the issue grid's layout), or the one named. */
        IndexScope scope(Map<String, String> environment, String index, DynamoDbClient client) {
            return IndexScope.of(current(environment, client), Optional.ofNullable(index));
        }

        /** The definitions in the stack's recorded grid layout state (recorded now when the stack never did). */
        IndexDefinitions current(Map<String, String> environment, DynamoDbClient client) {
            return new GridLayoutStore(client, indexTable, definitions(environment), true, Duration.ZERO, System::nanoTime).current();
        }

        List<TableRef> tables() {
            return List.of(new TableRef("--app-table", appTable, "AppTableName"), new TableRef("--index-table", indexTable, "IndexTableName"));
        }

        /** Where these tables are, and which of {@code tables} a "not found" means (found out by describing each). */
        Failures.Context context(Map<String, String> environment, List<TableRef> tables) {
            Map<String, String> given = ClientEnvironment.given(endpoints());
            String region = environment.getOrDefault("AWS_REGION", endpoint != null ? "us-east-1" : null);
            return new Failures.Context(region, given, e -> e instanceof ResourceNotFoundException ? missing(environment, tables, given, region)
                    : Optional.empty());
        }

        private Optional<String> missing(Map<String, String> environment, List<TableRef> tables, Map<String, String> given, String region) {
            Failures.Context context = new Failures.Context(region, given, e -> Optional.empty());
            try (DynamoDbClient client = client(environment)) {
                for (TableRef table : tables) {
                    try {
                        client.describeTable(b -> b.tableName(table.name()));
                    } catch (ResourceNotFoundException notThere) {
                        return Optional.of("table " + table.name() + " does not exist " + context.where() + ": " + (endpoint != null
                                ? "start the local stack (" + Failures.START_LOCAL + "), which creates the template's tables, or pass "
                                + table.option() + " <name>"
                                : "pass " + table.option() + " with the stack output " + table.stackOutput() + " (" + Failures.STACK_OUTPUTS + ")"));
                    }
                }
            } catch (RuntimeException cannotTell) {
                return Optional.empty();
            }
            return Optional.empty();
        }
    }

    @Command(name = "query", mixinStandardHelpOptions = true,
            description = "Prints a page of an index: a project's issues sorted (and filtered) by a custom field, "
                    + "or with --index a group of any declared index; --where filters on any fields, --budget bounds what a page "
                    + "reads, --explain prints its plan.",
            exitCodeListHeading = "%nExit codes:%n", exitCodeList = {"0:the page was printed", BAD_USAGE, SERVICE_FAILED})
    static final class Query implements Callable<Integer>, Failures.Located {
        static final int MAX_PAGE_TIMEOUT_SECONDS = 900;

        @CommandLine.ParentCommand
        OperatorCli parent;
        @CommandLine.Mixin
        Tables tables = new Tables();
        @CommandLine.Mixin
        Output output = new Output();
        @Option(names = "--index", description = "the declared index to read (default: the issue grid)")
        String index;
        @Option(names = "--project", description = "the project (the issue grid's group)")
        String project;
        @Option(names = "--group", description = "a group value of --index, in the order of its group attributes (repeat for several): "
                + "text as it is, or S:<text>, N:<number>, BOOL:true|false, B:<base64>; text that begins with S:, N:, BOOL: or B: "
                + "as S:<text>")
        List<String> group = new ArrayList<>();
        @Option(names = "--attribute", description = "the custom field's attribute id (the map entry of a map-entries index)")
        String attribute;
        @Option(names = "--desc", description = "descending order (default: ascending)")
        boolean descending;
        @Option(names = "--page-size", defaultValue = "25", description = "items per page (default ${DEFAULT-VALUE})")
        int pageSize;
        @Option(names = "--cursor", description = "the next cursor a previous page printed (default: the first page)")
        String cursor;
        @Option(names = "--page-timeout", defaultValue = "5", paramLabel = "SECONDS", description = "time the page may take, its retries "
                + "included, before the command gives up with exit 3 (default ${DEFAULT-VALUE}; up to " + MAX_PAGE_TIMEOUT_SECONDS + ")")
        BigDecimal pageTimeout;
        @Option(names = "--cursor-keys", paramLabel = "FILE", description = "the keys cursors are sealed under, made on first use "
                + "(default ~/.multikey/cursor-keys.json; the read API's cursors are sealed under the stack's own)")
        java.nio.file.Path cursorKeys;
        @Option(names = "--missing", description = "after the issues with the field, those without it")
        boolean missing;
        @Option(names = "--type", defaultValue = "auto", description = "type of filter values: auto (a number when the text is one), "
                + "number, text, bool (default ${DEFAULT-VALUE})")
        String type;
        @Option(names = "--equals", description = "only items whose value equals this")
        String equals;
        @Option(names = "--begins-with", description = "only items whose text value begins with this")
        String beginsWith;
        @Option(names = "--lt", description = "only items whose value is below this")
        String lessThan;
        @Option(names = "--le", description = "only items whose value is at most this")
        String atMost;
        @Option(names = "--gt", description = "only items whose value is above this")
        String greaterThan;
        @Option(names = "--ge", description = "only items whose value is at least this")
        String atLeast;
        @Option(names = "--where", paramLabel = "PREDICATE", description = "only items that satisfy it, on any field (repeat for "
                + "several, all of which hold; at most " + PredicateText.MAX_PREDICATES + "): a custom field (a map entry of "
                + "--index) or @ and an attribute path, an operator and a value: 'status = open', 'severity >= 3', "
                + "'status in (open, triage)', 'title beginsWith \"Fix\"', 'assignee present', 'priority missing', "
                + "'@details.team = core'")
        List<String> where = new ArrayList<>();
        @Option(names = "--budget", paramLabel = "ITEMS", description = "items the page may read, index items and items of the "
                + "table together: a page that reads them comes back short, with its cursor (default: 2000 with --where, else "
                + "as many as the page needs; up to 20000)")
        Integer budget;
        @Option(names = "--explain", description = "print how the page was read: the plan and why, each plan weighed with its "
                + "estimated items, what was read, and the definitions entry of an index that would answer the query in two calls "
                + "when one would (on standard error; with --output json as the document's explain)")
        boolean explain;

        @Override
        public Failures.Context context() {
            return tables.context(parent.environment, tables.tables());
        }

        @Override
        public Integer call() {
            if (index != null) {
                return callIndex(parent.out);
            }
            if (project == null || attribute == null) {
                throw Failure.usage("give --project and --attribute (the issue grid), or --index and --group");
            }
            IndexDefinitions definitions = tables.definitions(parent.environment);
            Duration budget = pageBudget();
            PageRequest request = planned(new PageRequest(project, attribute, descending ? Order.DESC : Order.ASC, pageSize,
                    filter().orElse(null), missing, cursor));
            try (DynamoDbClient client = tables.client(parent.environment)) {
                Page page = read(client, definitions, budget, request);
                if (output.json()) {
                    ArrayNode items = Output.object().arrayNode();
                    for (Map<String, AttributeValue> issue : page.issues()) {
                        ObjectNode item = items.addObject();
                        item.put("id", text(issue.get("id")));
                        item.set("num", issue.get("num") == null ? NullNode.getInstance() : PlainJson.of(issue.get("num")));
                        item.put("name", text(issue.get("name")));
                        item.set("value", json(fieldValue(issue)));
                        item.set("item", PlainJson.of(issue));
                    }
                    ObjectNode document = page(page, items).put("project", project).put("attribute", attribute);
                    explained(page, document);
                    Output.print(document, parent.out);
                    return OperatorCli.DONE;
                }
                PrintStream out = parent.out;
                out.printf("%-4s %-14s %-5s %-30s %s%n", "#", "id", "num", "name", attribute);
                int n = 0;
                for (Map<String, AttributeValue> issue : page.issues()) {
                    AttributeValue value = fieldValue(issue);
                    out.printf("%-4d %-14s %-5s %-30s %s%n", ++n, text(issue.get("id")), issue.get("num") == null ? "" : issue.get("num").n(),
                            text(issue.get("name")), value == null ? "(none)" : PlainJson.of(value));
                }
                out.printf("%d issue(s), %d API call(s)%s%n", page.issues().size(), page.apiCalls(), reads(page));
                out.println(page.nextCursor().map(c -> "next page: --cursor " + c).orElse("last page"));
                explained(page, parent.err);
                return OperatorCli.DONE;
            }
        }

        /** Cursors that open in the next run: sealed under a key file, read (or made) at the first cursor. */
        private com.multikey.query.CursorSealer cursorSealer() {
            java.nio.file.Path file = cursorKeys != null ? cursorKeys
                    : java.nio.file.Path.of(System.getProperty("user.home"), ".multikey", "cursor-keys.json");
            return com.multikey.query.CursorSealer.reloading(() -> com.multikey.query.CursorKeys.loadOrCreate(file),
                    com.multikey.query.CursorSealer.DEFAULT_LIFETIME, java.time.Clock.systemUTC());
        }

        private AttributeValue fieldValue(Map<String, AttributeValue> issue) {
            AttributeValue fields = issue.get("custom_fields");
            return fields != null && fields.hasM() ? fields.m().get(attribute) : null;
        }

        /** A page of a declared index: each item's key and its value of the indexed field. */
        private int callIndex(PrintStream out) {
            IndexDefinitions definitions = tables.definitions(parent.environment);
            IndexDefinition definition = definitions.index(index).orElseThrow(() -> Failure.usage(
                    "--index: no index named '" + index + "' is declared; declared: " + definitions.indexes().stream().map(IndexDefinition::name).toList()));
            Duration budget = pageBudget();
            List<AttributeValue> values = new ArrayList<>();
            if (project != null) {
                values.add(AttributeValue.fromS(project));
            }
            group.forEach(text -> values.add(groupValue(text)));
            PageRequest request = planned(new PageRequest(index, values, attribute == null ? "" : attribute,
                    descending ? Order.DESC : Order.ASC, pageSize, filter().orElse(null), missing, cursor));
            try (DynamoDbClient client = tables.client(parent.environment)) {
                Page page = read(client, definitions, budget, request);
                IndexProjector projector = new IndexProjector(definitions);
                ArrayNode items = Output.object().arrayNode();
                if (!output.json()) {
                    out.printf("%-4s %-40s %s%n", "#", "item", attribute == null ? definition.values().path() : attribute);
                }
                int n = 0;
                for (Map<String, AttributeValue> item : page.issues()) {
                    AttributeValue value = definition.values().path().resolve(item);
                    if (value != null && attribute != null && value.hasM()) {
                        value = value.m().get(attribute);
                    }
                    String key = projector.keyOf(item).map(Object::toString).orElse(null);
                    if (output.json()) {
                        ObjectNode entry = items.addObject();
                        entry.put("key", key);
                        entry.set("value", json(value));
                        entry.set("item", PlainJson.of(item));
                    } else {
                        out.printf("%-4d %-40s %s%n", ++n, key == null ? "?" : key, value == null ? "(none)" : PlainJson.of(value));
                    }
                }
                if (output.json()) {
                    ObjectNode document = page(page, items).put("index", index);
                    document.set("group", Output.object().arrayNode().addAll(values.stream().map(PlainJson::of).toList()));
                    if (attribute != null) {
                        document.put("attribute", attribute);
                    }
                    explained(page, document);
                    Output.print(document, out);
                    return OperatorCli.DONE;
                }
                out.printf("%d item(s), %d API call(s)%s%n", page.issues().size(), page.apiCalls(), reads(page));
                out.println(page.nextCursor().map(c -> "next page: --cursor " + c).orElse("last page"));
                explained(page, parent.err);
                return OperatorCli.DONE;
            }
        }

        /** {@code --page-timeout} as the query library's page budget. */
        private Duration pageBudget() {
            if (pageTimeout.signum() <= 0 || pageTimeout.compareTo(BigDecimal.valueOf(MAX_PAGE_TIMEOUT_SECONDS)) > 0) {
                throw Failure.usage("--page-timeout must be a number of seconds above 0 and at most " + MAX_PAGE_TIMEOUT_SECONDS
                        + ", got " + pageTimeout.toPlainString());
            }
            // up to a millisecond is one (rounding 1E-999999999 to a whole number of milliseconds would overflow, or take seconds)
            BigDecimal millis = pageTimeout.movePointRight(3);
            return Duration.ofMillis(millis.compareTo(BigDecimal.ONE) <= 0 ? 1 : millis.setScale(0, java.math.RoundingMode.CEILING).longValueExact());
        }

        private static ObjectNode page(Page page, ArrayNode items) {
            ObjectNode document = Output.object();
            document.put("count", page.issues().size()).put("apiCalls", page.apiCalls()).put("nextCursor", page.nextCursor().orElse(null));
            if (page.examined() >= 0) {
                document.put("examined", page.examined());
            } else {
                document.putNull("examined");
            }
            document.put("budgetSpent", page.budgetSpent());
            document.set("items", items);
            return document;
        }

        /**
         * The request with {@code --where}, {@code --budget} and {@code --explain}: each predicate parsed and checked
         * before any endpoint is contacted, a refusal naming the {@code --where} at fault.
         */
        private PageRequest planned(PageRequest request) {
            List<Predicate> predicates = new ArrayList<>();
            try {
                for (int i = 0; i < where.size(); i++) {
                    predicates.add(PredicateText.parse(where.get(i), i));
                }
                request = request.where(predicates);
            } catch (InvalidPredicateException e) {
                throw whereFailure(e);
            }
            if (budget != null) {
                if (budget > ReadBudget.DEFAULT.max()) {
                    throw Failure.usage("--budget: at most " + ReadBudget.DEFAULT.max() + " items a page, got " + budget);
                }
                try {
                    request = request.withReadBudget(budget);
                } catch (FilterParameters.InvalidParameterException e) {
                    throw optionFailure(e);
                }
            }
            return explain ? request.withExplain() : request;
        }

        /** A page through the query library, a predicate or budget it refuses named by its option. */
        private Page read(DynamoDbClient client, IndexDefinitions definitions, Duration timeout, PageRequest request) {
            try {
                return GridQuery.of(client, tables.appTable, tables.indexTable, definitions).withPageBudget(timeout)
                        .withCursorSealer(cursorSealer()).page(request);
            } catch (InvalidPredicateException e) {
                throw whereFailure(e);
            } catch (FilterParameters.InvalidParameterException e) {
                throw optionFailure(e);
            }
        }

        /**
         * A predicate's refusal as {@code --where[i] 'text': what is wrong}, the {@code --where} options counted from 0 as
         * the plan names them ({@code drive(where[0]: ...)}); the other predicate of an inverted range named the same way.
         */
        private Failure whereFailure(InvalidPredicateException e) {
            String message = e.getMessage();
            String prefix = "predicate " + e.position() + " ";
            String what = message.startsWith(prefix) ? message.substring(prefix.length()) : message;
            java.util.regex.Matcher other = java.util.regex.Pattern.compile("^with predicate (\\d+) ").matcher(what);
            if (other.find()) {
                what = "with " + whereOption(Integer.parseInt(other.group(1))) + " " + what.substring(other.end());
            }
            return Failure.usage(whereOption(e.position()) + ": " + what);
        }

        private String whereOption(int position) {
            return "--where[" + position + "]" + (position < where.size() ? " '" + where.get(position) + "'" : "");
        }

        private static Failure optionFailure(FilterParameters.InvalidParameterException e) {
            String option = "--" + e.parameter().replaceAll("([A-Z])", "-$1").toLowerCase(java.util.Locale.ROOT);
            return Failure.usage(option + e.getMessage().substring(e.parameter().length()));
        }

        /** The items the page read, for the summary line; nothing when not counted. */
        private static String reads(Page page) {
            if (page.examined() < 0) {
                return "";
            }
            return ", " + page.examined() + " item(s) read" + (page.budgetSpent() ? " (the read budget: the page is short, "
                    + "the next continues)" : "");
        }

        /** The page's explanation as the document's {@code explain}, when asked for. */
        private static void explained(Page page, ObjectNode document) {
            page.explain().ifPresent(explain -> {
                ObjectNode node = document.putObject("explain");
                node.put("plan", explain.plan()).put("reason", explain.reason());
                ArrayNode alternatives = node.putArray("alternatives");
                for (Explain.Alternative alternative : explain.alternatives()) {
                    ObjectNode entry = alternatives.addObject().put("plan", alternative.plan());
                    if (alternative.estimatedItems() >= 0) {
                        entry.put("estimatedItems", alternative.estimatedItems());
                    } else {
                        entry.putNull("estimatedItems");
                    }
                    entry.put("basis", alternative.basis());
                }
                Explain.Reads read = explain.read();
                node.putObject("read").put("queries", read.queries()).put("batchGets", read.batchGets())
                        .put("indexItems", read.indexItems()).put("tableItems", read.tableItems()).put("examined", read.examined());
                node.put("suggestion", explain.suggestion().orElse(null));
            });
        }

        /** The page's explanation for people, on standard error, when asked for. */
        private static void explained(Page page, PrintStream err) {
            page.explain().ifPresent(explain -> {
                err.println("plan: " + explain.plan());
                err.println("  why: " + explain.reason());
                err.println("  weighed (estimated items read for this page):");
                int width = explain.alternatives().stream().mapToInt(a -> a.plan().length()).max().orElse(0);
                for (Explain.Alternative alternative : explain.alternatives()) {
                    err.printf("    %-" + width + "s  %6s items  %s%n", alternative.plan(),
                            alternative.estimatedItems() >= 0 ? Long.toString(alternative.estimatedItems()) : "?", alternative.basis());
                }
                Explain.Reads read = explain.read();
                err.printf("  read: %d Query, %d BatchGetItem; %d index items, %d items of the table (%d examined)%n", read.queries(),
                        read.batchGets(), read.indexItems(), read.tableItems(), read.examined());
                explain.suggestion().ifPresent(yaml -> {
                    err.println("  suggested index (add it under indexes: in the definitions file, deploy, then backfill --index it):");
                    yaml.lines().forEach(line -> err.println("    " + line));
                });
            });
        }

        private static AttributeValue groupValue(String text) {
            try {
                return GroupValue.parse(text);
            } catch (IllegalArgumentException e) {
                throw Failure.usage("--group: " + e.getMessage());
            }
        }

        private static String text(AttributeValue value) {
            return value == null || value.s() == null ? "" : value.s();
        }

        private static JsonNode json(AttributeValue value) {
            return value == null ? NullNode.getInstance() : PlainJson.of(value);
        }

        /** The filter options through the query library's own parsing, its refusals naming the option at fault. */
        private Optional<Filter> filter() {
            try {
                return new FilterParameters(type, equals, beginsWith, lessThan, atMost, greaterThan, atLeast).filter();
            } catch (FilterParameters.InvalidParameterException e) {
                throw optionFailure(e);
            }
        }
    }

    @Command(name = "backfill", mixinStandardHelpOptions = true,
            description = "Indexes the app table's existing items into every declared index, or the one --index "
                    + "names (parallel scan; resumable; rate-limited).",
            exitCodeListHeading = "%nExit codes:%n",
            exitCodeList = {"0:backfilled (--on-aws: the job started; with --wait: it finished)", BAD_USAGE, SERVICE_FAILED})
    static final class BackfillCommand implements Callable<Integer>, Failures.Located {
        @CommandLine.ParentCommand
        OperatorCli parent;
        @CommandLine.Mixin
        Tables tables = new Tables();
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
                                p.issuesIndexed() + " issues indexed, " + p.indexWrites() + " index writes"), Duration.ofSeconds(1));
            }
            if (output.json()) {
                Output.print(Output.object().put("itemsScanned", done.itemsScanned()).put("issuesIndexed", done.issuesIndexed())
                        .put("indexWrites", done.indexWrites()).put("itemsPerSecond", Math.round(done.itemsPerSecond())), parent.out);
            } else {
                parent.out.printf("backfill done: %d items scanned, %d issues indexed (%d index writes)%n", done.itemsScanned(),
                        done.issuesIndexed(), done.indexWrites());
            }
            return OperatorCli.DONE;
        }
    }

    @Command(name = "verify", mixinStandardHelpOptions = true,
            description = "Compares every declared index (or the one --index names) with what the app table implies; "
                    + "--repair fixes what differs.",
            exitCodeListHeading = "%nExit codes:%n",
            exitCodeList = {"0:no drift (with --repair: what differed was repaired; --on-aws without --wait: the job started)",
                    "1:drift found (missing, stale or orphaned index items) and not repaired", BAD_USAGE, SERVICE_FAILED})
    static final class VerifyCommand implements Callable<Integer>, Failures.Located {
        @CommandLine.ParentCommand
        OperatorCli parent;
        @CommandLine.Mixin
        Tables tables = new Tables();
        @CommandLine.Mixin
        Output output = new Output();
        @Option(names = "--repair", description = "fix what differs, with writes conditioned on each issue's version")
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
        public Failures.Context context() {
            return aws.context(parent.environment, tables);
        }

        @Override
        public Integer call() throws InterruptedException {
            if (aws.onAws) {
                tables.scope(parent.environment, index);
                return WorkerJobs.start(aws, repair ? JobSpec.Kind.REPAIR : JobSpec.Kind.VERIFY, Optional.ofNullable(index), tables, output,
                        parent);
            }
            // the definitions first: a file that cannot work is named before any endpoint is contacted
            tables.scope(parent.environment, index);
            Verifier.Report report;
            try (DynamoDbClient client = tables.client(parent.environment);
                 ProgressDisplay progress = ProgressDisplay.open(repair ? "repair" : "verify", "items", parent.err, parent.terminal)) {
                IndexScope scope = tables.scope(parent.environment, index, client);
                // the index table's count includes the grid layout's control item, which verify counts as no index item
                long total = itemCount(client, tables.appTable) + itemCount(client, tables.indexTable)
                        - (scope.definitions().groupedGrid().isPresent() ? 1 : 0);
                AtomicReference<PageCounts> sofar = new AtomicReference<>(PageCounts.NONE);
                report = new Verifier(client, tables.appTable, tables.indexTable, scope)
                        .verify(repair, segments, rate, page -> {
                            PageCounts now = sofar.accumulateAndGet(page, PageCounts::plus);
                            progress.update(now.items(), total, now.missing() + " missing, " + now.stale() + " stale, " + now.orphaned()
                                    + " orphaned");
                        });
            }
            int exit = report.clean() || repair ? OperatorCli.DONE : OperatorCli.FOUND;
            if (output.json()) {
                ObjectNode document = Output.object().put("issues", report.issues()).put("indexItems", report.indexItems())
                        .put("missing", report.missingCount()).put("stale", report.staleCount()).put("orphaned", report.orphanedCount())
                        .put("clean", report.clean()).put("repair", repair).put("repairedIssues", report.repairedIssues());
                ObjectNode samples = document.putObject("samples");
                samples.set("missing", discrepancies(report.missing()));
                samples.set("stale", discrepancies(report.stale()));
                samples.set("orphaned", discrepancies(report.orphaned()));
                Output.print(document, parent.out);
                return exit;
            }
            PrintStream out = parent.out;
            out.printf("%d issues, %d index items: %d missing, %d stale, %d orphaned%n", report.issues(), report.indexItems(),
                    report.missingCount(), report.staleCount(), report.orphanedCount());
            report.missing().forEach(d -> out.printf("  missing  %s %s%n", d.issueId(), d.key()));
            report.stale().forEach(d -> out.printf("  stale    %s %s%n", d.issueId(), d.key()));
            report.orphaned().forEach(d -> out.printf("  orphaned %s %s%n", d.issueId(), d.key()));
            if (repair) {
                out.printf("repaired %d issue(s)%n", report.repairedIssues());
            }
            return exit;
        }

        private static ArrayNode discrepancies(List<Verifier.Discrepancy> found) {
            ArrayNode array = Output.object().arrayNode();
            found.forEach(d -> array.addObject().put("issueId", d.issueId()).put("attribId", d.key().attribId())
                    .put("sortKey", d.key().sortKey()));
            return array;
        }
    }

    /** The item count DynamoDB last reported (it lags by hours: a progress estimate only). */
    static long itemCount(DynamoDbClient client, String table) {
        Long count = client.describeTable(b -> b.tableName(table)).table().itemCount();
        return count == null ? 0 : count;
    }

    @Command(name = "remove-index", mixinStandardHelpOptions = true,
            description = "Deletes the items of an index no longer declared (take it out of the definitions and "
                    + "deploy first); idempotent. --index (field-partitioned) removes the original issue grid layout's items.",
            exitCodeListHeading = "%nExit codes:%n",
            exitCodeList = {"0:removed (--on-aws: the job started; with --wait: it finished)", BAD_USAGE, SERVICE_FAILED})
    static final class RemoveIndexCommand implements Callable<Integer>, Failures.Located {
        @CommandLine.ParentCommand
        OperatorCli parent;
        @CommandLine.Mixin
        Tables tables = new Tables();
        @CommandLine.Mixin
        Output output = new Output();
        @Option(names = "--index", required = true, description = "the removed index's name")
        String index;
        @Option(names = "--segments", defaultValue = "4", description = "parallel scan segments (default ${DEFAULT-VALUE})")
        int segments;
        @Option(names = "--rate", defaultValue = "1000", description = "deletes per second at most (default ${DEFAULT-VALUE})")
        double rate;
        @CommandLine.ArgGroup(exclusive = false, heading = "On AWS, by the stack's reindex worker function:%n")
        WorkerJobs.Options aws = new WorkerJobs.Options();

        @Override
        public Failures.Context context() {
            return aws.context(parent.environment, tables);
        }

        @Override
        public Integer call() throws InterruptedException {
            IndexDefinitions definitions;
            try (DynamoDbClient client = tables.client(parent.environment)) {
                // the field-partitioned layout is removable once the stack's grid layout state no longer keeps it
                definitions = IndexRemoval.FIELD_PARTITIONED.equals(index) ? tables.current(parent.environment, client)
                        : tables.definitions(parent.environment);
            }
            IndexRemoval.check(definitions, index);
            if (aws.onAws) {
                return WorkerJobs.start(aws, JobSpec.Kind.REMOVE, Optional.of(index), tables, output, parent);
            }
            long deleted = 0;
            try (DynamoDbClient client = tables.client(parent.environment);
                 ProgressDisplay progress = ProgressDisplay.open("remove-index", "index items", parent.err, parent.terminal)) {
                long total = itemCount(client, tables.indexTable);
                long read = 0;
                IndexRemoval removal = new IndexRemoval(client, tables.indexTable, definitions, index, rate, 100);
                for (int segment = 0; segment < segments; segment++) {
                    for (SegmentPosition at = SegmentPosition.START; !at.done(); ) {
                        PageOutcome page = removal.page(segment, segments, at);
                        deleted += page.counts().writes();
                        read += page.counts().items();
                        progress.update(read, total, deleted + " deleted");
                        at = page.next();
                    }
                }
            }
            if (output.json()) {
                Output.print(Output.object().put("index", index).put("deleted", deleted), parent.out);
            } else {
                parent.out.printf("removed %d item(s) of index %s%n", deleted, index);
            }
            return OperatorCli.DONE;
        }
    }
}

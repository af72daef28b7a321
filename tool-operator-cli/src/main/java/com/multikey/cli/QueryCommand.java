package com.multikey.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.multikey.clikit.Failure;
import com.multikey.clikit.Output;
import com.multikey.common.PlainJson;
import com.multikey.index.IndexProjector;
import com.multikey.index.definition.IndexDefinition;
import com.multikey.index.definition.IndexDefinitions;
import com.multikey.query.Counts;
import com.multikey.query.CursorKeys;
import com.multikey.query.CursorSealer;
import com.multikey.query.FilterParameters;
import com.multikey.query.GroupValue;
import com.multikey.query.IndexQuery;
import com.multikey.query.InvalidPredicateException;
import com.multikey.query.Page;
import com.multikey.query.PageParameters;
import com.multikey.query.PageRequest;
import com.multikey.query.PredicateText;
import com.multikey.query.QueryException;
import com.multikey.query.ReadBudget;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.io.PrintStream;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

import static com.multikey.cli.TableCommands.BAD_USAGE;
import static com.multikey.cli.TableCommands.SERVICE_FAILED;

/** {@code query}: a page of the grid or of any declared index, with predicates, a read budget and its plan on request. */
@Command(name = "query", mixinStandardHelpOptions = true,
        description = "Prints a page of an index: a project's issues sorted (and filtered) by a custom field, "
                + "or with --index a group of any declared index; --where filters on any fields, --budget bounds what a page "
                + "reads, --explain prints its plan.",
        exitCodeListHeading = "%nExit codes:%n", exitCodeList = {"0:the page was printed", BAD_USAGE, SERVICE_FAILED})
final class QueryCommand implements Callable<Integer>, Failures.Located {
    static final int MAX_PAGE_TIMEOUT_SECONDS = 900;

    @CommandLine.ParentCommand
    OperatorCli parent;
    @CommandLine.Mixin
    TableCommands.Tables tables = new TableCommands.Tables();
    @CommandLine.Mixin
    Output output = new Output();
    @Option(names = "--index", description = "the declared index to read (default: the issue grid)")
    String index;
    @Option(names = "--project", description = "the project (the issue grid's group)")
    String project;
    @Option(names = "--group", description = "a group value of --index, in the order of its group attributes (repeat for several): "
            + "text as it is, or S:<text>, N:<number>, BOOL:true|false, B:<base64>; text that begins with S:, N:, BOOL: or B: "
            + "as S:<text>. For several groups (at most " + PageRequest.MAX_GROUPS + "), the values of each in turn: their pages "
            + "merged in order under one cursor, each item once")
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
    Path cursorKeys;
    @Option(names = "--missing", description = "after the items with the field, those without it")
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
            + "'@details.team = core'; or predicates combined with and, or, not and parentheses: "
            + "'status = open or assignee = me', 'not (labels = wontfix)'")
    List<String> where = new ArrayList<>();
    @Option(names = "--budget", paramLabel = "ITEMS", description = "items the page may read, index items and items of the "
            + "table together, 2 (an index item and its item) to 20000: a page that reads them comes back short, with its cursor "
            + "(default: 2000 with --where, else as many as the page needs)")
    Integer budget;
    @Option(names = "--explain", description = "print how the page was read: the plan and why, each plan weighed with its "
            + "estimated items, what was read, and the definitions entry of an index that would answer the query in two calls "
            + "when one would (on standard error; with --output json as the document's explain)")
    boolean explain;
    @Option(names = "--total", description = "also print how many items the request matches, all its pages together: \"1–25 of "
            + "1,234\", or \"of 10,000+\" when the count stopped at its read budget (--budget, else 10000 items) before the end; "
            + "from the counts the pipeline keeps when the definitions declare them, else counted at read time (with --output "
            + "json: total {value, relation eq|gte, source})")
    boolean total;

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
        PageRequest request = parameters().gridRequest(project, attribute);
        try (DynamoDbClient client = tables.client(parent.environment)) {
            Page page = read(client, definitions, budget, request);
            if (output.json()) {
                ArrayNode items = Output.object().arrayNode();
                for (Map<String, AttributeValue> item : page.items()) {
                    ObjectNode entry = items.addObject();
                    entry.put("id", text(item.get("id")));
                    entry.set("num", item.get("num") == null ? NullNode.getInstance() : PlainJson.EXACT.of(item.get("num")));
                    entry.put("name", text(item.get("name")));
                    entry.set("value", json(fieldValue(item)));
                    entry.set("item", PlainJson.EXACT.of(item));
                }
                // the index read: the layout the stack's grid state reads
                ObjectNode document = PageOutput.document(page, items).put("index", page.index().orElse(null)).put("project", project)
                        .put("attribute", attribute);
                PageOutput.explain(page, document);
                PageOutput.total(page, document);
                Output.print(document, parent.out);
                return OperatorCli.DONE;
            }
            PrintStream out = parent.out;
            out.printf("%-4s %-14s %-5s %-30s %s%n", "#", "id", "num", "name", attribute);
            int n = 0;
            for (Map<String, AttributeValue> item : page.items()) {
                AttributeValue value = fieldValue(item);
                out.printf("%-4d %-14s %-5s %-30s %s%n", ++n, text(item.get("id")), item.get("num") == null ? "" : item.get("num").n(),
                        text(item.get("name")), value == null ? "(none)" : PlainJson.EXACT.of(value));
            }
            PageOutput.totalLine(page, cursor == null, out);
            PageOutput.summary(page, out, parent.err);
            return OperatorCli.DONE;
        }
    }

    /** Cursors that open in the next run: sealed under a key file, read (or made) at the first cursor. */
    private CursorSealer cursorSealer() {
        Path file = cursorKeys != null ? cursorKeys : Path.of(System.getProperty("user.home"), ".multikey", "cursor-keys.json");
        return CursorSealer.reloading(() -> CursorKeys.loadOrCreate(file), CursorSealer.DEFAULT_LIFETIME, Clock.systemUTC());
    }

    private AttributeValue fieldValue(Map<String, AttributeValue> item) {
        AttributeValue fields = item.get("custom_fields");
        return fields != null && fields.hasM() ? fields.m().get(attribute) : null;
    }

    /** A page of a declared index: each item's key and its value of the indexed field. */
    private int callIndex(PrintStream out) {
        IndexDefinitions definitions = tables.definitions(parent.environment);
        IndexDefinition definition = definitions.index(index).orElseThrow(() -> Failure.usage(
                "--index: no index named '" + index + "' is declared; declared: " + definitions.declared().stream().map(IndexDefinition::name).toList()));
        Duration budget = pageBudget();
        List<AttributeValue> values = new ArrayList<>();
        if (project != null) {
            values.add(AttributeValue.fromS(project));
        }
        group.forEach(text -> values.add(groupValue(text)));
        // several groups: the values of each in turn, as many for each as the index has group attributes
        int width = definition.group().size();
        List<List<AttributeValue>> groups = new ArrayList<>();
        if (width > 0 && values.size() > width && values.size() % width == 0) {
            for (int from = 0; from < values.size(); from += width) {
                groups.add(values.subList(from, from + width));
            }
        }
        PageRequest request;
        try {
            request = groups.isEmpty() ? parameters().request(index, values, attribute == null ? "" : attribute)
                    : parameters().requestOfGroups(index, groups, attribute == null ? "" : attribute);
        } catch (QueryException e) {
            throw Failure.usage("--group: " + e.getMessage());
        }
        try (DynamoDbClient client = tables.client(parent.environment)) {
            Page page = read(client, definitions, budget, request);
            IndexProjector projector = new IndexProjector(definitions);
            ArrayNode items = Output.object().arrayNode();
            if (!output.json()) {
                out.printf("%-4s %-40s %s%n", "#", "item", attribute == null ? definition.values().path() : attribute);
            }
            int n = 0;
            for (Map<String, AttributeValue> item : page.items()) {
                AttributeValue value = definition.values().path().resolve(item);
                if (value != null && attribute != null && value.hasM()) {
                    value = value.m().get(attribute);
                }
                String key = projector.keyOf(item).map(Object::toString).orElse(null);
                if (output.json()) {
                    ObjectNode entry = items.addObject();
                    entry.put("key", key);
                    entry.set("value", json(value));
                    entry.set("item", PlainJson.EXACT.of(item));
                } else {
                    out.printf("%-4d %-40s %s%n", ++n, key == null ? "?" : key, value == null ? "(none)" : PlainJson.EXACT.of(value));
                }
            }
            if (output.json()) {
                // the index read, which for the issue grid is the layout the stack's grid state reads, whichever name was given
                ObjectNode document = PageOutput.document(page, items).put("index", page.index().orElse(index));
                document.set("group", Output.object().arrayNode().addAll(values.stream().map(PlainJson.EXACT::of).toList()));
                if (request.groups().size() > 1) {
                    ArrayNode all = document.putArray("groups");
                    request.groups().forEach(each -> all.addArray().addAll(each.stream().map(PlainJson.EXACT::of).toList()));
                }
                if (attribute != null) {
                    document.put("attribute", attribute);
                }
                PageOutput.explain(page, document);
                PageOutput.total(page, document);
                Output.print(document, out);
                return OperatorCli.DONE;
            }
            PageOutput.totalLine(page, cursor == null, out);
            PageOutput.summary(page, out, parent.err);
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

    /**
     * The page options through the query library's one parser of page parameters (the read API's too), each checked before
     * any endpoint is contacted: a refusal names the option at fault, a predicate's its {@code --where}.
     */
    private PageParameters parameters() {
        Map<PageParameters.Parameter, String> given = new EnumMap<>(PageParameters.Parameter.class);
        given.put(PageParameters.Parameter.ORDER, descending ? "desc" : "asc");
        given.put(PageParameters.Parameter.PAGE_SIZE, Integer.toString(pageSize));
        given.put(PageParameters.Parameter.MISSING, Boolean.toString(missing));
        given.put(PageParameters.Parameter.EXPLAIN, Boolean.toString(explain));
        given.put(PageParameters.Parameter.TYPE, type);
        put(given, PageParameters.Parameter.CURSOR, cursor);
        put(given, PageParameters.Parameter.EQUALS, equals);
        put(given, PageParameters.Parameter.BEGINS_WITH, beginsWith);
        put(given, PageParameters.Parameter.LT, lessThan);
        put(given, PageParameters.Parameter.LE, atMost);
        put(given, PageParameters.Parameter.GT, greaterThan);
        put(given, PageParameters.Parameter.GE, atLeast);
        put(given, PageParameters.Parameter.BUDGET, budget == null ? null : budget.toString());
        try {
            PageParameters parameters = PageParameters.parse(given, where);
            if (parameters.budget().isPresent() && parameters.budget().get() > ReadBudget.DEFAULT.max()) {
                // the library's own bound (IndexQuery.of reads within ReadBudget.DEFAULT), told before any endpoint is contacted
                throw new FilterParameters.InvalidParameterException(PageParameters.Parameter.BUDGET, "at most "
                        + ReadBudget.DEFAULT.max() + " items a page, got " + parameters.budget().get());
            }
            return parameters;
        } catch (InvalidPredicateException e) {
            throw QueryRefusals.where(e, where);
        } catch (FilterParameters.InvalidParameterException e) {
            throw QueryRefusals.option(e);
        }
    }

    private static void put(Map<PageParameters.Parameter, String> given, PageParameters.Parameter parameter, String text) {
        if (text != null) {
            given.put(parameter, text);
        }
    }

    /** A page through the query library, a predicate or budget it refuses named by its option. */
    private Page read(DynamoDbClient client, IndexDefinitions definitions, Duration timeout, PageRequest request) {
        try {
            IndexQuery query = IndexQuery.of(client, tables.appTable, tables.indexTable, definitions).withPageBudget(timeout)
                    .withCursorSealer(cursorSealer());
            return total ? new Counts(query, client, tables.indexTable, definitions).pageWithTotal(request) : query.page(request);
        } catch (InvalidPredicateException e) {
            throw QueryRefusals.where(e, where);
        } catch (FilterParameters.InvalidParameterException e) {
            throw QueryRefusals.option(e);
        }
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
        return value == null ? NullNode.getInstance() : PlainJson.EXACT.of(value);
    }
}

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
import com.multikey.query.FilterParameters;
import com.multikey.query.GroupValue;
import com.multikey.query.IndexQuery;
import com.multikey.query.InvalidPredicateException;
import com.multikey.query.Page;
import com.multikey.query.PageRequest;
import com.multikey.query.QueryException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
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
    @CommandLine.ParentCommand
    OperatorCli parent;
    @CommandLine.Mixin
    TableCommands.Tables tables = new TableCommands.Tables();
    @CommandLine.Mixin
    Output output = new Output();
    @CommandLine.Mixin
    PageOptions options = new PageOptions();
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
        Duration budget = options.pageBudget();
        PageRequest request = options.parameters().gridRequest(project, attribute);
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
            PageOutput.totalLine(page, options.cursor == null, out);
            PageOutput.summary(page, out, parent.err);
            return OperatorCli.DONE;
        }
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
        Duration budget = options.pageBudget();
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
            request = groups.isEmpty() ? options.parameters().request(index, values, attribute == null ? "" : attribute)
                    : options.parameters().requestOfGroups(index, groups, attribute == null ? "" : attribute);
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
            PageOutput.totalLine(page, options.cursor == null, out);
            PageOutput.summary(page, out, parent.err);
            return OperatorCli.DONE;
        }
    }

    /** A page through the query library, a predicate or budget it refuses named by its option. */
    private Page read(DynamoDbClient client, IndexDefinitions definitions, Duration timeout, PageRequest request) {
        try {
            IndexQuery query = IndexQuery.of(client, tables.appTable, tables.indexTable, definitions).withPageBudget(timeout)
                    .withCursorSealer(options.cursorSealer());
            return options.total ? new Counts(query, client, tables.indexTable, definitions).pageWithTotal(request) : query.page(request);
        } catch (InvalidPredicateException e) {
            throw QueryRefusals.where(e, options.where);
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

package com.multikey.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.multikey.clikit.Failure;
import com.multikey.clikit.Output;
import com.multikey.common.PlainJson;
import com.multikey.index.definition.IndexDefinition;
import com.multikey.index.definition.IndexDefinitions;
import com.multikey.query.CountParameters;
import com.multikey.query.Counts;
import com.multikey.query.Expression;
import com.multikey.query.ExpressionText;
import com.multikey.query.FacetRequest;
import com.multikey.query.Facets;
import com.multikey.query.GroupValue;
import com.multikey.query.IndexQuery;
import com.multikey.query.InvalidCountException;
import com.multikey.query.InvalidPredicateException;
import com.multikey.query.ReadBudget;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import static com.multikey.cli.TableCommands.BAD_USAGE;
import static com.multikey.cli.TableCommands.SERVICE_FAILED;

/** {@code facets}: how many items of a group carry each value of one or more fields, most frequent first. */
@Command(name = "facets", mixinStandardHelpOptions = true,
        description = "Prints, for a project of the issue grid or a group of any declared index, each value of one or more fields "
                + "with how many items carry it, most frequent first: the top values and how many others. From the counts the "
                + "pipeline keeps when the definitions declare the field a facet (one or two calls whatever the group's size); "
                + "with --where, or for a field not declared, counted at read time within --budget (exact, or a lower bound that "
                + "says so).",
        exitCodeListHeading = "%nExit codes:%n", exitCodeList = {"0:the counts were printed", BAD_USAGE, SERVICE_FAILED})
final class FacetsCommand implements Callable<Integer>, Failures.Located {

    @CommandLine.ParentCommand
    OperatorCli parent;
    @CommandLine.Mixin
    TableCommands.Tables tables = new TableCommands.Tables();
    @CommandLine.Mixin
    Output output = new Output();
    @Option(names = "--index", description = "the declared index (default: the issue grid)")
    String index;
    @Option(names = "--project", description = "the project (the issue grid's group)")
    String project;
    @Option(names = "--group", description = "a group value of --index, in the order of its group attributes (repeat for several), "
            + "spelled as for query")
    List<String> group = new ArrayList<>();
    @Option(names = "--field", required = true, description = "a field to count (repeat for several, at most " + FacetRequest.MAX_FIELDS
            + "): an entry of a map-entries index (the grid's attribute id), or the attribute an index of one attribute or of a "
            + "list's elements holds")
    List<String> fields = new ArrayList<>();
    @Option(names = "--top", defaultValue = "10", description = "how many values of each field to print, 1 to " + FacetRequest.MAX_TOP
            + " (default ${DEFAULT-VALUE})")
    String top;
    @Option(names = "--where", paramLabel = "PREDICATE", description = "count only the items that satisfy it (repeat for several), "
            + "as query's --where")
    List<String> where = new ArrayList<>();
    @Option(names = "--budget", paramLabel = "ITEMS", description = "items a count at read time may read per field, 2 to "
            + "20000 (default " + Counts.DEFAULT_BUDGET + "): past it, the counts are lower bounds")
    String budget;

    @Override
    public Failures.Context context() {
        return tables.context(parent.environment, tables.tables());
    }

    @Override
    public Integer call() {
        IndexDefinitions definitions = tables.definitions(parent.environment);
        FacetRequest request = request(definitions);
        try (DynamoDbClient client = tables.client(parent.environment)) {
            IndexQuery query = IndexQuery.of(client, tables.appTable, tables.indexTable, definitions);
            Facets facets;
            try {
                facets = new Counts(query, client, tables.indexTable, definitions).facets(request);
            } catch (InvalidCountException e) {
                throw Failure.usage("--" + e.getMessage());
            } catch (InvalidPredicateException e) {
                throw QueryRefusals.where(e, where);
            }
            print(facets, parent.out);
            return OperatorCli.DONE;
        }
    }

    /** The request from the options, each checked before any endpoint is contacted. */
    private FacetRequest request(IndexDefinitions definitions) {
        String name;
        List<AttributeValue> values = new ArrayList<>();
        if (index == null) {
            IndexDefinition grid = definitions.grid().orElseThrow(() -> Failure.usage("--index: name the index to count; no issue grid is declared"));
            if (project == null || !group.isEmpty()) {
                throw Failure.usage("give --project (the issue grid), or --index and --group");
            }
            name = grid.name();
            values.add(AttributeValue.fromS(project));
        } else {
            IndexDefinition definition = definitions.index(index).orElseThrow(() -> Failure.usage("--index: no index named '" + index
                    + "' is declared; declared: " + definitions.declared().stream().map(IndexDefinition::name).toList()));
            name = definition.name();
            if (project != null) {
                values.add(AttributeValue.fromS(project));
            }
            for (String text : group) {
                try {
                    values.add(GroupValue.parse(text));
                } catch (IllegalArgumentException e) {
                    throw Failure.usage("--group: " + e.getMessage());
                }
            }
        }
        try {
            // the read API's parser of a count's whole numbers (ASCII digits alone), the bound the query library reads within
            int topValues = CountParameters.wholeNumber("top", top, FacetRequest.MAX_TOP);
            int items = budget == null ? 0 : CountParameters.budget(budget, ReadBudget.DEFAULT.max());
            // read as query's --where (the one parser's limits over all of them, a refusal at the token's offset)
            List<Expression> predicates = ExpressionText.parseAll(where);
            return new FacetRequest(name, values, fields, topValues, predicates, items);
        } catch (InvalidPredicateException e) {
            throw QueryRefusals.where(e, where);
        } catch (InvalidCountException e) {
            throw Failure.usage("--" + e.getMessage());
        }
    }

    private void print(Facets facets, PrintStream out) {
        if (output.json()) {
            ObjectNode document = Output.object();
            ArrayNode list = document.putArray("facets");
            for (Facets.Facet facet : facets.facets()) {
                ObjectNode node = list.addObject().put("field", facet.field());
                ArrayNode values = node.putArray("values");
                facet.values().forEach(value -> values.addObject()
                        .<ObjectNode>set("value", value.value() == null ? NullNode.getInstance() : PlainJson.EXACT.of(value.value()))
                        .put("count", value.count()));
                node.put("otherValues", facet.otherValues()).put("otherCount", facet.otherCount())
                        .put("relation", facet.relation().apiName()).put("source", facet.source().apiName());
            }
            document.put("apiCalls", facets.calls()).put("examined", facets.examined());
            Output.print(document, out);
            return;
        }
        for (Facets.Facet facet : facets.facets()) {
            out.printf("%s (%s%s)%n", facet.field(), facet.source() == com.multikey.query.Total.Source.KEPT ? "kept counts" : "counted",
                    facet.relation() == com.multikey.query.Total.Relation.GTE ? ", at least: the read budget ran out" : "");
            for (Facets.ValueCount value : facet.values()) {
                out.printf("  %-40s %s%n", value.value() == null ? "(a value too long to show)" : PlainJson.EXACT.of(value.value()),
                        CountText.of(value.count(), facet.relation()));
            }
            if (facet.otherValues() > 0) {
                out.printf("  %-40s %s%n", CountText.of(facet.otherValues(), facet.relation()) + " other value(s)",
                        CountText.of(facet.otherCount(), facet.relation()));
            }
        }
        out.printf("%d API call(s), %d item(s) read%n", facets.calls(), facets.examined());
    }
}

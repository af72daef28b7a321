package com.multikey.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.multikey.clikit.Failure;
import com.multikey.clikit.Output;
import com.multikey.index.definition.DefinitionsYaml;
import com.multikey.index.definition.IndexDefinition;
import com.multikey.index.definition.IndexDefinitions;
import com.multikey.index.definition.KeySchema;
import com.multikey.index.definition.ValueSource;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code plan}: for each declared index, measured on a sample of the table (or on items made from the definitions,
 * with the assumptions stated): index items per item, index writes per typical change, storage, the monthly cost at
 * a rate of changes, and whether a native GSI could serve it, with its template and what it would not do; with
 * {@code --table}, also the readers its stream already has and the stack's mode that fits beside them.
 */
@Command(name = "plan", mixinStandardHelpOptions = true,
        description = "Prints, for each declared index, its index items per item, index writes per typical change, storage and "
                + "monthly cost (docs/cost.md's prices), measured on a read-only sample of --table (or on items made from the "
                + "definitions alone), and whether a native DynamoDB GSI could serve it, with the GSI to paste into a template.",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:the plan was printed", OperatorCli.BAD_USAGE + "; definitions that do not match --table's key",
                OperatorCli.SERVICE_FAILED})
final class PlanCommand implements Callable<Integer>, Failures.Located {

    static final long DEFAULT_ITEMS = 1_000_000;

    @CommandLine.ParentCommand
    OperatorCli parent;
    @CommandLine.Mixin
    TableSource source = new TableSource();
    @CommandLine.Mixin
    Output output = new Output();
    @Option(names = "--definitions", description = "index definitions file (default: $INDEX_DEFINITIONS, else the packaged "
            + "index-definitions.yaml)")
    Path definitionsFile;
    @Option(names = "--table", description = "measure on a read-only sample of this table (default: on items made from the "
            + "definitions, with the assumptions printed)")
    String table;
    @Option(names = "--sample", defaultValue = "" + InitCommand.DEFAULT_SAMPLE, description = "items to read at most (default ${DEFAULT-VALUE})")
    int sample;
    @Option(names = "--page-size", defaultValue = "100", description = "items per Scan call (its Limit) (default ${DEFAULT-VALUE})")
    int pageSize;
    @Option(names = "--read-rate", defaultValue = "25", description = "read capacity units per second at most (default ${DEFAULT-VALUE})")
    double readRate;
    @Option(names = "--changes-per-month", defaultValue = "1000000", description = "changes a month, each changing one value an "
            + "index holds (default ${DEFAULT-VALUE})")
    long changesPerMonth;
    @Option(names = "--items", description = "items in the table, for storage (default: DynamoDB's count of --table, else " + DEFAULT_ITEMS + ")")
    Long items;

    @Override
    public Failures.Context context() {
        return source.context(parent.environment, "--table", table);
    }

    @Override
    public Integer call() throws InterruptedException {
        if (sample < 1 || pageSize < 1 || readRate <= 0 || changesPerMonth < 0 || items != null && items < 0) {
            throw Failure.usage("--sample, --page-size and --read-rate must be positive, --changes-per-month and --items not negative");
        }
        IndexDefinitions definitions = definitionsFile != null ? DefinitionsYaml.read(definitionsFile)
                : IndexDefinitions.fromEnvironment(parent.environment);
        List<String> assumptions = new ArrayList<>();
        List<Map<String, AttributeValue>> sampled = null;
        long tableItems;
        int existingGsis = 0;
        StreamReaders readers = null;
        if (table != null) {
            TableSampler.Sample read;
            try (DynamoDbClient client = source.client(parent.environment)) {
                read = new TableSampler(client, pageSize, readRate, TableSampler.Pause.SLEEP).sample(table, sample);
            }
            checkKey(definitions.table(), read.table());
            readers = source.readers(parent.environment, read.table());
            sampled = read.items();
            existingGsis = read.table().globalSecondaryIndexes().size();
            long counted = read.table().itemCount() == null ? 0 : read.table().itemCount();
            tableItems = items != null ? items : Math.max(counted, read.items().size());
            assumptions.add("measured on " + read.items().size() + " items read from " + table + (read.whole() ? " (the whole table)"
                    : " (a sample)") + "; " + (items != null ? "--items " + items : "DynamoDB's item count " + counted) + " for storage");
        } else {
            tableItems = items != null ? items : DEFAULT_ITEMS;
            assumptions.addAll(SyntheticItems.ASSUMPTIONS);
            assumptions.add(tableItems + " items in the table, each covered by every index" + (items != null ? " (--items)" : " (--items to change)"));
        }
        assumptions.add("a typical change changes one value an index holds (one map entry, one element, or the value) to another value "
                + "of the sample; each index is priced as if every change were one of its own (an upper bound)");
        List<IndexPlan> plans = new ArrayList<>();
        for (IndexDefinition index : definitions.indexes()) {
            List<Map<String, AttributeValue>> items = sampled != null ? sampled : SyntheticItems.of(index, definitions.table());
            plans.add(new IndexPlan(IndexMeasurement.of(definitions, index, items), tableItems, changesPerMonth, Prices.US_EAST_1,
                    GsiAdvisor.verdict(index, definitions.table(), sampled != null ? sampled : List.of()), index.counts()));
        }
        PipelineCost pipeline = new PipelineCost(changesPerMonth, Prices.US_EAST_1);
        if (output.json()) {
            ObjectNode document = PlanDocument.of(this, plans, pipeline, assumptions, existingGsis);
            if (readers != null) {
                document.set("streamReaders", readers.document());
            }
            Output.print(document, parent.out);
        } else {
            PlanDocument.print(parent.out, this, plans, pipeline, assumptions, existingGsis);
            if (readers != null) {
                readers.print(parent.out);
            }
        }
        return OperatorCli.DONE;
    }

    String definitionsName() {
        return definitionsFile != null ? definitionsFile.toString()
                : parent.environment.getOrDefault(IndexDefinitions.ENVIRONMENT_VARIABLE, "the packaged index-definitions.yaml");
    }

    private void checkKey(KeySchema declared, TableDescription description) {
        KeySchema actual = DefinitionsProposal.keySchema(description);
        if (!declared.partitionKey().equals(actual.partitionKey()) || !declared.sortKey().equals(actual.sortKey())) {
            throw Failure.usage("the definitions (" + definitionsName() + ") declare the key " + key(declared) + ", and table " + table
                    + " has " + key(actual) + ": pass its own definitions with --definitions (java -jar tool-operator-cli/target/operator-cli.jar init"
                    + " --table " + table + " proposes them)");
        }
    }

    private static String key(KeySchema key) {
        return String.join(", ", key.attributes().stream().map(a -> a.name() + " (" + a.type() + ")").toList());
    }

    static String values(ValueSource values) {
        return switch (values) {
            case ValueSource.MapEntries entries -> "entriesOf";
            case ValueSource.Elements elements -> "elementsOf";
            case ValueSource.Words words -> "wordsOf";
            case ValueSource.Scalar scalar -> "attribute";
        };
    }

    static ArrayNode strings(List<String> texts) {
        ArrayNode array = Output.object().arrayNode();
        texts.forEach(array::add);
        return array;
    }

    static ObjectNode gsi(GsiVerdict verdict) {
        ObjectNode gsi = Output.object();
        switch (verdict) {
            case GsiVerdict.Native yes -> {
                gsi.put("native", true).put("template", yes.template());
                gsi.set("differences", strings(yes.differences()));
            }
            case GsiVerdict.NotNative no -> {
                gsi.put("native", false);
                gsi.set("reasons", strings(no.reasons()));
            }
        }
        return gsi;
    }
}

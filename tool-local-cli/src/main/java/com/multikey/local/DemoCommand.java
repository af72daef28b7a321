package com.multikey.local;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.multikey.clikit.Failure;
import com.multikey.clikit.Output;
import com.multikey.clikit.ProgressDisplay;
import com.multikey.emulator.TemplateRuntime;
import com.multikey.emulator.template.SamTemplate;
import com.multikey.index.definition.DefinitionsYaml;
import com.multikey.index.definition.IndexDefinitions;
import com.multikey.local.DemoChecks.Check;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/** {@code demo}: the whole pipeline on sample data, every outcome checked; progress on standard error as the checks run. */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = {"Runs the whole pipeline on the grid sample and layer records and checks every outcome.",
                "With --example NAME, the example under examples/NAME instead: its table (created before the stack, as an existing "
                        + "table), its definitions file read by every function, its items, indexes and events."},
        footer = {"", "Standard output: what the demo does and the checks' outcome (with --output json, only the checks). Standard error: "
                + "the function-log path, then progress as the checks run (a bar on a terminal, else lines)."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:every check passed", "1:a check failed (each failed check is printed)", LocalMain.BAD_USAGE, LocalMain.STACK_FAILED})
final class DemoCommand implements Callable<Integer> {

    @CommandLine.ParentCommand
    LocalMain parent;

    @CommandLine.Mixin
    Output output = new Output();

    @Option(names = "--example", paramLabel = "NAME",
            description = "an example under examples/ (" + SingleTableDemo.EXAMPLE + ") (default: the grid sample on the template's own table)")
    String example;

    @Option(names = "--definitions", paramLabel = "FILE", description = "run on a table of your own shape, declared in this "
            + "definitions file, with the items of --load (default: the grid sample)")
    Path definitions;

    @Option(names = "--table-name", defaultValue = "MyTable", description = "with --definitions, the table's name (default ${DEFAULT-VALUE})")
    String tableName;

    @Option(names = "--load", paramLabel = "FILE", description = "with --definitions, the items to load (DynamoDB JSON: one a line, "
            + "or the output of 'aws dynamodb scan')")
    Path load;

    @Override
    public Integer call() throws InterruptedException {
        SamTemplate template = parent.loadTemplate();
        Path repository = template.path().toAbsolutePath().getParent();
        Path exampleDirectory = null;
        if (example != null) {
            exampleDirectory = SingleTableDemo.directory(repository, example);
            if (!example.equals(SingleTableDemo.EXAMPLE)) {
                throw Failure.usage("example '" + example + "' has no demo: pass --example " + SingleTableDemo.EXAMPLE);
            }
        }
        if (definitions != null) {
            return ownTable(template);
        }
        parent.logs.name(parent.err);
        boolean bar = parent.terminal && !output.json();
        PrintStream out = bar ? ProgressDisplay.belowBar(parent.out) : output.lines(parent.out);
        List<Check> checks;
        try (ProgressDisplay progress = ProgressDisplay.open("demo", "checks", parent.err, parent.terminal)) {
            if (exampleDirectory == null) {
                try (TemplateRuntime runtime = new TemplateRuntime(template, 0, line -> out.println("  . " + line))) {
                    runtime.startPolling();
                    checks = new PipelineDemo(runtime, repository, out, progress).run();
                }
            } else {
                IndexDefinitions definitions = DefinitionsYaml.read(exampleDirectory.resolve("index-definitions.yaml"));
                Path json = parent.deletedAtTheEnd(SingleTableDemo.definitionsJson(exampleDirectory));
                try (TemplateRuntime runtime = new TemplateRuntime(template.withParameterOverrides(SingleTableDemo.parameters()),
                        new TemplateRuntime.Ports("127.0.0.1", 0, 0, 0), line -> out.println("  . " + line), SingleTableDemo.existingTable(),
                        Map.of("INDEX_DEFINITIONS", json.toString()))) {
                    runtime.startPolling();
                    checks = new SingleTableDemo(runtime, definitions, out, progress).run();
                }
            }
        }
        return report(checks);
    }

    /** {@code --definitions FILE --load ITEMS}: the user's own table shape and items ({@link OwnTableDemo}). */
    private int ownTable(SamTemplate template) throws InterruptedException {
        if (example != null || load == null) {
            throw Failure.usage("--definitions takes --load ITEMS.json (your items, DynamoDB JSON) and no --example");
        }
        OwnTable own = OwnTable.of(definitions, tableName);
        parent.deletedAtTheEnd(own.json());
        List<Map<String, software.amazon.awssdk.services.dynamodb.model.AttributeValue>> items = ItemFile.read(load);
        parent.logs.name(parent.err);
        boolean bar = parent.terminal && !output.json();
        PrintStream out = bar ? ProgressDisplay.belowBar(parent.out) : output.lines(parent.out);
        List<Check> checks;
        try (ProgressDisplay progress = ProgressDisplay.open("demo", "checks", parent.err, parent.terminal);
             TemplateRuntime runtime = new TemplateRuntime(template.withParameterOverrides(own.parameters()),
                     new TemplateRuntime.Ports("127.0.0.1", 0, 0, 0), line -> out.println("  . " + line), own.creation(), own.environment())) {
            runtime.startPolling();
            checks = new OwnTableDemo(runtime, own, out, progress).run(items);
        }
        return report(checks);
    }

    private int report(List<Check> checks) {
        PrintStream out = parent.terminal && !output.json() ? ProgressDisplay.belowBar(parent.out) : output.lines(parent.out);
        long failed = checks.stream().filter(c -> !c.passed()).count();
        if (output.json()) {
            Output.print(document(checks), parent.out);
        } else {
            out.printf("%n%d of %d checks passed.%n", checks.size() - failed, checks.size());
            checks.stream().filter(c -> !c.passed()).forEach(c ->
                    out.printf("FAILED %s: expected %s, got %s%n", c.description(), c.expected(), c.actual()));
        }
        return failed == 0 ? LocalMain.DONE : LocalMain.FAILED;
    }

    private ObjectNode document(List<Check> checks) {
        ObjectNode document = Output.object();
        document.put("example", example);
        long failed = checks.stream().filter(c -> !c.passed()).count();
        document.put("passed", checks.size() - failed);
        document.put("failed", failed);
        ArrayNode list = document.putArray("checks");
        for (Check check : checks) {
            list.addObject().put("description", check.description())
                    .<ObjectNode>set("expected", Output.JSON.valueToTree(check.expected()))
                    .<ObjectNode>set("actual", Output.JSON.valueToTree(check.actual()))
                    .put("passed", check.passed());
        }
        return document;
    }
}

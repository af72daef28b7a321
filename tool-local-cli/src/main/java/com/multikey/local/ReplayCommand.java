package com.multikey.local;

import com.amazonaws.services.lambda.runtime.events.DynamodbEvent;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.multikey.clikit.Failure;
import com.multikey.clikit.Output;
import com.multikey.common.PlainJson;
import com.multikey.emulator.TemplateRuntime;
import com.multikey.emulator.functions.LocalFunction;
import com.multikey.emulator.services.streams.LambdaEvents;
import com.multikey.emulator.template.SamTemplate;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/** {@code replay}: stream event files delivered to the stream indexer alone, then the index table. */
@Command(name = "replay", mixinStandardHelpOptions = true,
        description = "Delivers stream event files (e.g. sam/events/*.json) to the stream indexer, in order, and prints the index table.",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:every record was indexed", "1:the indexer reported batch item failures (or threw)", LocalMain.BAD_USAGE,
                LocalMain.STACK_FAILED})
final class ReplayCommand implements Callable<Integer> {

    @CommandLine.ParentCommand
    LocalMain parent;

    @CommandLine.Mixin
    Output output = new Output();

    @Parameters(arity = "1..*", paramLabel = "EVENT.json", description = "DynamoDB stream events, as the indexer receives them")
    List<Path> files;

    @Override
    public Integer call() {
        for (Path file : files) {
            if (!Files.isRegularFile(file)) {
                throw Failure.usage("no such event file: " + file + " (the samples are under sam/events/)");
            }
        }
        SamTemplate template = parent.loadTemplate();
        PrintStream out = parent.out;
        Map<String, String> functionEnvironment = parent.functionEnvironment();
        try (TemplateRuntime runtime = new TemplateRuntime(template, new TemplateRuntime.Ports("127.0.0.1", 0, 0, 0), line -> { }, dynamoDb -> { },
                functionEnvironment)) {
            LocalFunction indexer = runtime.function("StreamIndexerFunction");
            ObjectNode document = Output.object();
            ArrayNode answers = document.putArray("files");
            boolean failures = false;
            for (Path file : files) {
                DynamodbEvent event = LambdaEvents.read(file, DynamodbEvent.class);
                String response = invoke(indexer, file);
                JsonNode answer = Output.parsedOrText(response);
                failures |= !answer.path("batchItemFailures").isEmpty();
                int records = event.getRecords() == null ? 0 : event.getRecords().size();
                answers.addObject().put("file", file.toString()).put("records", records).set("answer", answer);
                if (!output.json()) {
                    out.printf("%s: %d record(s), answered %s%n", file, records, response);
                }
            }
            List<Map<String, AttributeValue>> items = IndexTablePrinter.scan(runtime.dynamoDb(), runtime.table("IssueAttribIndexTable"));
            if (output.json()) {
                ArrayNode index = document.putArray("indexItems");
                items.forEach(item -> index.add(PlainJson.EXACT.of(item)));
                Output.print(document, out);
            } else {
                out.println();
                IndexTablePrinter.print(out, items);
            }
            return failures ? LocalMain.FAILED : LocalMain.DONE;
        }
    }

    private static String invoke(LocalFunction indexer, Path file) {
        try {
            return indexer.invoke(LambdaEvents.stripped(file));
        } catch (IllegalArgumentException e) {
            throw Failure.usage(file.getFileName() + ": " + e.getMessage());
        } catch (RuntimeException e) {
            throw new Failure(LocalMain.FAILED, "StreamIndexerFunction failed on " + file + ": " + e, e);
        }
    }
}

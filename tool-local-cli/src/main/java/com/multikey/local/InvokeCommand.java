package com.multikey.local;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.multikey.clikit.Failure;
import com.multikey.clikit.Output;
import com.multikey.emulator.TemplateRuntime;
import com.multikey.emulator.functions.LocalFunction;
import com.multikey.emulator.template.SamTemplate;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Callable;

/** {@code invoke}: one function of the template with an event file, and what the invocation changed. */
@Command(name = "invoke", mixinStandardHelpOptions = true,
        description = "Invokes one function of the template with an event file, like 'sam local invoke', without Docker, and prints "
                + "its answer and what changed: items written, events published (and the rules they matched, whose targets run too), "
                + "external calls.",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:the function answered", "1:the function failed (threw)", LocalMain.BAD_USAGE, LocalMain.STACK_FAILED})
final class InvokeCommand implements Callable<Integer> {

    @CommandLine.ParentCommand
    LocalMain parent;

    @CommandLine.Mixin
    Output output = new Output();

    @Parameters(index = "0", paramLabel = "FunctionLogicalId", description = "the function's logical id in the template, e.g. RouterFunction")
    String function;

    @Option(names = {"-e", "--event"}, required = true, paramLabel = "EVENT.json", description = "the event to invoke it with (required)")
    Path event;

    @Override
    public Integer call() throws InterruptedException {
        if (!Files.isRegularFile(event)) {
            throw Failure.usage("no such event file: " + event + " (the samples are under sam/events/)");
        }
        SamTemplate template = parent.loadTemplate();
        PrintStream lines = output.lines(parent.out);
        Map<String, String> functionEnvironment = parent.functionEnvironment();
        try (TemplateRuntime runtime = new TemplateRuntime(template, new TemplateRuntime.Ports("127.0.0.1", 0, 0, 0), lines::println, dynamoDb -> { },
                functionEnvironment)) {
            LocalFunction target = runtime.function(function);
            String input = readEvent(event);
            Map<String, Map<ObjectNode, ObjectNode>> before = StackChanges.snapshot(runtime);
            String response = invoke(target, input, event);
            runtime.awaitDispatch(Duration.ofSeconds(30));
            // what the function invoked asynchronously (e.g. the reindex worker's segments) runs to its end too
            runtime.lambdaApi().awaitAsyncIdle(Duration.ofMinutes(10));
            StackChanges changes = StackChanges.since(runtime, before);
            if (output.json()) {
                ObjectNode document = Output.object().put("function", function);
                document.set("answer", Output.parsedOrText(response));
                Output.print(changes.addTo(document), parent.out);
            } else {
                parent.out.println(function + " answered: " + LocalFunction.display(response));
                changes.print(parent.out);
            }
            return LocalMain.DONE;
        }
    }

    private static String readEvent(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    private String invoke(LocalFunction target, String json, Path file) {
        try {
            return target.invoke(json);
        } catch (IllegalArgumentException e) {
            throw Failure.usage(file.getFileName() + ": " + e.getMessage());
        } catch (RuntimeException e) {
            throw new Failure(LocalMain.FAILED, function + " failed: " + e, e);
        }
    }
}

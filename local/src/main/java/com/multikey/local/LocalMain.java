package com.multikey.local;

import com.amazonaws.services.lambda.runtime.events.DynamodbEvent;
import com.amazonaws.services.lambda.runtime.events.StreamsEventResponse;
import com.multikey.local.support.LambdaEvents;
import com.multikey.local.support.SamTemplate;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * Runs the pipeline on this machine, with embedded DynamoDB Local and the tables and functions of
 * {@code template.yaml}; no Docker, no AWS account.
 *
 * <pre>
 * demo                 load the grid sample, index it, change it, check the order of every attribute
 * replay EVENT.json... deliver stream events (e.g. sam/events/*.json) to the indexer and print the index
 * </pre>
 */
public final class LocalMain {

    private LocalMain() {
    }

    public static void main(String[] args) {
        int status;
        try {
            status = run(Arrays.asList(args), System.out, System.err);
        } catch (RuntimeException e) {
            System.err.println("error: " + e.getMessage());
            status = 2;
        }
        System.out.flush();
        // DynamoDB Local leaves non-daemon threads behind after shutdown
        System.exit(status);
    }

    static int run(List<String> args, PrintStream out, PrintStream err) {
        try {
            return dispatch(args, out, err);
        } catch (IllegalArgumentException e) {
            err.println("error: " + e.getMessage());
            return 2;
        }
    }

    private static int dispatch(List<String> args, PrintStream out, PrintStream err) {
        String command = args.isEmpty() ? "demo" : args.get(0);
        switch (command) {
            case "demo" -> {
                return demo(out);
            }
            case "replay" -> {
                return replay(args.subList(1, args.size()), out, err);
            }
            default -> {
                err.println("usage: local.jar [demo | replay EVENT.json...]   (unknown command '" + command + "')");
                return 2;
            }
        }
    }

    static int demo(PrintStream out) {
        try (LocalPipeline pipeline = new LocalPipeline(SamTemplate.ofRepository())) {
            List<GridDemo.Check> checks = new GridDemo(pipeline, out)
                    .run(SamTemplate.findUp("fixtures").resolve("grid/sample-issues.json"));
            long failed = checks.stream().filter(c -> !c.passed()).count();
            out.printf("%n%d of %d checks passed.%n", checks.size() - failed, checks.size());
            checks.stream().filter(c -> !c.passed()).forEach(c ->
                    out.printf("FAILED %s: expected %s, got %s%n", c.description(), c.expected(), c.actual()));
            return failed == 0 ? 0 : 1;
        }
    }

    static int replay(List<String> files, PrintStream out, PrintStream err) {
        if (files.isEmpty()) {
            err.println("usage: local.jar replay EVENT.json...");
            return 2;
        }
        for (String file : files) {
            if (!Files.isRegularFile(Path.of(file))) {
                err.println("error: no such event file: " + file);
                return 2;
            }
        }
        try (LocalPipeline pipeline = new LocalPipeline(SamTemplate.ofRepository())) {
            for (String file : files) {
                DynamodbEvent event = LambdaEvents.read(Path.of(file), DynamodbEvent.class);
                StreamsEventResponse response = pipeline.invokeIndexer(event);
                out.printf("%s: %d record(s), batch item failures %s%n", file,
                        event.getRecords() == null ? 0 : event.getRecords().size(), response.getBatchItemFailures());
            }
            out.println();
            IndexTablePrinter.print(out, IndexTablePrinter.scan(pipeline.dynamoDb, pipeline.table("IssueAttribIndexTable")));
            return 0;
        }
    }
}

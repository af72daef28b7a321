package com.multikey.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;

/**
 * The operator's command line for the tables of a deployed stack: {@code query}, {@code backfill},
 * {@code verify [--repair]} (in this process, or {@code --on-aws} as a job of the stack's reindex worker
 * function), {@code job-status}. It talks to DynamoDB in the account and region of the usual AWS environment
 * (credentials, {@code AWS_REGION}), or to {@code --endpoint} (a local stack from {@code local.jar start}).
 */
@Command(name = "operator-cli.jar", mixinStandardHelpOptions = true,
        description = "Queries, backfills and verifies the index of a deployed stack (or of a local one with --endpoint).",
        subcommands = {TableCommands.Query.class, TableCommands.BackfillCommand.class, TableCommands.VerifyCommand.class, TableCommands.RemoveIndexCommand.class,
                WorkerJobs.JobStatusCommand.class, RedriveCommand.class})
public final class OperatorCli implements Callable<Integer> {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    final PrintStream out;

    OperatorCli(PrintStream out) {
        this.out = out;
    }

    public static void main(String[] args) {
        int status = run(args, System.out, System.err);
        System.out.flush();
        System.exit(status);
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
        CommandLine commandLine = new CommandLine(new OperatorCli(out));
        commandLine.setOut(new PrintWriter(out, true, StandardCharsets.UTF_8));
        commandLine.setErr(new PrintWriter(err, true, StandardCharsets.UTF_8));
        commandLine.setExecutionExceptionHandler((e, line, parsed) -> {
            line.getErr().println("error: " + e.getMessage());
            return e instanceof IllegalArgumentException ? 2 : 1;
        });
        return commandLine.execute(args);
    }

    @Override
    public Integer call() {
        spec.commandLine().usage(out);
        return 2;
    }
}

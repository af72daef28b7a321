package com.multikey.cli;

import com.multikey.clikit.CommandLineRunner;
import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.PrintStream;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * The operator's command line for the tables of a deployed stack: {@code query}, {@code backfill},
 * {@code verify [--repair]} (in this process, or {@code --on-aws} as a job of the stack's reindex worker
 * function), {@code job-status}; and for a table of the user's own, before deploying, {@code init} (a definitions file
 * proposed from a read-only sample) and {@code plan} (each index's writes, storage and cost, and whether a native GSI
 * could serve it). It talks to DynamoDB in the account and region of the usual AWS environment
 * (credentials, {@code AWS_REGION}), or to {@code --endpoint} (a local stack from {@code local.jar start}).
 *
 * <p>Results go to standard output (a table, or with {@code --output json} one JSON document); progress and
 * errors go to standard error, an error as one line that says what to do. Exit codes are the same for every
 * command: {@value #DONE} done, {@value #FOUND} found drift or messages not redriven, {@value #USAGE} bad usage,
 * {@value #SERVICE} AWS (or the local endpoint) failed.
 */
@Command(name = "operator-cli.jar", mixinStandardHelpOptions = true, versionProvider = OperatorCli.Version.class,
        description = "Queries, backfills and verifies the index of a deployed stack (or of a local one with --endpoint); "
                + "proposes definitions for your own table (init) and plans their cost and native alternatives (plan).",
        footer = {"", "Results go to standard output (--output json for scripts); progress and errors to standard error.",
                "Each command answers --help."},
        exitCodeListHeading = "%nExit codes:%n", exitCodeList = {OperatorCli.HELP_SHOWN, OperatorCli.BAD_USAGE},
        subcommands = {QueryCommand.class, FacetsCommand.class, BackfillCommand.class, VerifyCommand.class,
                RemoveIndexCommand.class, MigrateGridCommand.class, WorkerJobs.JobStatusCommand.class, RedriveCommand.class,
                InitCommand.class, PlanCommand.class})
public final class OperatorCli implements Callable<Integer> {

    /** The work is done (and, for verify, found nothing wrong). */
    static final int DONE = CommandLineRunner.DONE;
    /** The work is done and found something wrong: drift in the index, messages not redriven. */
    static final int FOUND = 1;
    /** The command line cannot be acted on: an unknown option, a missing stack output, a bad value. */
    static final int USAGE = CommandLineRunner.USAGE;
    /** AWS or the local endpoint failed: unreachable, no credentials, a table, function or queue that does not exist. */
    static final int SERVICE = 3;

    static final String HELP_SHOWN = CommandLineRunner.HELP_SHOWN;
    static final String BAD_USAGE = "2:bad usage: an unknown or missing option (a stack output not passed), a bad value, a definitions file that cannot work";
    static final String SERVICE_FAILED = "3:AWS or the endpoint failed: unreachable, no credentials or region, "
            + "a table, function or queue that does not exist (the error line says what to pass or run)";

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    final PrintStream out;
    final PrintStream err;
    final Map<String, String> environment;
    /** Whether standard error is a terminal someone watches: a progress bar then, else progress lines. */
    final boolean terminal;

    OperatorCli(PrintStream out, PrintStream err, Map<String, String> environment, boolean terminal) {
        this.out = out;
        this.err = err;
        this.environment = Map.copyOf(environment);
        this.terminal = terminal;
    }

    public static void main(String[] args) {
        int status = run(args, System.out, System.err, System.getenv(), System.console() != null);
        System.out.flush();
        System.exit(status);
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
        return run(args, out, err, System.getenv(), false);
    }

    static int run(String[] args, PrintStream out, PrintStream err, Map<String, String> environment, boolean terminal) {
        return CommandLineRunner.execute(commandLine(new OperatorCli(out, err, environment, terminal)), args, out, err,
                (e, line) -> Failures.of(e, line.getCommand() instanceof Failures.Located located ? located.context() : Failures.Context.NONE));
    }

    static CommandLine commandLine(OperatorCli cli) {
        return CommandLineRunner.commandLine(cli);
    }

    @Override
    public Integer call() {
        spec.commandLine().usage(out);
        return USAGE;
    }

    /** The version the jar's manifest carries. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return CommandLineRunner.version("operator-cli", OperatorCli.class);
        }
    }
}

package com.multikey.local;

import com.multikey.clikit.CommandLineRunner;
import com.multikey.clikit.Failure;
import com.multikey.emulator.template.SamTemplate;
import com.multikey.index.definition.DefinitionException;
import com.multikey.index.definition.IndexDefinitions;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * Runs template.yaml on this machine, with no Docker and no AWS account: tables in embedded DynamoDB
 * Local, functions from their deployable jars, each in its own class loader, stream event source mappings, the bus and its rules, TTL.
 *
 * <p>Results go to standard output (with {@code --output json} one JSON document); progress, the function-log path
 * and errors go to standard error, an error as one line that says what to do. Exit codes: {@value #DONE} done,
 * {@value #FAILED} a check or the function failed, {@value #USAGE} bad usage, {@value #STACK} the local stack could
 * not run.
 */
@Command(name = "local.jar", mixinStandardHelpOptions = true, resourceBundle = "com.multikey.local.Usage", versionProvider = LocalMain.Version.class,
        description = "Runs template.yaml on this machine: the DynamoDB engine, the functions, their stream event sources, the bus and its rules.",
        footer = {"", "Results go to standard output (--output json for scripts); progress, the function-log path and errors to "
                + "standard error.", "Each command answers --help. With no command: demo."},
        exitCodeListHeading = "%nExit codes:%n", exitCodeList = {LocalMain.HELP_SHOWN, LocalMain.BAD_USAGE},
        subcommands = {DemoCommand.class, InvokeCommand.class, StartCommand.class, ReplayCommand.class, TokenCommand.class, EngineCommand.class})
public final class LocalMain implements Callable<Integer> {

    /** The work is done (and, for demo, every check passed). */
    static final int DONE = CommandLineRunner.DONE;
    /** The work is done and something failed: a demo check, the invoked function, a batch item the indexer reported. */
    static final int FAILED = 1;
    /** The command line cannot be acted on: an unknown option, a missing file, no template, an unknown function. */
    static final int USAGE = CommandLineRunner.USAGE;
    /** The local stack could not run: a port in use, a function's jar not built, the DynamoDB engine did not start. */
    static final int STACK = 3;

    static final String HELP_SHOWN = CommandLineRunner.HELP_SHOWN;
    static final String BAD_USAGE = "2:bad usage: an unknown or missing option, a file or template not found, an unknown function "
            + "or example, a template construct the runner cannot emulate";
    static final String STACK_FAILED = "3:the local stack could not run: a port in use, a function's jar not built (mvn package), "
            + "the DynamoDB engine did not start (the error line says what to change or run)";

    /** The line {@code start} prints once its tables exist and its event sources run. */
    static final String READY = "ready";

    @Option(names = "--template", scope = ScopeType.INHERIT, paramLabel = "FILE",
            description = "the SAM template (default: template.yaml in the working directory or the nearest one above it)")
    Path template;

    @Option(names = {"-v", "--verbose"}, scope = ScopeType.INHERIT,
            description = "print where the functions' logs are, after the run (default: only when the run failed, or for start and demo)")
    boolean verbose;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--log-dir", scope = ScopeType.INHERIT, paramLabel = "DIR",
            description = "the folder the functions' logs are written to, made when needed; a log is kept when its path is printed, "
                    + "deleted otherwise (default: " + FunctionLogs.DEFAULT_DIRECTORY + " in the working directory)")
    void logDirectory(Path directory) {
        logs.directory(directory);
    }

    final PrintStream out;
    final PrintStream err;
    final FunctionLogs logs;
    /** Whether a terminal is attached: a progress bar then, else progress lines. */
    final boolean terminal;
    /** The program's environment: what of it the functions are given ({@link #functionEnvironment()}). */
    final Map<String, String> environment;
    /** Temporary files the command made for its stack (the definitions as JSON), deleted when it ends. */
    private final java.util.List<Path> temporaryFiles = new java.util.concurrent.CopyOnWriteArrayList<>();

    LocalMain(PrintStream out, PrintStream err, FunctionLogs logs, boolean terminal, Map<String, String> environment) {
        this.out = out;
        this.err = err;
        this.logs = logs;
        this.terminal = terminal;
        this.environment = Map.copyOf(environment);
    }

    public static void main(String[] args) throws IOException {
        PrintStream console = System.out;
        PrintStream consoleErrors = System.err;
        // the functions log JSON lines and metrics to standard output (and their libraries' warnings to
        // standard error), as on Lambda; keep them out of the way
        FunctionLogs logs = FunctionLogs.under(Path.of("").toAbsolutePath());
        System.setOut(logs.stream());
        System.setErr(logs.stream());
        int status = run(args, console, consoleErrors, logs, System.console() != null, System.getenv());
        console.flush();
        consoleErrors.flush();
        // the JVM ends now, whatever threads a function's clients left running
        System.exit(status);
    }

    /** As {@code main}, with function logs in a file of their own under the working directory or --log-dir (deleted unless named). */
    static int run(String[] args, PrintStream out, PrintStream err) {
        return run(args, out, err, FunctionLogs.under(Path.of("").toAbsolutePath()), false, System.getenv());
    }

    static int run(String[] args, PrintStream out, PrintStream err, FunctionLogs logs, boolean terminal) {
        return run(args, out, err, logs, terminal, System.getenv());
    }

    /** As {@code main}, in the given environment instead of the process's. */
    static int run(String[] args, PrintStream out, PrintStream err, FunctionLogs logs, boolean terminal, Map<String, String> environment) {
        LocalMain main = new LocalMain(out, err, logs, terminal, environment);
        // local.jar keeps every error to one line: a template or function message may run over several
        int status = CommandLineRunner.execute(commandLine(main), args.length == 0 ? new String[] {"demo"} : args, out, err, (e, line) -> {
            Failure failure = Failures.of(e);
            return new Failure(failure.exitCode(), Failure.firstLine(failure.getMessage()), failure.getCause());
        });
        main.deleteTemporaryFiles();
        logs.finish(status, main.verbose, err);
        return status;
    }

    /** A temporary file the stack reads while it runs, deleted when the command ends. */
    Path deletedAtTheEnd(Path file) {
        temporaryFiles.add(file);
        return file;
    }

    private void deleteTemporaryFiles() {
        for (Path file : temporaryFiles) {
            try {
                Files.deleteIfExists(file);
            } catch (IOException e) {
                err.println("warning: cannot delete " + file + ": " + e.getMessage());
            }
        }
    }

    static CommandLine commandLine(LocalMain main) {
        return CommandLineRunner.commandLine(main);
    }

    @Override
    public Integer call() {
        spec.commandLine().usage(out);
        return USAGE;
    }

    /**
     * What every function is given over what the template sets: {@code INDEX_DEFINITIONS} when this program's
     * environment names a definitions file (its absolute path, after checking that the file can work), so the functions
     * and the read API run with the indexes it declares instead of the packaged ones.
     */
    Map<String, String> functionEnvironment() {
        String file = environment.get(IndexDefinitions.ENVIRONMENT_VARIABLE);
        if (file == null || file.isBlank()) {
            return Map.of();
        }
        Path path = Path.of(file).toAbsolutePath();
        if (!Files.isRegularFile(path)) {
            throw Failure.usage(IndexDefinitions.ENVIRONMENT_VARIABLE + " names " + file + ", which is not a file: "
                    + "set it to the path of a definitions file (YAML or JSON), or unset it for the packaged definitions");
        }
        try {
            IndexDefinitions.read(path);
        } catch (DefinitionException e) {
            throw Failure.usage(IndexDefinitions.ENVIRONMENT_VARIABLE + ": " + e.getMessage());
        }
        return Map.of(IndexDefinitions.ENVIRONMENT_VARIABLE, path.toString());
    }

    SamTemplate loadTemplate() {
        return SamTemplate.load(templatePath(template, Path.of("").toAbsolutePath()));
    }

    /** The template given, else template.yaml in {@code workingDirectory} or the nearest folder above it. */
    static Path templatePath(Path given, Path workingDirectory) {
        if (given != null) {
            if (!Files.isRegularFile(given)) {
                throw Failure.usage("no template at " + given + ": pass --template with the path of the stack's template.yaml, "
                        + "or run from the repository without --template");
            }
            return given;
        }
        for (Path dir = workingDirectory; dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve("template.yaml"))) {
                return dir.resolve("template.yaml");
            }
        }
        throw Failure.usage("no template.yaml in " + workingDirectory + " or above it: pass --template FILE, or run from the repository");
    }

    /** The version the jar's manifest carries. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return CommandLineRunner.version("local", LocalMain.class);
        }
    }
}

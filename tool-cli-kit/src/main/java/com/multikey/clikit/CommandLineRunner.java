package com.multikey.clikit;

import picocli.CommandLine;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.function.BiFunction;

/**
 * Runs a picocli command line the way both of the project's command lines do: the result on {@code out}, and on
 * {@code err} a bad command line as "error: ..." plus where help is (exit {@value #USAGE}), a command that stopped as
 * "error: " and its {@link Failure}'s message (the failure's exit code).
 */
public final class CommandLineRunner {

    /** The work is done. */
    public static final int DONE = 0;
    /** The command line cannot be acted on: an unknown option, a missing file or stack output, a bad value. */
    public static final int USAGE = 2;
    /** The exit-code line of {@code --help} for help and version. */
    public static final String HELP_SHOWN = "0:help or version shown";

    private CommandLineRunner() {
    }

    /** A command line for {@code command}, its enum values (e.g. {@code --output JSON}) in any case. */
    public static CommandLine commandLine(Object command) {
        return new CommandLine(command).setCaseInsensitiveEnumValuesAllowed(true);
    }

    /**
     * Executes {@code args} on {@code commandLine}.
     *
     * @param failureOf what an exception a command threw means, given the command line that ran it
     * @return the exit code
     */
    public static int execute(CommandLine commandLine, String[] args, PrintStream out, PrintStream err,
            BiFunction<Exception, CommandLine, Failure> failureOf) {
        commandLine.setOut(new PrintWriter(out, true, StandardCharsets.UTF_8));
        commandLine.setErr(new PrintWriter(err, true, StandardCharsets.UTF_8));
        commandLine.setParameterExceptionHandler((e, arguments) -> {
            CommandLine failed = e.getCommandLine();
            failed.getErr().println("error: " + e.getMessage());
            failed.getErr().println("usage: " + failed.getCommandSpec().qualifiedName() + " --help");
            return USAGE;
        });
        commandLine.setExecutionExceptionHandler((e, line, parsed) -> {
            Failure failure = failureOf.apply(e, line);
            line.getErr().println("error: " + failure.getMessage());
            return failure.exitCode();
        });
        return commandLine.execute(args);
    }

    /** What {@code --version} prints: the program and the version its jar's manifest carries. */
    public static String[] version(String program, Class<?> main) {
        String version = main.getPackage().getImplementationVersion();
        return new String[] {program + " " + (version == null ? "(unpackaged)" : version)};
    }
}

package com.multikey.clikit;

import java.util.ArrayList;
import java.util.List;

/**
 * Why a command stopped, as the one line it prints (what is wrong, then what to pass or run) and its exit code.
 * Each command line turns what its libraries throw into one of these; {@link CommandLineRunner} prints it.
 */
public final class Failure extends RuntimeException {

    private final int exitCode;

    public Failure(int exitCode, String message) {
        this(exitCode, message, null);
    }

    public Failure(int exitCode, String message, Throwable cause) {
        // no stack trace: the message is all a person sees
        super(message, cause, false, false);
        this.exitCode = exitCode;
    }

    /** What the command line can fix: exit {@value CommandLineRunner#USAGE}. */
    public static Failure usage(String message) {
        return new Failure(CommandLineRunner.USAGE, message);
    }

    public int exitCode() {
        return exitCode;
    }

    /** {@code thrown} and its causes, outermost first (a cycle ends the chain). */
    public static List<Throwable> causes(Throwable thrown) {
        List<Throwable> chain = new ArrayList<>();
        for (Throwable t = thrown; t != null && !chain.contains(t); t = t.getCause()) {
            chain.add(t);
        }
        return chain;
    }

    /** The first line of a message (empty for none), for an error that must stay one line. */
    public static String firstLine(String message) {
        return message == null ? "" : message.lines().findFirst().orElse("");
    }
}

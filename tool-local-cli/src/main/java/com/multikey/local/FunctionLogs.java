package com.multikey.local;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The file the functions log to (their JSON lines and metrics on standard output, their libraries' warnings on
 * standard error, as on Lambda), kept out of the command's own output. Its path is printed when it is useful: at the
 * start of {@code start} and {@code demo}, after a run that failed (not for bad usage) having logged something, or with
 * {@code --verbose}. A log
 * whose path was never printed is deleted at the end, so runs leave no temporary files behind.
 */
final class FunctionLogs {

    private final Path path;
    private final PrintStream stream;
    private boolean named;

    FunctionLogs(Path path) {
        this.path = path;
        try {
            this.stream = new PrintStream(Files.newOutputStream(path), true, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + path, e);
        }
    }

    static FunctionLogs create() throws IOException {
        return new FunctionLogs(Files.createTempFile("multikey-functions-", ".log"));
    }

    Path path() {
        return path;
    }

    /** Where the functions' standard output and standard error go. */
    PrintStream stream() {
        return stream;
    }

    /** Prints the path (once). */
    synchronized void name(PrintStream err) {
        if (!named) {
            err.println("(function logs: " + path + ")");
            named = true;
        }
    }

    /**
     * At the end of a run: names the log when a check, a function or the stack failed having logged something, or when
     * asked; else deletes it.
     */
    synchronized void finish(int status, boolean verbose, PrintStream err) {
        stream.flush();
        if (verbose || ((status == LocalMain.FAILED || status == LocalMain.STACK) && size() > 0)) {
            name(err);
        }
        if (!named) {
            stream.close();
            try {
                Files.deleteIfExists(path);
            } catch (IOException e) {
                err.println("warning: cannot delete " + path + ": " + e.getMessage());
            }
        }
    }

    private long size() {
        try {
            return Files.exists(path) ? Files.size(path) : 0;
        } catch (IOException e) {
            return 1;
        }
    }
}

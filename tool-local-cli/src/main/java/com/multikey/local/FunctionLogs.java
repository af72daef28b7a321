package com.multikey.local;

import com.multikey.clikit.Failure;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The file the functions log to (their JSON lines and metrics on standard output, their libraries' warnings on
 * standard error, as on Lambda), kept out of the command's own output. Its path is printed when it is useful: at the
 * start of {@code start} and {@code demo}, after a run that failed (not for bad usage) having logged something, or with
 * {@code --verbose}. local.jar makes it in the folder {@code --log-dir} names, by default {@value #DEFAULT_DIRECTORY}
 * under the working directory, when something is first written or its path printed. A log whose path was never printed
 * is deleted at the end, with the folders made for it when they are left empty, so a run leaves behind only the logs it
 * named, where the user asked, and nothing in the temporary directory.
 */
final class FunctionLogs {

    /** Where local.jar keeps function logs unless {@code --log-dir} says otherwise: under the working directory. */
    static final String DEFAULT_DIRECTORY = ".multikey/logs";

    /** The file given (tests), or null: one made in {@link #directory}. */
    private final Path given;
    private volatile Path directory;
    private volatile Path path;
    private volatile OutputStream file;
    /** Guards making the file: a function thread writing holds the stream's lock, and takes only this one after it. */
    private final Object making = new Object();
    /** The folders made for the log, deepest first. */
    private final List<Path> madeDirectories = new ArrayList<>();
    private final PrintStream stream;
    private boolean named;

    /** Logs to this file. */
    FunctionLogs(Path path) {
        this(path, null);
    }

    private FunctionLogs(Path given, Path directory) {
        this.given = given;
        this.directory = directory;
        this.stream = new PrintStream(new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                open().write(b);
            }

            @Override
            public void write(byte[] bytes, int offset, int length) throws IOException {
                open().write(bytes, offset, length);
            }

            @Override
            public void flush() throws IOException {
                OutputStream opened = file;
                if (opened != null) {
                    opened.flush();
                }
            }

            @Override
            public void close() throws IOException {
                OutputStream opened = file;
                if (opened != null) {
                    opened.close();
                }
            }
        }, true, StandardCharsets.UTF_8);
    }

    /** Logs to a new file in {@link #DEFAULT_DIRECTORY} under the working directory, unless {@link #directory(Path)} names another. */
    static FunctionLogs under(Path workingDirectory) {
        return new FunctionLogs(null, workingDirectory.resolve(DEFAULT_DIRECTORY));
    }

    /** The folder to make the log in ({@code --log-dir}); a given file stays where it is. */
    void directory(Path directory) {
        if (given == null) {
            this.directory = directory;
        }
    }

    /** The log file: the given one, or the one made (null until something is written or its path printed). */
    Path path() {
        return given != null ? given : path;
    }

    /** Where the functions' standard output and standard error go. */
    PrintStream stream() {
        return stream;
    }

    /** Prints the path (once), making the file first. */
    synchronized void name(PrintStream err) {
        if (!named) {
            try {
                open();
            } catch (IOException e) {
                throw Failure.usage("cannot write the function logs in " + (given != null ? given.getParent() : directory) + " ("
                        + e.getClass().getSimpleName() + "): pass --log-dir with a folder you can write");
            }
            err.println("(function logs: " + path + ")");
            named = true;
        }
    }

    private OutputStream open() throws IOException {
        OutputStream opened = file;
        if (opened != null) {
            return opened;
        }
        synchronized (making) {
            if (file != null) {
                return file;
            }
            if (given != null) {
                path = given;
            } else {
                List<Path> missing = new ArrayList<>();
                for (Path folder = directory.toAbsolutePath(); folder != null && !Files.isDirectory(folder); folder = folder.getParent()) {
                    missing.add(folder);
                }
                Files.createDirectories(directory);
                madeDirectories.addAll(missing);
                path = Files.createTempFile(directory.toAbsolutePath(), "functions-", ".log");
            }
            file = Files.newOutputStream(path);
            return file;
        }
    }

    /**
     * At the end of a run: names the log when a check, a function or the stack failed having logged something, or when
     * asked; else deletes it, and the folders made for it that are left empty.
     */
    void finish(int status, boolean verbose, PrintStream err) {
        stream.flush();
        finishFlushed(status, verbose, err);
    }

    private synchronized void finishFlushed(int status, boolean verbose, PrintStream err) {
        if (verbose || ((status == LocalMain.FAILED || status == LocalMain.STACK) && size() > 0)) {
            try {
                name(err);
            } catch (Failure e) {
                err.println("warning: " + e.getMessage());
            }
        }
        if (!named) {
            stream.close();
            try {
                if (path != null) {
                    Files.deleteIfExists(path);
                }
                for (Path folder : madeDirectories) {
                    if (isEmpty(folder)) {
                        Files.delete(folder);
                    }
                }
            } catch (IOException e) {
                err.println("warning: cannot delete " + path + ": " + e.getMessage());
            }
        } else if (stream.checkError()) {
            err.println("warning: some function log lines could not be written to " + path);
        }
    }

    private static boolean isEmpty(Path folder) throws IOException {
        try (var entries = Files.list(folder)) {
            return entries.findAny().isEmpty();
        }
    }

    private long size() {
        try {
            Path file = path();
            return file != null && Files.exists(file) ? Files.size(file) : 0;
        } catch (IOException e) {
            return 1;
        }
    }
}

package com.multikey.local;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** The function-log path is printed only when useful, and a log nobody was told about is deleted. */
class FunctionLogsTest {

    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private final PrintStream errors = new PrintStream(err, true, StandardCharsets.UTF_8);

    @TempDir
    Path dir;

    private String printed() {
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void aQuietSuccess_namesNothing_andDeletesTheLog_evenWithLinesInIt() {
        FunctionLogs logs = new FunctionLogs(dir.resolve("f.log"));
        logs.stream().println("{\"level\":\"INFO\"}");

        logs.finish(0, false, errors);

        assertThat(printed()).isEmpty();
        assertThat(logs.path()).doesNotExist();
    }

    @Test
    void verbose_namesTheLog_andKeepsIt() {
        FunctionLogs logs = new FunctionLogs(dir.resolve("f.log"));

        logs.finish(0, true, errors);

        assertThat(printed()).isEqualTo("(function logs: " + logs.path() + ")" + System.lineSeparator());
        assertThat(logs.path()).exists();
    }

    @Test
    void aFailureWithLogs_namesThem_once() {
        FunctionLogs logs = new FunctionLogs(dir.resolve("f.log"));
        logs.name(errors);
        logs.stream().println("{\"level\":\"ERROR\"}");

        logs.finish(1, true, errors);

        assertThat(printed().lines()).containsExactly("(function logs: " + logs.path() + ")");
        assertThat(logs.path()).hasContent("{\"level\":\"ERROR\"}");
    }

    @Test
    void aStackFailureWithLogs_namesThem() {
        FunctionLogs logs = new FunctionLogs(dir.resolve("f.log"));
        logs.stream().println("Initializing DynamoDB Local");

        logs.finish(3, false, errors);

        assertThat(printed()).contains(logs.path().toString());
        assertThat(logs.path()).exists();
    }

    @Test
    void under_whenNamed_makesTheLogInTheWorkingDirectorysLogFolder_andKeepsIt() {
        FunctionLogs logs = FunctionLogs.under(dir);

        logs.name(errors);
        logs.stream().println("{\"level\":\"INFO\"}");
        logs.finish(0, false, errors);

        assertThat(logs.path()).hasParent(dir.resolve(".multikey").resolve("logs")).hasContent("{\"level\":\"INFO\"}");
        assertThat(logs.path().getFileName().toString()).startsWith("functions-").endsWith(".log");
        assertThat(printed()).isEqualTo("(function logs: " + logs.path() + ")" + System.lineSeparator());
    }

    @Test
    void directory_whenAQuietRunLogged_deletesTheLog_andTheFoldersItMade_butNotOneThatWasThere() throws Exception {
        Path asked = dir.resolve("a").resolve("b");
        FunctionLogs logs = FunctionLogs.under(dir.resolve("unused"));
        logs.directory(asked);

        logs.stream().println("{\"level\":\"INFO\"}");
        assertThat(logs.path()).hasParent(asked);
        logs.finish(0, false, errors);

        assertThat(dir.resolve("a")).doesNotExist();
        assertThat(dir.resolve("unused")).doesNotExist();
        assertThat(dir).exists();
        assertThat(printed()).isEmpty();
    }

    @Test
    void under_whenNothingIsLoggedOrNamed_makesNothing() {
        FunctionLogs logs = FunctionLogs.under(dir);

        logs.finish(0, false, errors);

        assertThat(logs.path()).isNull();
        assertThat(dir).isEmptyDirectory();
    }

    @Test
    void name_whenTheFolderCannotBeMade_saysToPassAnotherLogDir() throws Exception {
        Path file = java.nio.file.Files.writeString(dir.resolve("a file"), "");
        FunctionLogs logs = FunctionLogs.under(dir);
        logs.directory(file.resolve("logs"));

        org.assertj.core.api.Assertions.assertThatThrownBy(() -> logs.name(errors))
                .hasMessageStartingWith("cannot write the function logs in " + file.resolve("logs"))
                .hasMessageEndingWith("pass --log-dir with a folder you can write");
    }

    @Test
    void aFailureThatLoggedNothing_orBadUsage_namesNothing_andDeletesTheLog() {
        FunctionLogs empty = new FunctionLogs(dir.resolve("empty.log"));
        empty.finish(1, false, errors);
        FunctionLogs usage = new FunctionLogs(dir.resolve("usage.log"));
        usage.stream().println("Initializing DynamoDB Local");
        usage.finish(2, false, errors);

        assertThat(printed()).isEmpty();
        assertThat(empty.path()).doesNotExist();
        assertThat(usage.path()).doesNotExist();
    }
}

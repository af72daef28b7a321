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

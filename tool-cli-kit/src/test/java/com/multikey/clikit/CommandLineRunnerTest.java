package com.multikey.clikit;

import org.junit.jupiter.api.Test;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;

import static org.assertj.core.api.Assertions.assertThat;

/** The runner both command lines share: error lines on standard error, and the exit codes they document. */
class CommandLineRunnerTest {

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @Command(name = "tool.jar", mixinStandardHelpOptions = true)
    static final class Tool implements Callable<Integer> {
        @Mixin
        Output output = new Output();

        @Option(names = "--fail", description = "throw this message (default: none)")
        String fail;

        @Override
        public Integer call() {
            if (fail != null) {
                throw new IllegalStateException(fail);
            }
            return output.json() ? CommandLineRunner.DONE : 1;
        }
    }

    private int run(String... args) {
        return CommandLineRunner.execute(CommandLineRunner.commandLine(new Tool()), args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), (e, line) -> new Failure(3, "stopped: " + e.getMessage(), e));
    }

    private String errors() {
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void execute_whenAnOptionIsUnknown_printsTheErrorAndWhereHelpIs_exitTwo() {
        assertThat(run("--no-such-option")).isEqualTo(CommandLineRunner.USAGE);

        assertThat(errors().lines()).containsExactly("error: Unknown option: '--no-such-option'", "usage: tool.jar --help");
    }

    @Test
    void execute_whenTheCommandThrows_printsTheFailuresLine_withItsExitCode() {
        assertThat(run("--fail", "no table")).isEqualTo(3);

        assertThat(errors().lines()).containsExactly("error: stopped: no table");
    }

    @Test
    void execute_whenAnEnumValueIsInAnotherCase_acceptsIt() {
        assertThat(run("--output", "JSON")).isZero();
        assertThat(errors()).isEmpty();
    }

    @Test
    void version_whenNotPackaged_saysSo() {
        assertThat(CommandLineRunner.version("tool", CommandLineRunnerTest.class)).containsExactly("tool (unpackaged)");
    }

    @Test
    void usage_exitsTwo_andCausesListTheChainOutermostFirst() {
        IllegalStateException inner = new IllegalStateException("inner");
        RuntimeException outer = new RuntimeException("outer", inner);

        assertThat(Failure.usage("pass --table").exitCode()).isEqualTo(CommandLineRunner.USAGE);
        assertThat(Failure.causes(outer)).containsExactly(outer, inner);
        assertThat(Failure.firstLine("bad event\n  at line 3")).isEqualTo("bad event");
        assertThat(Failure.firstLine(null)).isEmpty();
    }
}

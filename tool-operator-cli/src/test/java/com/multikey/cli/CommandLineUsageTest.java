package com.multikey.cli;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** Every command answers --help before it validates anything, describes each option and its default, and lists its exit codes. */
class CommandLineUsageTest {

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    static Stream<String> commands() {
        return Stream.of("query", "backfill", "verify", "remove-index", "job-status", "redrive", "init", "plan");
    }

    static List<CommandSpec> specs() {
        CommandLine root = OperatorCli.commandLine(new OperatorCli(System.out, System.err, Map.of(), false));
        List<CommandSpec> specs = new ArrayList<>(List.of(root.getCommandSpec()));
        root.getSubcommands().values().forEach(sub -> specs.add(sub.getCommandSpec()));
        return specs;
    }

    private int run(String... args) {
        return OperatorCli.run(args, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
                Map.of(), false);
    }

    @ParameterizedTest
    @MethodSource("commands")
    void help_winsOverMissingRequiredOptions_andListsTheExitCodes(String command) {
        assertThat(run(command, "--help")).isZero();

        String usage = out.toString(StandardCharsets.UTF_8);
        assertThat(usage).startsWith("Usage: operator-cli.jar " + command).contains("Exit codes:", "  0   ", "  2   ", "  3   ");
        assertThat(err.toString(StandardCharsets.UTF_8)).isEmpty();
    }

    @ParameterizedTest
    @MethodSource("commands")
    void anUnknownOption_isBadUsage_exitTwo_withOneErrorLineAndWhereHelpIs(String command) {
        assertThat(run(command, "--no-such-option")).isEqualTo(2);

        List<String> lines = err.toString(StandardCharsets.UTF_8).lines().toList();
        assertThat(lines).hasSize(2);
        assertThat(lines.get(0)).as("picocli reports a missing required option first")
                .matches("error: (Unknown option: '--no-such-option'|Missing required (option|parameter): .*)");
        assertThat(lines.get(1)).isEqualTo("usage: operator-cli.jar " + command + " --help");
    }

    @ParameterizedTest
    @MethodSource("commands")
    void anOutputFormatOtherThanTableOrJson_isBadUsage(String command) {
        assertThat(run(command, "--output", "yaml")).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("--output", "yaml", "table, json");
    }

    @ParameterizedTest
    @MethodSource("specs")
    void everyOption_isDescribed_andNamesItsDefault(CommandSpec spec) {
        for (OptionSpec option : spec.options()) {
            String description = String.join(" ", option.description());
            assertThat(description).as(spec.qualifiedName() + " " + option.longestName()).isNotBlank();
            if (option.defaultValue() != null && !option.usageHelp() && !option.versionHelp()) {
                assertThat(CommandLine.Help.Ansi.OFF.string(String.join(" ", option.renderedDescription())))
                        .as(spec.qualifiedName() + " " + option.longestName() + " names its default")
                        .contains("(default " + option.defaultValue());
            }
        }
        assertThat(spec.usageMessage().exitCodeList()).as(spec.qualifiedName() + " lists its exit codes").isNotEmpty();
    }

    @ParameterizedTest
    @MethodSource("commands")
    void optionsThatMayFindSomethingWrong_documentExitOne(String command) {
        CommandSpec spec = OperatorCli.commandLine(new OperatorCli(System.out, System.err, Map.of(), false)).getSubcommands().get(command)
                .getCommandSpec();
        boolean findsDrift = command.equals("verify") || command.equals("redrive") || command.equals("init");
        assertThat(spec.usageMessage().exitCodeList().containsKey("1")).as(command).isEqualTo(findsDrift);
    }

    @org.junit.jupiter.api.Test
    void version_isAnswered() {
        assertThat(run("--version")).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).startsWith("operator-cli ");
    }
}

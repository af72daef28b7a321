package com.multikey.local;

import com.multikey.emulator.template.SamTemplate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** Every command answers --help before it validates anything, describes each option and its default, and lists its exit codes. */
class CommandLineUsageTest {

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @TempDir
    Path dir;

    static Stream<String> commands() {
        return Stream.of("demo", "invoke", "start", "replay", "token", "engine");
    }

    static List<CommandSpec> specs() {
        CommandLine root = LocalMain.commandLine(new LocalMain(System.out, System.err, null, false, java.util.Map.of()));
        List<CommandSpec> specs = new ArrayList<>(List.of(root.getCommandSpec()));
        root.getSubcommands().values().forEach(sub -> specs.add(sub.getCommandSpec()));
        return specs;
    }

    private int run(String... args) {
        return LocalMain.run(args, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
                new FunctionLogs(dir.resolve("functions.log")), false);
    }

    private String printed() {
        return out.toString(StandardCharsets.UTF_8);
    }

    private String errors() {
        return err.toString(StandardCharsets.UTF_8);
    }

    @ParameterizedTest
    @MethodSource("commands")
    void help_winsOverMissingRequiredOptions_listsTheExitCodes_andLeavesNoLogBehind(String command) {
        assertThat(run(command, "--help")).isZero();

        assertThat(printed()).startsWith("Usage: local.jar " + command).contains("Exit codes:", "  0   ", "  2   ", "  3   ")
                .doesNotContain("function logs");
        assertThat(errors()).isEmpty();
        assertThat(dir.resolve("functions.log")).doesNotExist();
    }

    @Test
    void help_ofTheJar_listsTheCommands() {
        assertThat(run("--help")).isZero();
        assertThat(printed()).contains("demo", "invoke", "start", "replay", "token", "engine", "Exit codes:");
        assertThat(errors()).isEmpty();
    }

    @ParameterizedTest
    @MethodSource("commands")
    void anUnknownOption_isBadUsage_exitTwo_withOneErrorLineAndWhereHelpIs(String command) {
        assertThat(run(command, "--no-such-option")).isEqualTo(2);

        List<String> lines = errors().lines().toList();
        assertThat(lines).hasSize(2);
        assertThat(lines.get(0)).as("picocli reports a missing required option first")
                .matches("error: (Unknown option: '--no-such-option'|Missing required (option|parameter)s?: .*)");
        assertThat(lines.get(1)).isEqualTo("usage: local.jar " + command + " --help");
        assertThat(dir.resolve("functions.log")).doesNotExist();
    }

    @ParameterizedTest
    @ValueSource(strings = {"demo", "invoke", "replay"})
    void anOutputFormatOtherThanTableOrJson_isBadUsage(String command) {
        assertThat(run(command, "--output", "yaml")).isEqualTo(2);
        assertThat(errors()).contains("--output", "yaml", "table, json");
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
            } else if (!option.required() && !option.usageHelp() && !option.versionHelp() && option.typeInfo().isBoolean()) {
                assertThat(description).as(spec.qualifiedName() + " " + option.longestName() + " says what happens without it").contains("default");
            }
        }
        assertThat(spec.usageMessage().exitCodeList()).as(spec.qualifiedName() + " lists its exit codes").isNotEmpty();
    }

    @ParameterizedTest
    @MethodSource("commands")
    void onlyCommandsThatCheckSomething_documentExitOne(String command) {
        CommandSpec spec = LocalMain.commandLine(new LocalMain(System.out, System.err, null, false, java.util.Map.of())).getSubcommands().get(command)
                .getCommandSpec();
        boolean checks = !command.equals("start") && !command.equals("token") && !command.equals("engine");
        assertThat(spec.usageMessage().exitCodeList().containsKey("1")).as(command).isEqualTo(checks);
        assertThat(spec.usageMessage().exitCodeList()).as(command).containsKeys("0", "2", "3");
    }

    @Test
    void optionsOfTheJar_mayFollowTheCommand() {
        Path event = SamTemplate.findUp("sam").resolve("events").resolve("issue-insert.json");
        assertThat(run("replay", "--template", dir.resolve("no-template.yaml").toString(), event.toString())).isEqualTo(2);
        assertThat(errors()).startsWith("error: no template at " + dir.resolve("no-template.yaml"));
    }

    @Test
    void version_isAnswered() {
        assertThat(run("--version")).isZero();
        assertThat(printed()).startsWith("local ");
    }

    @Test
    void token_printsTheTokenAlone_andLeavesNoLogBehind() {
        assertThat(run("token", "--projects", "project#1", "--token-key", dir.resolve("key.json").toString())).isZero();

        assertThat(printed().lines().toList()).singleElement().asString().matches("[\\w-]+\\.[\\w-]+\\.[\\w-]+");
        assertThat(errors()).isEmpty();
        assertThat(dir.resolve("functions.log")).doesNotExist();
        assertThat(Files.exists(dir.resolve("key.json"))).isTrue();
    }
}

package com.multikey.local;

import com.multikey.clikit.Failure;
import com.multikey.emulator.functions.MissingFunctionJarException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Each error is one line that says what is wrong and what to pass or run, with the exit code of its kind. */
class ErrorLinesTest {

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @TempDir
    Path dir;

    private int run(String... args) {
        return LocalMain.run(args, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
                new FunctionLogs(dir.resolve("functions.log")), false);
    }

    private String errorLine() {
        String errors = err.toString(StandardCharsets.UTF_8);
        assertThat(errors.lines()).as(errors).hasSize(1);
        return errors.strip();
    }

    @Test
    void noTemplateHereOrAbove_saysToPassTemplateOrRunFromTheRepository() throws IOException {
        Path nowhere = Files.createDirectories(dir.resolve("a").resolve("b"));

        assertThatThrownBy(() -> LocalMain.templatePath(null, nowhere)).isInstanceOf(Failure.class)
                .hasMessage("no template.yaml in " + nowhere + " or above it: pass --template FILE, or run from the repository")
                .extracting(e -> ((Failure) e).exitCode()).isEqualTo(2);
    }

    @Test
    void aTemplateAbove_isFound() throws IOException {
        Path template = Files.writeString(dir.resolve("template.yaml"), "Resources: {}\n");
        Path below = Files.createDirectories(dir.resolve("local").resolve("target"));

        assertThat(LocalMain.templatePath(null, below)).isEqualTo(template);
    }

    @Test
    void aTemplateOptionNamingNoFile_isBadUsage() {
        assertThat(run("demo", "--template", dir.resolve("missing.yaml").toString())).isEqualTo(2);

        assertThat(errorLine()).isEqualTo("error: no template at " + dir.resolve("missing.yaml")
                + ": pass --template with the path of the stack's template.yaml, or run from the repository without --template");
        assertThat(dir.resolve("functions.log")).as("nothing ran: the log is not needed").doesNotExist();
    }

    @Test
    void start_onAPortInUse_namesTheOptionToChange_beforeStartingAnything() throws IOException {
        try (ServerSocket taken = new ServerSocket()) {
            taken.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            String port = Integer.toString(taken.getLocalPort());

            assertThat(run("start", "--port", "0", "--eventbridge-port", "0", "--lambda-port", port, "--sqs-port", "0", "--api-port", "0",
                    "--seconds", "0")).isEqualTo(3);
            assertThat(errorLine()).isEqualTo("error: port " + port + " (Lambda API) is in use on 127.0.0.1: pass another --lambda-port "
                    + "(0: any free port), or stop what listens there");
        }
    }

    @Test
    void start_whenTheDynamoDbPortIsInUse_namesPort() throws IOException {
        try (ServerSocket taken = new ServerSocket()) {
            taken.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            String port = Integer.toString(taken.getLocalPort());

            assertThat(run("start", "--port", port, "--eventbridge-port", "0", "--lambda-port", "0", "--sqs-port", "0", "--api-port", "0",
                    "--seconds", "0")).isEqualTo(3);
            assertThat(errorLine()).startsWith("error: port " + port + " (DynamoDB) is in use on 127.0.0.1: pass another --port ");
        }
    }

    @Test
    void aFunctionJarNotBuilt_saysToRunMvnPackage_exitThree() {
        Failure failure = Failures.of(new IllegalStateException("cannot create RouterFunction",
                new MissingFunctionJarException("RouterFunction", Path.of("/repo/router/target/router.jar"))));

        assertThat(failure.exitCode()).isEqualTo(3);
        assertThat(failure.getMessage()).isEqualTo("RouterFunction: no jar at its CodeUri /repo/router/target/router.jar: run 'mvn package' "
                + "in the repository first (scripts/with-jdk21 mvn -B package -DskipTests)");
    }

    @Test
    void aPortTakenWhileStarting_isAStackFailure_namingThePortOptions() {
        Failure failure = Failures.of(new UncheckedIOException("cannot start the local SQS endpoint", new BindException("Address already in use")));

        assertThat(failure.exitCode()).isEqualTo(3);
        assertThat(failure.getMessage()).isEqualTo("cannot start the local SQS endpoint (Address already in use): a port is in use; "
                + "pass free ones (start --port, --eventbridge-port, --lambda-port, --sqs-port, --api-port)");
    }

    @Test
    void aMultiLineMessage_isCutToItsFirstLine() {
        assertThat(Failures.of(new IllegalArgumentException("bad event\n  at line 3")).getMessage()).isEqualTo("bad event");
    }
}

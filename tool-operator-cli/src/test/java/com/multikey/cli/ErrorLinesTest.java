package com.multikey.cli;

import com.multikey.clikit.Failure;
import com.multikey.testkit.LocalTables;
import com.multikey.testkit.LocalTablesExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProviderChain;
import software.amazon.awssdk.auth.credentials.ProfileCredentialsProvider;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.profiles.ProfileFile;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * What goes wrong most outside a test — a wrong endpoint, no credentials or region, a table that does not exist, a stack
 * output not passed — comes out as one line that says what is wrong and what to pass or run, with its exit code.
 */
@ExtendWith(LocalTablesExtension.class)
class ErrorLinesTest {

    private static final Map<String, String> LOCAL = Map.of("AWS_REGION", "us-east-1", "AWS_ACCESS_KEY_ID", "local",
            "AWS_SECRET_ACCESS_KEY", "local");

    private final LocalTables tables;
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    ErrorLinesTest(LocalTables tables) {
        this.tables = tables;
    }

    private int run(Map<String, String> environment, String... args) {
        return OperatorCli.run(args, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
                environment, false);
    }

    private String errorLine() {
        String printed = err.toString(StandardCharsets.UTF_8);
        assertThat(printed.lines()).as("one line, no stack trace: " + printed).hasSize(1);
        assertThat(printed).startsWith("error: ").doesNotContain("\tat ");
        return printed;
    }

    private static String closedEndpoint() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return "http://127.0.0.1:" + socket.getLocalPort();
        }
    }

    static Stream<Arguments> everyCommandOnTheTables() {
        return Stream.of(new String[] {"query", "--project", "p", "--attribute", "a"}, new String[] {"backfill"}, new String[] {"verify"},
                new String[] {"remove-index", "--index", "gone"}, new String[] {"job-status", "job-1", "--jobs-table", "ReindexJobsTable"},
                new String[] {"redrive", "--queue", "indexer", "--sqs-endpoint", "http://127.0.0.1:9"}).map(args -> Arguments.of((Object) args));
    }

    @ParameterizedTest
    @MethodSource("everyCommandOnTheTables")
    void aWrongEndpoint_exitsThree_namingTheEndpoint_andHowToStartTheLocalStack(String[] command) throws IOException {
        String endpoint = closedEndpoint();
        String[] args = Stream.concat(Stream.of(command), Stream.of("--endpoint", endpoint)).toArray(String[]::new);

        assertThat(run(LOCAL, args)).isEqualTo(3);

        assertThat(errorLine()).contains("cannot connect at ", endpoint + " (--endpoint)", "ConnectException",
                "start the local stack (java -jar tool-local-cli/target/local.jar start) or fix --endpoint");
    }

    static Stream<Arguments> everyCommandThatReadsDefinitions() {
        return Stream.of(new String[] {"query", "--project", "p", "--attribute", "a"}, new String[] {"query", "--index", "i", "--group", "g"},
                new String[] {"backfill"}, new String[] {"verify"}, new String[] {"verify", "--repair"},
                new String[] {"remove-index", "--index", "gone"}).map(args -> Arguments.of((Object) args));
    }

    @ParameterizedTest
    @MethodSource("everyCommandThatReadsDefinitions")
    void aDefinitionsFileThatCannotWork_isBadUsage_namingTheFileAndTheAttribute_beforeAnyEndpointIsContacted(String[] command,
                                                                                                             @org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws IOException {
        // given: a key type DynamoDB does not have, and an endpoint nothing listens on
        java.nio.file.Path file = java.nio.file.Files.writeString(dir.resolve("mine.yaml"), "version: 1\n"
                + "table: {partitionKey: {name: PK, type: S}, sortKey: {name: SK, type: NUMBER}}\nindexes: []\n");
        String[] args = Stream.concat(Stream.of(command), Stream.of("--definitions", file.toString(), "--endpoint", closedEndpoint()))
                .toArray(String[]::new);

        // when
        int status = run(LOCAL, args);

        // then
        String line = errorLine();
        assertThat(status).as(line).isEqualTo(2);
        assertThat(line).contains(file.toString(), "table.sortKey.type", "SK", "NUMBER")
                .doesNotContain("DefinitionException", "cannot connect");
    }

    @Test
    void query_whenTheEndpointDoesNotAnswer_givesUpAfterThePageTimeoutItIsGiven_sayingWhatToPass() throws IOException {
        // given: an endpoint that takes connections and never answers
        try (ServerSocket silent = new ServerSocket(0)) {
            long started = System.nanoTime();

            // when
            int status = run(LOCAL, "query", "--project", "p", "--attribute", "a", "--page-timeout", "0.5", "--endpoint",
                    "http://127.0.0.1:" + silent.getLocalPort());

            // then: well before the default of 5 s
            double seconds = (System.nanoTime() - started) / 1e9;
            String line = errorLine();
            assertThat(status).as(line).isEqualTo(3);
            assertThat(seconds).as(line).isLessThan(4.0);
            assertThat(line).contains("--page-timeout");
        }
    }

    @Test
    void query_aPageTimeoutThatIsNoPositiveNumberOfSeconds_isBadUsage() {
        assertThat(run(LOCAL, "query", "--project", "p", "--attribute", "a", "--page-timeout", "0")).isEqualTo(2);
        assertThat(errorLine()).contains("--page-timeout");
    }

    @Test
    void query_aPageTimeoutOfAnySpellingOutsideItsRange_isBadUsage() {
        for (String seconds : List.of("NaN", "-1", "-0", "901", "1e3")) {
            err.reset();
            int status = run(LOCAL, "query", "--project", "p", "--attribute", "a", "--page-timeout", seconds);

            String line = err.toString(StandardCharsets.UTF_8).lines().findFirst().orElse("");
            assertThat(status).as(seconds + ": " + line).isEqualTo(2);
            assertThat(line).as(seconds).startsWith("error: ").contains("--page-timeout");
        }
    }

    @Test
    void query_aPageTimeoutOfAVanishingNumberOfSeconds_isAMillisecond_atOnce() {
        for (String seconds : List.of("1e-999999999", "1e-30000000")) {
            err.reset();
            int status = assertTimeoutPreemptively(Duration.ofSeconds(5), () -> run(LOCAL, "query", "--project", "p", "--attribute", "a",
                    "--page-timeout", seconds, "--endpoint", tables.local().endpoint().toString()), seconds);

            // then: the page's budget of one millisecond runs out (or, rarely, suffices), as any budget does
            String printed = err.toString(StandardCharsets.UTF_8);
            assertThat(status).as(seconds + ": " + printed).isIn(0, 3);
            assertThat(printed).as(seconds).doesNotContain("Exception");
        }
    }

    @Test
    void anEndpointThatIsNoUrl_isBadUsage() {
        assertThat(run(LOCAL, "verify", "--endpoint", "localhost:8000")).isEqualTo(2);
        assertThat(errorLine()).contains("--endpoint: 'localhost:8000' is not an endpoint URL such as http://localhost:8000");
    }

    @Test
    void noRegion_onAws_isBadUsage_sayingWhatToExport() {
        assertThat(run(Map.of(), "verify")).isEqualTo(2);
        assertThat(errorLine()).contains("AWS_REGION is not set: export AWS_REGION=<the stack's region>, or pass --endpoint");
    }

    @Test
    void noCredentials_asTheSdkReportsThem_saysHowToGetThem() {
        // given: what the SDK's default chain throws when no provider has credentials
        SdkClientException none = catchThrowableOfType(SdkClientException.class, () -> AwsCredentialsProviderChain.of(
                ProfileCredentialsProvider.builder().profileFile(ProfileFile.builder().content(new ByteArrayInputStream(new byte[0]))
                        .type(ProfileFile.Type.CREDENTIALS).build()).profileName("none").build()).resolveCredentials());

        // when
        Failure failure = Failures.of(new IllegalStateException("page failed", none), new Failures.Context("eu-west-1", Map.of(),
                e -> java.util.Optional.empty()));

        // then
        assertThat(none).hasMessageStartingWith("Unable to load credentials");
        assertThat(failure.exitCode()).isEqualTo(3);
        assertThat(failure.getMessage()).isEqualTo("no AWS credentials found: run 'aws configure' or 'aws sso login', or export "
                + "AWS_PROFILE (or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY); for a local stack pass --endpoint");
    }

    @Test
    void refusedCredentials_sayToRefreshThem() {
        var refused = software.amazon.awssdk.services.dynamodb.model.DynamoDbException.builder().statusCode(400)
                .awsErrorDetails(software.amazon.awssdk.awscore.exception.AwsErrorDetails.builder().errorCode("ExpiredTokenException")
                        .errorMessage("The security token included in the request is expired").serviceName("DynamoDb").build()).build();

        Failure failure = Failures.of(refused, new Failures.Context("eu-west-1", Map.of(), e -> java.util.Optional.empty()));

        assertThat(failure.exitCode()).isEqualTo(3);
        assertThat(failure.getMessage()).startsWith("AWS refused the credentials in AWS region eu-west-1 (ExpiredTokenException: ")
                .endsWith("refresh them ('aws sso login', or new access keys) and check AWS_PROFILE and AWS_REGION");
    }

    @Test
    void aTableThatDoesNotExist_isNamed_withTheOptionToPass() {
        assertThat(run(LOCAL, "verify", "--index-table", "IndexTableOfAnotherStack", "--endpoint", tables.local().endpoint().toString()))
                .isEqualTo(3);

        assertThat(errorLine()).contains("table IndexTableOfAnotherStack does not exist at " + tables.local().endpoint(),
                "start the local stack (java -jar tool-local-cli/target/local.jar start), which creates the template's tables, or pass --index-table");
    }

    @Test
    void aJobsTableThatDoesNotExist_isNamed() {
        assertThat(run(LOCAL, "job-status", "job-1", "--jobs-table", "NoJobs", "--endpoint", tables.local().endpoint().toString()))
                .isEqualTo(3);
        assertThat(errorLine()).contains("table NoJobs does not exist", "pass --jobs-table");
    }

    @Test
    void jobStatus_withoutTheJobsTable_namesTheStackOutput() {
        assertThat(run(LOCAL, "job-status", "job-1")).isEqualTo(2);
        assertThat(errorLine()).contains("job-status needs --jobs-table <ReindexJobsTableName> (a stack output: aws cloudformation "
                + "describe-stacks --stack-name <stack> --query 'Stacks[0].Outputs'; ReindexJobsTable on the local stack)");
    }

    @Test
    void waitWithoutTheJobsTable_namesTheStackOutput() {
        assertThat(run(LOCAL, "verify", "--on-aws", "--function", "F", "--wait")).isEqualTo(2);
        assertThat(errorLine()).contains("--wait needs --jobs-table <ReindexJobsTableName> (a stack output");
    }

    @Test
    void redrive_aQueueTheLocalStackLacks_saysToStartIt() {
        com.multikey.emulator.services.sqs.LocalSqs sqs = com.multikey.emulator.services.sqs.LocalSqs.start();
        try {
            assertThat(run(LOCAL, "redrive", "--queue", "router", "--endpoint", tables.local().endpoint().toString(), "--sqs-endpoint",
                    sqs.endpoint().toString())).isEqualTo(3);
            assertThat(errorLine()).contains("queue RouterFailureQueue does not exist at ", "(--sqs-endpoint)",
                    "start the local stack (java -jar tool-local-cli/target/local.jar start), which creates the template's queues");
        } finally {
            sqs.close();
        }
    }
}

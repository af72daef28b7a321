package com.multikey.local;

import com.multikey.local.runtime.SamTemplate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class LocalMainIT {

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private final Path samEvents = SamTemplate.findUp("sam").resolve("events");

    private int run(String... args) {
        return LocalMain.run(args, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private String printed() {
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void demo_runsTheWholePipeline_andEveryExpectedOutcomeIsObserved() {
        int status = run("demo");

        assertThat(status).as(printed()).isZero();
        assertThat(printed()).contains("30 of 30 checks passed.")
                .contains("3812     | S2023-05-01\u2401p1311\u2401issue#020e | issue#020e | project#35e9 | 1   | 2023-05-01")
                .contains("3812  issue#67d1, issue#020e         ok (descending too)")
                .contains("Layer Expired   x1  -> LayerExpiredRule")
                .contains("DELETE /2018-10-31/layers/multikey-requests/versions/12 (us-east-1) -> 204")
                .contains("page 1: issue#020e, issue#67d1")
                .contains("== verify: 4 issues, 4 index items: 0 missing, 0 stale, 0 orphaned")
                .contains("verify job over 8 segments: done, 4 issues, 0 missing, 0 stale, 0 orphaned")
                .doesNotContain("FAILED");
    }

    @Test
    void demoOfTheSingleTableExample_runsItsTableAndFourIndexes_andEveryExpectedOutcomeIsObserved() {
        int status = run("demo", "--example", "single-table");

        assertThat(status).as(printed()).isZero();
        assertThat(printed()).contains("27 of 27 checks passed.")
                .contains("issue-labels|PROJECT#p1          | Sbug\u2401Np1312\u2401PROJECT#p1\u2401ISSUE#2")
                .contains("PROJECT#p1/ISSUE#4, PROJECT#p1/ISSUE#1 (2 API call(s)) | PROJECT#p1/ISSUE#3 (1 API call(s))  ok")
                .contains("Layer Expired     x1  -> LayerExpiredRule")
                .contains("Project Created   x2  (no rule)")
                .contains("DELETE /2018-10-31/layers/multikey-requests/versions/12 (us-east-1) -> 204")
                .contains("== verify, every index: 8 items, 18 index items: 0 missing, 0 stale, 0 orphaned")
                .doesNotContain("FAILED");
    }

    @Test
    void demo_ofAnExampleThatDoesNotExist_isRefused_namingWhereExamplesAre() {
        assertThat(run("demo", "--example", "../template")).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("error: no example '../template' (examples with an index-definitions.yaml under ");
    }

    @ParameterizedTest
    @ValueSource(strings = {"issue-insert.json", "issue-update.json", "issue-remove.json"})
    void invoke_indexerWithEverySample_succeeds(String sample) {
        assertThat(run("invoke", "StreamIndexerFunction", "-e", samEvents.resolve(sample).toString())).as(printed()).isZero();
        assertThat(printed()).contains("StreamIndexerFunction answered: {\"batchItemFailures\":[]}");
    }

    @ParameterizedTest
    @ValueSource(strings = {"issue-insert.json", "issue-update.json", "issue-remove.json", "layer-ttl-expiry.json", "layer-user-delete.json"})
    void invoke_routerWithEveryStreamSample_succeeds(String sample) {
        assertThat(run("invoke", "RouterFunction", "-e", samEvents.resolve(sample).toString())).as(printed()).isZero();
        assertThat(printed()).contains("RouterFunction answered: {\"batchItemFailures\":[]}").contains("Events published:");
    }

    @Test
    void invoke_routerWithTheTtlExpiry_publishesLayerExpired_whoseRuleInvokesDeleteLayer() {
        assertThat(run("invoke", "RouterFunction", "-e", samEvents.resolve("layer-ttl-expiry.json").toString())).isZero();

        assertThat(printed()).contains("Layer Expired {\"id\":\"layer#us-east-1#requests#12\"} -> LayerExpiredRule")
                .contains("rule LayerExpiredRule invoked DeleteLayerFunction: deleted arn:aws:lambda:us-east-1:123456789012:layer:multikey-requests:12")
                .contains("Lambda DELETE /2018-10-31/layers/multikey-requests/versions/12 (us-east-1) -> 204");
    }

    @Test
    void invoke_deleteLayerWithTheSample_deletesAndWritesTheTombstone() {
        assertThat(run("invoke", "DeleteLayerFunction", "-e", samEvents.resolve("layer-expired-event.json").toString())).as(printed()).isZero();

        assertThat(printed()).contains("DeleteLayerFunction answered: deleted arn:aws:lambda:us-east-1:123456789012:layer:multikey-requests:12 (tombstone WRITTEN)")
                .contains("+ AppTable {\"arn\":\"arn:aws:lambda:us-east-1:123456789012:layer:multikey-requests:12\",\"deletedAt\":")
                .contains("Lambda DELETE /2018-10-31/layers/multikey-requests/versions/12 (us-east-1) -> 204");
    }

    @Test
    void invoke_whenFileMissing_unknownFunction_orMalformedEvent_failsClearly(@TempDir Path dir) throws IOException {
        assertThat(run("invoke", "StreamIndexerFunction", "-e", dir.resolve("nope.json").toString())).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("error: no such event file: ").contains("nope.json");

        assertThat(run("invoke", "NoSuchFunction", "-e", samEvents.resolve("issue-insert.json").toString())).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8))
                .contains("error: template.yaml has no function 'NoSuchFunction' (functions: StreamIndexerFunction, RouterFunction, DeleteLayerFunction, ReindexWorkerFunction, RedriveFunction, QueryFunction)");

        Path broken = Files.writeString(dir.resolve("broken.json"), "{\"Records\": [ {\"eventName\": ");
        assertThat(run("invoke", "StreamIndexerFunction", "-e", broken.toString())).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("error: broken.json: not a valid DynamodbEvent event: ");
    }

    @Test
    void replay_printsTheIndexRows() {
        assertThat(run("replay", samEvents.resolve("issue-insert.json").toString())).isZero();
        assertThat(printed()).contains("1 record(s), answered {\"batchItemFailures\":[]}").contains("9c1d     | Surgent\u2401p1313\u2401issue#af34");
    }

    @Test
    void aTemplateTheRunnerCannotInterpret_isNamed(@TempDir Path dir) throws IOException {
        String streamEvent = "          Type: %s\n          Properties:\n"
                + "            Stream: !If [CreateAppTable, !GetAtt AppTable.StreamArn, !Ref ExistingTableStreamArn]";
        Path repository = SamTemplate.findUp("template.yaml").toAbsolutePath().getParent();
        String template = Files.readString(SamTemplate.findUp("template.yaml"))
                // the deployable jars stay where the build put them
                .replace("CodeUri: ", "CodeUri: " + repository + "/")
                .replace(streamEvent.formatted("DynamoDB"), streamEvent.formatted("Kinesis"));
        assertThat(template).as("the stream event was changed").contains("Type: Kinesis");
        Path changed = Files.writeString(dir.resolve("template.yaml"), template);

        assertThat(run("--template", changed.toString(), "invoke", "StreamIndexerFunction", "-e",
                samEvents.resolve("issue-insert.json").toString())).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("error: StreamIndexerFunction.Events.AppTableStream: event type Kinesis is not emulated");
    }

    @Test
    void start_saysReady_onlyOnceTheTablesExist_andStopsQuietly() throws java.io.IOException {
        int port;
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
            port = socket.getLocalPort();
        }

        int status = run("start", "--port", Integer.toString(port), "--eventbridge-port", "0", "--lambda-port", "0",
                "--seconds", "0");

        assertThat(status).as(printed()).isZero();
        List<String> lines = printed().lines().toList();
        int tables = lines.indexOf(lines.stream().filter(line -> line.startsWith("DynamoDB Local:")).findFirst().orElseThrow());
        assertThat(lines.get(tables)).contains("AppTable", "IssueAttribIndexTable");
        assertThat(lines.indexOf(LocalMain.READY)).isGreaterThan(tables);
        assertThat(lines).noneMatch(line -> line.contains("failed"));
    }

    @Test
    void unknownCommand_printsUsage() {
        assertThat(run("deploy")).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("Unmatched argument at index 0: 'deploy'");
    }
}

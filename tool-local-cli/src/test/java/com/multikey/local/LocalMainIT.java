package com.multikey.local;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.TextNode;
import com.multikey.emulator.template.SamTemplate;
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

    @TempDir
    Path logs;

    private int run(String... args) {
        return runIn(java.util.Map.of(), args);
    }

    private int runIn(java.util.Map<String, String> environment, String... args) {
        return LocalMain.run(args, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
                new FunctionLogs(logs.resolve("functions.log")), false, environment);
    }

    private String printed() {
        return out.toString(StandardCharsets.UTF_8);
    }

    private String errors() {
        return err.toString(StandardCharsets.UTF_8);
    }

    private JsonNode document() throws IOException {
        assertThat(printed().lines()).as("one JSON document on one line").hasSize(1);
        return new ObjectMapper().readTree(printed());
    }

    @Test
    void demo_runsTheWholePipeline_andEveryExpectedOutcomeIsObserved() {
        int status = run("demo");

        assertThat(status).as(printed()).isZero();
        assertThat(printed()).contains("30 of 30 checks passed.")
                // a new stack's grid: grouped by project
                .contains("issue-grid|project#35e9|3812 | S2023-05-01\u2401Np1311\u2401issue#020e | {id=issue#020e} | 2023-05-01")
                .contains("3812  issue#67d1, issue#020e         ok (descending too)")
                .contains("Layer Expired   x1  -> LayerExpiredRule")
                .contains("DELETE /2018-10-31/layers/multikey-requests/versions/12 (us-east-1) -> 204")
                .contains("page 1: issue#020e, issue#67d1")
                .contains("== verify: 4 issues, 4 index items: 0 missing, 0 stale, 0 orphaned")
                .contains("verify job over 8 segments: done, 4 issues, 0 missing, 0 stale, 0 orphaned")
                .doesNotContain("FAILED");
        List<String> errors = errors().lines().toList();
        assertThat(errors.getFirst()).as("the log is named at the start").isEqualTo("(function logs: " + logs.resolve("functions.log") + ")");
        assertThat(errors.subList(1, errors.size())).as("progress lines as the checks run, the last at the end").isNotEmpty()
                .allMatch(line -> line.matches("demo: \\d+/30 checks \\(\\d+%\\)(, 0 failed)?"))
                .last().isEqualTo("demo: 30/30 checks (100%), 0 failed");
        assertThat(logs.resolve("functions.log")).as("named, so kept").exists();
    }

    @Test
    void demo_withOutputJson_printsOneDocumentOfTheChecks() throws IOException {
        int status = run("demo", "--output", "json");

        assertThat(status).as(printed()).isZero();
        JsonNode document = document();
        assertThat(document.path("example").isNull()).isTrue();
        assertThat(document.path("passed").asInt()).isEqualTo(PipelineDemo.CHECKS);
        assertThat(document.path("failed").asInt()).isZero();
        assertThat(document.path("checks")).hasSize(PipelineDemo.CHECKS).allMatch(check -> check.path("passed").asBoolean()
                && check.path("description").isTextual() && check.has("expected") && check.path("expected").equals(check.path("actual")));
        JsonNode order = document.path("checks").findParents("description").stream()
                .filter(check -> check.path("description").asText().equals("after the change: 3812 ascending")).findFirst().orElseThrow();
        assertThat(order.path("actual")).containsExactly(TextNode.valueOf("issue#67d1"), TextNode.valueOf("issue#020e"));
        JsonNode calls = document.path("checks").findParents("description").stream()
                .filter(check -> check.path("description").asText().equals("DeleteLayerVersion calls")).findFirst().orElseThrow();
        assertThat(calls.path("actual").path(0).path("status").asInt()).isEqualTo(204);
        assertThat(errors()).contains("demo: 30/30 checks (100%), 0 failed");
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
    void invoke_indexerWithEverySample_succeeds_quietly(String sample) {
        assertThat(run("invoke", "StreamIndexerFunction", "-e", samEvents.resolve(sample).toString())).as(printed()).isZero();
        assertThat(printed()).contains("StreamIndexerFunction answered: {\"batchItemFailures\":[]}");
        assertThat(errors()).as("a quiet success names no log").isEmpty();
        assertThat(logs.resolve("functions.log")).as("and leaves none behind").doesNotExist();
    }

    @Test
    void invoke_verbose_namesTheFunctionLogs_afterTheResult() {
        assertThat(run("invoke", "StreamIndexerFunction", "-e", samEvents.resolve("issue-insert.json").toString(), "--verbose")).isZero();

        assertThat(errors()).isEqualTo("(function logs: " + logs.resolve("functions.log") + ")" + System.lineSeparator());
        assertThat(logs.resolve("functions.log")).exists();
    }

    @Test
    void invoke_withOutputJson_printsTheAnswerAndWhatChanged() throws IOException {
        assertThat(run("invoke", "RouterFunction", "-e", samEvents.resolve("layer-ttl-expiry.json").toString(), "--output", "json"))
                .as(printed()).isZero();

        JsonNode document = document();
        assertThat(document.path("function").asText()).isEqualTo("RouterFunction");
        assertThat(document.path("answer").path("batchItemFailures").isArray()).isTrue();
        JsonNode written = document.path("itemsWritten");
        assertThat(written).hasSize(1);
        assertThat(written.path(0).path("table").asText()).isEqualTo("AppTable");
        assertThat(written.path(0).path("change").asText()).isEqualTo("added");
        assertThat(written.path(0).path("key").path("id").asText()).isEqualTo("layer#us-east-1#requests#12");
        assertThat(written.path(0).path("item").has("deletedAt")).isTrue();
        JsonNode event = document.path("eventsPublished").path(0);
        assertThat(event.path("detailType").asText()).isEqualTo("Layer Expired");
        assertThat(event.path("keys").path("id").asText()).isEqualTo("layer#us-east-1#requests#12");
        assertThat(event.path("rules")).containsExactly(TextNode.valueOf("LayerExpiredRule"));
        JsonNode target = document.path("ruleTargets").path(0);
        assertThat(target.path("function").asText()).isEqualTo("DeleteLayerFunction");
        assertThat(target.path("result").asText()).startsWith("deleted arn:aws:lambda:us-east-1:123456789012:layer:multikey-requests:12");
        JsonNode call = document.path("externalCalls").path(0);
        assertThat(call.path("method").asText() + " " + call.path("path").asText() + " " + call.path("status").asInt())
                .isEqualTo("DELETE /2018-10-31/layers/multikey-requests/versions/12 204");
        assertThat(errors()).isEmpty();
    }

    @Test
    void invoke_whenItsEnvironmentNamesADefinitionsFile_theFunctionsReadThatFile_YamlAsItIs(@TempDir Path dir) throws IOException {
        // given: local.jar's own environment names the single-table example's YAML file; a read API call listing the indexes
        Path definitions = SamTemplate.findUp("examples").resolve("single-table").resolve("index-definitions.yaml");
        String listIndexes = Files.readString(samEvents.resolve("query-grid-page.json"), StandardCharsets.UTF_8)
                .replace("/v1/grid", "/v1/indexes").replace("field=3812&order=asc&pageSize=25&project=project%2335e9", "");
        Path event = Files.writeString(dir.resolve("list-indexes.json"), listIndexes);

        // when
        int status = runIn(java.util.Map.of("INDEX_DEFINITIONS", definitions.toString()), "invoke", "QueryFunction", "-e", event.toString(),
                "--output", "json");

        // then: the file's indexes, not the packaged custom_fields
        assertThat(status).as(printed() + errors()).isZero();
        JsonNode indexes = new ObjectMapper().readTree(document().path("answer").path("body").asText()).path("indexes");
        assertThat(indexes.findValuesAsText("name")).isNotEmpty().doesNotContain("custom_fields")
                .containsExactlyElementsOf(com.multikey.index.definition.DefinitionsYaml.read(definitions).indexes().stream()
                        .map(com.multikey.index.definition.IndexDefinition::name).toList());
    }

    @Test
    void anyCommand_whenItsEnvironmentNamesADefinitionsFileThatCannotWork_isRefusedAsBadUsage_namingTheVariable(@TempDir Path dir)
            throws IOException {
        Path broken = Files.writeString(dir.resolve("broken.yaml"), "version: 99\n");

        assertThat(runIn(java.util.Map.of("INDEX_DEFINITIONS", broken.toString()), "invoke", "QueryFunction", "-e",
                samEvents.resolve("query-grid-page.json").toString())).isEqualTo(2);
        assertThat(errors()).contains("error: INDEX_DEFINITIONS: ").contains("broken.yaml");
        assertThat(runIn(java.util.Map.of("INDEX_DEFINITIONS", dir.resolve("none.yaml").toString()), "replay",
                samEvents.resolve("issue-insert.json").toString())).isEqualTo(2);
        assertThat(errors()).contains("INDEX_DEFINITIONS names " + dir.resolve("none.yaml") + ", which is not a file");
    }

    @Test
    void invoke_withATemplateWhoseFunctionJarsAreNotBuilt_saysToRunMvnPackage(@TempDir Path dir) throws IOException {
        Path template = Files.copy(SamTemplate.findUp("template.yaml"), dir.resolve("template.yaml"));

        assertThat(run("--template", template.toString(), "invoke", "RouterFunction", "-e", samEvents.resolve("issue-insert.json").toString()))
                .isEqualTo(3);

        // the functions print to this test's own output, so the log stays empty and is not named (FunctionLogsTest covers that)
        List<String> errors = errors().lines().toList();
        assertThat(errors).hasSize(1);
        assertThat(errors.getFirst()).matches("error: \\w+Function: no jar at its CodeUri " + java.util.regex.Pattern.quote(dir.toString())
                + "/.*\\.jar: run 'mvn package' in the repository first \\(scripts/with-jdk21 mvn -B package -DskipTests\\)");
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
        assertThat(printed()).contains("1 record(s), answered {\"batchItemFailures\":[]}").contains("issue-grid|project#35e9|9c1d | Surgent\u2401Np1313\u2401issue#af34");
    }

    @Test
    void replay_withOutputJson_printsEachFilesAnswer_andTheIndexItems() throws IOException {
        String insert = samEvents.resolve("issue-insert.json").toString();
        String remove = samEvents.resolve("issue-remove.json").toString();
        assertThat(run("replay", insert, remove, insert, "--output", "json")).as(printed()).isZero();

        JsonNode document = document();
        assertThat(document.path("files")).hasSize(3);
        assertThat(document.path("files").path(0).path("file").asText()).isEqualTo(insert);
        assertThat(document.path("files").path(1).path("records").asInt()).isEqualTo(1);
        assertThat(document.path("files").path(2).path("answer").path("batchItemFailures")).isEmpty();
        JsonNode urgent = document.path("indexItems").findParents("attribId").stream()
                .filter(item -> item.path("attribId").asText().equals("issue-grid|project#35e9|9c1d") && item.path("value").asText().equals("urgent"))
                .findFirst()
                .orElseThrow();
        assertThat(urgent.path("sortKey").asText()).as("the key as stored, with its separator U+0001").isEqualTo("Surgent\u0001Np1313\u0001issue#af34");
        assertThat(urgent.path("itemKey").path("id").asText()).isEqualTo("issue#af34");
        assertThat(urgent.path("value").asText()).isEqualTo("urgent");
    }

    @Test
    void aTemplateTheRunnerCannotInterpret_isNamed(@TempDir Path dir) throws IOException {
        // the indexer's stream mapping reads a source the emulator does not serve: an SQS queue
        String streamSource = "      EventSourceArn: !If [CreateAppTable, !GetAtt AppTable.StreamArn, !Ref ExistingTableStreamArn]\n";
        String queueSource = "      EventSourceArn: !GetAtt StreamIndexerFailureQueue.Arn\n";
        Path repository = SamTemplate.findUp("template.yaml").toAbsolutePath().getParent();
        String template = Files.readString(SamTemplate.findUp("template.yaml"))
                // the deployable jars stay where the build put them
                .replace("CodeUri: ", "CodeUri: " + repository + "/")
                .replaceFirst(java.util.regex.Pattern.quote(streamSource), queueSource);
        assertThat(template).as("the stream mapping was changed").contains(queueSource);
        Path changed = Files.writeString(dir.resolve("template.yaml"), template);

        assertThat(run("--template", changed.toString(), "invoke", "StreamIndexerFunction", "-e",
                samEvents.resolve("issue-insert.json").toString())).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8))
                .contains("error: StreamIndexerFunctionAppTableStream.EventSourceArn: an event source of sqs is not emulated");
    }

    @Test
    void start_saysReady_onlyOnceTheTablesExist_andStopsQuietly(@org.junit.jupiter.api.io.TempDir java.nio.file.Path state)
            throws java.io.IOException {
        int status;
        try (DefaultPortsTaken taken = DefaultPortsTaken.take()) {
            assertThat(taken.ports()).as("start's default ports").hasSize(5);
            // every port 0: free ones the stack picks, whatever else the machine runs
            status = run("start", "--port", "0", "--eventbridge-port", "0", "--lambda-port", "0", "--sqs-port", "0", "--api-port", "0",
                    "--secrets-dir", state.resolve("secrets").toString(), "--seconds", "0");
        }
        assertThat(status).as(errors()).isZero();

        // the read API's cursor keys: made on first use, readable by their owner only, kept after the stack stops
        java.nio.file.Path keys = state.resolve("secrets").resolve("CursorKeySecret.json");
        assertThat(java.nio.file.Files.getPosixFilePermissions(keys))
                .isEqualTo(java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));

        assertThat(status).as(printed()).isZero();
        List<String> lines = printed().lines().toList();
        int tables = lines.indexOf(lines.stream().filter(line -> line.startsWith("DynamoDB:")).findFirst().orElseThrow());
        assertThat(lines.get(tables)).contains("AppTable", "IssueAttribIndexTable");
        assertThat(lines.indexOf(LocalMain.READY)).isGreaterThan(tables);
        assertThat(lines).noneMatch(line -> line.contains("failed"));
        assertThat(errors()).as("start names the function log as it starts").isEqualTo("(function logs: " + logs.resolve("functions.log") + ")"
                + System.lineSeparator());
    }

    @Test
    void start_thenStopped_leavesNoFunctionLogInTheTemporaryDirectory_butKeepsItWhereAsked(@TempDir Path state) throws IOException {
        Path temporary = Path.of(System.getProperty("java.io.tmpdir"));
        java.util.Set<String> before = functionLogsIn(temporary);
        Path asked = state.resolve("my logs");

        // as local.jar's main runs it, with the function logs it makes itself
        int status = LocalMain.run(new String[] {"start", "--port", "0", "--eventbridge-port", "0", "--lambda-port", "0", "--sqs-port", "0",
                        "--api-port", "0", "--secrets-dir", state.resolve("secrets").toString(), "--log-dir", asked.toString(), "--seconds", "0"},
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));

        assertThat(status).as(errors()).isZero();
        assertThat(functionLogsIn(temporary)).as("function logs in java.io.tmpdir").isSubsetOf(before);
        List<Path> kept;
        try (java.util.stream.Stream<Path> files = Files.list(asked)) {
            kept = files.toList();
        }
        assertThat(kept).singleElement().satisfies(log -> assertThat(errors()).isEqualTo("(function logs: " + log + ")" + System.lineSeparator()));
    }

    /** What a stack's function logs were called in the temporary directory (other JVMs' tests may write there too). */
    private static java.util.Set<String> functionLogsIn(Path directory) throws IOException {
        try (java.util.stream.Stream<Path> files = Files.list(directory)) {
            return files.map(file -> file.getFileName().toString())
                    .filter(name -> name.startsWith("multikey-functions-") || name.startsWith("functions-"))
                    .collect(java.util.stream.Collectors.toSet());
        }
    }

    @Test
    void unknownCommand_printsUsage() {
        assertThat(run("deploy")).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("Unmatched argument at index 0: 'deploy'");
    }
}

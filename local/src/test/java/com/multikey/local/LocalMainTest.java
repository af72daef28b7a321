package com.multikey.local;

import com.amazonaws.services.lambda.runtime.events.DynamodbEvent;
import com.multikey.local.support.LambdaEvents;
import com.multikey.local.support.SamTemplate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class LocalMainTest {

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        return LocalMain.run(List.of(args), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @Test
    void demo_buildsTheGridIndex_andEveryOrderCheckPasses() {
        int status = run("demo");

        String printed = out.toString(StandardCharsets.UTF_8);
        assertThat(status).as(printed).isZero();
        assertThat(printed).contains("16 of 16 checks passed.")
                .contains("3812     | S2023-05-01\u2401p1311\u2401issue#020e | issue#020e | project#35e9 | 1   | 2023-05-01")
                .contains("3812  issue#67d1, issue#020e         ok (descending too)")
                .doesNotContain("FAILED");
    }

    @Test
    void samEvents_replayedInOrder_leaveTheIndexOfEachIssueVersion() {
        Path events = SamTemplate.findUp("sam").resolve("events");
        try (LocalPipeline pipeline = new LocalPipeline(SamTemplate.ofRepository())) {
            pipeline.invokeIndexer(LambdaEvents.read(events.resolve("issue-insert.json"), DynamodbEvent.class));
            assertThat(values(pipeline)).containsExactlyInAnyOrder("3fe6=42", "47e5=Approved", "9c1d=steel", "9c1d=urgent");

            pipeline.invokeIndexer(LambdaEvents.read(events.resolve("issue-update.json"), DynamodbEvent.class));
            assertThat(values(pipeline)).containsExactlyInAnyOrder("3fe6=40", "47e5=Approved", "9c1d=steel", "3812=2023-05-03");

            pipeline.invokeIndexer(LambdaEvents.read(events.resolve("issue-remove.json"), DynamodbEvent.class));
            assertThat(values(pipeline)).isEmpty();
        }
    }

    @Test
    void replay_printsTheIndexRows() {
        Path insert = SamTemplate.findUp("sam").resolve("events/issue-insert.json");

        assertThat(run("replay", insert.toString())).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("1 record(s), batch item failures []")
                .contains("9c1d     | Surgent\u2401p1313\u2401issue#af34");
    }

    @Test
    void replay_whenFileMissingOrMalformed_failsWithAClearMessage(@TempDir Path dir) throws IOException {
        assertThat(run("replay", dir.resolve("nope.json").toString())).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("error: no such event file: ").contains("nope.json");

        Path broken = Files.writeString(dir.resolve("broken.json"), "{\"Records\": [ {\"eventName\": ");
        assertThat(run("replay", broken.toString())).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("error: broken.json: not a valid DynamodbEvent event: ");
    }

    @Test
    void unknownCommand_printsUsage() {
        assertThat(run("deploy")).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("usage:").contains("unknown command 'deploy'");
    }

    private static List<String> values(LocalPipeline pipeline) {
        return IndexTablePrinter.scan(pipeline.dynamoDb, pipeline.table("IssueAttribIndexTable")).stream()
                .map(item -> item.get("attribId").s() + "=" + show(item.get("value")))
                .toList();
    }

    private static String show(AttributeValue value) {
        return value.s() != null ? value.s() : value.n();
    }

}

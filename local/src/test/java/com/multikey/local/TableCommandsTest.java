package com.multikey.local;

import com.multikey.local.support.SamTemplate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** query, backfill and verify against a running local stack, over HTTP. */
class TableCommandsTest {

    private static TemplateRuntime runtime;
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @BeforeAll
    static void start() throws InterruptedException {
        runtime = new TemplateRuntime(SamTemplate.ofRepository(), 0, line -> { });
        runtime.startPolling();
        for (int i = 1; i <= 12; i++) {
            Map<String, AttributeValue> item = Map.of("id", AttributeValue.fromS("issue#" + i), "project", AttributeValue.fromS("project#1"),
                    "num", AttributeValue.fromN(Integer.toString(i)), "name", AttributeValue.fromS("issue " + i),
                    "custom_fields", AttributeValue.fromM(Map.of("size", AttributeValue.fromN(Integer.toString(i % 5)),
                            "label", AttributeValue.fromS(List.of("alpha", "beta", "gamma").get(i % 3)))));
            runtime.dynamoDb.putItem(b -> b.tableName("AppTable").item(item));
        }
        assertThat(runtime.awaitQuiet(Duration.ofSeconds(60))).isTrue();
    }

    @AfterAll
    static void stop() {
        runtime.close();
    }

    private int run(String... args) {
        String[] all = new String[args.length + 2];
        System.arraycopy(args, 0, all, 0, args.length);
        all[args.length] = "--endpoint";
        all[args.length + 1] = runtime.dynamoDbLocal.endpoint().toString();
        return LocalMain.run(all, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private String printed() {
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void query_printsAPageInFieldOrder_withItsCursorAndCalls() {
        assertThat(run("query", "--project", "project#1", "--attribute", "size", "--page-size", "3", "--ge", "3")).as(err.toString()).isZero();

        assertThat(printed()).contains("1    issue#3        3     issue 3                        3")
                .contains("2    issue#8        8     issue 8                        3")
                .contains("3    issue#4        4     issue 4                        4")
                .contains("3 issue(s), 2 API call(s)").contains("next page: --cursor ");
    }

    @Test
    void query_withABadCursor_failsClearly() {
        assertThat(run("query", "--project", "project#1", "--attribute", "size", "--cursor", "garbage")).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("error: malformed cursor");
    }

    @Test
    void verify_thenBackfill_onTheStreamBuiltIndex_findNothingToDo() {
        assertThat(run("verify")).isZero();
        assertThat(printed()).contains("12 issues, 24 index items: 0 missing, 0 stale, 0 orphaned");

        assertThat(run("backfill", "--segments", "2")).isZero();
        assertThat(printed()).contains("backfill done: 12 issues indexed");
    }
}

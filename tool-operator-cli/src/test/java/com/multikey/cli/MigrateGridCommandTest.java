package com.multikey.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.multikey.index.GridLayoutStore;
import com.multikey.index.definition.GridState;
import com.multikey.index.definition.IndexDefinitions;
import com.multikey.reindex.Backfill;
import com.multikey.reindex.CheckpointStore;
import com.multikey.reindex.IndexScope;
import com.multikey.testkit.IssueFixtures;
import com.multikey.testkit.LocalTables;
import com.multikey.testkit.LocalTablesExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code migrate-grid} in this process against tables over HTTP, on a stack that had the grid in the field-partitioned layout. */
@ExtendWith(LocalTablesExtension.class)
class MigrateGridCommandTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final IndexDefinitions DEFINITIONS = IndexDefinitions.packaged();

    private final LocalTables tables;
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    MigrateGridCommandTest(LocalTables tables) {
        this.tables = tables;
    }

    private int run(String... args) {
        out.reset();
        err.reset();
        String[] all = new String[args.length + 2];
        System.arraycopy(args, 0, all, 0, args.length);
        all[args.length] = "--endpoint";
        all[args.length + 1] = tables.local().endpoint().toString();
        return OperatorCli.run(all, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    /** Issues indexed in the field-partitioned layout, as a stack that had the grid before holds them. */
    private void stackThatHadTheGrid() throws InterruptedException {
        for (int i = 1; i <= 12; i++) {
            Map<String, AttributeValue> item = Map.of("id", AttributeValue.fromS("issue#" + i), "project", AttributeValue.fromS("project#1"),
                    "num", AttributeValue.fromN(Integer.toString(i)), "name", AttributeValue.fromS("issue " + i),
                    "custom_fields", AttributeValue.fromM(Map.of("size", AttributeValue.fromN(Integer.toString(i % 5)))));
            tables.dynamoDb().putItem(b -> b.tableName("AppTable").item(item));
        }
        new Backfill(tables.dynamoDb(), "AppTable", "IssueAttribIndexTable", IndexScope.all(DEFINITIONS), 10_000)
                .run(CheckpointStore.open(null, 1), 1, p -> { }, Duration.ofSeconds(1));
    }

    @Test
    void migrateGrid_movesTheGridToTheGroupedLayout_showsItsSteps_andAgainFindsItDone() throws Exception {
        // given
        stackThatHadTheGrid();
        assertThat(run("query", "--project", "project#1", "--attribute", "size", "--output", "json")).isZero();
        JsonNode before = JSON.readTree(out.toString(StandardCharsets.UTF_8));

        // when
        int exit = run("migrate-grid", "--settle-seconds", "0", "--segments", "2");

        // then
        assertThat(exit).as(err.toString(StandardCharsets.UTF_8)).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo("grid layout: grouped, the old layout's items removed: migrated\n");
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("migrate-grid: state field-partitioned: recording migrating",
                "migrate-grid: backfilling issue-grid", "migrate-grid: verified issue-grid", "migrate-grid: recording grouped",
                "migrate-grid: removed 12 item(s) of the field-partitioned layout");
        assertThat(new GridLayoutStore(tables.dynamoDb(), "IssueAttribIndexTable", DEFINITIONS, false, Duration.ZERO, System::nanoTime)
                .read()).get().isEqualTo(new GridLayoutStore.Control(GridState.GROUPED, true, true));
        assertThat(IssueFixtures.storedIndex(tables.dynamoDb(), "IssueAttribIndexTable")).filteredOn(item -> !GridLayoutStore.isControl(item))
                .hasSize(12).allSatisfy(item -> assertThat(item.get("attribId").s()).isEqualTo("issue-grid|project#1|size"));
        assertThat(run("query", "--project", "project#1", "--attribute", "size", "--output", "json")).isZero();
        JsonNode after = JSON.readTree(out.toString(StandardCharsets.UTF_8));
        assertThat(after.get("items")).isEqualTo(before.get("items"));
        assertThat(after.get("apiCalls").asInt()).isEqualTo(2);
        assertThat(run("verify", "--output", "json")).isZero();

        // and: again, it finds the work done
        assertThat(run("migrate-grid", "--settle-seconds", "0", "--output", "json")).isZero();
        assertThat(JSON.readTree(out.toString(StandardCharsets.UTF_8))).isEqualTo(JSON.readTree("{\"state\":\"grouped\",\"done\":true}"));
    }

    @Test
    void backfill_onANewStack_indexesTheGridGroupedByProject() {
        // given: a new stack, issues written before its first backfill
        tables.dynamoDb().putItem(b -> b.tableName("AppTable").item(Map.of("id", AttributeValue.fromS("issue#1"),
                "project", AttributeValue.fromS("project#1"), "num", AttributeValue.fromN("1"),
                "custom_fields", AttributeValue.fromM(Map.of("size", AttributeValue.fromN("3"))))));

        // when
        int exit = run("backfill");

        // then
        assertThat(exit).isZero();
        assertThat(IssueFixtures.storedIndex(tables.dynamoDb(), "IssueAttribIndexTable")).filteredOn(item -> !GridLayoutStore.isControl(item))
                .extracting(item -> item.get("attribId").s()).isEqualTo(List.of("issue-grid|project#1|size"));
    }
}

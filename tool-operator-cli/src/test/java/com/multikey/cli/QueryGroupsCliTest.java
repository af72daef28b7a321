package com.multikey.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.multikey.testkit.LocalTables;
import com.multikey.testkit.LocalTablesExtension;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code query --index --group a --group b}: the pages of several groups of one index, merged under one cursor. */
class QueryGroupsCliTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<String> TEAMS = List.of("sre", "payments", "mobile", "web");

    @RegisterExtension
    static final LocalTablesExtension TABLES = LocalTablesExtension.createdOnce();

    private final LocalTables tables;
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private Path definitions;
    private Path cursorKeys;

    QueryGroupsCliTest(LocalTables tables) {
        this.tables = tables;
    }

    private int run(String... args) {
        out.reset();
        err.reset();
        boolean query = args[0].equals("query");
        String[] all = new String[args.length + (query ? 4 : 2)];
        System.arraycopy(args, 0, all, 0, args.length);
        all[args.length] = "--endpoint";
        all[args.length + 1] = tables.local().endpoint().toString();
        if (query) {
            // cursors sealed under a key file of the test's own
            all[args.length + 2] = "--cursor-keys";
            all[args.length + 3] = cursorKeys.toString();
        }
        return OperatorCli.run(all, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private static Map<String, AttributeValue> incident(int num) {
        return Map.of("id", AttributeValue.fromS("inc#" + num), "num", AttributeValue.fromN(Integer.toString(num)),
                "team", AttributeValue.fromS(TEAMS.get(num % TEAMS.size())), "state", AttributeValue.fromS(num % 3 == 0 ? "open" : "closed"),
                "created", AttributeValue.fromN(Integer.toString(1000 + (num * 37) % 50)));
    }

    @BeforeEach
    void incidentsOfFourTeams(@TempDir Path dir) throws Exception {
        cursorKeys = dir.resolve("cursor-keys.json");
        definitions = Files.writeString(dir.resolve("definitions.yaml"), """
                version: 1
                table: {partitionKey: {name: id, type: S}}
                indexes:
                  - name: incidents-by-team
                    covers: [{attribute: id, beginsWith: "inc#"}]
                    group: team
                    values: {attribute: created}
                    orderBy: num
                """);
        for (int num = 1; num <= 40; num++) {
            Map<String, AttributeValue> item = incident(num);
            tables.dynamoDb().putItem(b -> b.tableName("AppTable").item(item));
        }
        assertThat(run("backfill", "--definitions", definitions.toString(), "--index", "incidents-by-team")).as(err.toString()).isZero();
    }

    @Test
    void query_repeatedGroup_listsTheTeamsClosedIncidentsNewestFirst_mergedAcrossPages() throws Exception {
        // given
        List<String> expected = IntStream.rangeClosed(1, 40).mapToObj(QueryGroupsCliTest::incident)
                .filter(item -> List.of("sre", "mobile").contains(item.get("team").s()) && item.get("state").s().equals("closed"))
                .sorted(Comparator.comparing((Map<String, AttributeValue> item) -> Integer.parseInt(item.get("created").n()))
                        .thenComparing(item -> Integer.parseInt(item.get("num").n())).reversed())
                .map(item -> item.get("id").s()).toList();

        // when
        List<String> listed = new ArrayList<>();
        String cursor = null;
        int pages = 0;
        do {
            List<String> args = new ArrayList<>(List.of("query", "--definitions", definitions.toString(), "--index", "incidents-by-team",
                    "--group", "sre", "--group", "mobile", "--desc", "--where", "state = closed", "--page-size", "4", "--output", "json"));
            if (cursor != null) {
                args.addAll(List.of("--cursor", cursor));
            }
            assertThat(run(args.toArray(String[]::new))).as(err.toString(StandardCharsets.UTF_8)).isZero();
            JsonNode page = JSON.readTree(out.toString(StandardCharsets.UTF_8));
            assertThat(page.path("groups").toString()).isEqualTo("[[\"sre\"],[\"mobile\"]]");
            page.path("items").forEach(item -> listed.add(item.path("item").path("id").asText()));
            cursor = page.path("nextCursor").isNull() ? null : page.path("nextCursor").asText();
            pages++;
        } while (cursor != null && pages < 50);

        // then
        assertThat(expected).hasSizeGreaterThan(8);
        assertThat(listed).isEqualTo(expected);
    }

    @Test
    void query_moreGroupsThanTheMost_isBadUsage_namingGroup() {
        List<String> args = new ArrayList<>(List.of("query", "--definitions", definitions.toString(), "--index", "incidents-by-team"));
        for (int i = 0; i <= 50; i++) {
            args.addAll(List.of("--group", "team-" + i));
        }

        assertThat(run(args.toArray(String[]::new))).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).startsWith("error: --group: at most 50 groups");
    }

    @Test
    void query_aCursorOfOtherGroups_isRefusedWithExit2() throws Exception {
        assertThat(run("query", "--definitions", definitions.toString(), "--index", "incidents-by-team", "--group", "sre", "--group", "web",
                "--page-size", "2", "--output", "json")).as(err.toString(StandardCharsets.UTF_8)).isZero();
        String cursor = JSON.readTree(out.toString(StandardCharsets.UTF_8)).path("nextCursor").asText();

        assertThat(run("query", "--definitions", definitions.toString(), "--index", "incidents-by-team", "--group", "sre", "--group", "mobile",
                "--page-size", "2", "--cursor", cursor)).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("cursor");
    }
}

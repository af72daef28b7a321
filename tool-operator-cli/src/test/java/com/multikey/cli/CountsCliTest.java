package com.multikey.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.multikey.query.Total;
import com.multikey.testkit.LocalTables;
import com.multikey.testkit.LocalTablesExtension;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code query --total} and {@code facets} through the command line against the local engine: the counts of 60 seeded
 * issues, as a brute force over the seeds says; the line for people ("1–5 of 20", "of 12+"); bad input is exit 2.
 */
class CountsCliTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String PROJECT = "project#8";
    private static final List<String> STATUSES = List.of("open", "triage", "closed");

    @RegisterExtension
    static final LocalTablesExtension TABLES = LocalTablesExtension.createdOnce();

    private final LocalTables tables;
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    @TempDir
    Path cursorKeys;

    CountsCliTest(LocalTables tables) {
        this.tables = tables;
    }

    /** 60 issues: status cycles open, triage, closed; severity is num % 6, missing when num % 10 == 0. */
    @BeforeAll
    static void writeAndBackfillIssues(LocalTables tables) {
        tables.dynamoDb().putItem(b -> b.tableName("AppTable").item(Map.of("id", AttributeValue.fromS(PROJECT), "attributes",
                AttributeValue.fromM(Map.of("status", AttributeValue.fromS("Status"), "severity", AttributeValue.fromS("Severity"))))));
        for (int num = 1; num <= 60; num++) {
            Map<String, AttributeValue> fields = new java.util.HashMap<>(Map.of("status", AttributeValue.fromS(status(num))));
            if (severity(num) != null) {
                fields.put("severity", AttributeValue.fromN(Integer.toString(severity(num))));
            }
            Map<String, AttributeValue> item = Map.of("id", AttributeValue.fromS("issue#" + num), "project", AttributeValue.fromS(PROJECT),
                    "num", AttributeValue.fromN(Integer.toString(num)), "name", AttributeValue.fromS("Issue " + num),
                    "custom_fields", AttributeValue.fromM(fields));
            tables.dynamoDb().putItem(b -> b.tableName("AppTable").item(item));
        }
        ByteArrayOutputStream ignored = new ByteArrayOutputStream();
        assertThat(OperatorCli.run(new String[] {"backfill", "--endpoint", tables.local().endpoint().toString()},
                new PrintStream(ignored, true, StandardCharsets.UTF_8), new PrintStream(ignored, true, StandardCharsets.UTF_8)))
                .as(ignored.toString(StandardCharsets.UTF_8)).isZero();
    }

    private static String status(int num) {
        return STATUSES.get(num % 3);
    }

    private static Integer severity(int num) {
        return num % 10 == 0 ? null : num % 6;
    }

    private int query(String... args) {
        return run(Stream.concat(Stream.of("query"), Stream.concat(Stream.of(args), Stream.of("--cursor-keys",
                cursorKeys.resolve("cursor-keys.json").toString()))).toArray(String[]::new));
    }

    private int run(String... args) {
        out.reset();
        err.reset();
        String[] all = Stream.concat(Stream.of(args), Stream.of("--endpoint", tables.local().endpoint().toString())).toArray(String[]::new);
        return OperatorCli.run(all, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
                Map.of("AWS_REGION", "us-east-1", "AWS_ACCESS_KEY_ID", "local", "AWS_SECRET_ACCESS_KEY", "local"), false);
    }

    private JsonNode document() throws IOException {
        return JSON.readTree(out.toString(StandardCharsets.UTF_8));
    }

    @Test
    void queryTotal_json_saysHowManyTheRequestMatches() throws IOException {
        // when
        int exit = query("--project", PROJECT, "--attribute", "status", "--page-size", "5", "--total", "--output", "json");

        // then
        assertThat(exit).as(err.toString(StandardCharsets.UTF_8)).isZero();
        assertThat(document().get("total").get("value").asLong()).isEqualTo(60);
        assertThat(document().get("total").get("relation").asText()).isEqualTo("eq");
        assertThat(document().get("count").asInt()).isEqualTo(5);
    }

    @Test
    void queryTotal_forPeople_printsThePagesPlaceInTheTotal_andABoundWhenTheBudgetRanOut() {
        // given: 20 open issues; 10 of them with severity 3 or more
        long open = IntStream.rangeClosed(1, 60).filter(num -> status(num).equals("open")).count();

        // when
        int exit = query("--project", PROJECT, "--attribute", "severity", "--page-size", "5", "--total", "--where", "status = open");
        String exact = out.toString(StandardCharsets.UTF_8);
        int bounded = query("--project", PROJECT, "--attribute", "severity", "--page-size", "5", "--total", "--where", "status = open",
                "--budget", "6");
        String bound = out.toString(StandardCharsets.UTF_8);

        // then
        long withSeverity = IntStream.rangeClosed(1, 60).filter(num -> status(num).equals("open") && severity(num) != null).count();
        assertThat(exit).isZero();
        assertThat(exact).contains("1\u20135 of " + withSeverity + "\n");
        assertThat(bounded).isZero();
        assertThat(bound).containsPattern("1\u2013\\d+ of \\d+\\+\n");
        assertThat(withSeverity).isLessThanOrEqualTo(open);
    }

    @Test
    void facets_countEachValue_asTheSeedsSay_mostFrequentFirst() throws IOException {
        // given
        Map<String, Long> severities = new TreeMap<>();
        IntStream.rangeClosed(1, 60).filter(num -> severity(num) != null && status(num).equals("closed"))
                .forEach(num -> severities.merge(Integer.toString(severity(num)), 1L, Long::sum));

        // when
        int exit = run("facets", "--project", PROJECT, "--field", "status", "--field", "severity", "--where", "status = closed",
                "--output", "json");

        // then
        assertThat(exit).as(err.toString(StandardCharsets.UTF_8)).isZero();
        JsonNode status = document().get("facets").get(0);
        assertThat(status.get("values")).hasSize(1);
        assertThat(status.at("/values/0/value").asText()).isEqualTo("closed");
        assertThat(status.at("/values/0/count").asLong()).isEqualTo(20);
        assertThat(status.get("relation").asText()).isEqualTo("eq");
        Map<String, Long> got = new TreeMap<>();
        document().get("facets").get(1).get("values").forEach(v -> got.put(v.get("value").asText(), v.get("count").asLong()));
        assertThat(got).isEqualTo(severities);
        long previous = Long.MAX_VALUE;
        for (JsonNode value : document().get("facets").get(1).get("values")) {
            assertThat(value.get("count").asLong()).isLessThanOrEqualTo(previous);
            previous = value.get("count").asLong();
        }

        // and for people: the values and the other values' line
        assertThat(run("facets", "--project", PROJECT, "--field", "severity", "--top", "2")).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("severity (counted)").contains("4 other value(s)");
    }

    @Test
    void facets_badInput_isExit2_withOneLineNamingTheOption() {
        List<List<String>> cases = List.of(
                List.of("--project", PROJECT, "--field", "status", "--top", "0"),
                List.of("--project", PROJECT, "--field", "status", "--top", "101"),
                List.of("--project", PROJECT, "--field", "status", "--budget", "1"),
                List.of("--project", PROJECT, "--field", "status", "--where", "status is open"),
                List.of("--project", PROJECT),
                List.of("--field", "status"),
                List.of("--index", "nope", "--field", "status"));
        for (List<String> args : cases) {
            int exit = run(Stream.concat(Stream.of("facets"), args.stream()).toArray(String[]::new));
            assertThat(exit).as(args + ": " + err.toString(StandardCharsets.UTF_8)).isEqualTo(2);
        }
    }

    @Test
    void pageNumbers_spelledAsTheReadApiRefusesThem_areExit2_namingTheOption() {
        // given: whole numbers the read API refuses (ASCII digits alone: no sign, no other script's digits, no hexadecimal)
        List<String> spellings = List.of("+5", "0x10", "\u0665", " 5", "5 ");
        for (String text : spellings) {
            List<List<String>> cases = List.of(
                    List.of("facets", "--project", PROJECT, "--field", "status", "--top", text),
                    List.of("facets", "--project", PROJECT, "--field", "status", "--budget", text),
                    List.of("query", "--project", PROJECT, "--attribute", "status", "--page-size", text),
                    List.of("query", "--project", PROJECT, "--attribute", "status", "--budget", text));
            for (List<String> args : cases) {
                // when
                int exit = args.get(0).equals("query") ? query(args.subList(1, args.size()).toArray(String[]::new))
                        : run(args.toArray(String[]::new));
                String error = err.toString(StandardCharsets.UTF_8).strip();

                // then: one line naming the option, as the read API names its parameter
                String option = args.get(args.size() - 2);
                assertThat(exit).as(args + ": " + error).isEqualTo(2);
                assertThat(error).as(args.toString()).startsWith("error: " + option).doesNotContain("\n");
            }
        }
    }

    @Test
    void facets_whenTheNinthPredicateIsInTheSecondWhere_isExit2AtItsOffset_asQueryRefusesIt() {
        // given: five predicates, then four; the ninth of the request at character 27 of the second --where
        List<String> where = List.of("--where", "a = 1 or b = 2 or c = 3 or d = 4 or e = 5", "--where", "f = 6 or g = 7 or h = 8 or i = 9");
        String expected = "error: --where[1] 'f = 6 or g = 7 or h = 8 or i = 9': at character 27: is one predicate too many: at most 8 "
                + "in one request";

        // when
        int facets = run(Stream.concat(Stream.of("facets", "--project", PROJECT, "--field", "status"), where.stream()).toArray(String[]::new));
        String facetsError = err.toString(StandardCharsets.UTF_8).strip();
        int query = query(Stream.concat(Stream.of("--project", PROJECT, "--attribute", "status"), where.stream()).toArray(String[]::new));
        String queryError = err.toString(StandardCharsets.UTF_8).strip();

        // then
        assertThat(facets).as(facetsError).isEqualTo(2);
        assertThat(facetsError).isEqualTo(expected);
        assertThat(query).as(queryError).isEqualTo(2);
        assertThat(queryError).isEqualTo(expected);
    }

    @Test
    void countText_writesThousands_andABoundWithAPlus() {
        assertThat(CountText.of(1234, Total.Relation.EQ)).isEqualTo("1,234");
        assertThat(CountText.of(10_000, Total.Relation.GTE)).isEqualTo("10,000+");
        assertThat(CountText.range(25, true, new Total(1234, Total.Relation.EQ, Total.Source.KEPT, 1, 1))).isEqualTo("1\u201325 of 1,234");
        assertThat(CountText.range(25, false, new Total(10_000, Total.Relation.GTE, Total.Source.COUNTED, 1, 1))).isEqualTo("25 item(s) of 10,000+");
        assertThat(CountText.range(0, true, new Total(0, Total.Relation.EQ, Total.Source.COUNTED, 0, 0))).isEqualTo("0 of 0");
    }
}

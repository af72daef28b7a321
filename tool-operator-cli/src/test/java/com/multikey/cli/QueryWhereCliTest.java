package com.multikey.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
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
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code query --where ... --budget N --explain}: several predicates and a sort on another field, planned by the query
 * library, through the command line against the local engine; each predicate or budget it refuses is one error line
 * naming the option.
 */
class QueryWhereCliTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String PROJECT = "project#7";
    private static final List<String> STATUSES = List.of("open", "triage", "closed");

    @RegisterExtension
    static final LocalTablesExtension TABLES = LocalTablesExtension.createdOnce();

    private final LocalTables tables;
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    @TempDir
    Path cursorKeys;

    QueryWhereCliTest(LocalTables tables) {
        this.tables = tables;
    }

    /**
     * 60 issues of one project: status cycles open, triage, closed; severity is num % 6; rank is num × 7 % 61 (each
     * rank once, in another order than num). The project defines status, severity, rank and title.
     */
    @BeforeAll
    static void writeAndBackfillIssues(LocalTables tables) {
        tables.dynamoDb().putItem(b -> b.tableName("AppTable").item(Map.of("id", AttributeValue.fromS(PROJECT), "attributes",
                AttributeValue.fromM(Map.of("status", AttributeValue.fromS("Status"), "severity", AttributeValue.fromS("Severity"),
                        "rank", AttributeValue.fromS("Rank"), "title", AttributeValue.fromS("Title"))))));
        for (int num = 1; num <= 60; num++) {
            Map<String, AttributeValue> item = Map.of("id", AttributeValue.fromS("issue#" + num), "project", AttributeValue.fromS(PROJECT),
                    "num", AttributeValue.fromN(Integer.toString(num)), "name", AttributeValue.fromS((num % 4 == 0 ? "Fix " : "Add ") + num),
                    "custom_fields", AttributeValue.fromM(Map.of("status", AttributeValue.fromS(status(num)),
                            "severity", AttributeValue.fromN(Integer.toString(severity(num))),
                            "rank", AttributeValue.fromN(Integer.toString(rank(num))))));
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

    private static int severity(int num) {
        return num % 6;
    }

    private static int rank(int num) {
        return num * 7 % 61;
    }

    /** The issues with status open and severity 3 or more, by rank ascending, as a query must list them. */
    private static List<String> openAndSevere() {
        return IntStream.rangeClosed(1, 60).filter(num -> status(num).equals("open") && severity(num) >= 3).boxed()
                .sorted(Comparator.comparingInt(QueryWhereCliTest::rank)).map(num -> "issue#" + num).toList();
    }

    private int run(String... args) {
        return runAt(tables.local().endpoint().toString(), args);
    }

    private int runAt(String endpoint, String... args) {
        out.reset();
        err.reset();
        String[] all = Stream.concat(Stream.of(args), Stream.of("--endpoint", endpoint, "--cursor-keys",
                cursorKeys.resolve("cursor-keys.json").toString())).toArray(String[]::new);
        return OperatorCli.run(all, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
                Map.of("AWS_REGION", "us-east-1", "AWS_ACCESS_KEY_ID", "local", "AWS_SECRET_ACCESS_KEY", "local"), false);
    }

    private JsonNode document() throws IOException {
        return JSON.readTree(out.toString(StandardCharsets.UTF_8));
    }

    private String errorLine() {
        String printed = err.toString(StandardCharsets.UTF_8);
        assertThat(printed.lines()).as("one line, no stack trace: " + printed).hasSize(1);
        assertThat(printed).startsWith("error: ").doesNotContain("\tat ");
        return printed.strip();
    }

    private static String closedEndpoint() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return "http://127.0.0.1:" + socket.getLocalPort();
        }
    }

    /** Every page of a query in JSON, following each page's cursor (each page moves on by an index item at least: 200 pages end these queries); the pages' documents in order. */
    private List<JsonNode> pages(String... args) throws IOException {
        List<JsonNode> pages = new ArrayList<>();
        String cursor = null;
        do {
            String[] withCursor = cursor == null ? args : Stream.concat(Stream.of(args), Stream.of("--cursor", cursor)).toArray(String[]::new);
            assertThat(run(withCursor)).as(err.toString(StandardCharsets.UTF_8)).isZero();
            JsonNode page = document();
            pages.add(page);
            cursor = page.path("nextCursor").isNull() ? null : page.path("nextCursor").asText();
            assertThat(pages).as("pages that end: " + pages.get(pages.size() - 1)).hasSizeLessThan(200);
        } while (cursor != null);
        return pages;
    }

    private static List<String> ids(List<JsonNode> pages) {
        return listed(pages, "id");
    }

    /** A field of each listed item (not of the whole items they carry), over the pages in order. */
    private static List<String> listed(List<JsonNode> pages, String field) {
        List<String> values = new ArrayList<>();
        pages.forEach(page -> page.path("items").forEach(item -> values.add(item.path(field).asText())));
        return values;
    }

    @Test
    void query_twoWheresAndASortOnAThirdField_listsTheMatchingIssuesInOrder_overSeveralPages() throws IOException {
        // when
        List<JsonNode> pages = pages("query", "--project", PROJECT, "--attribute", "rank", "--where", "status = open", "--where",
                "severity >= 3", "--page-size", "3", "--output", "json");

        // then
        assertThat(openAndSevere()).hasSize(10);
        assertThat(ids(pages)).containsExactlyElementsOf(openAndSevere());
        assertThat(pages).hasSizeGreaterThanOrEqualTo(4).allSatisfy(page -> {
            assertThat(page.path("count").asInt()).isLessThanOrEqualTo(3);
            assertThat(page.path("budgetSpent").asBoolean()).isFalse();
            assertThat(page.path("examined").asInt()).isPositive();
            assertThat(page.has("explain")).as("no explain unless asked").isFalse();
            page.path("items").forEach(item -> {
                assertThat(item.path("item").path("custom_fields").path("status").asText()).isEqualTo("open");
                assertThat(item.path("item").path("custom_fields").path("severity").asInt()).isGreaterThanOrEqualTo(3);
            });
        });
        assertThat(pages.get(0).path("items").get(0).path("value").asInt()).isEqualTo(rank(Integer.parseInt(
                openAndSevere().get(0).substring("issue#".length()))));
    }

    @Test
    void query_aWhereWithOrAndNot_listsTheIssuesEitherPredicateMatches_inOrder_overSeveralPages() throws IOException {
        // given: severity 1 or status closed, and not triage (all closed ones, and open ones of severity 1), by rank
        List<String> expected = IntStream.rangeClosed(1, 60)
                .filter(num -> (severity(num) == 1 || status(num).equals("closed")) && !status(num).equals("triage")).boxed()
                .sorted(Comparator.comparingInt(QueryWhereCliTest::rank)).map(num -> "issue#" + num).toList();

        // when
        List<JsonNode> pages = pages("query", "--project", PROJECT, "--attribute", "rank", "--where", "severity = 1 or status = closed",
                "--where", "NOT (status = triage)", "--page-size", "4", "--output", "json");

        // then
        assertThat(expected).hasSizeGreaterThan(8);
        assertThat(ids(pages)).containsExactlyElementsOf(expected);
    }

    @Test
    void query_aWhereThatDoesNotParse_isOneErrorLineNamingTheOptionAndTheOffset_exit2() {
        assertThat(run("query", "--project", PROJECT, "--attribute", "rank", "--where", "status = open", "--where",
                "status = open or")).isEqualTo(2);

        assertThat(errorLine()).isEqualTo("error: --where[1] 'status = open or': at character 16: ends where a predicate, 'not' or '(' "
                + "was expected");
    }

    @Test
    void query_descendingWithAnInListAndAnAttributePredicate_ofTheDeclaredIndex_listsThemInOrder() throws IOException {
        // given: status open or triage, severity 3 or more, a name beginning with "Fix "; the grid read as a declared index
        List<String> expected = IntStream.rangeClosed(1, 60)
                .filter(num -> !status(num).equals("closed") && severity(num) >= 3 && num % 4 == 0).boxed()
                .sorted(Comparator.comparingInt(QueryWhereCliTest::rank).reversed()).map(num -> "issue#" + num).toList();

        // when
        List<JsonNode> pages = pages("query", "--index", "issue-grid", "--project", PROJECT, "--attribute", "rank", "--desc",
                "--where", "status in (open, triage)", "--where", "severity >= 3", "--where", "@name beginsWith \"Fix \"",
                "--page-size", "2", "--output", "json");

        // then
        assertThat(expected).hasSizeGreaterThan(2);
        List<JsonNode> items = new ArrayList<>();
        pages.forEach(page -> page.path("items").forEach(items::add));
        assertThat(items).allSatisfy(item -> assertThat(item.path("item").path("name").asText()).startsWith("Fix "));
        assertThat(items.stream().map(item -> item.path("item").path("id").asText()).toList()).containsExactlyElementsOf(expected);
        assertThat(pages).allSatisfy(page -> assertThat(page.path("index").asText()).isEqualTo("issue-grid"));
    }

    @Test
    void query_onAGroupedStack_namesTheIndexThePageWasReadFrom_whicheverNameOfTheGridWasGiven() throws IOException {
        // given: a stack backfilled from an empty index table, so grouped

        // when
        assertThat(run("query", "--index", "custom_fields", "--project", PROJECT, "--attribute", "rank", "--output", "json"))
                .as(err.toString(StandardCharsets.UTF_8)).isZero();
        JsonNode byOldName = document();
        assertThat(run("query", "--project", PROJECT, "--attribute", "rank", "--output", "json")).as(err.toString(StandardCharsets.UTF_8)).isZero();
        JsonNode grid = document();

        // then
        assertThat(byOldName.path("items")).isNotEmpty();
        assertThat(byOldName.path("index").asText()).isEqualTo("issue-grid");
        assertThat(grid.path("index").asText()).isEqualTo("issue-grid");
    }

    @Test
    void query_ofAnUndeclaredIndex_listsEveryDeclaredIndex() {
        assertThat(run("query", "--index", "nope", "--project", PROJECT, "--attribute", "rank")).isEqualTo(2);

        assertThat(errorLine()).isEqualTo("error: --index: no index named 'nope' is declared; declared: [issue-grid, custom_fields]");
    }

    @Test
    void query_aSmallBudget_givesShortPagesThatSayTheBudgetWasSpent_andTheSameIssuesInOrder() throws IOException {
        // when
        List<JsonNode> pages = pages("query", "--project", PROJECT, "--attribute", "rank", "--where", "status = open", "--where",
                "severity >= 3", "--page-size", "3", "--budget", "12", "--output", "json");

        // then
        assertThat(ids(pages)).containsExactlyElementsOf(openAndSevere());
        assertThat(pages).anySatisfy(page -> {
            assertThat(page.path("budgetSpent").asBoolean()).isTrue();
            assertThat(page.path("count").asInt()).isLessThan(3);
            assertThat(page.path("nextCursor").isTextual()).isTrue();
        });
    }

    /**
     * A budget no larger than the page's first read of the sorted index (its Limit is at least 10): the read spends the
     * budget before any issue is read, and the page's cursor resumes where the page began, so following the cursors never
     * ends. Fails until the query library's page makes progress on such a budget (or refuses it).
     */
    @Test
    void query_aBudgetTheFirstIndexReadSpends_stillMakesProgressFromPageToPage() throws IOException {
        List<JsonNode> pages = pages("query", "--project", PROJECT, "--attribute", "rank", "--where", "status = open", "--where",
                "severity >= 3", "--page-size", "3", "--budget", "4", "--output", "json");

        assertThat(ids(pages)).containsExactlyElementsOf(openAndSevere());
    }

    @Test
    void queryJson_withExplain_carriesThePlanItsReasonTheAlternativesAndWhatWasRead() throws IOException {
        // when
        int status = run("query", "--project", PROJECT, "--attribute", "rank", "--where", "status = open", "--where", "severity >= 3",
                "--page-size", "3", "--explain", "--output", "json");

        // then
        assertThat(status).as(err.toString(StandardCharsets.UTF_8)).isZero();
        assertThat(err.toString(StandardCharsets.UTF_8)).as("the explanation is in the document").isEmpty();
        JsonNode page = document();
        assertThat(page.fieldNames()).toIterable().contains("count", "apiCalls", "nextCursor", "examined", "budgetSpent", "items",
                "explain", "project", "attribute");
        JsonNode explain = page.path("explain");
        assertThat(explain.path("plan").asText()).matches("sort-index\\(rank\\)|drive\\(where\\[[01]\\]: .*\\)");
        assertThat(explain.path("reason").asText()).isNotBlank();
        assertThat(explain.path("alternatives")).isNotEmpty().allSatisfy(alternative -> {
            assertThat(alternative.path("plan").asText()).isNotBlank();
            assertThat(alternative.path("estimatedItems").isNumber() || alternative.path("estimatedItems").isNull()).isTrue();
            assertThat(alternative.path("basis").isTextual()).isTrue();
        });
        assertThat(explain.path("alternatives").findValuesAsText("plan")).contains(explain.path("plan").asText());
        JsonNode read = explain.path("read");
        assertThat(read.path("queries").asInt()).isPositive();
        assertThat(read.path("examined").asInt()).isEqualTo(read.path("indexItems").asInt() + read.path("tableItems").asInt())
                .isEqualTo(page.path("examined").asInt());
        assertThat(explain.has("suggestion")).isTrue();
        assertThat(explain.path("suggestion").isNull() || explain.path("suggestion").asText().startsWith("- name: ")).isTrue();
    }

    @Test
    void query_withExplain_printsThePlanOnStandardError_andThePageOnStandardOutput() {
        // when: page size 1 reads many index items for one listed issue: an index of its own would answer it
        int status = run("query", "--project", PROJECT, "--attribute", "rank", "--where", "status = open", "--where", "severity >= 3",
                "--page-size", "1", "--budget", "200", "--explain");

        // then
        assertThat(status).as(err.toString(StandardCharsets.UTF_8)).isZero();
        String printed = out.toString(StandardCharsets.UTF_8);
        assertThat(printed).contains(openAndSevere().get(0) + " ").doesNotContain("plan: ");
        assertThat(printed.lines().filter(line -> line.startsWith("1 item(s), ")).findFirst().orElseThrow()).matches(
                "1 item\\(s\\), \\d+ API call\\(s\\), \\d+ item\\(s\\) read");
        List<String> explained = err.toString(StandardCharsets.UTF_8).lines().toList();
        assertThat(explained.get(0)).matches("plan: (sort-index\\(rank\\)|drive\\(where\\[[01]\\]: .*\\))");
        assertThat(explained.get(1)).startsWith("  why: ").hasSizeGreaterThan("  why: ".length());
        assertThat(explained.get(2)).isEqualTo("  weighed (estimated items read for this page):");
        assertThat(explained).anySatisfy(line -> assertThat(line).matches("    sort-index\\(rank\\) +(\\d+|\\?) items  .+"));
        assertThat(explained).anySatisfy(line -> assertThat(line).matches(
                "  read: \\d+ Query, \\d+ BatchGetItem; \\d+ index items, \\d+ items of the table \\(\\d+ examined\\)"));
        int suggestion = explained.indexOf(
                "  suggested index (add it under indexes: in the definitions file, deploy, then backfill --index it):");
        assertThat(suggestion).as(String.join("\n", explained)).isPositive();
        assertThat(explained.get(suggestion + 1)).startsWith("    - name: issue-grid-by-status-rank");
        assertThat(explained.subList(suggestion + 1, explained.size())).anySatisfy(line -> assertThat(line).contains("group: [project, "));
    }

    @Test
    void query_aWhereThatDoesNotParse_isBadUsage_namingWhichWhere_beforeAnyEndpointIsContacted() throws IOException {
        int status = runAt(closedEndpoint(), "query", "--project", PROJECT, "--attribute", "rank", "--where", "status = open", "--where",
                "severity open");

        assertThat(status).isEqualTo(2);
        assertThat(errorLine()).startsWith("error: --where[1] 'severity open': is not a predicate: write a field, an operator")
                .doesNotContain("cannot connect");
    }

    @Test
    void query_moreThanEightWheres_isBadUsage_namingTheNinth_beforeAnyEndpointIsContacted() throws IOException {
        String[] args = Stream.concat(Stream.of("query", "--project", PROJECT, "--attribute", "rank"),
                IntStream.range(0, 9).boxed().flatMap(i -> Stream.of("--where", "severity >= " + i))).toArray(String[]::new);

        int status = runAt(closedEndpoint(), args);

        assertThat(status).isEqualTo(2);
        assertThat(errorLine()).isEqualTo("error: --where[8] 'severity >= 8': too many predicates: at most 8 in one request, got 9");
    }

    @Test
    void query_twoWheresThatMakeAnInvertedRange_isBadUsage_namingBoth_beforeAnyEndpointIsContacted() throws IOException {
        int status = runAt(closedEndpoint(), "query", "--index", "issue-grid", "--project", PROJECT, "--attribute", "rank",
                "--where", "severity >= 5", "--where", "status = open", "--where", "severity < 3");

        assertThat(status).isEqualTo(2);
        assertThat(errorLine()).isEqualTo("error: --where[2] 'severity < 3': with --where[0] 'severity >= 5' on severity is an inverted "
                + "range: no value is within both");
    }

    @Test
    void query_aBudgetNotAPositiveNumberOfItemsUpToTheMost_isBadUsage_namingBudget_beforeAnyEndpointIsContacted() throws IOException {
        String endpoint = closedEndpoint();

        assertThat(runAt(endpoint, "query", "--project", PROJECT, "--attribute", "rank", "--where", "status = open", "--budget", "0"))
                .isEqualTo(2);
        assertThat(errorLine()).isEqualTo("error: --budget: at least 2 items a page (an index item and its item), got 0");
        assertThat(runAt(endpoint, "query", "--project", PROJECT, "--attribute", "rank", "--budget", "1")).isEqualTo(2);
        assertThat(errorLine()).isEqualTo("error: --budget: at least 2 items a page (an index item and its item), got 1");

        assertThat(runAt(endpoint, "query", "--project", PROJECT, "--attribute", "rank", "--budget", "20001")).isEqualTo(2);
        assertThat(errorLine()).isEqualTo("error: --budget: at most 20000 items a page, got 20001");

        assertThat(runAt(endpoint, "query", "--project", PROJECT, "--attribute", "rank", "--budget", "many")).isEqualTo(2);
        // the read API's parser refuses it, not picocli's (which took +5 and 0x10 too)
        assertThat(errorLine()).isEqualTo("error: --budget: must be a whole number of items, from 2 (an index item and its item) to "
                + "the deployment's maximum");
    }

    @Test
    void query_aWhereOnAFieldTheProjectDoesNotDefine_isBadUsage_namingWhichWhere() {
        int status = run("query", "--project", PROJECT, "--attribute", "rank", "--where", "status = open", "--where", "stauts = open");

        assertThat(status).isEqualTo(2);
        assertThat(errorLine()).isEqualTo("error: --where[1] 'stauts = open': names field 'stauts', which project project#7 does not define");
    }

    @Test
    void query_withoutWhere_keepsItsOptionsMeaning_andCountsWhatItRead() throws IOException {
        assertThat(run("query", "--project", PROJECT, "--attribute", "rank", "--ge", "58", "--output", "json"))
                .as(err.toString(StandardCharsets.UTF_8)).isZero();

        JsonNode page = document();
        assertThat(listed(List.of(page), "value")).containsExactly("58", "59", "60");
        assertThat(page.path("budgetSpent").asBoolean()).isFalse();
        assertThat(page.path("examined").asInt()).as("index items and issues read").isGreaterThanOrEqualTo(6);
    }

}

package com.multikey.local;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.multikey.emulator.TemplateRuntime;
import com.multikey.emulator.auth.LocalJwtIssuer;
import com.multikey.emulator.services.dynamodb.LocalDynamoDb;
import com.multikey.emulator.services.http.LocalHttpApi;
import com.multikey.emulator.template.SamTemplate;
import com.multikey.testkit.SingleTableFixtures;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The grid page in a real browser: headless Chromium (Debian's {@code chromium} and {@code chromium-driver}) loads it
 * from the local read API, and every click goes through the page's own JavaScript, its SigV4 signing (IAM) or its
 * bearer token (JWT) included, to the API's checks and the query function: the issue grid of the default stack, and
 * every kind of declared index on the single-table example. Skipped where Chromium is not installed.
 *
 * <p>{@code -Dgrid.screenshot=docs/images/grid-page.png} (a path from the repository's root) writes the README's
 * screenshot; otherwise it goes to {@code target/grid-page.png}.
 */
class GridPageIT {

    /** Debian's paths, given to Selenium so that it never looks for (or downloads) a browser or driver itself. */
    static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    /** How long a condition on the page may take to come true before the test fails, showing what the page shows. */
    static final Duration PATIENCE = Duration.ofSeconds(30);
    static final Dimension WINDOW = new Dimension(1200, 900);

    static ChromeDriver browser;
    /**
     * A folder of this test's own for what the browser writes to a temporary directory (its profile, its singleton socket's
     * folder, crash dumps, shared memory files), deleted whole when the test ends: the machine's shared temporary directory,
     * where other runs keep theirs, is left alone. It is made directly under {@link #SHORT_TEMP}, not under
     * {@code java.io.tmpdir}: the singleton socket's path ({@code TMPDIR/org.chromium.Chromium.XXXXXX/SingletonSocket}) must
     * fit the 108 bytes of a UNIX socket's path, which a long temporary directory (a CI run's own) leaves no room for.
     */
    static Path chromiumTemp;
    static final Path SHORT_TEMP = Path.of("/tmp");

    static boolean chromiumInstalled() {
        return Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER);
    }

    @BeforeAll
    static void startBrowser() throws IOException {
        if (!chromiumInstalled()) {
            return;
        }
        chromiumTemp = Files.createTempDirectory(SHORT_TEMP, "gp-");
        // the driver's environment as this process's, with TMPDIR this test's folder: the browser it starts inherits it (an
        // environment of TMPDIR alone would keep Chromium's launcher script from starting it)
        Map<String, String> environment = new java.util.HashMap<>(System.getenv());
        environment.put("TMPDIR", chromiumTemp.toString());
        ChromeDriverService driver = new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile()).usingAnyFreePort()
                .withEnvironment(environment).build();
        // --no-sandbox: Chromium refuses to start as root (CI containers) with its sandbox; it opens only this test's page
        ChromeOptions options = new ChromeOptions().setBinary(CHROMIUM.toFile()).addArguments("--headless=new", "--no-sandbox",
                "--disable-dev-shm-usage", "--hide-scrollbars", "--force-device-scale-factor=1",
                "--user-data-dir=" + chromiumTemp.resolve("profile"), "--crash-dumps-dir=" + chromiumTemp.resolve("crash-dumps"));
        browser = new ChromeDriver(driver, options);
        browser.manage().window().setSize(WINDOW);
    }

    /** Where Chromium is absent each test is skipped, saying so; the stacks are not even started. */
    @BeforeEach
    void needsChromium() {
        assumeTrue(chromiumInstalled(), "the grid page's browser test needs " + CHROMIUM + " and " + CHROMEDRIVER
                + ": apt-get install -y chromium chromium-driver");
    }

    @AfterAll
    static void stopBrowser() throws IOException {
        try {
            if (browser != null) {
                browser.quit();
            }
        } finally {
            // also when the browser failed to start or to quit (JUnit runs @AfterAll after a failed @BeforeAll)
            if (chromiumTemp != null) {
                try (var files = Files.walk(chromiumTemp)) {
                    files.sorted(Comparator.reverseOrder()).forEach(file -> file.toFile().delete());
                }
            }
        }
    }

    /** Opens the page and waits until its first page of the grid and the events are shown. */
    static void open(LocalHttpApi api, String query, String fragment) {
        browser.get("about:blank");
        browser.get(api.endpoint() + "/" + query + fragment);
        waitFor("the page to start", () -> "true".equals(browser.findElement(By.tagName("body")).getDomAttribute("data-ready")),
                GridPageIT::problem);
    }

    static String param(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }

    /** Does what {@code action} does on the page and waits until the grid has shown the answer to it. */
    static void andWaitForTheGrid(Runnable action) {
        int before = loads();
        action.run();
        waitFor("the grid to load", () -> loads() > before, GridPageIT::problem);
    }

    static int loads() {
        String loads = browser.findElement(By.tagName("body")).getDomAttribute("data-loads");
        return loads == null ? 0 : Integer.parseInt(loads);
    }

    static void waitFor(String what, Supplier<Boolean> condition, Supplier<String> shown) {
        try {
            new WebDriverWait(browser, PATIENCE).ignoring(StaleElementReferenceException.class).until(driver -> condition.get());
        } catch (org.openqa.selenium.TimeoutException e) {
            throw new AssertionError("waited " + PATIENCE + " for " + what + "; the page shows: " + shown.get(), e);
        }
    }

    /**
     * What {@code read} reads from the page, read again when the page redrew an element while it was being read (the
     * events panel and the grid redraw as events arrive).
     */
    static <T> T readStable(Supplier<T> read) {
        for (int attempt = 1;; attempt++) {
            try {
                return read.get();
            } catch (StaleElementReferenceException redrawn) {
                if (attempt == 10) {
                    throw redrawn;
                }
            }
        }
    }

    /** The rows of the grid: the issue's id, with " (missing)" where the row is marked as lacking the sorted field. */
    static List<String> rows() {
        return readStable(GridPageIT::rowsAsShown);
    }

    private static List<String> rowsAsShown() {
        return browser.findElements(By.cssSelector("#grid tbody tr")).stream().map(row -> {
            String id = row.findElement(By.cssSelector("td")).getText();
            boolean marked = row.getDomAttribute("class") != null && row.getDomAttribute("class").contains("missing");
            boolean badge = row.findElements(By.cssSelector("td.sorted .badge")).stream().anyMatch(b -> b.getText().equals("missing"));
            return marked || badge ? id + " (missing" + (marked && badge ? ")" : ", marked only " + (marked ? "by class" : "by badge") + ")")
                    : id;
        }).toList();
    }

    /** The column headers, the sorted one with its arrow. */
    static List<String> headers() {
        return browser.findElements(By.cssSelector("#grid thead th")).stream().map(WebElement::getText).toList();
    }

    static WebElement header(String field) {
        return browser.findElement(By.cssSelector("#grid thead th[data-field='" + field + "']"));
    }

    static String problem() {
        WebElement problem = browser.findElement(By.id("problem"));
        return problem.isDisplayed() ? "problem: " + problem.getText() : "rows " + rows() + ", status: " + browser.findElement(By.id("status")).getText();
    }

    static void type(String id, String text) {
        WebElement input = browser.findElement(By.id(id));
        input.clear();
        input.sendKeys(text);
    }

    /** The rows of the page's items, without the line an empty page shows instead. */
    static List<String> itemRows() {
        return browser.findElements(By.cssSelector("#grid tbody tr td.key")).isEmpty() ? List.of() : rows();
    }

    /** What the sorted column shows, row by row ("missing" for the items of the missing tail). */
    static List<String> sortedValues() {
        return browser.findElements(By.cssSelector("#grid tbody td.sorted")).stream().map(WebElement::getText).toList();
    }

    /** The rows of each page, from the one shown to the last, clicking Next while it is enabled. */
    static List<List<String>> pagesToTheEnd() {
        List<List<String>> pages = new java.util.ArrayList<>();
        pages.add(itemRows());
        while (browser.findElement(By.id("next")).isEnabled()) {
            andWaitForTheGrid(() -> browser.findElement(By.id("next")).click());
            assertThat(browser.findElement(By.id("problem")).isDisplayed()).as(problem()).isFalse();
            pages.add(itemRows());
        }
        return pages;
    }

    static void select(String id, String value) {
        new Select(browser.findElement(By.id(id))).selectByValue(value);
    }

    static void clickLoad() {
        browser.findElement(By.cssSelector("#query button[type=submit]")).click();
    }

    static void writeScreenshot() throws IOException {
        String asked = System.getProperty("grid.screenshot", "");
        Path file = asked.isBlank() ? Path.of("target", "grid-page.png") : SamTemplate.findUp("template.yaml").getParent().resolve(asked);
        Files.createDirectories(file.toAbsolutePath().getParent());
        // the whole page, no more: the window grows or shrinks to the document's height
        long frame = (Long) browser.executeScript("return window.outerHeight - window.innerHeight");
        long height = (Long) browser.executeScript("return document.documentElement.scrollHeight");
        browser.manage().window().setSize(new Dimension(WINDOW.width, Math.toIntExact(height + frame)));
        Files.write(file, browser.getScreenshotAs(OutputType.BYTES));
        browser.manage().window().setSize(WINDOW);
    }

    /** Project#9's issues, for conditions on several columns: num, f1 a status, f2 a number, f3 a text to sort by. */
    private static final List<List<String>> PROJECT_9 = List.of(List.of("31", "open", "5", "c"), List.of("32", "open", "2", "a"),
            List.of("33", "closed", "4", "b"), List.of("34", "open", "7", "d"), List.of("35", "open", "3", "e"),
            List.of("36", "triage", "6", "f"));

    @Nested
    @TestInstance(TestInstance.Lifecycle.PER_CLASS)
    class Iam {
        private TemplateRuntime runtime;
        private LocalHttpApi api;

        @BeforeAll
        void start() throws InterruptedException {
            if (!chromiumInstalled()) {
                return;
            }
            runtime = new TemplateRuntime(SamTemplate.ofRepository().withParameterOverrides(LocalReadApi.parameters("IAM")),
                    new TemplateRuntime.Ports("127.0.0.1", 0, 0, 0), line -> { });
            runtime.startPolling();
            api = LocalReadApi.serve(runtime, "IAM", "127.0.0.1", 0, Optional.empty());
            LocalReadApiIT.writeIssues(runtime);
            // project#9, for conditions on several columns: f1 a status, f2 a number, f3 a text to sort by
            for (List<String> issue : PROJECT_9) {
                runtime.dynamoDb().putItem(b -> b.tableName(runtime.table("AppTable")).item(Map.of("id", AttributeValue.fromS("issue#"
                        + issue.get(0)), "project", AttributeValue.fromS("project#9"), "num", AttributeValue.fromN(issue.get(0)),
                        "custom_fields", AttributeValue.fromM(Map.of("f1", AttributeValue.fromS(issue.get(1)), "f2",
                                AttributeValue.fromN(issue.get(2)), "f3", AttributeValue.fromS(issue.get(3)))))));
            }
            assertThat(runtime.awaitQuiet(Duration.ofSeconds(60))).isTrue();
        }

        @AfterAll
        void stop() {
            if (runtime != null) {
                runtime.close();
            }
        }

        private void openProject1(String more) {
            open(api, "?project=" + param("project#1") + "&field=f1" + more, "");
        }

        @Test
        void clickingAColumn_sortsByIt_andClickingItAgain_reverses_withTheMissingTailMarked() {
            // given
            openProject1("");
            assertThat(rows()).as(problem()).containsExactly("issue#2", "issue#4", "issue#1", "issue#3 (missing)");
            assertThat(header("f1").getText()).isEqualTo("f1 ▲");
            assertThat(header("f1").getDomAttribute("class")).contains("sorted");
            assertThat(headers()).containsExactly("issue", "f1 ▲", "f2");
            assertThat(browser.findElement(By.id("tokenBox")).isDisplayed()).as("the token box, in IAM mode").isFalse();
            // a new stack's grid is grouped: the picker names the index the grid is read from
            assertThat(browser.findElement(By.id("index")).getDomProperty("value")).as("the issue grid, the default").isEqualTo("issue-grid");
            assertThat(browser.findElement(By.id("route")).getText()).isEqualTo("GET /v1/grid");

            // when
            andWaitForTheGrid(() -> header("f1").click());
            // then
            assertThat(rows()).as(problem()).containsExactly("issue#1", "issue#4", "issue#2", "issue#3 (missing)");
            assertThat(header("f1").getText()).isEqualTo("f1 ▼");

            // when
            andWaitForTheGrid(() -> header("f2").click());
            // then
            assertThat(rows()).as(problem()).containsExactly("issue#2", "issue#1", "issue#3", "issue#4 (missing)");
            assertThat(headers()).containsExactly("issue", "f2 ▲", "f1");
            assertThat(browser.findElement(By.id("entry")).getDomProperty("value")).isEqualTo("f2");
            assertThat(browser.findElement(By.id("status")).getText()).isEqualTo("4 issue(s) on this page, 1 of them without f2");
        }

        @Test
        void numberAndTextFilters_keepTheMatchingRows_withoutTheMissingTail() {
            // given
            openProject1("");

            // when
            type("numberMin", "15");
            andWaitForTheGrid(() -> browser.findElement(By.id("applyNumber")).click());
            // then
            assertThat(rows()).as(problem()).containsExactly("issue#4", "issue#1");
            assertThat(browser.findElement(By.id("activeFilter")).getText()).isEqualTo("filter: number 15 to …");

            // when: sorting by f2 keeps the filter, so a text filter comes next
            type("textValue", "b");
            new Select(browser.findElement(By.id("textOp"))).selectByValue("beginsWith");
            type("entry", "f2");
            andWaitForTheGrid(() -> browser.findElement(By.id("applyText")).click());
            // then
            assertThat(rows()).as(problem()).containsExactly("issue#1");
            assertThat(browser.findElement(By.id("activeFilter")).getText()).isEqualTo("filter: text begins with \"b\"");

            // when
            andWaitForTheGrid(() -> browser.findElement(By.id("clearFilter")).click());
            // then
            assertThat(rows()).as(problem()).containsExactly("issue#2", "issue#1", "issue#3", "issue#4 (missing)");
        }

        @Test
        void nextAndPrevious_walkThePages_intoTheMissingTail_andBack() {
            // given
            openProject1("&pageSize=2");
            assertThat(rows()).as(problem()).containsExactly("issue#2", "issue#4");
            assertThat(browser.findElement(By.id("previous")).isEnabled()).isFalse();

            // when
            andWaitForTheGrid(() -> browser.findElement(By.id("next")).click());
            // then
            assertThat(rows()).as(problem()).containsExactly("issue#1", "issue#3 (missing)");
            assertThat(browser.findElement(By.id("pageNumber")).getText()).isEqualTo("page 2");
            assertThat(browser.findElement(By.id("next")).isEnabled()).isFalse();

            // when
            andWaitForTheGrid(() -> browser.findElement(By.id("previous")).click());
            // then
            assertThat(rows()).as(problem()).containsExactly("issue#2", "issue#4");
            assertThat(browser.findElement(By.id("pageNumber")).getText()).isEqualTo("page 1");
            assertThat(browser.findElement(By.id("previous")).isEnabled()).isFalse();
            assertThat(browser.findElement(By.id("next")).isEnabled()).isTrue();
        }

        /** Fills the Where box's row {@code n} (from 1), adding rows as needed. */
        private void condition(int n, String field, String op, String value) {
            while (browser.findElements(By.cssSelector("#whereRows .where-row")).size() < n) {
                browser.findElement(By.id("addWhere")).click();
            }
            WebElement row = browser.findElements(By.cssSelector("#whereRows .where-row")).get(n - 1);
            row.findElement(By.cssSelector(".where-field")).clear();
            row.findElement(By.cssSelector(".where-field")).sendKeys(field);
            new Select(row.findElement(By.cssSelector(".where-op"))).selectByValue(op);
            row.findElement(By.cssSelector(".where-value")).clear();
            row.findElement(By.cssSelector(".where-value")).sendKeys(value);
        }

        @Test
        void conditionsOnTwoColumns_sortedByAThird_showTheMatchingRowsInOrder_andThePlanUnderTheGrid() {
            // given: project#9 sorted by f3, highest first
            open(api, "?project=" + param("project#9") + "&field=f3&order=desc", "");
            assertThat(rows()).as(problem()).containsExactly("issue#36", "issue#35", "issue#34", "issue#31", "issue#33", "issue#32");

            // when: f1 = open and f2 >= 3
            condition(1, "f1", "=", "open");
            condition(2, "f2", ">=", "3");
            andWaitForTheGrid(() -> browser.findElement(By.id("applyWhere")).click());

            // then
            assertThat(rows()).as(problem()).containsExactly("issue#35", "issue#34", "issue#31");
            assertThat(headers().get(1)).isEqualTo("f3 ▼");
            assertThat(browser.findElement(By.id("activeWhere")).getText()).isEqualTo("f1 = open and f2 >= 3");
            assertThat(browser.findElement(By.id("planSection")).isDisplayed()).isTrue();
            assertThat(browser.findElement(By.id("plan")).getText())
                    .matches("plan: (sort-index\\(f3\\)|drive\\(where\\[[01]]: .*\\)) — [1-9][0-9]* items read \\([0-9]+ index, [0-9]+ table\\), "
                            + "[1-9][0-9]* calls \\([0-9]+ Query, [0-9]+ BatchGetItem\\)");

            // when: the sorted column reversed keeps the conditions; a condition removed widens the page again
            andWaitForTheGrid(() -> header("f3").click());
            assertThat(rows()).as(problem()).containsExactly("issue#31", "issue#34", "issue#35");
            browser.findElements(By.cssSelector("#whereRows .where-remove")).get(0).click();
            andWaitForTheGrid(() -> browser.findElement(By.id("applyWhere")).click());

            // then
            assertThat(rows()).as(problem()).containsExactly("issue#33", "issue#31", "issue#34", "issue#35", "issue#36");
            assertThat(browser.findElement(By.id("activeWhere")).getText()).isEqualTo("f2 >= 3");
        }

        /** The values of f1 shown beside the filters, with their counts, once the page has loaded them. */
        private List<String> facetButtons(int loadsBefore) {
            waitFor("the values' counts", () -> facetLoads() > loadsBefore, GridPageIT::problem);
            return readStable(() -> browser.findElements(By.cssSelector("#facetValues button.facet")).stream().map(WebElement::getText).toList());
        }

        private int facetLoads() {
            String loads = browser.findElement(By.tagName("body")).getDomAttribute("data-facet-loads");
            return loads == null ? 0 : Integer.parseInt(loads);
        }

        /** The brute force: each f1 value of project#9's issues whose f2 is at least {@code minF2}, with its count, as the page shows them. */
        private List<String> f1Counts(int minF2) {
            java.util.Map<String, Long> counts = new java.util.TreeMap<>();
            PROJECT_9.stream().filter(issue -> Integer.parseInt(issue.get(2)) >= minF2).forEach(issue -> counts.merge(issue.get(1), 1L, Long::sum));
            return counts.entrySet().stream().sorted(java.util.Map.Entry.<String, Long>comparingByValue().reversed()
                    .thenComparing(java.util.Map.Entry.comparingByKey())).map(e -> e.getKey() + " " + e.getValue()).toList();
        }

        @Test
        void theTotalAboveTheGrid_andTheCountsBesideTheFilters_areThoseOfTheSeededTable_andAValueAppliesItsFilter() {
            // given: project#9 sorted by f1, three a page
            open(api, "?project=" + param("project#9") + "&field=f1&pageSize=3", "");
            assertThat(rows()).as(problem()).hasSize(3);

            // then: "1–3 of 6", and each f1 value with its count, most frequent first
            assertThat(browser.findElement(By.id("range")).getText()).isEqualTo("1–3 of " + PROJECT_9.size());
            assertThat(facetButtons(0)).isEqualTo(f1Counts(Integer.MIN_VALUE));

            // when: the next page
            andWaitForTheGrid(() -> browser.findElement(By.id("next")).click());
            // then
            assertThat(browser.findElement(By.id("range")).getText()).isEqualTo("4–6 of " + PROJECT_9.size());

            // when: a condition f2 >= 4
            int before = facetLoads();
            condition(1, "f2", ">=", "4");
            andWaitForTheGrid(() -> browser.findElement(By.id("applyWhere")).click());
            // then: the counts of the matching issues
            long matching = PROJECT_9.stream().filter(issue -> Integer.parseInt(issue.get(2)) >= 4).count();
            assertThat(browser.findElement(By.id("range")).getText()).isEqualTo("1–3 of " + matching);
            assertThat(facetButtons(before)).isEqualTo(f1Counts(4));

            // when: a value's count is clicked, it is the filter
            before = facetLoads();
            andWaitForTheGrid(() -> browser.findElements(By.cssSelector("#facetValues button.facet")).stream()
                    .filter(b -> b.getText().startsWith("closed ")).findFirst().orElseThrow().click());
            // then
            assertThat(rows()).as(problem()).containsExactly("issue#33");
            assertThat(browser.findElement(By.id("range")).getText()).isEqualTo("1–1 of 1");
            assertThat(browser.findElement(By.id("activeFilter")).getText()).isEqualTo("filter: f1 = closed");
            // the values beside the filter stay those of the conditions: another value is one click away
            assertThat(facetButtons(before)).isEqualTo(f1Counts(4));
        }

        @Test
        void aConditionThatCannotBeRead_showsTheProblem_namingWhere() {
            // given
            open(api, "?project=" + param("project#9") + "&field=f3", "");

            // when
            condition(1, "f2", ">=", "N:x");
            andWaitForTheGrid(() -> browser.findElement(By.id("applyWhere")).click());

            // then
            WebElement problem = browser.findElement(By.id("problem"));
            assertThat(problem.isDisplayed()).isTrue();
            assertThat(problem.getText()).startsWith("400 ").contains("predicate 0").contains("(parameter where)");
            assertThat(browser.findElement(By.id("planSection")).isDisplayed()).isFalse();
        }

        @Test
        void aBadFilter_showsTheProblem_namingTheParameter() {
            // given
            openProject1("");

            // when
            type("numberMin", "fifteen");
            andWaitForTheGrid(() -> browser.findElement(By.id("applyNumber")).click());

            // then
            WebElement problem = browser.findElement(By.id("problem"));
            assertThat(problem.isDisplayed()).isTrue();
            assertThat(problem.getText()).startsWith("400 ").contains("(parameter ge)");
            assertThat(rows()).isEmpty();
        }

        @Test
        void aChangeWrittenToTheTable_showsItsEventInThePanel() throws Exception {
            // given: the grid sorted by f1, highest first, its missing tail at the end
            openProject1("");
            andWaitForTheGrid(() -> header("f1").click());

            // when: a change that moves no row, so that the other tests' grids stay as they are
            runtime.dynamoDb().updateItem(b -> b.tableName(runtime.table("AppTable")).key(Map.of("id", AttributeValue.fromS("issue#2")))
                    .updateExpression("SET #state = :state").expressionAttributeNames(Map.of("#state", "state"))
                    .expressionAttributeValues(Map.of(":state", AttributeValue.fromS("done"))));
            assertThat(runtime.awaitQuiet(Duration.ofSeconds(60))).isTrue();

            // then
            By latest = By.cssSelector("#events li:first-child");
            waitFor("the event in the panel", () -> browser.findElement(latest).getText().contains("Issue Updated"),
                    () -> browser.findElement(By.id("events")).getText());
            assertThat(readStable(() -> browser.findElement(latest).getText())).contains("Issue Updated issue#2 — changed: state");
            assertThat(readStable(() -> browser.findElement(By.id("events")).getText())).contains("Issue Created issue#5");
            assertThat(rows()).as(problem()).containsExactly("issue#1", "issue#4", "issue#2", "issue#3 (missing)");

            writeScreenshot();
        }

        /** The seeded issues of the grid's projects 1 and 2 (LocalReadApiIT.writeIssues): project, id, f1 (null: none). */
        private static final List<List<String>> PROJECTS_1_AND_2 = java.util.Arrays.asList(
                java.util.Arrays.asList("project#1", "issue#1", "30"), java.util.Arrays.asList("project#1", "issue#2", "10"),
                java.util.Arrays.asList("project#1", "issue#3", null), java.util.Arrays.asList("project#1", "issue#4", "20"),
                java.util.Arrays.asList("project#2", "issue#5", "5"));

        /** The rows a list of rows makes in pages of {@code size}. */
        private static List<List<String>> inPages(List<String> rows, int size) {
            List<List<String>> pages = new ArrayList<>();
            for (int from = 0; from < rows.size(); from += size) {
                pages.add(rows.subList(from, Math.min(rows.size(), from + size)));
            }
            return pages;
        }

        @Test
        void anOrExpression_listsTheRowsEitherSideMatches_inOrder_pageByPage_andABrokenOneShowsWhereItBreaks() {
            // given: project#9 sorted by f3, two a page
            open(api, "?project=" + param("project#9") + "&field=f3&pageSize=2", "");

            // when
            type("whereExpression", "f1 = closed or f2 >= 6");
            andWaitForTheGrid(() -> browser.findElement(By.id("applyWhere")).click());
            List<List<String>> pages = pagesToTheEnd();

            // then: a brute force of the seeded issues, in f3's order
            List<String> expected = PROJECT_9.stream().filter(issue -> issue.get(1).equals("closed") || Integer.parseInt(issue.get(2)) >= 6)
                    .sorted(Comparator.comparing((List<String> issue) -> issue.get(3))).map(issue -> "issue#" + issue.get(0)).toList();
            assertThat(expected).containsExactly("issue#33", "issue#34", "issue#36");
            assertThat(pages).as(problem()).isEqualTo(inPages(expected, 2));
            assertThat(browser.findElement(By.id("activeWhere")).getText()).isEqualTo("f1 = closed or f2 >= 6");
            assertThat(browser.findElement(By.id("range")).getText()).isEqualTo("3–3 of 3");

            // when: a parenthesis that does not close
            type("whereExpression", "f1 = closed or (f2 >= 6");
            andWaitForTheGrid(() -> browser.findElement(By.id("applyWhere")).click());

            // then: the API's problem, naming where and the offset, and the expression marked where it breaks
            WebElement problem = browser.findElement(By.id("problem"));
            assertThat(problem.isDisplayed()).isTrue();
            assertThat(problem.getText()).startsWith("400 Bad Request: predicate 0 at character 15: ").endsWith("(parameter where)");
            assertThat(itemRows()).isEmpty();
            assertThat(browser.findElement(By.id("whereExpression")).getDomAttribute("class")).contains("invalid");
            assertThat(browser.findElement(By.id("whereMark")).isDisplayed()).isTrue();
            assertThat(browser.findElement(By.id("whereMark")).getText()).isEqualTo("f1 = closed or (f2 >= 6\n" + " ".repeat(15) + "^");

            // when: mended
            type("whereExpression", "f1 = closed or (f2 >= 6 and f3 != z)");
            andWaitForTheGrid(() -> browser.findElement(By.id("applyWhere")).click());
            // then
            assertThat(browser.findElement(By.id("problem")).isDisplayed()).as(problem()).isFalse();
            assertThat(browser.findElement(By.id("whereMark")).isDisplayed()).isFalse();
            assertThat(browser.findElement(By.id("whereExpression")).getDomAttribute("class")).doesNotContain("invalid");
            assertThat(rows()).as(problem()).isEqualTo(inPages(expected, 2).get(0));
            type("whereExpression", "");
        }

        @Test
        void twoProjects_showOneMergedPageStream_inOrder_pageByPage_withTheMissingTailLast() {
            // given
            openProject1("&pageSize=2");

            // when: two projects in the project box, comma-separated
            type("group-0", "project#2, project#1");
            andWaitForTheGrid(GridPageIT::clickLoad);
            List<List<String>> pages = pagesToTheEnd();

            // then: a brute force of the seeded issues of both projects: by f1, then those without it
            List<String> expected = new ArrayList<>(PROJECTS_1_AND_2.stream().filter(issue -> issue.get(2) != null)
                    .sorted(Comparator.comparing((List<String> issue) -> Integer.parseInt(issue.get(2)))).map(issue -> issue.get(1)).toList());
            PROJECTS_1_AND_2.stream().filter(issue -> issue.get(2) == null).forEach(issue -> expected.add(issue.get(1) + " (missing)"));
            assertThat(expected).containsExactly("issue#5", "issue#2", "issue#4", "issue#1", "issue#3 (missing)");
            assertThat(pages).as(problem()).isEqualTo(inPages(expected, 2));
            assertThat(browser.findElement(By.id("pageNumber")).getText()).isEqualTo("page 3");

            // when: back to the first page
            while (browser.findElement(By.id("previous")).isEnabled()) {
                andWaitForTheGrid(() -> browser.findElement(By.id("previous")).click());
            }
            // then
            assertThat(itemRows()).as(problem()).isEqualTo(inPages(expected, 2).get(0));
            type("group-0", "project#1");
        }
    }

    /**
     * The page on the single-table example ({@code examples/single-table}), as {@code start --definitions FILE --load FILE}
     * runs it: a pk/sk table of projects, issues and layer versions, four declared indexes and no issue grid. Each page
     * the browser shows is checked against the page the API gives a signed client for the same request.
     */
    @Nested
    @TestInstance(TestInstance.Lifecycle.PER_CLASS)
    class SingleTable {
        private TemplateRuntime runtime;
        private LocalHttpApi api;

        @BeforeAll
        void start() throws InterruptedException {
            if (!chromiumInstalled()) {
                return;
            }
            OwnTable table = OwnTable.of(SamTemplate.findUp("examples").resolve("single-table").resolve("index-definitions.yaml"), "Tracker");
            runtime = new TemplateRuntime(SamTemplate.ofRepository().withParameterOverrides(LocalReadApi.parameters("IAM"))
                    .withParameterOverrides(table.parameters()), new TemplateRuntime.Ports("127.0.0.1", 0, 0, 0), line -> { },
                    table.creation(), table.environment());
            runtime.startPolling();
            api = LocalReadApi.serve(runtime, "IAM", "127.0.0.1", 0, Optional.empty());
            ItemFile.load(runtime.dynamoDb(), table.name(), SingleTableFixtures.exampleItems());
            assertThat(runtime.awaitQuiet(Duration.ofSeconds(60))).isTrue();
        }

        @AfterAll
        void stop() {
            if (runtime != null) {
                runtime.close();
            }
        }

        /** A GET of the read API, signed as any SigV4 client signs it; the answer's body, once it is a 200. */
        private JsonNode get(String pathAndQuery) throws Exception {
            URI uri = URI.create(api.endpoint() + pathAndQuery);
            HttpRequest.Builder request = HttpRequest.newBuilder(uri).GET();
            LocalReadApiIT.sdkSigned(uri, LocalDynamoDb.ACCESS_KEY, LocalDynamoDb.SECRET_KEY, Instant.now()).forEach(request::header);
            HttpResponse<String> response = HttpClient.newHttpClient().send(request.build(), HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
            return new ObjectMapper().readTree(response.body());
        }

        /** Every page the API gives for this request, following each nextCursor: the rows as the page shows them. */
        private List<List<String>> apiPages(String pathAndQuery) throws Exception {
            List<List<String>> pages = new ArrayList<>();
            String cursor = null;
            do {
                JsonNode page = get(pathAndQuery + (cursor == null ? "" : "&cursor=" + param(cursor)));
                List<String> rows = new ArrayList<>();
                for (JsonNode item : page.path("items")) {
                    List<String> key = new ArrayList<>();
                    item.path("key").forEach(value -> key.add(value.asText()));
                    rows.add(String.join(" / ", key) + (item.path("missing").asBoolean() ? " (missing)" : ""));
                }
                pages.add(rows);
                cursor = page.path("nextCursor").isNull() ? null : page.path("nextCursor").asText();
            } while (cursor != null);
            return pages;
        }

        /** The values the API sorted a request's items by, over all its pages ("missing" for the missing tail). */
        private List<String> apiValues(String pathAndQuery) throws Exception {
            List<String> values = new ArrayList<>();
            String cursor = null;
            do {
                JsonNode page = get(pathAndQuery + (cursor == null ? "" : "&cursor=" + param(cursor)));
                // as the page shows a value: text as it is, anything else as JSON
                page.path("items").forEach(item -> values.add(item.path("missing").asBoolean() ? "missing"
                        : item.path("value").isValueNode() ? item.path("value").asText() : item.path("value").toString()));
                cursor = page.path("nextCursor").isNull() ? null : page.path("nextCursor").asText();
            } while (cursor != null);
            return values;
        }

        @Test
        void thePicker_listsTheDeclaredIndexes_andAnIndexOfMapEntries_pagesToTheEnd_asTheApiAnswers() throws Exception {
            // given: no issue grid is declared, so the first index is shown, waiting for its group and entry
            open(api, "", "");
            assertThat(new Select(browser.findElement(By.id("index"))).getOptions()).extracting(option -> option.getDomProperty("value"))
                    .containsExactly("issue-fields", "issue-labels", "layers-by-package", "layers-by-region");
            assertThat(browser.findElement(By.id("heading")).getText()).isEqualTo("Index issue-fields");
            assertThat(browser.findElement(By.id("status")).getText()).isEqualTo("give pk, an entry of cf, then Load");
            assertThat(itemRows()).isEmpty();

            // when: the issues of project p1 by their custom field priority, then those without it, two a page
            select("index", "issue-fields");
            type("group-0", "PROJECT#p1");
            type("entry", "priority");
            type("pageSize", "2");
            andWaitForTheGrid(GridPageIT::clickLoad);
            List<String> values = new ArrayList<>(sortedValues());
            List<List<String>> pages = pagesToTheEnd();

            // then
            String request = "/v1/indexes/issue-fields/items?group=" + param("PROJECT#p1") + "&entry=priority&missing=true&pageSize=2";
            assertThat(pages).as(problem()).isEqualTo(apiPages(request)).hasSizeGreaterThanOrEqualTo(2);
            assertThat(pages.stream().flatMap(List::stream).toList()).containsExactly("PROJECT#p1 / ISSUE#2", "PROJECT#p1 / ISSUE#1",
                    "PROJECT#p1 / ISSUE#4", "PROJECT#p1 / ISSUE#3 (missing)");
            assertThat(values).containsExactly("1", "2");
            assertThat(headers()).containsExactly("pk / sk", "priority ▲", "due", "title", "state");
            assertThat(browser.findElement(By.id("pageNumber")).getText()).isEqualTo("page " + pages.size());
            assertThat(browser.findElement(By.id("next")).isEnabled()).isFalse();

            // when: back to the first page
            while (browser.findElement(By.id("previous")).isEnabled()) {
                andWaitForTheGrid(() -> browser.findElement(By.id("previous")).click());
            }
            // then
            assertThat(itemRows()).as(problem()).isEqualTo(pages.get(0));
        }

        @Test
        void anIndexOfAnAttribute_descending_andFiltered_pagesToTheEnd_asTheApiAnswers_withoutAMissingTailItCannotHave() throws Exception {
            // given
            open(api, "", "");
            select("index", "layers-by-region");
            type("group-0", "us-east-1");
            type("pageSize", "3");

            // when: choosing the order reads it; the box for the missing tail is checked, but this index is not grouped by
            // the table's partition key, so nothing lists the items it leaves out
            andWaitForTheGrid(() -> select("order", "desc"));
            List<String> values = sortedValues();
            List<List<String>> pages = pagesToTheEnd();

            // then
            String request = "/v1/indexes/layers-by-region/items?group=us-east-1&order=desc&pageSize=3";
            assertThat(pages).as(problem()).isEqualTo(apiPages(request)).hasSize(2);
            assertThat(values).isEqualTo(apiValues(request).subList(0, 3)).containsExactly("requests", "requests", "requests");
            assertThat(header("pckg").getText()).isEqualTo("pckg ▼");
            assertThat(headers()).containsExactly("pk / sk", "pckg ▼", "vrsn", "arn", "dplySts");
            WebElement missing = browser.findElement(By.id("missing"));
            assertThat(missing.isEnabled()).isFalse();
            assertThat(missing.isSelected()).isFalse();
            assertThat(browser.findElement(By.id("missingBox")).getDomAttribute("title")).contains("grouped by [region]");

            // when: a text filter, as the grid's
            new Select(browser.findElement(By.id("textOp"))).selectByValue("equals");
            type("textValue", "boto");
            andWaitForTheGrid(() -> browser.findElement(By.id("applyText")).click());

            // then
            assertThat(List.of(itemRows())).as(problem())
                    .isEqualTo(apiPages("/v1/indexes/layers-by-region/items?group=us-east-1&order=desc&pageSize=3&type=text&equals=boto"))
                    .containsExactly(List.of("lyr#us-east-1.boto / lyrVrsn0#"));
            assertThat(sortedValues()).containsExactly("boto");
            andWaitForTheGrid(() -> browser.findElement(By.id("clearFilter")).click());
        }

        @Test
        void anIndexOfListElements_namedInTheAddress_listsEachIssueOnce_underItsFirstLabel() throws Exception {
            // when
            open(api, "?index=issue-labels&group=" + param("PROJECT#p1"), "");

            // then: read as the address asks; issue 1 (auth, bug) under auth, then 2 (bug), 3 (docs), and 4 without labels
            String request = "/v1/indexes/issue-labels/items?group=" + param("PROJECT#p1") + "&missing=true&pageSize=10";
            assertThat(List.of(itemRows())).as(problem()).isEqualTo(apiPages(request)).containsExactly(List.of("PROJECT#p1 / ISSUE#1",
                    "PROJECT#p1 / ISSUE#2", "PROJECT#p1 / ISSUE#3", "PROJECT#p1 / ISSUE#4 (missing)"));
            assertThat(sortedValues()).isEqualTo(apiValues(request));
            assertThat(headers()).containsExactly("pk / sk", "labels ▲", "num", "title");
            assertThat(browser.findElement(By.id("index")).getDomProperty("value")).isEqualTo("issue-labels");
        }

        @Test
        void aBadGroup_showsTheApisProblem_namingTheParameter_andNoRows() {
            // given
            open(api, "", "");
            select("index", "layers-by-package");

            // when: a number group value that is not a number
            type("group-0", "N:many");
            andWaitForTheGrid(GridPageIT::clickLoad);

            // then
            WebElement problem = browser.findElement(By.id("problem"));
            assertThat(problem.isDisplayed()).isTrue();
            assertThat(problem.getText()).isEqualTo("400 Bad Request: N: is followed by a number, e.g. N:42; for text that begins with N: write S:N:… (parameter group)");
            assertThat(itemRows()).isEmpty();
            assertThat(browser.findElement(By.id("next")).isEnabled()).isFalse();
        }
    }

    @Nested
    @TestInstance(TestInstance.Lifecycle.PER_CLASS)
    class Jwt {
        private Path keys;
        private TemplateRuntime runtime;
        private LocalHttpApi api;
        private LocalJwtIssuer issuer;

        @BeforeAll
        void start() throws InterruptedException, IOException {
            if (!chromiumInstalled()) {
                return;
            }
            keys = Files.createTempDirectory("local-token-keys");
            issuer = LocalJwtIssuer.loadOrCreate(keys.resolve("key.json"));
            runtime = new TemplateRuntime(SamTemplate.ofRepository().withParameterOverrides(LocalReadApi.parameters("JWT")),
                    new TemplateRuntime.Ports("127.0.0.1", 0, 0, 0), line -> { });
            runtime.startPolling();
            api = LocalReadApi.serve(runtime, "JWT", "127.0.0.1", 0, Optional.of(issuer));
            LocalReadApiIT.writeIssues(runtime);
        }

        @AfterAll
        void stop() throws IOException {
            if (runtime == null) {
                return;
            }
            runtime.close();
            try (var files = Files.walk(keys)) {
                files.sorted(Comparator.reverseOrder()).forEach(file -> file.toFile().delete());
            }
        }

        @Test
        void theTokenInTheAddress_readsTheGrid_andWithoutOneThePageShowsTheRefusal() {
            // given
            String token = issuer.mint(LocalReadApi.ISSUER, LocalReadApi.AUDIENCE, LocalReadApi.PROJECTS_CLAIM, List.of("project#1"),
                    Instant.now(), Duration.ofMinutes(5));

            // when
            open(api, "?project=" + param("project#1") + "&field=f1", "#token=" + token);
            // then
            assertThat(rows()).as(problem()).containsExactly("issue#2", "issue#4", "issue#1", "issue#3 (missing)");
            assertThat(browser.findElement(By.id("token")).isDisplayed()).isTrue();

            // when
            open(api, "?project=" + param("project#1") + "&field=f1", "");
            // then
            WebElement problem = browser.findElement(By.id("problem"));
            assertThat(problem.isDisplayed()).isTrue();
            assertThat(problem.getText()).isEqualTo("401 Unauthorized");
            assertThat(rows()).isEmpty();
        }
    }
}

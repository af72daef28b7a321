package com.multikey.cli;

import com.multikey.clikit.Failure;
import com.multikey.query.CursorKeys;
import com.multikey.query.CursorSealer;
import com.multikey.query.FilterParameters;
import com.multikey.query.InvalidPredicateException;
import com.multikey.query.PageParameters;
import com.multikey.query.PredicateText;
import com.multikey.query.ReadBudget;
import picocli.CommandLine.Option;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * {@code query}'s options for the page it asks for, whichever index it reads: order, size, cursor, filters, predicates,
 * read budget, time, plan and total; read through the query library's one parser of page parameters (the read API's too).
 */
final class PageOptions {
    static final int MAX_PAGE_TIMEOUT_SECONDS = 900;

    @Option(names = "--desc", description = "descending order (default: ascending)")
    boolean descending;
    // read as text, parsed by the one parser of page parameters (PageParameters), as the read API reads it
    @Option(names = "--page-size", defaultValue = "25", description = "items per page (default ${DEFAULT-VALUE})")
    String pageSize;
    @Option(names = "--cursor", description = "the next cursor a previous page printed (default: the first page)")
    String cursor;
    @Option(names = "--page-timeout", defaultValue = "5", paramLabel = "SECONDS", description = "time the page may take, its retries "
            + "included, before the command gives up with exit 3 (default ${DEFAULT-VALUE}; up to " + MAX_PAGE_TIMEOUT_SECONDS + ")")
    BigDecimal pageTimeout;
    @Option(names = "--cursor-keys", paramLabel = "FILE", description = "the keys cursors are sealed under, made on first use "
            + "(default ~/.multikey/cursor-keys.json; the read API's cursors are sealed under the stack's own)")
    Path cursorKeys;
    @Option(names = "--missing", description = "after the items with the field, those without it")
    boolean missing;
    @Option(names = "--type", defaultValue = "auto", description = "type of filter values: auto (a number when the text is one), "
            + "number, text, bool (default ${DEFAULT-VALUE})")
    String type;
    @Option(names = "--equals", description = "only items whose value equals this")
    String equals;
    @Option(names = "--begins-with", description = "only items whose text value begins with this")
    String beginsWith;
    @Option(names = "--lt", description = "only items whose value is below this")
    String lessThan;
    @Option(names = "--le", description = "only items whose value is at most this")
    String atMost;
    @Option(names = "--gt", description = "only items whose value is above this")
    String greaterThan;
    @Option(names = "--ge", description = "only items whose value is at least this")
    String atLeast;
    @Option(names = "--where", paramLabel = "PREDICATE", description = "only items that satisfy it, on any field (repeat for "
            + "several, all of which hold; at most " + PredicateText.MAX_PREDICATES + "): a custom field (a map entry of "
            + "--index) or @ and an attribute path, an operator and a value: 'status = open', 'severity >= 3', "
            + "'status in (open, triage)', 'title beginsWith \"Fix\"', 'assignee present', 'priority missing', "
            + "'@details.team = core'; or predicates combined with and, or, not and parentheses: "
            + "'status = open or assignee = me', 'not (labels = wontfix)'")
    List<String> where = new ArrayList<>();
    @Option(names = "--budget", paramLabel = "ITEMS", description = "items the page may read, index items and items of the "
            + "table together, 2 (an index item and its item) to 20000: a page that reads them comes back short, with its cursor "
            + "(default: 2000 with --where, else as many as the page needs)")
    String budget;
    @Option(names = "--explain", description = "print how the page was read: the plan and why, each plan weighed with its "
            + "estimated items, what was read, and the definitions entry of an index that would answer the query in two calls "
            + "when one would (on standard error; with --output json as the document's explain)")
    boolean explain;
    @Option(names = "--total", description = "also print how many items the request matches, all its pages together: \"1–25 of "
            + "1,234\", or \"of 10,000+\" when the count stopped at its read budget (--budget, else 10000 items) before the end; "
            + "from the counts the pipeline keeps when the definitions declare them, else counted at read time (with --output "
            + "json: total {value, relation eq|gte, source})")
    boolean total;

    /** Cursors that open in the next run: sealed under a key file, read (or made) at the first cursor. */
    CursorSealer cursorSealer() {
        Path file = cursorKeys != null ? cursorKeys : Path.of(System.getProperty("user.home"), ".multikey", "cursor-keys.json");
        return CursorSealer.reloading(() -> CursorKeys.loadOrCreate(file), CursorSealer.DEFAULT_LIFETIME, Clock.systemUTC());
    }

    /** {@code --page-timeout} as the query library's page budget. */
    Duration pageBudget() {
        if (pageTimeout.signum() <= 0 || pageTimeout.compareTo(BigDecimal.valueOf(MAX_PAGE_TIMEOUT_SECONDS)) > 0) {
            throw Failure.usage("--page-timeout must be a number of seconds above 0 and at most " + MAX_PAGE_TIMEOUT_SECONDS
                    + ", got " + pageTimeout.toPlainString());
        }
        // up to a millisecond is one (rounding 1E-999999999 to a whole number of milliseconds would overflow, or take seconds)
        BigDecimal millis = pageTimeout.movePointRight(3);
        return Duration.ofMillis(millis.compareTo(BigDecimal.ONE) <= 0 ? 1 : millis.setScale(0, java.math.RoundingMode.CEILING).longValueExact());
    }

    /**
     * The page options through the query library's one parser of page parameters (the read API's too), each checked before
     * any endpoint is contacted: a refusal names the option at fault, a predicate's its {@code --where}.
     */
    PageParameters parameters() {
        Map<PageParameters.Parameter, String> given = new EnumMap<>(PageParameters.Parameter.class);
        given.put(PageParameters.Parameter.ORDER, descending ? "desc" : "asc");
        given.put(PageParameters.Parameter.PAGE_SIZE, pageSize);
        given.put(PageParameters.Parameter.MISSING, Boolean.toString(missing));
        given.put(PageParameters.Parameter.EXPLAIN, Boolean.toString(explain));
        given.put(PageParameters.Parameter.TYPE, type);
        put(given, PageParameters.Parameter.CURSOR, cursor);
        put(given, PageParameters.Parameter.EQUALS, equals);
        put(given, PageParameters.Parameter.BEGINS_WITH, beginsWith);
        put(given, PageParameters.Parameter.LT, lessThan);
        put(given, PageParameters.Parameter.LE, atMost);
        put(given, PageParameters.Parameter.GT, greaterThan);
        put(given, PageParameters.Parameter.GE, atLeast);
        put(given, PageParameters.Parameter.BUDGET, budget);
        try {
            PageParameters parameters = PageParameters.parse(given, where);
            if (parameters.budget().isPresent() && parameters.budget().get() > ReadBudget.DEFAULT.max()) {
                // the library's own bound (IndexQuery.of reads within ReadBudget.DEFAULT), told before any endpoint is contacted
                throw new FilterParameters.InvalidParameterException(PageParameters.Parameter.BUDGET, "at most "
                        + ReadBudget.DEFAULT.max() + " items a page, got " + parameters.budget().get());
            }
            return parameters;
        } catch (InvalidPredicateException e) {
            throw QueryRefusals.where(e, where);
        } catch (FilterParameters.InvalidParameterException e) {
            throw QueryRefusals.option(e);
        }
    }

    private static void put(Map<PageParameters.Parameter, String> given, PageParameters.Parameter parameter, String text) {
        if (text != null) {
            given.put(parameter, text);
        }
    }
}

package com.multikey.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.multikey.clikit.Output;
import com.multikey.query.Explain;
import com.multikey.query.Page;

import java.io.PrintStream;

/** How {@code query} shows a page besides its rows: its JSON document's counts and plan, or its summary lines for people. */
final class PageOutput {

    private PageOutput() {
    }

    /** The page's document for {@code --output json}: its counts, cursor and {@code items}; the caller adds what it asked. */
    static ObjectNode document(Page page, ArrayNode items) {
        ObjectNode document = Output.object();
        document.put("count", page.items().size()).put("apiCalls", page.apiCalls()).put("nextCursor", page.nextCursor().orElse(null));
        if (page.examined() >= 0) {
            document.put("examined", page.examined());
        } else {
            document.putNull("examined");
        }
        document.put("budgetSpent", page.budgetSpent());
        document.set("items", items);
        return document;
    }

    /** The page's total as the document's {@code total}, when asked for: {@code {value, relation, source}}. */
    static void total(Page page, ObjectNode document) {
        page.total().ifPresent(total -> document.putObject("total").put("value", total.value())
                .put("relation", total.relation().apiName()).put("source", total.source().apiName()));
    }

    /** The page's place in its request's total for people ("1–25 of 1,234"), when asked for. */
    static void totalLine(Page page, boolean firstPage, PrintStream out) {
        page.total().ifPresent(total -> out.println(CountText.range(page.items().size(), firstPage, total)));
    }

    /** The page's summary for people: items, calls and reads, the next cursor; its plan on {@code err} when asked for. */
    static void summary(Page page, PrintStream out, PrintStream err) {
        out.printf("%d item(s), %d API call(s)%s%n", page.items().size(), page.apiCalls(), reads(page));
        out.println(page.nextCursor().map(c -> "next page: --cursor " + c).orElse("last page"));
        explain(page, err);
    }

    /** The items the page read, for the summary line; nothing when not counted. */
    private static String reads(Page page) {
        if (page.examined() < 0) {
            return "";
        }
        return ", " + page.examined() + " item(s) read" + (page.budgetSpent() ? " (the read budget: the page is short, "
                + "the next continues)" : "");
    }

    /** The page's explanation as the document's {@code explain}, when asked for. */
    static void explain(Page page, ObjectNode document) {
        page.explain().ifPresent(explain -> {
            ObjectNode node = document.putObject("explain");
            node.put("plan", explain.plan()).put("reason", explain.reason());
            ArrayNode alternatives = node.putArray("alternatives");
            for (Explain.Alternative alternative : explain.alternatives()) {
                ObjectNode entry = alternatives.addObject().put("plan", alternative.plan());
                if (alternative.estimatedItems() >= 0) {
                    entry.put("estimatedItems", alternative.estimatedItems());
                } else {
                    entry.putNull("estimatedItems");
                }
                entry.put("basis", alternative.basis());
            }
            Explain.Reads read = explain.read();
            node.putObject("read").put("queries", read.queries()).put("batchGets", read.batchGets())
                    .put("indexItems", read.indexItems()).put("tableItems", read.tableItems()).put("examined", read.examined());
            node.put("suggestion", explain.suggestion().orElse(null));
        });
    }

    /** The page's explanation for people, on standard error, when asked for. */
    private static void explain(Page page, PrintStream err) {
        page.explain().ifPresent(explain -> {
            err.println("plan: " + explain.plan());
            err.println("  why: " + explain.reason());
            err.println("  weighed (estimated items read for this page):");
            int width = explain.alternatives().stream().mapToInt(a -> a.plan().length()).max().orElse(0);
            for (Explain.Alternative alternative : explain.alternatives()) {
                err.printf("    %-" + width + "s  %6s items  %s%n", alternative.plan(),
                        alternative.estimatedItems() >= 0 ? Long.toString(alternative.estimatedItems()) : "?", alternative.basis());
            }
            Explain.Reads read = explain.read();
            err.printf("  read: %d Query, %d BatchGetItem; %d index items, %d items of the table (%d examined)%n", read.queries(),
                    read.batchGets(), read.indexItems(), read.tableItems(), read.examined());
            explain.suggestion().ifPresent(yaml -> {
                err.println("  suggested index (add it under indexes: in the definitions file, deploy, then backfill --index it):");
                yaml.lines().forEach(line -> err.println("    " + line));
            });
        });
    }
}

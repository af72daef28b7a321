package com.multikey.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.multikey.clikit.Output;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;

/** A plan as one JSON document ({@code --output json}) or as a table for people. */
final class PlanDocument {

    private PlanDocument() {
    }

    static ObjectNode of(PlanCommand command, List<IndexPlan> plans, PipelineCost pipeline, List<String> assumptions, int existingGsis) {
        ObjectNode document = Output.object().put("definitions", command.definitionsName()).put("table", command.table)
                .put("changesPerMonth", command.changesPerMonth);
        document.put("tableItems", plans.isEmpty() ? (command.items == null ? PlanCommand.DEFAULT_ITEMS : command.items) : plans.get(0).tableItems());
        document.set("assumptions", PlanCommand.strings(assumptions));
        Prices prices = Prices.US_EAST_1;
        document.putObject("prices").put("region", "us-east-1").put("asOf", prices.asOf())
                .put("writeRequestUnitPerMillion", prices.writeUnitPerMillion()).put("storagePerGbMonth", prices.storagePerGbMonth())
                .put("lambdaRequestPerMillion", prices.lambdaRequestPerMillion()).put("lambdaGbSecond", prices.lambdaGbSecond())
                .put("dynamodbSource", Prices.DYNAMODB_SOURCE).put("lambdaSource", Prices.LAMBDA_SOURCE).put("page", "docs/cost.md");
        ArrayNode indexes = document.putArray("indexes");
        double total = pipeline.monthlyDollars();
        long nativeCandidates = 0;
        for (IndexPlan plan : plans) {
            IndexMeasurement m = plan.measured();
            ObjectNode entry = indexes.addObject().put("index", m.index()).put("sampled", m.sampled()).put("covered", m.covered())
                    .put("indexItemsPerItem", round(m.indexItemsPerCoveredItem())).put("changes", m.changes())
                    .put("writesPerChange", round(m.writesPerChange())).put("writeUnitsPerChange", round(m.writeUnitsPerChange()))
                    .put("indexItemBytes", round(m.indexItemBytes())).put("indexItems", Math.round(plan.indexItems()))
                    .put("storageBytes", Math.round(plan.storageBytes()));
            entry.putObject("monthly").put("writeUnits", Math.round(plan.writeUnitsPerMonth())).put("writes", cents(plan.writesPerMonthDollars()))
                    .put("storage", cents(plan.storagePerMonthDollars())).put("total", cents(plan.monthlyDollars()));
            plan.countsCost().ifPresent(counts -> entry.set("counts", counts(counts)));
            entry.set("gsi", PlanCommand.gsi(plan.gsi()));
            total += plan.monthlyDollars();
            nativeCandidates += plan.gsi() instanceof GsiVerdict.Native ? 1 : 0;
        }
        document.putObject("pipeline").put("lambdaRequests", Math.round(pipeline.requests())).put("lambdaGbSeconds", round(pipeline.gbSeconds()))
                .put("monthly", cents(pipeline.monthlyDollars()));
        document.put("monthlyTotal", cents(total));
        document.putObject("gsiSlots").put("existing", existingGsis).put("free", Math.max(0, GsiAdvisor.MAX_GSIS - existingGsis))
                .put("nativeCandidates", nativeCandidates);
        return document;
    }

    static void print(PrintStream out, PlanCommand command, List<IndexPlan> plans, PipelineCost pipeline, List<String> assumptions,
                      int existingGsis) {
        out.printf("plan of %s at %,d changes a month%n", command.definitionsName(), command.changesPerMonth);
        assumptions.forEach(a -> out.println("  assumed: " + a));
        out.printf("%n%-24s %9s %11s %13s %10s %12s %12s %10s %10s %s%n", "index", "covered", "items/item", "writes/change", "item bytes",
                "index items", "storage", "$ writes", "$ storage", "native GSI");
        double total = pipeline.monthlyDollars();
        for (IndexPlan plan : plans) {
            IndexMeasurement m = plan.measured();
            out.printf(Locale.ROOT, "%-24s %9s %11.2f %13.2f %10.0f %,12.0f %12s %10.2f %10.2f %s%n", m.index(), m.covered() + "/" + m.sampled(),
                    m.indexItemsPerCoveredItem(), m.writesPerChange(), m.indexItemBytes(), plan.indexItems(), bytes(plan.storageBytes()),
                    plan.writesPerMonthDollars(), plan.storagePerMonthDollars(), plan.gsi() instanceof GsiVerdict.Native ? "yes" : "no");
            total += plan.monthlyDollars();
        }
        for (IndexPlan plan : plans) {
            plan.countsCost().ifPresent(counts -> printCounts(out, plan.measured().index(), counts));
        }
        out.printf(Locale.ROOT, "%nstream consumers (Lambda, both, batches of %d): $%.2f a month%n", PipelineCost.BATCH, pipeline.monthlyDollars());
        out.printf(Locale.ROOT, "total: $%.2f a month (us-east-1 prices of %s from docs/cost.md: $%.3f per million write units, $%.2f per "
                        + "GB-month, Lambda $%.2f per million requests and $%.10f per GB-second; %s, %s)%n", total, Prices.US_EAST_1.asOf(),
                Prices.US_EAST_1.writeUnitPerMillion(), Prices.US_EAST_1.storagePerGbMonth(), Prices.US_EAST_1.lambdaRequestPerMillion(),
                Prices.US_EAST_1.lambdaGbSecond(), Prices.DYNAMODB_SOURCE, Prices.LAMBDA_SOURCE);
        long natives = plans.stream().filter(p -> p.gsi() instanceof GsiVerdict.Native).count();
        out.printf("%nnative GSIs: %d of %d indexes could be one; the table has %d GSIs, %d more fit (at most %d)%n", natives, plans.size(),
                existingGsis, Math.max(0, GsiAdvisor.MAX_GSIS - existingGsis), GsiAdvisor.MAX_GSIS);
        for (IndexPlan plan : plans) {
            switch (plan.gsi()) {
                case GsiVerdict.NotNative no -> {
                    out.println("  " + plan.measured().index() + ": no GSI:");
                    no.reasons().forEach(r -> out.println("    - " + r));
                }
                case GsiVerdict.Native yes -> {
                    out.println("  " + plan.measured().index() + ": a GSI could serve it; paste into the table's Properties:");
                    yes.template().lines().forEach(l -> out.println("      " + l));
                    out.println("    what the GSI would not do:");
                    yes.differences().forEach(d -> out.println("    - " + d));
                }
            }
        }
    }

    private static ObjectNode counts(CountsCost counts) {
        ObjectNode node = Output.object().put("total", counts.counts().total());
        node.set("facets", PlanCommand.strings(counts.counts().facets()));
        node.put("shards", counts.counts().shards()).put("counterUpdatesPerChange", round(counts.counterUpdatesPerChange()))
                .put("transactionExtraWriteUnitsPerChange", round(counts.transactionExtraUnitsPerChange()))
                .put("counterWriteUnitsPerChange", round(counts.counterUnitsPerChange()))
                .put("extraWriteUnitsPerChange", round(counts.extraUnitsPerChange()))
                .put("writeUnitsPerChange", round(counts.writeUnitsPerChange() + counts.extraUnitsPerChange()))
                .put("extraWriteUnitsPerItemCreatedOrDeleted", round(counts.extraUnitsPerItemCreatedOrDeleted()))
                .put("model", CountsCost.MODEL).put("source", CountsCost.SOURCE);
        return node;
    }

    private static void printCounts(PrintStream out, String index, CountsCost counts) {
        out.printf(Locale.ROOT, "kept counts of %s (%s%d shards): %.2f write units a change of a counted field instead of %.2f "
                        + "(+%.2f for transactional writes, +%.2f for %.3f counter updates), in $ writes; +%.2f an item created or deleted%n",
                index, (counts.counts().total() ? "total, " : "") + (counts.countsChanges() ? "facets " + counts.counts().facets() + ", " : ""),
                counts.counts().shards(), counts.writeUnitsPerChange() + counts.extraUnitsPerChange(), counts.writeUnitsPerChange(),
                counts.transactionExtraUnitsPerChange(), counts.counterUnitsPerChange(), counts.counterUpdatesPerChange(),
                counts.extraUnitsPerItemCreatedOrDeleted());
        out.println("  (" + CountsCost.MODEL + "; " + CountsCost.SOURCE + ")");
    }

    private static double round(double value) {
        return Math.round(value * 1000) / 1000.0;
    }

    private static double cents(double dollars) {
        return Math.round(dollars * 100) / 100.0;
    }

    private static String bytes(double bytes) {
        if (bytes >= IndexPlan.GB) {
            return String.format(Locale.ROOT, "%.2f GB", bytes / IndexPlan.GB);
        }
        return bytes >= 1024 * 1024 ? String.format(Locale.ROOT, "%.1f MB", bytes / 1024 / 1024) : String.format(Locale.ROOT, "%.0f KB", bytes / 1024);
    }
}

package com.multikey.local;

import com.multikey.clikit.ProgressDisplay;
import com.multikey.emulator.TemplateRuntime;
import com.multikey.emulator.services.bus.BusRules;
import com.multikey.index.IndexProjector;
import com.multikey.index.ItemKey;
import com.multikey.index.definition.AttributePath;
import com.multikey.index.definition.IndexDefinition;
import com.multikey.index.definition.ValueSource;
import com.multikey.local.DemoChecks.Check;
import com.multikey.query.IndexQuery;
import com.multikey.query.Order;
import com.multikey.query.Page;
import com.multikey.query.PageRequest;
import com.multikey.reindex.IndexScope;
import com.multikey.reindex.Verifier;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.io.PrintStream;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * {@code demo --definitions FILE --load ITEMS}: the stack on a table of the user's own shape ({@link OwnTable}), seeded with
 * their items, and checked: every item in the table and routed as a Created event, each declared index holding exactly
 * the index items the items imply (and verify agreeing), and a first page of each index read through the query library
 * in at most two API calls.
 */
final class OwnTableDemo {

    private final TemplateRuntime runtime;
    private final OwnTable table;
    private final PrintStream out;
    private final DemoChecks checks;

    OwnTableDemo(TemplateRuntime runtime, OwnTable table, PrintStream out, ProgressDisplay progress) {
        this.runtime = runtime;
        this.table = table;
        this.out = out;
        this.checks = new DemoChecks(planned(table), progress);
    }

    /** The checks it makes when the pipeline settles in time. */
    static int planned(OwnTable table) {
        return 3 + 2 * table.definitions().indexes().size();
    }

    List<Check> run(List<Map<String, AttributeValue>> items) throws InterruptedException {
        out.printf("== Loading %d items into %s (%s)%n", items.size(), table.name(), table.definitions().table().attributes());
        ItemFile.load(runtime.dynamoDb(), table.name(), items);
        if (!runtime.awaitQuiet(Duration.ofSeconds(60))) {
            checks.add(new Check("pipeline settled within 60 s", true, false));
        }
        IndexProjector projector = new IndexProjector(table.definitions());
        Set<ItemKey> keys = new HashSet<>();
        items.forEach(item -> projector.keyOf(item).ifPresent(keys::add));
        List<Map<String, AttributeValue>> stored = runtime.dynamoDb().scan(b -> b.tableName(table.name())).items();
        checks.add(new Check("the table holds every loaded item (by key)", keys.size(), stored.size()));
        long created = runtime.busRules().routed().stream().map(BusRules.RoutedEvent::detailType).filter(t -> t.endsWith(" Created")).count();
        checks.add(new Check("one Created event on the bus per item", (long) keys.size(), created));
        String indexTable = runtime.table("IssueAttribIndexTable");
        List<Map<String, AttributeValue>> indexItems = runtime.dynamoDb().scan(b -> b.tableName(indexTable)).items();
        for (IndexDefinition index : table.definitions().indexes()) {
            long expected = stored.stream().mapToLong(item -> projector.keyOf(item)
                    .map(key -> (long) projector.project(index.name(), key, item).items().size()).orElse(0L)).sum();
            long actual = indexItems.stream().filter(item -> item.containsKey("index") && index.name().equals(item.get("index").s())).count();
            checks.add(new Check(index.name() + ": the index items the table's items imply", expected, actual));
            out.printf("  %s: %d index items%n", index.name(), actual);
            firstPage(index, stored, projector);
        }
        Verifier.Report report = new Verifier(runtime.dynamoDb(), table.name(), indexTable, IndexScope.all(table.definitions())).verify(false);
        out.printf("== verify, every index: %d items, %d index items: %d missing, %d stale, %d orphaned%n", report.items(),
                report.indexItems(), report.missingCount(), report.staleCount(), report.orphanedCount());
        checks.add(new Check("verify finds every index equal to what the table implies", true, report.clean()));
        return checks.all();
    }

    /** A page of the index for the group (and map entry) of its first item in it: one Query, one BatchGetItem. */
    private void firstPage(IndexDefinition index, List<Map<String, AttributeValue>> stored, IndexProjector projector) {
        Optional<Map<String, AttributeValue>> first = stored.stream()
                .filter(item -> projector.keyOf(item).map(key -> !projector.project(index.name(), key, item).items().isEmpty()).orElse(false))
                .findFirst();
        if (first.isEmpty()) {
            checks.add(new Check(index.name() + ": no loaded item has its group and value, so no page was read", true, true));
            return;
        }
        List<AttributeValue> group = index.group().stream().map((AttributePath path) -> path.resolve(first.get())).toList();
        AttributeValue value = index.values().path().resolve(first.get());
        String entry = index.values() instanceof ValueSource.MapEntries && value.hasM() && !value.m().isEmpty()
                ? value.m().keySet().stream().sorted().findFirst().orElseThrow() : "";
        Page page = IndexQuery.of(runtime.dynamoDb(), table.name(), runtime.table("IssueAttribIndexTable"), table.definitions())
                .page(PageRequest.onIndex(index.name(), group, entry, Order.ASC, 25));
        out.printf("  %s: a page of group %s%s: %d items in %d API calls%n", index.name(), group, entry.isEmpty() ? "" : ", entry " + entry,
                page.items().size(), page.apiCalls());
        checks.add(new Check(index.name() + ": a first page holds items, in at most 2 API calls", true,
                !page.items().isEmpty() && page.apiCalls() <= 2));
    }
}

package com.multikey.local;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.multikey.common.PlainJson;
import com.multikey.emulator.TemplateRuntime;
import com.multikey.emulator.services.bus.BusRules;
import com.multikey.emulator.services.bus.LocalEventBridge;
import com.multikey.emulator.services.lambda.LocalLambdaApi;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a run changed in the local stack: the items written (by comparing every table before and after), the events
 * published with the rules they matched and what the rules' targets answered, and the calls made to the Lambda API.
 */
record StackChanges(List<ItemChange> items, List<Event> events, List<BusRules.TargetCall> targetCalls, List<LocalLambdaApi.Call> calls) {

    /** An item added, changed or removed; {@code item} is absent for a removal. */
    record ItemChange(String table, Kind kind, ObjectNode key, ObjectNode item) {
    }

    enum Kind {
        added("+"), changed("~"), removed("-");

        private final String mark;

        Kind(String mark) {
            this.mark = mark;
        }
    }

    /** An event the bus accepted, its item keys, and the rules it matched. */
    record Event(String detailType, JsonNode keys, List<String> rules) {
    }

    /** Every table's items, by key. */
    static Map<String, Map<ObjectNode, ObjectNode>> snapshot(TemplateRuntime runtime) {
        Map<String, Map<ObjectNode, ObjectNode>> tables = new LinkedHashMap<>();
        for (String table : runtime.dynamoDb().listTables().tableNames()) {
            List<String> keys = runtime.dynamoDb().describeTable(b -> b.tableName(table)).table().keySchema().stream()
                    .map(k -> k.attributeName()).toList();
            Map<ObjectNode, ObjectNode> items = new LinkedHashMap<>();
            for (Map<String, AttributeValue> item : runtime.dynamoDb().scanPaginator(b -> b.tableName(table)).items()) {
                Map<String, AttributeValue> key = new LinkedHashMap<>();
                keys.forEach(k -> key.put(k, item.get(k)));
                items.put(PlainJson.EXACT.of(key), PlainJson.EXACT.of(item));
            }
            tables.put(table, items);
        }
        return tables;
    }

    /** The changes since {@code before} (a {@link #snapshot}). */
    static StackChanges since(TemplateRuntime runtime, Map<String, Map<ObjectNode, ObjectNode>> before) {
        Map<String, Map<ObjectNode, ObjectNode>> after = snapshot(runtime);
        List<ItemChange> items = new ArrayList<>();
        for (String table : after.keySet()) {
            Map<ObjectNode, ObjectNode> was = before.getOrDefault(table, Map.of());
            Map<ObjectNode, ObjectNode> now = after.get(table);
            now.forEach((key, item) -> {
                if (!was.containsKey(key)) {
                    items.add(new ItemChange(table, Kind.added, key, item));
                } else if (!was.get(key).equals(item)) {
                    items.add(new ItemChange(table, Kind.changed, key, item));
                }
            });
            was.keySet().stream().filter(key -> !now.containsKey(key)).forEach(key -> items.add(new ItemChange(table, Kind.removed, key, null)));
        }
        List<Event> events = new ArrayList<>();
        List<LocalEventBridge.Received> received = runtime.bus().received();
        List<BusRules.RoutedEvent> routed = runtime.busRules().routed();
        for (int i = 0; i < received.size(); i++) {
            events.add(new Event(received.get(i).detailType(), received.get(i).envelope().path("detail").path("keys"),
                    i < routed.size() ? routed.get(i).rules() : List.of()));
        }
        return new StackChanges(items, events, runtime.busRules().targetCalls(), runtime.lambdaApi().calls());
    }

    void print(PrintStream out) {
        out.println("\nItems written:");
        if (items.isEmpty()) {
            out.println("  (none)");
        }
        items.forEach(change -> out.printf("  %s %s %s%n", change.kind().mark, change.table(),
                change.item() == null ? change.key() : shorten(change.item().toString())));
        out.println("Events published:");
        if (events.isEmpty()) {
            out.println("  (none)");
        }
        events.forEach(event -> out.printf("  %s %s -> %s%n", event.detailType(), event.keys(),
                event.rules().isEmpty() ? "no rule matched" : String.join(", ", event.rules())));
        targetCalls.forEach(call -> out.printf("  rule %s invoked %s: %s%n", call.rule(), call.function(), call.result()));
        out.println("External calls:");
        if (calls.isEmpty()) {
            out.println("  (none)");
        }
        calls.forEach(call -> out.printf("  Lambda %s %s (%s) -> %d%n", call.method(), call.path(), call.region(), call.status()));
    }

    /** The changes as the fields of {@code document}: itemsWritten, eventsPublished, ruleTargets, externalCalls. */
    ObjectNode addTo(ObjectNode document) {
        ArrayNode written = document.putArray("itemsWritten");
        items.forEach(change -> written.addObject().put("table", change.table()).put("change", change.kind().name())
                .<ObjectNode>set("key", change.key()).set("item", change.item()));
        ArrayNode published = document.putArray("eventsPublished");
        events.forEach(event -> {
            ObjectNode node = published.addObject().put("detailType", event.detailType());
            node.set("keys", event.keys().isMissingNode() ? null : event.keys());
            ArrayNode rules = node.putArray("rules");
            event.rules().forEach(rules::add);
        });
        ArrayNode targets = document.putArray("ruleTargets");
        targetCalls.forEach(call -> targets.addObject().put("rule", call.rule()).put("function", call.function()).put("result", call.result()));
        ArrayNode external = document.putArray("externalCalls");
        calls.forEach(call -> external.addObject().put("service", "lambda").put("method", call.method()).put("path", call.path())
                .put("region", call.region()).put("status", call.status()));
        return document;
    }

    private static String shorten(String json) {
        return json.length() > 160 ? json.substring(0, 157) + "..." : json;
    }
}

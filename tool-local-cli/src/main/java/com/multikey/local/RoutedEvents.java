package com.multikey.local;

import com.multikey.emulator.TemplateRuntime;
import com.multikey.emulator.services.bus.BusRules;

import java.io.PrintStream;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The events the local bus routed during a demo, by detail type: how many, and the rules they matched. The demos
 * print them one way, with the Lambda API's calls after them.
 */
record RoutedEvents(Map<String, Integer> countByType, Map<String, List<String>> rulesByType) {

    /**
     * Prints the events {@code runtime}'s bus routed, their detail types padded to {@code typeWidth}, and the calls its
     * Lambda API answered.
     */
    static RoutedEvents print(PrintStream out, TemplateRuntime runtime, int typeWidth) {
        Map<String, Integer> byType = new TreeMap<>();
        Map<String, List<String>> rulesByType = new TreeMap<>();
        for (BusRules.RoutedEvent event : runtime.busRules().routed()) {
            byType.merge(event.detailType(), 1, Integer::sum);
            rulesByType.put(event.detailType(), event.rules());
        }
        out.println("\n== Events routed to the bus, and the rules they matched");
        byType.forEach((type, count) -> out.printf("  %-" + typeWidth + "s x%d  %s%n", type, count,
                rulesByType.get(type).isEmpty() ? "(no rule)" : "-> " + String.join(", ", rulesByType.get(type))));
        out.println("\n== Calls to the Lambda API");
        runtime.lambdaApi().calls().forEach(call -> out.printf("  %s %s (%s) -> %d%n", call.method(), call.path(), call.region(), call.status()));
        return new RoutedEvents(byType, rulesByType);
    }
}

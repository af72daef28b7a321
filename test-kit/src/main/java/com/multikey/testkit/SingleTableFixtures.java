package com.multikey.testkit;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Items of the single-table example ({@code examples/single-table}): pk/sk keyed projects, issues and layer versions. */
public final class SingleTableFixtures {

    private SingleTableFixtures() {
    }

    /**
     * Version {@code version} of the {@code requests} layer in {@code ap-southeast-1}; {@code status} (its {@code dplySts},
     * {@code latest} or {@code deprecated}) null for a version no longer deployed.
     */
    public static Map<String, AttributeValue> layerVersion(int version, String status) {
        Map<String, AttributeValue> layer = new LinkedHashMap<>();
        layer.put("pk", AttributeValue.fromS("lyr#ap-southeast-1.requests"));
        layer.put("sk", AttributeValue.fromS("lyrVrsn" + version + "#"));
        layer.put("arn", AttributeValue.fromS("arn:aws:lambda:ap-southeast-1:123456789012:layer:requests:" + version));
        layer.put("pckg", AttributeValue.fromS("requests"));
        layer.put("region", AttributeValue.fromS("ap-southeast-1"));
        layer.put("vrsn", AttributeValue.fromN(Integer.toString(version)));
        if (status != null) {
            layer.put("dplySts", AttributeValue.fromS(status));
        }
        return layer;
    }

    /**
     * The example's data as {@code local.jar demo --example single-table} writes it: two projects ({@code sk = PROJECT#…}),
     * five issues ({@code sk = ISSUE#<num>}, custom fields in the map {@code cf}, labels in the string set {@code labels}
     * when they have any) and five layer versions ({@code pk = lyr#<region>.<package>}, one with a TTL {@code exDt}).
     */
    public static List<Map<String, AttributeValue>> exampleItems() {
        List<Map<String, AttributeValue>> items = new ArrayList<>();
        items.add(item("PROJECT#p1", "PROJECT#p1", Map.of("name", s("Platform"))));
        items.add(item("PROJECT#p2", "PROJECT#p2", Map.of("name", s("Mobile"))));
        items.add(issue("PROJECT#p1", 1, "Login fails", Map.of("priority", n(2), "due", s("2026-12-01")), List.of("bug", "auth")));
        items.add(issue("PROJECT#p1", 2, "Slow search", Map.of("priority", n(1)), List.of("bug")));
        items.add(issue("PROJECT#p1", 3, "Write the guide", Map.of("due", s("2026-11-30")), List.of("docs")));
        items.add(issue("PROJECT#p1", 4, "Dark mode", Map.of("priority", n(2)), List.of()));
        items.add(issue("PROJECT#p2", 1, "Crash on start", Map.of("priority", n(1)), List.of("bug")));
        items.add(layer("us-east-1", "requests", 0, 13, "latest", null));
        items.add(layer("us-east-1", "requests", 11, 11, "deprecated", null));
        items.add(layer("us-east-1", "requests", 12, 12, "deprecated", 1_700_000_000L));
        items.add(layer("us-east-1", "boto", 0, 4, "latest", null));
        items.add(layer("eu-west-1", "requests", 0, 13, "latest", null));
        return items;
    }

    private static Map<String, AttributeValue> item(String pk, String sk, Map<String, AttributeValue> attributes) {
        Map<String, AttributeValue> item = new LinkedHashMap<>();
        item.put("pk", s(pk));
        item.put("sk", s(sk));
        item.putAll(attributes);
        return item;
    }

    private static Map<String, AttributeValue> issue(String project, int num, String title, Map<String, AttributeValue> fields,
                                                     List<String> labels) {
        Map<String, AttributeValue> attributes = new LinkedHashMap<>(Map.of("num", n(num), "title", s(title), "state", s("open"),
                "cf", AttributeValue.fromM(fields)));
        if (!labels.isEmpty()) {
            attributes.put("labels", AttributeValue.fromSs(labels));
        }
        return item(project, "ISSUE#" + num, attributes);
    }

    private static Map<String, AttributeValue> layer(String region, String pckg, int slot, int version, String status, Long expiresAt) {
        Map<String, AttributeValue> attributes = new LinkedHashMap<>(Map.of("pckg", s(pckg), "region", s(region), "vrsn", n(version),
                "dplySts", s(status), "arn", s("arn:aws:lambda:" + region + ":123456789012:layer:multikey-" + pckg + ":" + version)));
        if (expiresAt != null) {
            attributes.put("exDt", n(expiresAt));
        }
        return item("lyr#" + region + "." + pckg, "lyrVrsn" + slot + "#", attributes);
    }

    private static AttributeValue s(String value) {
        return AttributeValue.fromS(value);
    }

    private static AttributeValue n(long value) {
        return AttributeValue.fromN(Long.toString(value));
    }
}

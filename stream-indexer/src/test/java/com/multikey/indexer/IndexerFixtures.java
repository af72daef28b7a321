package com.multikey.indexer;

import com.multikey.common.StructuredLog;
import com.multikey.index.IssueImages;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.io.OutputStream;
import java.io.PrintStream;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/** What the indexer's tests share: a log that writes nowhere, and random issues. */
final class IndexerFixtures {

    private IndexerFixtures() {
    }

    static StructuredLog quietLog() {
        return new StructuredLog("test", new PrintStream(OutputStream.nullOutputStream()), Clock.systemUTC());
    }

    /** A random issue with up to five of the custom fields f0..f7, often keeping the current version's fields and num. */
    static Map<String, AttributeValue> randomIssue(String id, Random random, Map<String, AttributeValue> current) {
        Map<String, AttributeValue> fields = new HashMap<>();
        if (current != null && current.containsKey("custom_fields") && random.nextBoolean()) {
            fields.putAll(current.get("custom_fields").m());
            fields.put("f" + random.nextInt(8), randomValue(random));
        } else {
            int count = random.nextInt(6);
            for (int i = 0; i < count; i++) {
                fields.put("f" + random.nextInt(8), randomValue(random));
            }
        }
        if (!fields.isEmpty() && random.nextInt(4) == 0) {
            fields.remove(fields.keySet().iterator().next());
        }
        String project = "project#" + (random.nextInt(3));
        int num = current != null && random.nextInt(5) > 0 ? Integer.parseInt(current.get("num").n()) : 1 + random.nextInt(50);
        return IssueImages.issue(id, project, num, fields);
    }

    /** One of the kinds of value a custom field can hold, some of them hard to index. */
    private static AttributeValue randomValue(Random random) {
        return switch (random.nextInt(8)) {
            case 0 -> AttributeValue.fromS("2023-0" + (1 + random.nextInt(9)) + "-" + (10 + random.nextInt(18)));
            case 1 -> AttributeValue.fromS(List.of("", "Approved", "approved", "a\u0001b", "ünïcødé", "\uD83D\uDE80 launch").get(random.nextInt(6)));
            case 2 -> AttributeValue.fromN(List.of("42", "-1.5", "0", "1E+100", "3.14159", "-99999999999999999999999999999999999999").get(random.nextInt(6)));
            case 3 -> AttributeValue.fromBool(random.nextBoolean());
            case 4 -> AttributeValue.fromSs(List.of("red", "green", "blue").subList(0, 1 + random.nextInt(3)));
            case 5 -> AttributeValue.fromNs(List.of("1", "2", "3").subList(0, 1 + random.nextInt(3)));
            case 6 -> AttributeValue.fromL(List.of(AttributeValue.fromS("x"), AttributeValue.fromN("1"), AttributeValue.fromS("x")));
            // longer than a sort key can hold, but different before the cut, so the Query order is the value order
            default -> AttributeValue.fromS("long " + random.nextInt(3) + "y".repeat(1500));
        };
    }
}

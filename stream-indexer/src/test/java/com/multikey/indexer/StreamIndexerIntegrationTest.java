package com.multikey.indexer;

import com.multikey.index.IndexItem;
import com.multikey.index.IndexOrder;
import com.multikey.index.IssueImages;
import com.multikey.local.runtime.GridSample;
import com.multikey.testkit.Fixtures;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/** The real handler against embedded DynamoDB Local, fed from the app table's own stream. */
class StreamIndexerIntegrationTest {

    private static IndexerStack stack;

    @BeforeAll
    static void start() {
        stack = new IndexerStack();
    }

    @AfterAll
    static void stop() {
        stack.close();
    }

    @BeforeEach
    void freshTables() {
        stack.reset();
    }

    @Test
    void gridSample_queriesInTheExpectedOrder_bothDirections() {
        GridSample grid = Fixtures.grid();
        grid.issues().forEach(stack::put);

        stack.pump();

        grid.expectedIndexOrder().forEach((attribId, expected) -> {
            assertThat(stack.query(attribId, true)).as("ascending %s", attribId).isEqualTo(expected);
            assertThat(stack.query(attribId, false)).as("descending %s", attribId).isEqualTo(expected.reversed());
        });
        assertThat(stack.indexItems()).hasSize(6).isEqualTo(stack.expectedIndex());
    }

    @Test
    void randomHistory_of200IssuesAnd2000Updates_endsWithTheIndexOfTheFinalTable() {
        Random random = new Random(20261122);
        Map<String, Map<String, AttributeValue>> live = new LinkedHashMap<>();
        for (int update = 0; update < 2000; update++) {
            String id = "issue#" + Integer.toHexString(0x1000 + random.nextInt(200));
            Map<String, AttributeValue> current = live.get(id);
            int choice = random.nextInt(10);
            if (current != null && choice == 0) {
                stack.delete(id);
                live.remove(id);
            } else if (current != null && choice == 1) {
                Map<String, AttributeValue> renamed = IssueImages.with(current, "name", AttributeValue.fromS("renamed " + update));
                stack.put(renamed);
                live.put(id, renamed);
            } else {
                Map<String, AttributeValue> next = randomIssue(id, random, current);
                stack.put(next);
                live.put(id, next);
            }
            if (random.nextInt(150) == 0) {
                stack.pump();
            }
        }
        stack.pump();

        assertThat(live).hasSizeGreaterThan(100);
        assertThat(stack.indexItems()).isEqualTo(stack.expectedIndex());
        for (String attribId : List.of("f0", "f3", "f7")) {
            List<String> ascending = stack.queryItems(attribId, true).stream().map(StreamIndexerIntegrationTest::describe).toList();
            List<String> expected = stack.expectedIndex().stream().filter(i -> i.attribId().equals(attribId))
                    .sorted((a, b) -> IndexOrder.ENTRY.compare(entry(a), entry(b)))
                    .map(StreamIndexerIntegrationTest::describe).toList();
            assertThat(ascending).as(attribId).isEqualTo(expected);
        }
    }

    private static String describe(IndexItem item) {
        String value = item.value().toString();
        return (value.length() > 40 ? value.substring(0, 40) + "..." : value) + " " + item.num() + " " + item.issueId();
    }

    private static IndexOrder.Entry entry(IndexItem item) {
        return new IndexOrder.Entry(item.value(), item.num(), item.issueId());
    }

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

    static AttributeValue randomValue(Random random) {
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

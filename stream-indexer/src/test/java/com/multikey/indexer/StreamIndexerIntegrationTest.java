package com.multikey.indexer;

import com.multikey.emulator.fixtures.GridSample;
import com.multikey.index.IndexItem;
import com.multikey.index.IndexOrder;
import com.multikey.index.IssueImages;
import com.multikey.testkit.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/** The real handler against the embedded DynamoDB engine, fed from the app table's own stream. */
@ExtendWith(IndexerStackExtension.class)
class StreamIndexerIntegrationTest {

    private final IndexerStack stack;

    StreamIndexerIntegrationTest(IndexerStack stack) {
        this.stack = stack;
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
        assertThat(stack.indexItems()).hasSize(6).isEqualTo(stack.expectedStoredIndex());
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
                Map<String, AttributeValue> next = IndexerFixtures.randomIssue(id, random, current);
                stack.put(next);
                live.put(id, next);
            }
            if (random.nextInt(150) == 0) {
                stack.pump();
            }
        }
        stack.pump();

        assertThat(live).hasSizeGreaterThan(100);
        assertThat(stack.indexItems()).isEqualTo(stack.expectedStoredIndex());
        for (String attribId : List.of("f0", "f3", "f7")) {
            List<String> ascending = stack.queryItems(attribId, true).stream().map(StreamIndexerIntegrationTest::describe).toList();
            List<String> expected = stack.expectedIndex().stream().filter(i -> i.attribId().equals(attribId))
                    .sorted((a, b) -> IndexOrder.ENTRY.compare(entry(a), entry(b)))
                    .map(i -> describe(i.toItem())).toList();
            assertThat(ascending).as(attribId).isEqualTo(expected);
        }
    }

    private static String describe(Map<String, AttributeValue> item) {
        String value = String.valueOf(item.get("value"));
        return (value.length() > 40 ? value.substring(0, 40) + "..." : value) + " " + item.get("num").n() + " " + item.get("issueId").s();
    }

    private static IndexOrder.Entry entry(IndexItem item) {
        return new IndexOrder.Entry(item.value(), new BigDecimal(item.toItem().get("num").n()), item.itemKeyText());
    }
}

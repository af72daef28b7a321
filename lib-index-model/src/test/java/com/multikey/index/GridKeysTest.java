package com.multikey.index;

import com.multikey.index.definition.GridState;
import com.multikey.index.definition.IndexDefinition;
import com.multikey.index.definition.IndexDefinitions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A position in one of the issue grid's layouts, translated to the other, has exactly the same items after it (in the
 * reader's order) — or, for a text value cut in either layout, at least those: nothing lost.
 */
class GridKeysTest {

    private static final IndexDefinitions BOTH = IndexDefinitions.packaged().withGridState(GridState.MIGRATING);
    private static final IndexDefinition GROUPED = BOTH.groupedGrid().orElseThrow();
    private static final IndexDefinition FIELD_PARTITIONED = BOTH.fieldPartitionedGrid().orElseThrow();
    private static final int VALUE_BYTES = new IndexProjector(BOTH).bounds(GROUPED.name()).valueBytes();

    /** An item in both layouts: the same (issue, value). */
    private record Entry(String identity, IndexKey fieldPartitioned, IndexKey grouped, boolean longText) {
    }

    @ParameterizedTest
    @CsvSource({"1, true", "2, false", "3, true", "4, false"})
    void translate_everyPositionOfOneLayout_hasTheSameItemsAfterItInTheOther(long seed, boolean ascending) {
        // given: random issues of one project, one field, values of every kind (text around both cuts, low characters),
        // ids with the separator and the escape character
        Random random = new Random(seed);
        IndexProjector projector = new IndexProjector(BOTH);
        List<Entry> entries = new ArrayList<>();
        for (int i = 0; i < 120; i++) {
            String id = "issue#" + (random.nextInt(4) == 0 ? "\u0001\u0002" : "") + random.nextInt(60) + (random.nextBoolean() ? "\u0000x" : "");
            Map<String, AttributeValue> issue = Map.of("id", AttributeValue.fromS(id), "project", AttributeValue.fromS("p1"),
                    "num", AttributeValue.fromN(Integer.toString(random.nextInt(5) - 2)),
                    "custom_fields", AttributeValue.fromM(Map.of("f", value(random))));
            ItemKey key = ItemKey.ofString("id", id);
            Map<String, IndexItem> old = projector.project(FIELD_PARTITIONED.name(), key, issue).items().stream()
                    .collect(Collectors.toMap(item -> item.value().toString(), item -> item));
            for (IndexItem item : projector.project(GROUPED.name(), key, issue).items()) {
                IndexItem twin = old.get(item.value().toString());
                boolean longText = item.value() instanceof IndexValue.Text text && TextEncoding.utf8Length(text.value()) > VALUE_BYTES - 36;
                entries.add(new Entry(id + "/" + item.value(), twin.key(), item.key(), longText));
            }
        }

        // when / then: from each layout to the other
        for (Entry at : entries) {
            check(entries, at, true, ascending);
            check(entries, at, false, ascending);
        }
    }

    private static void check(List<Entry> entries, Entry at, boolean toGrouped, boolean ascending) {
        IndexKey from = toGrouped ? at.fieldPartitioned() : at.grouped();
        GridKeys.Position position = GridKeys.translate(toGrouped ? GROUPED : FIELD_PARTITIONED, "p1", "f", VALUE_BYTES, ascending,
                from.attribId(), from.sortKey());
        assertThat(position).isNotNull();
        assertThat(position.partition()).isEqualTo(toGrouped ? at.grouped().attribId() : at.fieldPartitioned().attribId());
        Set<String> expected = after(entries, from.sortKey(), !toGrouped, ascending);
        Set<String> resumed = after(entries, position.sortKey(), toGrouped, ascending);
        if (at.longText()) {
            Set<String> lost = new java.util.HashSet<>(expected);
            lost.removeAll(resumed);
            String sample = entries.stream().filter(e -> lost.contains(e.identity())).findFirst()
                    .map(e -> show((toGrouped ? e.grouped() : e.fieldPartitioned()).sortKey())).orElse("");
            assertThat(lost).as("nothing lost after %s (%s -> %s); e.g. %s", show(at.identity()), show(from.sortKey()), show(position.sortKey()), sample)
                    .isEmpty();
        } else {
            assertThat(resumed).as("the same items after %s", at.identity()).isEqualTo(expected);
        }
    }

    private static String show(String text) {
        return text.replace("x".repeat(600), "x*600").replace("\u0001", "<1>").replace("\u0002", "<2>").replace("\uDBFF\uDFFF", "<max>");
    }

    /** The items a Query resumed after {@code key} returns, in the reader's order. */
    private static Set<String> after(List<Entry> entries, String key, boolean grouped, boolean ascending) {
        return entries.stream().filter(e -> {
            int order = KeyOrder.compare((grouped ? e.grouped() : e.fieldPartitioned()).sortKey(), key);
            return ascending ? order > 0 : order < 0;
        }).map(Entry::identity).collect(Collectors.toSet());
    }

    private static AttributeValue value(Random random) {
        return switch (random.nextInt(6)) {
            case 0 -> AttributeValue.fromN(Integer.toString(random.nextInt(7) - 3));
            case 1 -> AttributeValue.fromBool(random.nextBoolean());
            case 2 -> AttributeValue.fromS("v" + (random.nextBoolean() ? "\u0001" : "") + random.nextInt(4));
            case 3 -> AttributeValue.fromSs(List.of("a" + random.nextInt(3), "b" + random.nextInt(3)));
            default -> AttributeValue.fromS("x".repeat(640 + random.nextInt(120)) + random.nextInt(3));
        };
    }
}

package com.multikey.index;

import com.multikey.index.definition.DefinitionsYaml;
import com.multikey.index.definition.IndexDefinitions;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Values that look alike once written into an index key (separators, escapes, type tags, number spellings, binary,
 * empty strings, characters outside the BMP) never share a partition or a sort key unless they are the same value.
 */
class GroupedLayoutCollisionTest {

    private static final IndexDefinitions DEFINITIONS = DefinitionsYaml.parse("""
            version: 1
            table: {partitionKey: {name: pk}, sortKey: {name: sk}}
            indexes:
              - name: by-group
                group: [g, h]
                values: {entriesOf: cf}
                orderBy: [t]
            """);
    private static final IndexProjector PROJECTOR = new IndexProjector(DEFINITIONS);

    private static AttributeValue s(String value) {
        return AttributeValue.fromS(value);
    }

    private static AttributeValue n(String value) {
        return AttributeValue.fromN(value);
    }

    private static List<IndexKey> keys(String pk, String sk, AttributeValue g, AttributeValue h, String entry, AttributeValue t) {
        Map<String, AttributeValue> item = new LinkedHashMap<>();
        item.put("pk", s(pk));
        item.put("sk", s(sk));
        item.put("g", g);
        item.put("h", h);
        if (t != null) {
            item.put("t", t);
        }
        item.put("cf", AttributeValue.fromM(Map.of(entry, s("v"))));
        ItemProjection projection = PROJECTOR.project(ItemKey.of(DEFINITIONS.table(), item).orElseThrow(), item);
        assertThat(projection.rejections()).isEmpty();
        return projection.items().stream().map(IndexItem::key).toList();
    }

    @Test
    void project_whenGroupsAndEntriesLookAlikeInAKey_givesEachItsOwnPartition() {
        // given: pairs (g, h, entry) that would share a partition if parts were joined or tagged carelessly
        AttributeValue b = AttributeValue.fromB(SdkBytes.fromUtf8String("x"));
        List<List<Object>> groups = List.of(
                List.of(s("a|b"), s("c"), "e"), List.of(s("a"), s("b|c"), "e"), List.of(s("a"), s("b"), "c|e"),
                List.of(s("a%7Cb"), s("c"), "e"), List.of(s("%N1"), s("c"), "e"), List.of(n("1"), s("c"), "e"),
                List.of(s("%Ttrue"), s("c"), "e"), List.of(AttributeValue.fromBool(true), s("c"), "e"), List.of(s("true"), s("c"), "e"),
                List.of(b, s("c"), "e"), List.of(s("%B" + java.util.Base64.getEncoder().encodeToString("x".getBytes(StandardCharsets.UTF_8))), s("c"), "e"),
                List.of(s(""), s("c"), "e"), List.of(s("c"), s(""), "e"), List.of(s(""), s(""), "c|e"), List.of(s(""), s(""), ""),
                List.of(s("\uD83D\uDE00"), s("c"), "e"), List.of(s("\uFFFF"), s("c"), "e"), List.of(n("-1"), s("c"), "e"),
                List.of(n("1E-130"), s("c"), "e"), List.of(n("9.9999999999999999999999999999999999999E+125"), s("c"), "e"));

        // when
        Map<String, List<Object>> partitions = new HashMap<>();
        for (List<Object> group : groups) {
            String partition = keys("P", "S", (AttributeValue) group.get(0), (AttributeValue) group.get(1), (String) group.get(2), null)
                    .get(0).attribId();
            // then
            assertThat(partitions.put(partition, group)).as("%s and %s", partitions.get(partition), group).isNull();
        }
    }

    @Test
    void project_whenNumbersAreSpelledDifferently_givesOnePartition() {
        List<String> partitions = new ArrayList<>();
        for (String spelling : List.of("100000", "1E+5", "1e5", "100000.000", "0.1E6")) {
            partitions.add(keys("P", "S", n(spelling), s("c"), "e", null).get(0).attribId());
        }
        assertThat(partitions).containsOnly("by-group|%N1E+5|c|e");
    }

    @Test
    void project_whenKeysAndTieBreakersLookAlikeInASortKey_givesEachItsOwnSortKey() {
        // given: item keys and tie-breakers around the separators and escapes a sort key uses
        List<List<Object>> items = List.of(
                List.of("a\u0001b", "c", s("t")), List.of("a", "b\u0001c", s("t")), List.of("a\u0002", "c", s("t")),
                List.of("a", "\u0002c", s("t")), List.of("a\u0000", "c", s("t")), List.of("a", "c", s("t")),
                List.of("a", "c", s("")), List.of("a", "c", n("0")), List.of("a", "c", AttributeValue.fromBool(false)),
                List.of("a", "c\uD83D\uDE00", s("t")), List.of("a", "c\uFFFF", s("t")));

        // when
        Map<String, List<Object>> sortKeys = new HashMap<>();
        for (List<Object> item : items) {
            IndexKey key = keys((String) item.get(0), (String) item.get(1), s("g"), s("h"), "e", (AttributeValue) item.get(2)).get(0);
            // then
            assertThat(sortKeys.put(key.sortKey(), item)).as("%s and %s", sortKeys.get(key.sortKey()), item).isNull();
        }
        String absent = keys("a", "c", s("g"), s("h"), "e", null).get(0).sortKey();
        assertThat(sortKeys).doesNotContainKey(absent);
    }
}

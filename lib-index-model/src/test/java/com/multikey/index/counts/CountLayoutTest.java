package com.multikey.index.counts;

import com.multikey.index.IndexChange;
import com.multikey.index.IndexItem;
import com.multikey.index.IndexKey;
import com.multikey.index.IndexProjector;
import com.multikey.index.ItemKey;
import com.multikey.index.definition.DefinitionsYaml;
import com.multikey.index.definition.IndexDefinitions;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class CountLayoutTest {

    private static final IndexDefinitions DEFINITIONS = DefinitionsYaml.parse("""
            version: 1
            table: {partitionKey: {name: id, type: S}}
            indexes:
              - name: grid
                group: project
                values: {entriesOf: cf}
                orderBy: num
                counts: {total: true, facets: [state, "a|b%"], shards: 4}
              - name: tags
                group: project
                values: {elementsOf: tags}
            """);
    private final IndexProjector projector = new IndexProjector(DEFINITIONS);
    private final CountLayout layout = new CountLayout(DEFINITIONS);

    private Set<IndexItem> project(String id, Map<String, AttributeValue> cf) {
        Map<String, AttributeValue> item = new LinkedHashMap<>();
        item.put("id", AttributeValue.fromS(id));
        item.put("project", AttributeValue.fromS("p|1"));
        item.put("num", AttributeValue.fromN("3"));
        item.put("cf", AttributeValue.fromM(cf));
        item.put("tags", AttributeValue.fromL(List.of(AttributeValue.fromS("x"))));
        return projector.project(ItemKey.ofString("id", id), item).items();
    }

    @Test
    void counterOf_givesMembersTheTotal_declaredFacetsTheirValue_andNothingElse() {
        // when
        Set<IndexItem> items = project("issue#1", Map.of("state", AttributeValue.fromS("open"),
                "a|b%", AttributeValue.fromN("1.50"), "other", AttributeValue.fromS("open")));

        // then: a member, two counted values, one uncounted entry and an uncounted index
        Map<String, String> counters = new LinkedHashMap<>();
        for (IndexItem item : items) {
            counters.put(item.attribId(), layout.counterOf(item).map(ref -> ref.counter().attribId() + " " + ref.counter().sortKey()).orElse("-"));
        }
        int shard = CountLayout.shardOf(ItemKey.ofString("id", "issue#1").toString(), 4);
        assertThat(counters).containsOnly(
                Map.entry("grid|p%7C1|%M", "grid|p%7C1|%C total|" + shard),
                Map.entry("grid|p%7C1|state", "grid|p%7C1|%C facet|state|" + encoded(items, "grid|p%7C1|state") + "|" + shard),
                Map.entry("grid|p%7C1|a%7Cb%25", "grid|p%7C1|%C facet|a%7Cb%25|" + encoded(items, "grid|p%7C1|a%7Cb%25") + "|" + shard),
                Map.entry("grid|p%7C1|other", "-"),
                Map.entry("tags|p%7C1", "-"));
    }

    @Test
    void counterOf_aDeletesKey_isTheCounterOfTheItemThatWasThere() {
        for (IndexItem item : project("issue#7", Map.of("state", AttributeValue.fromS("closed"), "a|b%", AttributeValue.fromBool(true)))) {
            assertThat(layout.counterOf(item.key(), item.source()).map(CounterRef::counter))
                    .isEqualTo(layout.counterOf(item).map(CounterRef::counter));
        }
    }

    @Test
    void shardOf_spreadsItemKeysEvenlyOverTheShards() {
        int[] perShard = new int[8];
        for (int i = 0; i < 80_000; i++) {
            perShard[CountLayout.shardOf(ItemKey.ofString("id", "issue#" + i).toString(), 8)]++;
        }
        for (int count : perShard) {
            assertThat(count).isBetween(9_500, 10_500);
        }
    }

    @Test
    void transactions_holdAtMost99ItemsWithTheirCounters_andPutEachCounterInAsFewCallsAsItCan() {
        // given: 300 items of 3 values, puts assumed new
        List<CountedWrites.Counted> writes = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            String state = List.of("open", "triage", "closed").get(i % 3);
            for (IndexItem item : project("issue#" + i, Map.of("state", AttributeValue.fromS(state)))) {
                layout.counterOf(item).filter(ref -> !ref.isTotal())
                        .ifPresent(ref -> writes.add(CountedWrites.of(new IndexChange.Put(item), ref, false)));
            }
        }

        // when
        List<List<CountedWrites.Counted>> calls = CountedWrites.transactions(writes, CountedWrites.MAX_ITEMS, 0);

        // then: every write once, each call within 99 items, 12 counters (3 values x 4 shards) touched once or twice
        assertThat(calls.stream().mapToInt(List::size).sum()).isEqualTo(300);
        Map<IndexKey, Integer> callsPerCounter = new LinkedHashMap<>();
        for (List<CountedWrites.Counted> call : calls) {
            List<TransactWriteItem> items = CountedWrites.items("index", call);
            assertThat(items).hasSizeLessThanOrEqualTo(99);
            Set<IndexKey> counters = new HashSet<>();
            call.forEach(c -> counters.add(c.counter().counter()));
            assertThat(items).hasSize(call.size() + counters.size());
            counters.forEach(counter -> callsPerCounter.merge(counter, 1, Integer::sum));
        }
        assertThat(callsPerCounter).hasSize(12);
        assertThat(callsPerCounter.values().stream().mapToInt(Integer::intValue).sum()).isLessThanOrEqualTo(12 + calls.size() - 1);
    }

    @Test
    void counted_deltaFollowsItsAssumption_andADeleteOfAnEmptyKeyWritesNothing() {
        IndexItem item = project("issue#2", Map.of("state", AttributeValue.fromS("open"))).stream()
                .filter(i -> i.attribId().endsWith("state")).findFirst().orElseThrow();
        CounterRef ref = layout.counterOf(item).orElseThrow();

        CountedWrites.Counted put = CountedWrites.of(new IndexChange.Put(item), ref, false);
        CountedWrites.Counted delete = CountedWrites.of(new IndexChange.Delete(item.key()), ref, false);

        assertThat(put.delta()).isEqualTo(1);
        assertThat(put.flipped().delta()).isZero();
        assertThat(delete.delta()).isEqualTo(-1);
        assertThat(delete.flipped().delta()).isZero();
        assertThat(delete.flipped().writes()).isFalse();
    }

    private static String encoded(Set<IndexItem> items, String attribId) {
        return CountLayout.encodedValue(items.stream().filter(i -> i.attribId().equals(attribId)).findFirst().orElseThrow().sortKey());
    }
}

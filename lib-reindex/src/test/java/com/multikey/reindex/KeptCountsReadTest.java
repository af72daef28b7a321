package com.multikey.reindex;

import com.multikey.index.IndexKey;
import com.multikey.index.IndexProjector;
import com.multikey.index.counts.CountLayout;
import com.multikey.index.counts.GroupCounts;
import com.multikey.index.counts.KeptCounts;
import com.multikey.index.definition.DefinitionsYaml;
import com.multikey.index.definition.IndexDefinition;
import com.multikey.testkit.LocalTables;
import com.multikey.testkit.LocalTablesExtension;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The kept counts reader: shards summed, most frequent first, top N and the rest, zeros skipped, two calls. */
@ExtendWith(LocalTablesExtension.class)
class KeptCountsReadTest {

    private static final String INDEX = "ReadCountsIndex";
    private static final IndexDefinition GRID = DefinitionsYaml.parse("""
            version: 1
            table: {partitionKey: {name: id, type: S}}
            indexes:
              - {name: grid, group: project, values: {entriesOf: cf}, counts: {total: true, facets: [state, size], shards: 3}}
            """).index("grid").orElseThrow();
    private final DynamoDbClient dynamoDb;
    private final String counters = CountLayout.counterPartition(IndexProjector.partition(GRID, List.of(AttributeValue.fromS("p1")), null));

    KeptCountsReadTest(LocalTables tables) {
        this.dynamoDb = tables.dynamoDb();
    }

    @BeforeEach
    void createTable() {
        if (dynamoDb.listTables().tableNames().contains(INDEX)) {
            dynamoDb.deleteTable(b -> b.tableName(INDEX));
        }
        dynamoDb.createTable(b -> b.tableName(INDEX).billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(a -> a.attributeName(IndexKey.ATTRIB_ID).attributeType(ScalarAttributeType.S),
                        a -> a.attributeName(IndexKey.SORT_KEY).attributeType(ScalarAttributeType.S))
                .keySchema(k -> k.attributeName(IndexKey.ATTRIB_ID).keyType(KeyType.HASH),
                        k -> k.attributeName(IndexKey.SORT_KEY).keyType(KeyType.RANGE)));
    }

    private void counter(String sortKey, long count, String value) {
        Map<String, AttributeValue> item = new HashMap<>();
        item.put(IndexKey.ATTRIB_ID, AttributeValue.fromS(counters));
        item.put(IndexKey.SORT_KEY, AttributeValue.fromS(sortKey));
        item.put("index", AttributeValue.fromS("grid"));
        item.put(CountLayout.KIND, AttributeValue.fromS(value == null ? CountLayout.TOTAL : CountLayout.FACET));
        item.put(CountLayout.COUNT, AttributeValue.fromN(Long.toString(count)));
        if (value != null) {
            item.put("value", AttributeValue.fromS(value));
        }
        dynamoDb.putItem(b -> b.tableName(INDEX).item(item));
    }

    @Test
    void read_sumsTheShards_listsTheMostFrequentFirst_andCountsTheRest() {
        // given: open 5+2, triage 1 (a shard went to 0), closed 4, gone 0 on every shard, wontfix 4 (ties: value order)
        counter("total|0", 6, null);
        counter("total|2", 7, null);
        counter("facet|state|Sopen|0", 5, "open");
        counter("facet|state|Sopen|2", 2, "open");
        counter("facet|state|Striage|1", 1, "triage");
        counter("facet|state|Striage|2", 0, "triage");
        counter("facet|state|Sclosed|1", 4, "closed");
        counter("facet|state|Sgone|0", 0, "gone");
        counter("facet|state|Swontfix|0", 4, "wontfix");
        counter("facet|size|N1|0", 50, null);
        KeptCounts reader = new KeptCounts(dynamoDb, INDEX);

        // when
        GroupCounts top2 = reader.read(GRID, List.of(AttributeValue.fromS("p1")), "state", 2).orElseThrow();

        // then
        assertThat(top2.total()).contains(13L);
        assertThat(top2.values()).extracting(v -> v.value().orElseThrow().s(), GroupCounts.ValueCount::count)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("open", 7L), org.assertj.core.groups.Tuple.tuple("closed", 4L));
        assertThat(top2.otherValues()).isEqualTo(2);
        assertThat(top2.otherCount()).isEqualTo(5);
        assertThat(top2.calls()).isEqualTo(2);
    }

    @Test
    void read_whenTheFieldIsNoFacet_givesTheTotalAlone_andAnIndexWithoutCountsGivesNothing() {
        counter("total|1", 3, null);
        KeptCounts reader = new KeptCounts(dynamoDb, INDEX);

        GroupCounts total = reader.read(GRID, List.of(AttributeValue.fromS("p1")), Optional.empty(), 10).orElseThrow();

        assertThat(total.total()).contains(3L);
        assertThat(total.values()).isEmpty();
        assertThat(total.calls()).isEqualTo(1);
        IndexDefinition uncounted = DefinitionsYaml.parse("version: 1\ntable: {partitionKey: {name: id, type: S}}\nindexes:\n"
                + "  - {name: plain, group: project, values: {entriesOf: cf}}\n").index("plain").orElseThrow();
        assertThat(reader.read(uncounted, List.of(AttributeValue.fromS("p1")), "state", 10)).isEmpty();
        assertThatThrownBy(() -> reader.read(GRID, List.of(AttributeValue.fromS("p1")), "state", 101))
                .isInstanceOf(IllegalArgumentException.class);
    }
}

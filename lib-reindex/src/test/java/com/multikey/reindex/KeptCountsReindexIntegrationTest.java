package com.multikey.reindex;

import com.multikey.index.IndexKey;
import com.multikey.index.IndexProjector;
import com.multikey.index.counts.CountLayout;
import com.multikey.index.counts.GroupCounts;
import com.multikey.index.counts.KeptCounts;
import com.multikey.index.definition.DefinitionsYaml;
import com.multikey.index.definition.IndexDefinition;
import com.multikey.index.definition.IndexDefinitions;
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

import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Backfill keeps the declared counts, verify finds counters that differ from the index items they count (and those
 * missing, as when counts are declared on an index that already holds items), and repair sets them right, on the
 * local DynamoDB engine.
 */
@ExtendWith(LocalTablesExtension.class)
class KeptCountsReindexIntegrationTest {

    private static final String TABLE = "CountedItems";
    private static final String INDEX = "CountedIndex";
    private static final String YAML = """
            version: 1
            table: {partitionKey: {name: pk, type: S}, sortKey: {name: sk, type: S}}
            indexes:
              - name: fields
                covers: [{attribute: sk, beginsWith: "ISSUE#"}]
                group: pk
                values: {entriesOf: cf}
                orderBy: num
                counts: {total: true, facets: [state, prio], shards: 4}
              - name: labels
                group: pk
                values: {elementsOf: labels}
                counts: {facets: [labels], shards: 2}
            """;
    static final IndexDefinitions COUNTED = DefinitionsYaml.parse(YAML);
    static final IndexDefinitions UNCOUNTED = DefinitionsYaml.parse(YAML.replaceAll("(?m)^ +counts: .*\\n", ""));
    private final DynamoDbClient dynamoDb;

    KeptCountsReindexIntegrationTest(LocalTables tables) {
        this.dynamoDb = tables.dynamoDb();
    }

    @BeforeEach
    void createTables() {
        for (String table : List.of(TABLE, INDEX)) {
            if (dynamoDb.listTables().tableNames().contains(table)) {
                dynamoDb.deleteTable(b -> b.tableName(table));
            }
        }
        dynamoDb.createTable(b -> b.tableName(TABLE).billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(a -> a.attributeName("pk").attributeType(ScalarAttributeType.S),
                        a -> a.attributeName("sk").attributeType(ScalarAttributeType.S))
                .keySchema(k -> k.attributeName("pk").keyType(KeyType.HASH), k -> k.attributeName("sk").keyType(KeyType.RANGE)));
        dynamoDb.createTable(b -> b.tableName(INDEX).billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(a -> a.attributeName(IndexKey.ATTRIB_ID).attributeType(ScalarAttributeType.S),
                        a -> a.attributeName(IndexKey.SORT_KEY).attributeType(ScalarAttributeType.S))
                .keySchema(k -> k.attributeName(IndexKey.ATTRIB_ID).keyType(KeyType.HASH),
                        k -> k.attributeName(IndexKey.SORT_KEY).keyType(KeyType.RANGE)));
        for (int p = 0; p < 2; p++) {
            for (int i = 1; i <= 40; i++) {
                Map<String, AttributeValue> issue = new LinkedHashMap<>();
                issue.put("pk", s("PROJECT#p" + p));
                issue.put("sk", s("ISSUE#" + i));
                issue.put("num", AttributeValue.fromN(Integer.toString(i)));
                Map<String, AttributeValue> cf = new LinkedHashMap<>();
                cf.put("state", s(i % 3 == 0 ? "closed" : i % 3 == 1 ? "open" : "triage"));
                if (i % 4 != 0) {
                    cf.put("prio", AttributeValue.fromN(Integer.toString(i % 5)));
                }
                issue.put("cf", AttributeValue.fromM(cf));
                issue.put("labels", AttributeValue.fromL(List.of(s("l" + i % 3), s("l" + i % 7))));
                dynamoDb.putItem(b -> b.tableName(TABLE).item(issue));
            }
        }
    }

    private void backfill(IndexDefinitions definitions) throws Exception {
        new Backfill(dynamoDb, TABLE, INDEX, IndexScope.all(definitions), 100_000)
                .run(CheckpointStore.open(null, 3), 3, p -> { }, Duration.ofSeconds(1));
    }

    private Verifier.Report verify(boolean repair) {
        return new Verifier(dynamoDb, TABLE, INDEX, IndexScope.all(COUNTED)).verify(repair);
    }

    @Test
    void backfill_keepsEveryCountEqualToABruteForceCountOfTheItems_andVerifyFindsNoDrift() throws Exception {
        backfill(COUNTED);

        assertCountsMatchTheItems();
        assertThat(verify(false).clean()).isTrue();
    }

    @Test
    void backfill_twice_countsEachIndexItemOnce() throws Exception {
        backfill(COUNTED);
        backfill(COUNTED);

        assertCountsMatchTheItems();
    }

    @Test
    void verify_whenCountersDriftedOrVanished_reportsThem_andRepairSetsThemToTheIndexItemsTheyCount() throws Exception {
        // given: counts kept, then one counter raised, one set negative, one removed
        backfill(COUNTED);
        List<IndexKey> counters = counterKeys();
        dynamoDb.updateItem(b -> b.tableName(INDEX).key(counters.get(0).toKey()).updateExpression("ADD #c :d")
                .expressionAttributeNames(Map.of("#c", CountLayout.COUNT)).expressionAttributeValues(Map.of(":d", AttributeValue.fromN("5"))));
        dynamoDb.updateItem(b -> b.tableName(INDEX).key(counters.get(1).toKey()).updateExpression("SET #c = :d")
                .expressionAttributeNames(Map.of("#c", CountLayout.COUNT)).expressionAttributeValues(Map.of(":d", AttributeValue.fromN("-2"))));
        dynamoDb.deleteItem(b -> b.tableName(INDEX).key(counters.get(2).toKey()));

        // when
        Verifier.Report found = verify(false);
        Verifier.Report repaired = verify(true);

        // then
        assertThat(found.staleCount()).isEqualTo(2);
        assertThat(found.missingCount()).isEqualTo(1);
        assertThat(repaired.repairedItems()).isEqualTo(3);
        assertThat(verify(false).clean()).isTrue();
        assertCountsMatchTheItems();
    }

    @Test
    void verify_whenCountsAreDeclaredOnAnIndexThatHoldsItems_findsThemMissing_andRepairKeepsThem() throws Exception {
        // given: the index built before it declared counts
        backfill(UNCOUNTED);

        // when
        Verifier.Report found = verify(false);
        Verifier.Report repaired = verify(true);

        // then: the member items and every counter are missing, and repair writes them
        assertThat(found.missingCount()).isPositive();
        assertThat(repaired.repairedItems()).isPositive();
        assertThat(verify(false).clean()).isTrue();
        assertCountsMatchTheItems();
    }

    @Test
    void targetedRepair_ofItemsWhoseStreamRecordsFailed_movesTheirCountsWithTheirIndexItems() throws Exception {
        // given: counts kept, then items changed (a value, a group move, a delete) whose records never reached the indexer
        backfill(COUNTED);
        List<Map<String, AttributeValue>> seen = new ArrayList<>();
        for (int i : List.of(3, 4, 5)) {
            seen.add(dynamoDb.getItem(b -> b.tableName(TABLE).key(key("PROJECT#p0", i))).item());
        }
        Map<String, AttributeValue> changed = new LinkedHashMap<>(seen.get(0));
        changed.put("cf", AttributeValue.fromM(Map.of("state", s("open"), "prio", AttributeValue.fromN("9"))));
        dynamoDb.putItem(b -> b.tableName(TABLE).item(changed));
        Map<String, AttributeValue> moved = new LinkedHashMap<>(seen.get(1));
        moved.put("pk", s("PROJECT#p1"));
        moved.put("sk", s("ISSUE#104"));
        dynamoDb.putItem(b -> b.tableName(TABLE).item(moved));
        dynamoDb.deleteItem(b -> b.tableName(TABLE).key(key("PROJECT#p0", 4)));
        dynamoDb.deleteItem(b -> b.tableName(TABLE).key(key("PROJECT#p0", 5)));

        // when: redrive's repair of the failed items, each twice (a redrive delivered again)
        TargetedRepair repair = new TargetedRepair(dynamoDb, TABLE, INDEX, IndexScope.all(COUNTED));
        IndexProjector projector = new IndexProjector(COUNTED);
        for (int round = 0; round < 2; round++) {
            for (Map<String, AttributeValue> image : List.of(seen.get(0), seen.get(1), seen.get(2), moved)) {
                repair.repair(projector.keyOf(image).orElseThrow(), List.of(image), false);
            }
        }

        // then
        assertCountsMatchTheItems();
        assertThat(verify(false).clean()).isTrue();
    }

    @Test
    void removal_ofACountedIndex_removesItsCountersAndMemberItems_andLeavesTheOthersExact() throws Exception {
        // given
        backfill(COUNTED);
        IndexDefinitions withoutFields = DefinitionsYaml.parse(YAML.substring(0, YAML.indexOf("  - name: fields"))
                + YAML.substring(YAML.indexOf("  - name: labels")));

        // when
        new IndexRemoval(dynamoDb, INDEX, withoutFields, "fields", 100_000, 10).run(3);

        // then
        List<Map<String, AttributeValue>> left = new ArrayList<>();
        dynamoDb.scanPaginator(b -> b.tableName(INDEX)).items().forEach(left::add);
        assertThat(left).isNotEmpty().allSatisfy(item -> assertThat(item.get("index").s()).isEqualTo("labels"));
        assertThat(new Verifier(dynamoDb, TABLE, INDEX, IndexScope.all(withoutFields)).verify(false).clean()).isTrue();
    }

    @Test
    void verify_whenTheStreamWritesACountWhileItIsRecounted_reportsNoDrift() throws Exception {
        // given: counts kept; a client that, right after verify first reads the counters of p0's 'open', indexes a new
        // open issue of p0 as the stream indexer would (its item, its index items and its counters)
        backfill(COUNTED);
        ConditionalIndexWriter indexer = new ConditionalIndexWriter(dynamoDb, TABLE, INDEX, IndexScope.all(COUNTED));
        IndexProjector projector = new IndexProjector(COUNTED);
        String openCounters = CountLayout.facetPrefix("state") + "Sopen|";
        boolean[] written = {false};
        DynamoDbClient racing = new DynamoDbClient() {
            @Override
            public software.amazon.awssdk.services.dynamodb.model.QueryResponse query(
                    software.amazon.awssdk.services.dynamodb.model.QueryRequest request) {
                software.amazon.awssdk.services.dynamodb.model.QueryResponse response = dynamoDb.query(request);
                AttributeValue prefix = request.expressionAttributeValues().get(":s");
                if (!written[0] && prefix != null && prefix.s().equals(openCounters)
                        && request.expressionAttributeValues().get(":p").s().startsWith("fields|PROJECT#p0|")) {
                    written[0] = true;
                    Map<String, AttributeValue> issue = new LinkedHashMap<>();
                    issue.put("pk", s("PROJECT#p0"));
                    issue.put("sk", s("ISSUE#999"));
                    issue.put("num", AttributeValue.fromN("999"));
                    issue.put("cf", AttributeValue.fromM(Map.of("state", s("open"))));
                    issue.put("labels", AttributeValue.fromL(List.of()));
                    dynamoDb.putItem(b -> b.tableName(TABLE).item(issue));
                    var itemKey = projector.keyOf(issue).orElseThrow();
                    indexer.write(itemKey, issue, projector.project(itemKey, issue).items().stream()
                            .<com.multikey.index.IndexChange>map(com.multikey.index.IndexChange.Put::new).toList());
                }
                return response;
            }

            @Override
            public software.amazon.awssdk.services.dynamodb.model.ScanResponse scan(software.amazon.awssdk.services.dynamodb.model.ScanRequest request) {
                return dynamoDb.scan(request);
            }

            @Override
            public software.amazon.awssdk.services.dynamodb.model.BatchGetItemResponse batchGetItem(
                    software.amazon.awssdk.services.dynamodb.model.BatchGetItemRequest request) {
                return dynamoDb.batchGetItem(request);
            }

            @Override
            public String serviceName() {
                return dynamoDb.serviceName();
            }

            @Override
            public void close() {
            }
        };

        // when
        Verifier.Report report = new Verifier(racing, TABLE, INDEX, IndexScope.all(COUNTED)).verify(false);

        // then: the write happened mid-verify, and the counts it changed are not reported as drift
        assertThat(written[0]).isTrue();
        assertThat(report.staleCount() + report.missingCount()).as("drift reported: %s", report.stale()).isZero();
        assertCountsMatchTheItems();
    }

    private static Map<String, AttributeValue> key(String project, int i) {
        return Map.of("pk", s(project), "sk", s("ISSUE#" + i));
    }

    private List<IndexKey> counterKeys() {
        List<IndexKey> keys = new ArrayList<>();
        dynamoDb.scanPaginator(b -> b.tableName(INDEX)).items().forEach(item -> {
            if (CountLayout.isCounter(item) && new BigDecimal(item.get(CountLayout.COUNT).n()).signum() > 0) {
                keys.add(IndexKey.of(item));
            }
        });
        keys.sort(java.util.Comparator.comparing(IndexKey::attribId).thenComparing(IndexKey::sortKey));
        return keys;
    }

    /** Every group's total and facets as the reader gives them, against a count of the table's items. */
    private void assertCountsMatchTheItems() {
        KeptCounts reader = new KeptCounts(dynamoDb, INDEX);
        IndexProjector projector = new IndexProjector(COUNTED);
        List<Map<String, AttributeValue>> items = new ArrayList<>();
        dynamoDb.scanPaginator(b -> b.tableName(TABLE)).items().forEach(items::add);
        for (String project : List.of("PROJECT#p0", "PROJECT#p1")) {
            List<AttributeValue> group = List.of(s(project));
            List<Map<String, AttributeValue>> ofGroup = items.stream().filter(i -> i.get("pk").s().equals(project)).toList();
            IndexDefinition fields = COUNTED.index("fields").orElseThrow();
            for (String field : List.of("state", "prio")) {
                GroupCounts counts = reader.read(fields, group, Optional.of(field), 100).orElseThrow();
                assertThat(counts.total()).contains((long) ofGroup.size());
                Map<String, Long> brute = new TreeMap<>();
                ofGroup.forEach(i -> Optional.ofNullable(i.get("cf").m().get(field)).ifPresent(v -> brute.merge(text(v), 1L, Long::sum)));
                assertThat(asMap(counts)).as(project + " " + field).isEqualTo(brute);
            }
            IndexDefinition labels = COUNTED.index("labels").orElseThrow();
            Map<String, Long> brute = new TreeMap<>();
            ofGroup.forEach(i -> projector.project("labels", projector.keyOf(i).orElseThrow(), i).items()
                    .forEach(item -> brute.merge(text(item.value().toAttributeValue()), 1L, Long::sum)));
            assertThat(asMap(reader.read(labels, group, Optional.of("labels"), 100).orElseThrow())).isEqualTo(brute);
        }
    }

    private static Map<String, Long> asMap(GroupCounts counts) {
        Map<String, Long> map = new TreeMap<>();
        counts.values().forEach(v -> map.put(text(v.value().orElseThrow()), v.count()));
        return map;
    }

    private static String text(AttributeValue value) {
        return value.s() != null ? "S:" + value.s() : "N:" + new BigDecimal(value.n()).stripTrailingZeros().toPlainString();
    }

    private static AttributeValue s(String value) {
        return AttributeValue.fromS(value);
    }

}

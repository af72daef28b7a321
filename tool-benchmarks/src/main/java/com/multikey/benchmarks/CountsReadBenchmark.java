package com.multikey.benchmarks;

import com.multikey.common.Backoff;
import com.multikey.common.Sleeper;
import com.multikey.emulator.services.dynamodb.LocalDynamoDb;
import com.multikey.index.IndexItem;
import com.multikey.index.IndexKey;
import com.multikey.index.IndexProjector;
import com.multikey.index.IndexValue;
import com.multikey.index.counts.CountLayout;
import com.multikey.index.definition.DefinitionsYaml;
import com.multikey.index.definition.IndexDefinition;
import com.multikey.index.definition.IndexDefinitions;
import com.multikey.query.Counts;
import com.multikey.query.FacetRequest;
import com.multikey.query.Facets;
import com.multikey.query.Filter;
import com.multikey.query.GridSettings;
import com.multikey.query.IndexQuery;
import com.multikey.query.Order;
import com.multikey.query.Page;
import com.multikey.query.PageRequest;
import com.multikey.query.Predicate;
import com.multikey.query.Total;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.Select;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

import java.io.OutputStream;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code benchmarks.jar counts-read}: counts on the read side ({@code Counts}) on the project's DynamoDB engine. (a) A count
 * at read time without predicates against {@code Select=COUNT} on the same index range; (b) a page with its total against
 * the page alone, at 50%, 5% and 0.05% selectivity, by a {@code where} predicate on an attribute no index holds and by a
 * filter on the sorted field; (c) a facet and a value's total on a group of 1,000,000 items from kept counts.
 */
final class CountsReadBenchmark {

    static final String APP = "Items";
    static final String INDEX = "ItemsIndex";
    static final int ITEMS = 20_000;
    private static final String YAML = """
            version: 1
            table: {partitionKey: {name: id, type: S}}
            indexes:
              - name: byRank
                group: project
                values: {attribute: rank}
                orderBy: num
              - name: grid
                group: project
                values: {entriesOf: cf}
                orderBy: num
                counts: {total: true, facets: [state], shards: 8}
            """;

    private CountsReadBenchmark() {
    }

    static void run(PrintStream out) {
        PrintStream console = System.out;
        System.setOut(new PrintStream(OutputStream.nullOutputStream()));
        try (LocalDynamoDb local = LocalDynamoDb.start(); DynamoDbClient engine = local.client()) {
            System.setOut(console);
            IndexDefinitions definitions = DefinitionsYaml.parse(YAML);
            create(engine, APP, "id", null);
            create(engine, INDEX, IndexKey.ATTRIB_ID, IndexKey.SORT_KEY);
            load(engine, definitions);
            IndexQuery query = new IndexQuery(engine, APP, INDEX, definitions, Backoff.standard(), Sleeper.SYSTEM, Duration.ofSeconds(120),
                    System::nanoTime, GridSettings.NONE);
            Counts counts = new Counts(query, engine, INDEX, definitions);
            List<AttributeValue> group = List.of(AttributeValue.fromS("g"));
            IndexDefinition byRank = definitions.index("byRank").orElseThrow();
            String partition = IndexProjector.partition(byRank, group, null);

            out.printf("(13a) a count at read time without predicates (Counts.total, budget 20,000 items) against Select=COUNT on the"
                    + " same index range: a group of %,d items of index byRank (rank 0 to %,d), filter rank < k%n", ITEMS, ITEMS - 1);
            out.println("| range | items in it | Counts.total | calls | items read | Select=COUNT calls | Select=COUNT items read |");
            out.println("|---|---|---|---|---|---|---|");
            for (int k : new int[] {ITEMS, ITEMS / 2, ITEMS / 20, 10}) {
                Filter filter = Filter.Range.lessThan(new IndexValue.Num(BigDecimal.valueOf(k)));
                PageRequest request = PageRequest.onIndex("byRank", group, "", Order.ASC, 25).withFilter(filter).withReadBudget(20_000);
                Total total = counts.total(request);
                long[] selectCount = selectCount(engine, partition, filter.keyRange(new IndexProjector(definitions).bounds("byRank")));
                out.printf("| rank < %,d | %,d | %,d (%s) | %d | %,d | %d | %,d |%n", k, Math.min(k, ITEMS), total.value(),
                        total.relation().apiName(), total.calls(), total.examined(), selectCount[0], selectCount[1]);
            }
            out.println();

            out.printf("(13b) a page of 25 with its total (Counts.pageWithTotal, default budget %,d items) against the page alone,"
                    + " sorted by rank%n", Counts.DEFAULT_BUDGET);
            out.println("| selectivity | by | matching | page calls | page items read | total | total's extra calls | total's extra items read |");
            out.println("|---|---|---|---|---|---|---|---|");
            for (double selectivity : new double[] {0.5, 0.05, 0.0005}) {
                int k = (int) Math.round(ITEMS * selectivity);
                PageRequest where = PageRequest.onIndex("byRank", group, "", Order.ASC, 25)
                        .where(List.of(new Predicate.Range("@tier", null, false, new IndexValue.Num(BigDecimal.valueOf(k)), false)));
                PageRequest filtered = PageRequest.onIndex("byRank", group, "", Order.ASC, 25)
                        .withFilter(Filter.Range.lessThan(new IndexValue.Num(BigDecimal.valueOf(k))));
                for (PageRequest request : List.of(where, filtered)) {
                    Page page = counts.pageWithTotal(request);
                    Total total = page.total().orElseThrow();
                    out.printf("| %s%% | %s | %,d | %d | %,d | %,d (%s) | %d | %,d |%n", BigDecimal.valueOf(selectivity * 100).stripTrailingZeros()
                                    .toPlainString(), request == where ? "where @tier < " + k : "filter rank < " + k, k, page.apiCalls(),
                            page.examined(), total.value(), total.relation().apiName(), total.calls(), total.examined());
                }
            }
            out.println();

            IndexDefinition grid = definitions.index("grid").orElseThrow();
            writeKeptCounters(engine, grid);
            List<AttributeValue> big = List.of(AttributeValue.fromS("big"));
            Facets facets = counts.facets(FacetRequest.of("grid", big, List.of("state")));
            Total value = counts.total(PageRequest.onIndex("grid", big, "state", Order.ASC, 25)
                    .withFilter(new Filter.Equals(new IndexValue.Text("value7"))));
            out.println("(13c) a group of 1,000,000 indexed items with kept counts (8 shards of 50 values of cf.state, written as 12c writes them)");
            out.println("| read | answer | calls | items read |");
            out.println("|---|---|---|---|");
            Facets.Facet facet = facets.facets().getFirst();
            out.printf("| Counts.facets(state), top 10 | top %,d, %d other values, %s | %d | %d counter items |%n",
                    facet.values().getFirst().count(), facet.otherValues(), facet.relation().apiName() + " " + facet.source().apiName(),
                    facets.calls(), 8 * 50);
            out.printf("| Counts.total(state = value7) | %,d %s %s | %d | %d counter items |%n", value.value(), value.relation().apiName(),
                    value.source().apiName(), value.calls(), value.examined());
        }
    }

    /** rank = i, tier = a permutation of 0..ITEMS-1 (so a where on it is independent of the sort), cf.state one of 5. */
    private static void load(DynamoDbClient engine, IndexDefinitions definitions) {
        IndexProjector projector = new IndexProjector(definitions);
        List<WriteRequest> items = new ArrayList<>();
        List<WriteRequest> indexItems = new ArrayList<>();
        for (int i = 0; i < ITEMS; i++) {
            Map<String, AttributeValue> item = new HashMap<>();
            item.put("id", AttributeValue.fromS(String.format("item#%06d", i)));
            item.put("project", AttributeValue.fromS("g"));
            item.put("num", AttributeValue.fromN(Integer.toString(i)));
            item.put("rank", AttributeValue.fromN(Integer.toString(i)));
            item.put("tier", AttributeValue.fromN(Long.toString((long) i * 7919 % ITEMS)));
            item.put("title", AttributeValue.fromS("an item of the benchmark, about as long as an issue's title " + i));
            items.add(WriteRequest.builder().putRequest(PutRequest.builder().item(item).build()).build());
            for (IndexItem indexItem : projector.project(projector.keyOf(item).orElseThrow(), item).items()) {
                indexItems.add(WriteRequest.builder().putRequest(PutRequest.builder().item(indexItem.toItem()).build()).build());
            }
        }
        write(engine, APP, items);
        write(engine, INDEX, indexItems);
    }

    private static void writeKeptCounters(DynamoDbClient engine, IndexDefinition grid) {
        String counters = CountLayout.counterPartition(IndexProjector.partition(grid, List.of(AttributeValue.fromS("big")), null));
        IndexProjector projector = new IndexProjector(DefinitionsYaml.parse(YAML));
        List<WriteRequest> puts = new ArrayList<>();
        for (int shard = 0; shard < 8; shard++) {
            puts.add(counter(counters, CountLayout.totalPrefix() + shard, null, 1_000_000 / 8));
            for (int v = 0; v < 50; v++) {
                IndexValue value = new IndexValue.Text("value" + v);
                String prefix = projector.bounds("grid").valuePrefix(value);
                String encoded = prefix.substring(0, prefix.length() - 1);
                puts.add(counter(counters, CountLayout.facetPrefix("state") + CountLayout.valuePartOf("state", encoded) + "|" + shard,
                        AttributeValue.fromS("value" + v), (1_000_000 / 50 + (v == 0 ? 800 : 0) - (v == 1 ? 800 : 0)) / 8));
            }
        }
        write(engine, INDEX, puts);
    }

    private static WriteRequest counter(String partition, String sortKey, AttributeValue value, long count) {
        Map<String, AttributeValue> item = new HashMap<>();
        item.put(IndexKey.ATTRIB_ID, AttributeValue.fromS(partition));
        item.put(IndexKey.SORT_KEY, AttributeValue.fromS(sortKey));
        item.put("index", AttributeValue.fromS("grid"));
        item.put(CountLayout.KIND, AttributeValue.fromS(value == null ? CountLayout.TOTAL : CountLayout.FACET));
        item.put(CountLayout.COUNT, AttributeValue.fromN(Long.toString(count)));
        if (value != null) {
            item.put(CountLayout.FIELD, AttributeValue.fromS("state"));
            item.put("value", value);
        }
        return WriteRequest.builder().putRequest(PutRequest.builder().item(item).build()).build();
    }

    /** Select=COUNT on the index partition within a key range, paged to the end: calls and items read. */
    private static long[] selectCount(DynamoDbClient engine, String partition, Filter.KeyRange range) {
        long calls = 0;
        long scanned = 0;
        Map<String, AttributeValue> from = null;
        do {
            QueryRequest.Builder query = QueryRequest.builder().tableName(INDEX).select(Select.COUNT)
                    .keyConditionExpression("#p = :p AND #k BETWEEN :low AND :high")
                    .expressionAttributeNames(Map.of("#p", IndexKey.ATTRIB_ID, "#k", IndexKey.SORT_KEY))
                    .expressionAttributeValues(Map.of(":p", AttributeValue.fromS(partition), ":low", AttributeValue.fromS(range.low()),
                            ":high", AttributeValue.fromS(range.high())));
            if (from != null) {
                query.exclusiveStartKey(from);
            }
            QueryResponse page = engine.query(query.build());
            calls++;
            scanned += page.scannedCount();
            from = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
        } while (from != null);
        return new long[] {calls, scanned};
    }

    private static void create(DynamoDbClient engine, String table, String partitionKey, String sortKey) {
        engine.createTable(b -> {
            b.tableName(table).billingMode(BillingMode.PAY_PER_REQUEST);
            if (sortKey == null) {
                b.attributeDefinitions(a -> a.attributeName(partitionKey).attributeType(ScalarAttributeType.S))
                        .keySchema(k -> k.attributeName(partitionKey).keyType(KeyType.HASH));
            } else {
                b.attributeDefinitions(a -> a.attributeName(partitionKey).attributeType(ScalarAttributeType.S),
                                a -> a.attributeName(sortKey).attributeType(ScalarAttributeType.S))
                        .keySchema(k -> k.attributeName(partitionKey).keyType(KeyType.HASH), k -> k.attributeName(sortKey).keyType(KeyType.RANGE));
            }
        });
    }

    private static void write(DynamoDbClient engine, String table, List<WriteRequest> puts) {
        for (int from = 0; from < puts.size(); from += 25) {
            List<WriteRequest> call = puts.subList(from, Math.min(puts.size(), from + 25));
            engine.batchWriteItem(b -> b.requestItems(Map.of(table, call)));
        }
    }
}

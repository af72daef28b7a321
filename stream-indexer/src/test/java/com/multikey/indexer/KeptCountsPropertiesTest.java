package com.multikey.indexer;

import com.amazonaws.services.lambda.runtime.events.DynamodbEvent.DynamodbStreamRecord;
import com.amazonaws.services.lambda.runtime.events.StreamsEventResponse;
import com.multikey.common.Backoff;
import com.multikey.common.Sleeper;
import com.multikey.emulator.functions.LocalContext;
import com.multikey.index.IndexItem;
import com.multikey.index.IndexKey;
import com.multikey.index.IndexProjector;
import com.multikey.index.ItemKey;
import com.multikey.index.counts.CountLayout;
import com.multikey.index.counts.GroupCounts;
import com.multikey.index.counts.KeptCounts;
import com.multikey.index.definition.DefinitionsYaml;
import com.multikey.index.definition.IndexDefinition;
import com.multikey.index.definition.IndexDefinitions;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.lifecycle.AfterContainer;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsResponse;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Kept counts are exact after any history: random histories of item versions (values changing, entries added and
 * removed, group moves, tie-breaker changes that move keys, items leaving the index by a limit, deletes) delivered
 * through the real indexer onto the DynamoDB engine in split lanes running at once (records of one item in order in one
 * lane, every counter shared by all), with calls failing before or after DynamoDB applied them (throttling, conflicts,
 * lost responses), outages, partial batch responses and the replays they cause, and a suffix of the stream delivered
 * again; afterwards the index equals a rebuild from the last versions, every counter item's count equals the number of
 * index items that count toward it, and the reader's totals and facets equal a brute-force count of the items.
 */
class KeptCountsPropertiesTest {

    static final String YAML = """
            version: 1
            table: {partitionKey: {name: id, type: S}}
            indexes:
              - name: grid
                covers: [{attribute: id, beginsWith: "issue#"}]
                group: project
                values: {entriesOf: custom_fields}
                orderBy: num
                counts: {total: true, facets: [f1, f2], shards: 3}
              - name: labels
                group: project
                values: {elementsOf: labels}
                counts: {facets: [labels], shards: 2}
              - name: state
                group: project
                values: {attribute: state}
                counts: {total: true, facets: [state], shards: 1}
            """;
    static final IndexDefinitions DEFINITIONS = DefinitionsYaml.parse(YAML);
    static final List<String> IDS = List.of("issue#a", "issue#b", "issue#c", "issue#d", "task#e");
    static final List<String> PROJECTS = List.of("p1", "p2");

    private static IndexerStack stack;

    static synchronized IndexerStack stack() {
        if (stack == null) {
            stack = new IndexerStack();
        }
        return stack;
    }

    @AfterContainer
    static void closeStack() {
        if (stack != null) {
            stack.close();
            stack = null;
        }
    }

    record Step(int item, Optional<Map<String, AttributeValue>> version) {
    }

    @Property(tries = 120)
    void anyHistoryLanesFaultsAndReplays_keepEveryCountEqualToTheIndexItemsItCounts(
            @ForAll("histories") List<Step> steps,
            @ForAll @IntRange(min = 1, max = 6) int batchSize,
            @ForAll @IntRange(min = 1, max = 3) int lanes,
            @ForAll @IntRange(max = 30) int replayFrom,
            @ForAll long seed) throws Exception {
        IndexerStack stack = stack();
        stack.reset();
        String table = stack.config.indexTableName();
        History history = History.of(steps);
        FaultyClient client = new FaultyClient(stack.dynamoDb, new Random(seed));

        // when: each lane's records delivered with faults, then a suffix of the stream delivered again (healthy)
        deliverInLanes(client, table, history.records(), lanes, batchSize, 0.2);
        client.rate = 0.0;
        List<Record> suffix = history.records().subList(Math.min(replayFrom, history.records().size()), history.records().size());
        deliverInLanes(client, table, suffix, lanes, batchSize, 0.0);

        // then: the index is the rebuild, and every counter counts exactly the index items that count toward it
        Map<IndexKey, Map<String, AttributeValue>> stored = new HashMap<>();
        Map<IndexKey, Long> counters = new HashMap<>();
        stack.dynamoDb.scanPaginator(b -> b.tableName(table)).items().forEach(item -> {
            if (CountLayout.isCounter(item)) {
                counters.put(IndexKey.of(item), new BigDecimal(item.get(CountLayout.COUNT).n()).longValueExact());
            } else if (item.containsKey(IndexItem.INDEX)) {
                stored.put(IndexKey.of(item), IndexItem.normalized(item));
            }
        });
        Set<IndexItem> rebuild = history.rebuild();
        assertThat(stored.values()).containsExactlyInAnyOrderElementsOf(rebuild.stream().map(IndexItem::toItem).toList());
        CountLayout layout = new CountLayout(DEFINITIONS);
        Map<IndexKey, Long> expected = new HashMap<>();
        for (IndexItem item : rebuild) {
            layout.counterOf(item).ifPresent(ref -> expected.merge(ref.counter(), 1L, Long::sum));
        }
        Map<IndexKey, Long> nonZero = counters.entrySet().stream().filter(e -> e.getValue() != 0)
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
        assertThat(nonZero).as("counter items against the index items they count").isEqualTo(expected);

        // and the reader answers what a brute-force count of the items says
        KeptCounts reader = new KeptCounts(stack.dynamoDb, table);
        for (String project : PROJECTS) {
            List<AttributeValue> group = List.of(AttributeValue.fromS(project));
            IndexDefinition grid = DEFINITIONS.index("grid").orElseThrow();
            for (String field : List.of("f1", "f2")) {
                GroupCounts counts = reader.read(grid, group, Optional.of(field), 100).orElseThrow();
                assertThat(counts.total()).contains(history.bruteTotal(grid, project));
                assertThat(asMap(counts)).as("facet " + field + " of " + project).isEqualTo(history.bruteFacet(grid, project, field));
                assertThat(counts.calls()).isEqualTo(2);
            }
            IndexDefinition labels = DEFINITIONS.index("labels").orElseThrow();
            GroupCounts labelCounts = reader.read(labels, group, Optional.of("labels"), 100).orElseThrow();
            assertThat(labelCounts.total()).isEmpty();
            assertThat(asMap(labelCounts)).isEqualTo(history.bruteFacet(labels, project, "labels"));
            IndexDefinition state = DEFINITIONS.index("state").orElseThrow();
            GroupCounts stateCounts = reader.read(state, group, Optional.of("state"), 1).orElseThrow();
            Map<String, Long> brute = history.bruteFacet(state, project, "state");
            assertThat(stateCounts.total()).contains(history.bruteTotal(state, project));
            assertThat(stateCounts.values().size() + stateCounts.otherValues()).isEqualTo(brute.size());
            assertThat(stateCounts.values().stream().mapToLong(GroupCounts.ValueCount::count).sum() + stateCounts.otherCount())
                    .isEqualTo(brute.values().stream().mapToLong(Long::longValue).sum());
            if (!brute.isEmpty()) {
                assertThat(stateCounts.values().getFirst().count()).isEqualTo(brute.values().stream().mapToLong(Long::longValue).max().orElseThrow());
            }
        }

        // and the read side's counts (kept, and counted at read time from the items' last versions) say the same as the brute force
        history.last().forEach((key, item) -> {
            Map<String, AttributeValue> latest = new HashMap<>(item);
            latest.putAll(key.toKey());
            stack.dynamoDb.putItem(b -> b.tableName(stack.appTable()).item(latest));
        });
        com.multikey.query.IndexQuery query = new com.multikey.query.IndexQuery(stack.dynamoDb, stack.appTable(), table, DEFINITIONS,
                Backoff.standard(), Sleeper.SYSTEM, Duration.ofSeconds(60), System::nanoTime, com.multikey.query.GridSettings.NONE);
        com.multikey.query.Counts kept = new com.multikey.query.Counts(query, stack.dynamoDb, table, DEFINITIONS);
        for (com.multikey.query.Counts counts : List.of(kept, kept.atReadTime())) {
            com.multikey.query.Total.Source source = counts == kept ? com.multikey.query.Total.Source.KEPT : com.multikey.query.Total.Source.COUNTED;
            for (String project : PROJECTS) {
                List<AttributeValue> group = List.of(AttributeValue.fromS(project));
                com.multikey.query.Facets grid = counts.facets(new com.multikey.query.FacetRequest("grid", group, List.of("f1", "f2"), 100, List.of(), 0));
                for (com.multikey.query.Facets.Facet facet : grid.facets()) {
                    assertThat(facet.source()).isEqualTo(source);
                    assertThat(facet.relation()).isEqualTo(com.multikey.query.Total.Relation.EQ);
                    assertThat(asMap(facet)).as("read side's facet " + facet.field() + " of " + project)
                            .isEqualTo(history.bruteFacet(DEFINITIONS.index("grid").orElseThrow(), project, facet.field()));
                }
                com.multikey.query.Facets labelFacets = counts.facets(new com.multikey.query.FacetRequest("labels", group, List.of("labels"), 100, List.of(), 0));
                assertThat(asMap(labelFacets.facets().get(0))).isEqualTo(history.bruteFacet(DEFINITIONS.index("labels").orElseThrow(), project, "labels"));
                IndexDefinition state = DEFINITIONS.index("state").orElseThrow();
                // the items that have a state (the kept total also counts those without one: a page lists them only with its
                // missing tail, which an index grouped by another attribute than the table's key has not)
                com.multikey.query.Total total = counts.total(com.multikey.query.PageRequest.onIndex("state", group, "", com.multikey.query.Order.ASC, 10));
                assertThat(total.source()).isEqualTo(com.multikey.query.Total.Source.COUNTED);
                assertThat(total.relation()).isEqualTo(com.multikey.query.Total.Relation.EQ);
                assertThat(total.value()).as("read side's total of " + project)
                        .isEqualTo(history.bruteFacet(state, project, "state").values().stream().mapToLong(Long::longValue).sum());
                // one value of a kept facet: its count, as a total of the request that lists it
                com.multikey.query.Facets stateFacets = counts.facets(new com.multikey.query.FacetRequest("state", group, List.of("state"), 100, List.of(), 0));
                for (com.multikey.query.Facets.ValueCount value : stateFacets.facets().get(0).values()) {
                    com.multikey.index.IndexValue indexValue = com.multikey.index.FieldValues.of(value.value()).getFirst();
                    com.multikey.query.Total ofValue = counts.total(com.multikey.query.PageRequest.onIndex("state", group, "", com.multikey.query.Order.ASC, 10)
                            .where(List.of(new com.multikey.query.Predicate.Equals("state", indexValue))));
                    assertThat(ofValue.source()).isEqualTo(source);
                    assertThat(ofValue.value()).as("total of state = " + text(value.value())).isEqualTo(value.count());
                }
                assertThat(asMap(stateFacets.facets().get(0))).isEqualTo(history.bruteFacet(state, project, "state"));
            }
        }
    }

    private static Map<String, Long> asMap(com.multikey.query.Facets.Facet facet) {
        Map<String, Long> map = new TreeMap<>();
        facet.values().forEach(v -> map.put(text(v.value()), v.count()));
        assertThat(facet.otherValues()).isZero();
        return map;
    }

    private static Map<String, Long> asMap(GroupCounts counts) {
        Map<String, Long> map = new TreeMap<>();
        counts.values().forEach(v -> map.put(text(v.value().orElseThrow()), v.count()));
        assertThat(counts.otherValues()).isZero();
        return map;
    }

    private static String text(AttributeValue value) {
        return switch (value.type()) {
            case S -> "S:" + value.s();
            case N -> "N:" + new BigDecimal(value.n()).stripTrailingZeros().toPlainString();
            case BOOL -> "B:" + value.bool();
            default -> value.toString();
        };
    }

    /** Lambda's event source mapping with ParallelizationFactor lanes: an item's records in order in one lane. */
    private static void deliverInLanes(FaultyClient client, String table, List<Record> records, int lanes, int batchSize,
                                       double failureRate) throws Exception {
        client.rate = failureRate;
        List<List<Record>> byLane = new ArrayList<>();
        for (int i = 0; i < lanes; i++) {
            byLane.add(new ArrayList<>());
        }
        for (Record record : records) {
            String id = record.dynamodb().keys().get("id").s();
            byLane.get(Math.floorMod(id.hashCode(), lanes)).add(record);
        }
        ExecutorService pool = Executors.newFixedThreadPool(lanes);
        try {
            List<Future<?>> running = new ArrayList<>();
            for (List<Record> lane : byLane) {
                running.add(pool.submit(() -> {
                    deliver(client, table, lane, batchSize);
                    return null;
                }));
            }
            for (Future<?> lane : running) {
                lane.get();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /** Batches from the checkpoint; after reported failures the next batch starts at the lowest failed record. */
    private static void deliver(FaultyClient client, String table, List<Record> records, int batchSize) {
        List<DynamodbStreamRecord> all = StreamRecords.lambdaRecords(records);
        IndexerConfig config = new IndexerConfig(table, "", DEFINITIONS);
        IndexWriter writer = new DynamoDbIndexWriter(client, table, new Backoff(Duration.ofMillis(1), Duration.ofMillis(4), new Random(3)),
                Sleeper.SYSTEM, IndexerFixtures.quietLog());
        StreamIndexer indexer = new StreamIndexer(new BatchPlanner(config), writer, new RecordingMetrics(), IndexerFixtures.quietLog());
        StreamIndexerHandler handler = new StreamIndexerHandler(indexer);
        int position = 0;
        int attempts = 0;
        while (position < all.size()) {
            if (++attempts > 300) {
                throw new AssertionError("the lane never got through");
            }
            List<DynamodbStreamRecord> batch = all.subList(position, Math.min(all.size(), position + batchSize));
            StreamsEventResponse response = handler.handleRequest(event(batch), LocalContext.of(IndexerStack.FUNCTION));
            if (response.getBatchItemFailures().isEmpty()) {
                position += batch.size();
                continue;
            }
            Set<String> failed = response.getBatchItemFailures().stream()
                    .map(StreamsEventResponse.BatchItemFailure::getItemIdentifier).collect(Collectors.toSet());
            for (int i = 0; i < batch.size(); i++) {
                if (failed.contains(batch.get(i).getDynamodb().getSequenceNumber())) {
                    position += i;
                    break;
                }
            }
        }
    }

    private static com.amazonaws.services.lambda.runtime.events.DynamodbEvent event(List<DynamodbStreamRecord> records) {
        com.amazonaws.services.lambda.runtime.events.DynamodbEvent event = new com.amazonaws.services.lambda.runtime.events.DynamodbEvent();
        event.setRecords(records);
        return event;
    }

    /**
     * The engine's client, except that writes fail at random: throttled or conflicting before DynamoDB applies them, or
     * applied and then answered with a lost connection; and, at times, an outage of several calls in a row.
     */
    static final class FaultyClient implements DynamoDbClient {
        private final DynamoDbClient delegate;
        private final Random random;
        volatile double rate;
        private final AtomicInteger outage = new AtomicInteger();

        FaultyClient(DynamoDbClient delegate, Random random) {
            this.delegate = delegate;
            this.random = random;
        }

        private synchronized int roll() {
            if (outage.get() > 0) {
                outage.decrementAndGet();
                return 0;
            }
            if (rate == 0 || random.nextDouble() >= rate) {
                return -1;
            }
            int fault = random.nextInt(4);
            if (fault == 3) {
                outage.set(6);
            }
            return fault;
        }

        @Override
        public TransactWriteItemsResponse transactWriteItems(TransactWriteItemsRequest request) {
            return switch (roll()) {
                case 0, 3 -> throw SdkClientException.create("injected outage: connection refused");
                case 1 -> throw TransactionCanceledException.builder().message("injected conflict")
                        .cancellationReasons(request.transactItems().stream().map(item -> CancellationReason.builder()
                                .code(random.nextBoolean() ? "TransactionConflict" : "None").build()).toList()).build();
                case 2 -> {
                    delegate.transactWriteItems(request);
                    throw SdkClientException.create("injected: the response was lost after DynamoDB applied the call");
                }
                default -> delegate.transactWriteItems(request);
            };
        }

        @Override
        public BatchWriteItemResponse batchWriteItem(BatchWriteItemRequest request) {
            return switch (roll()) {
                case 0, 1, 3 -> throw SdkClientException.create("injected outage: connection refused");
                case 2 -> {
                    delegate.batchWriteItem(request);
                    throw SdkClientException.create("injected: the response was lost after DynamoDB applied the call");
                }
                default -> delegate.batchWriteItem(request);
            };
        }

        @Override
        public QueryResponse query(QueryRequest request) {
            return delegate.query(request);
        }

        @Override
        public String serviceName() {
            return delegate.serviceName();
        }

        @Override
        public void close() {
        }
    }

    /** The records of a history, and the last version of each item. */
    record History(List<Record> records, Map<ItemKey, Map<String, AttributeValue>> last) {

        static History of(List<Step> steps) {
            IndexProjector projector = new IndexProjector(DEFINITIONS);
            Map<ItemKey, Map<String, AttributeValue>> current = new LinkedHashMap<>();
            List<Record> records = new ArrayList<>();
            long sequence = 100;
            for (Step step : steps) {
                String id = IDS.get(step.item());
                Map<String, AttributeValue> keys = Map.of("id", AttributeValue.fromS(id));
                ItemKey key = projector.keyOf(keys).orElseThrow();
                Map<String, AttributeValue> before = current.get(key);
                Map<String, AttributeValue> after = step.version().map(v -> {
                    Map<String, AttributeValue> item = new LinkedHashMap<>(v);
                    item.putAll(keys);
                    return item;
                }).orElse(null);
                if (before == null && after == null || after != null && after.equals(before)) {
                    continue;
                }
                records.add(StreamRecords.change(sequence++, keys, before, after));
                if (after == null) {
                    current.remove(key);
                } else {
                    current.put(key, after);
                }
            }
            return new History(records, current);
        }

        Set<IndexItem> rebuild() {
            IndexProjector projector = new IndexProjector(DEFINITIONS);
            Set<IndexItem> items = new HashSet<>();
            last.forEach((key, item) -> items.addAll(projector.project(key, item).items()));
            return items;
        }

        /** Items of the group the index holds, counted from the items themselves. */
        long bruteTotal(IndexDefinition index, String project) {
            IndexProjector projector = new IndexProjector(DEFINITIONS);
            return last.entrySet().stream().filter(e -> index.covers(e.getValue()))
                    .filter(e -> AttributeValue.fromS(project).equals(e.getValue().get("project")))
                    .filter(e -> projector.project(index.name(), e.getKey(), e.getValue()).items().stream().anyMatch(IndexItem::isMember))
                    .count();
        }

        /** Per value of the field, how many index items of the group carry it, counted from the items' projections. */
        Map<String, Long> bruteFacet(IndexDefinition index, String project, String field) {
            IndexProjector projector = new IndexProjector(DEFINITIONS);
            String prefix = IndexProjector.partition(index, List.of(AttributeValue.fromS(project)), null);
            String partition = index.values() instanceof com.multikey.index.definition.ValueSource.MapEntries
                    ? IndexProjector.partition(index, List.of(AttributeValue.fromS(project)), field) : prefix;
            Map<String, Long> counts = new TreeMap<>();
            last.forEach((key, item) -> projector.project(index.name(), key, item).items().stream()
                    .filter(i -> i.attribId().equals(partition) && !i.isMember())
                    .forEach(i -> counts.merge(text(i.value().toAttributeValue()), 1L, Long::sum)));
            return counts;
        }
    }

    @Provide
    Arbitrary<List<Step>> histories() {
        Arbitrary<AttributeValue> value = Arbitraries.oneOf(
                Arbitraries.of("open", "closed", "x|y", "%").map(AttributeValue::fromS),
                Arbitraries.of("1", "1.0", "2", "-3").map(AttributeValue::fromN),
                Arbitraries.of(true, false).map(AttributeValue::fromBool),
                Arbitraries.of("a", "b").list().ofMaxSize(3).map(l -> AttributeValue.fromL(l.stream().map(AttributeValue::fromS).toList())),
                Arbitraries.just(AttributeValue.fromM(Map.of())));
        Arbitrary<Map<String, AttributeValue>> version = Combinators.combine(
                Arbitraries.maps(Arbitraries.of("f1", "f2", "f3"), value).ofMaxSize(3),
                Arbitraries.of("red", "blue").list().ofMaxSize(3),
                Arbitraries.of("p1", "p2", ""),
                Arbitraries.integers().between(1, 3),
                Arbitraries.of("todo", "done", "")).as((fields, labels, project, num, state) -> {
                    Map<String, AttributeValue> item = new LinkedHashMap<>();
                    item.put("custom_fields", AttributeValue.fromM(fields));
                    item.put("labels", AttributeValue.fromL(labels.stream().map(AttributeValue::fromS).toList()));
                    if (!project.isEmpty()) {
                        item.put("project", AttributeValue.fromS(project));
                    }
                    item.put("num", AttributeValue.fromN(Integer.toString(num)));
                    if (!state.isEmpty()) {
                        item.put("state", AttributeValue.fromS(state));
                    }
                    return item;
                });
        return Combinators.combine(Arbitraries.integers().between(0, IDS.size() - 1), version.optional(0.85))
                .as(Step::new).list().ofMinSize(1).ofMaxSize(30);
    }
}

package com.multikey.benchmarks;

import com.amazonaws.services.lambda.runtime.events.DynamodbEvent.DynamodbStreamRecord;
import com.multikey.common.Backoff;
import com.multikey.common.Deadline;
import com.multikey.common.Sleeper;
import com.multikey.common.StructuredLog;
import com.multikey.emulator.services.dynamodb.LocalDynamoDb;
import com.multikey.emulator.services.streams.LambdaEvents;
import com.multikey.index.IndexKey;
import com.multikey.index.IndexProjector;
import com.multikey.index.counts.CountLayout;
import com.multikey.index.counts.GroupCounts;
import com.multikey.index.counts.KeptCounts;
import com.multikey.index.definition.DefinitionsYaml;
import com.multikey.index.definition.IndexDefinition;
import com.multikey.index.definition.IndexDefinitions;
import com.multikey.indexer.BatchPlanner;
import com.multikey.indexer.DynamoDbIndexWriter;
import com.multikey.indexer.IndexerConfig;
import com.multikey.indexer.StreamIndexer;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.OperationType;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.Select;
import software.amazon.awssdk.services.dynamodb.model.StreamRecord;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsResponse;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

import java.io.OutputStream;
import java.io.PrintStream;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * (12) kept counts: (a) what they add to the indexer's writes and calls, per change and per batch, against the same
 * changes indexed without counts; (b) how a hot value's counter updates spread over its shards; (c) the reader's calls
 * and time on a group of 1,000,000 indexed items, against {@code Select=COUNT} on the same group's items.
 */
final class CountsBenchmark {

    static final String TABLE = "CountsIndex";
    static final int ITEMS = 1000;
    static final int ROUNDS = 20;
    static final int BATCH = 100;
    private static final List<String> STATES = List.of("open", "open", "open", "open", "triage", "closed");
    private static final String YAML = """
            version: 1
            table: {partitionKey: {name: id, type: S}}
            indexes:
              - name: grid
                group: project
                values: {entriesOf: cf}
                orderBy: num
            %s
            """;

    private CountsBenchmark() {
    }

    static void run(PrintStream out) {
        PrintStream console = System.out;
        System.setOut(new PrintStream(OutputStream.nullOutputStream()));
        try (LocalDynamoDb local = LocalDynamoDb.start(); DynamoDbClient engine = local.client()) {
            System.setOut(console);
            out.println("(12a) kept counts: writes and calls of " + ROUNDS + " batches of " + BATCH + " changes of one field ('state', "
                    + "a hot value 'open' in 2/3 of the changes) over " + ITEMS + " items of one group");
            out.println("| counts declared | calls / batch | index writes / change | counter updates / change | write units / change "
                    + "| touched counter shards / batch | extra calls / batch / touched shard |");
            out.println("|---|---|---|---|---|---|---|");
            Result plain = writes(engine, "", 8);
            print(out, "none", plain, plain);
            for (int shards : new int[] {1, 8, 32}) {
                Result counted = writes(engine, "    counts: {total: true, facets: [state], shards: " + shards + "}", shards);
                print(out, "total + facets [state], " + shards + (shards == 1 ? " shard" : " shards"), counted, plain);
            }
            out.println();
            out.println("(12b) a hot value's counter updates over its shards: 100,000 changes of items to and from 'open'");
            out.println("| shards | updates on the busiest shard | mean per shard | busiest / mean |");
            out.println("|---|---|---|---|");
            for (int shards : new int[] {1, 8, 32, 64}) {
                long[] perShard = new long[shards];
                Random random = new Random(11);
                for (int i = 0; i < 100_000; i++) {
                    perShard[CountLayout.shardOf(com.multikey.index.ItemKey.ofString("id", "issue#" + random.nextInt(1_000_000)).toString(), shards)]++;
                }
                long max = java.util.Arrays.stream(perShard).max().orElseThrow();
                double mean = 100_000.0 / shards;
                out.printf("| %d | %,d | %,.0f | %.3f |%n", shards, max, mean, max / mean);
            }
            out.println();
            readers(out, engine);
        }
    }

    record Result(long changes, long batches, long calls, long indexWrites, long counterUpdates, double writeUnits,
                  long touchedShards) {
    }

    private static void print(PrintStream out, String what, Result r, Result plain) {
        out.printf("| %s | %.2f | %.2f | %.2f | %.2f | %.1f | %s |%n", what, (double) r.calls() / r.batches(),
                (double) r.indexWrites() / r.changes(), (double) r.counterUpdates() / r.changes(), r.writeUnits() / r.changes(),
                (double) r.touchedShards() / r.batches(), r.touchedShards() == 0 ? "-"
                        : String.format("%.3f", (double) (r.calls() - plain.calls()) / r.touchedShards()));
    }

    /** Indexes ITEMS items, then measures ROUNDS batches of BATCH changes of 'state'. */
    private static Result writes(DynamoDbClient engine, String counts, int shards) {
        if (engine.listTables().tableNames().contains(TABLE)) {
            engine.deleteTable(b -> b.tableName(TABLE));
        }
        engine.createTable(b -> b.tableName(TABLE).billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(a -> a.attributeName(IndexKey.ATTRIB_ID).attributeType(ScalarAttributeType.S),
                        a -> a.attributeName(IndexKey.SORT_KEY).attributeType(ScalarAttributeType.S))
                .keySchema(k -> k.attributeName(IndexKey.ATTRIB_ID).keyType(KeyType.HASH),
                        k -> k.attributeName(IndexKey.SORT_KEY).keyType(KeyType.RANGE)));
        IndexDefinitions definitions = DefinitionsYaml.parse(YAML.formatted(counts));
        CountingClient client = new CountingClient(engine);
        StructuredLog quiet = new StructuredLog("bench", new PrintStream(OutputStream.nullOutputStream()), Clock.systemUTC());
        StreamIndexer indexer = new StreamIndexer(new BatchPlanner(new IndexerConfig(TABLE, "", definitions)),
                new DynamoDbIndexWriter(client, TABLE, Backoff.standard(), Sleeper.SYSTEM, quiet), summary -> { }, quiet);
        Random random = new Random(5);
        Map<String, Map<String, AttributeValue>> current = new LinkedHashMap<>();
        long sequence = 1;
        List<Record> records = new ArrayList<>();
        for (int i = 0; i < ITEMS; i++) {
            Map<String, AttributeValue> item = issue(i, STATES.get(random.nextInt(STATES.size())), 1 + random.nextInt(4));
            records.add(record(sequence++, null, item));
            current.put(item.get("id").s(), item);
        }
        deliver(indexer, records);
        client.reset();
        long touched = 0;
        for (int round = 0; round < ROUNDS; round++) {
            records = new ArrayList<>();
            Set<String> picked = new HashSet<>();
            while (picked.size() < BATCH) {
                picked.add("issue#" + random.nextInt(ITEMS));
            }
            for (String id : picked) {
                Map<String, AttributeValue> before = current.get(id);
                String state = before.get("cf").m().get("state").s();
                String next;
                do {
                    next = STATES.get(random.nextInt(STATES.size()));
                } while (next.equals(state));
                Map<String, AttributeValue> after = issue(Integer.parseInt(id.substring(6)), next,
                        Integer.parseInt(before.get("cf").m().get("prio").n()));
                records.add(record(sequence++, before, after));
                current.put(id, after);
            }
            client.touched.clear();
            deliver(indexer, records);
            touched += client.touched.size();
        }
        return new Result((long) ROUNDS * BATCH, ROUNDS, client.calls.get(), client.indexWrites.get(), client.counterUpdates.get(),
                client.writeUnits(), touched);
    }

    private static void deliver(StreamIndexer indexer, List<Record> records) {
        for (int from = 0; from < records.size(); from += BATCH) {
            List<DynamodbStreamRecord> batch = LambdaEvents.dynamodbEvent(records.subList(from, Math.min(records.size(), from + BATCH)),
                    "arn:aws:dynamodb:us-east-1:123456789012:table/App/stream/2026-01-01T00:00:00.000").getRecords();
            if (!indexer.process(batch, Deadline.after(Duration.ofMinutes(1))).getBatchItemFailures().isEmpty()) {
                throw new IllegalStateException("a batch failed");
            }
        }
    }

    private static Map<String, AttributeValue> issue(int n, String state, int prio) {
        Map<String, AttributeValue> item = new LinkedHashMap<>();
        item.put("id", AttributeValue.fromS("issue#" + n));
        item.put("project", AttributeValue.fromS("p1"));
        item.put("num", AttributeValue.fromN(Integer.toString(n)));
        item.put("cf", AttributeValue.fromM(Map.of("state", AttributeValue.fromS(state), "prio", AttributeValue.fromN(Integer.toString(prio)))));
        return item;
    }

    private static Record record(long sequence, Map<String, AttributeValue> before, Map<String, AttributeValue> after) {
        Map<String, AttributeValue> keys = Map.of("id", (after != null ? after : before).get("id"));
        StreamRecord.Builder stream = StreamRecord.builder().keys(keys).sequenceNumber(String.format("%021d", sequence))
                .approximateCreationDateTime(Instant.ofEpochSecond(1_700_000_000L + sequence)).streamViewType(StreamViewType.NEW_AND_OLD_IMAGES);
        if (before != null) {
            stream.oldImage(before);
        }
        if (after != null) {
            stream.newImage(after);
        }
        OperationType kind = before == null ? OperationType.INSERT : after == null ? OperationType.REMOVE : OperationType.MODIFY;
        return Record.builder().eventID("e" + sequence).eventName(kind).eventVersion("1.1").awsRegion("us-east-1")
                .dynamodb(stream.build()).build();
    }

    /** Counts calls and write requests as DynamoDB bills them (a transactional write: 2 units; items here are under 1 KB). */
    static final class CountingClient implements DynamoDbClient {
        private final DynamoDbClient delegate;
        final AtomicLong calls = new AtomicLong();
        final AtomicLong indexWrites = new AtomicLong();
        final AtomicLong transactionalIndexWrites = new AtomicLong();
        final AtomicLong counterUpdates = new AtomicLong();
        final Set<IndexKey> touched = java.util.concurrent.ConcurrentHashMap.newKeySet();

        CountingClient(DynamoDbClient delegate) {
            this.delegate = delegate;
        }

        void reset() {
            calls.set(0);
            indexWrites.set(0);
            transactionalIndexWrites.set(0);
            counterUpdates.set(0);
            touched.clear();
        }

        double writeUnits() {
            return indexWrites.get() - transactionalIndexWrites.get() + 2.0 * (transactionalIndexWrites.get() + counterUpdates.get());
        }

        @Override
        public BatchWriteItemResponse batchWriteItem(BatchWriteItemRequest request) {
            calls.incrementAndGet();
            indexWrites.addAndGet(request.requestItems().values().stream().mapToLong(List::size).sum());
            return delegate.batchWriteItem(request);
        }

        @Override
        public TransactWriteItemsResponse transactWriteItems(TransactWriteItemsRequest request) {
            TransactWriteItemsResponse response = delegate.transactWriteItems(request);
            calls.incrementAndGet();
            for (TransactWriteItem item : request.transactItems()) {
                if (item.update() != null) {
                    counterUpdates.incrementAndGet();
                    touched.add(IndexKey.of(item.update().key()));
                } else {
                    indexWrites.incrementAndGet();
                    transactionalIndexWrites.incrementAndGet();
                }
            }
            return response;
        }

        @Override
        public QueryResponse query(QueryRequest request) {
            calls.incrementAndGet();
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

    /**
     * (12c) The reader on a group of 1,000,000 items: the counter items such a group has (modelled: written directly,
     * 8 shards of the total and of 50 values of 'state'), and {@code Select=COUNT} over the group's member items, measured
     * on 100,000 of them and scaled (1,000,000 items in the in-memory engine would take the benchmark's heap).
     */
    private static void readers(PrintStream out, DynamoDbClient engine) {
        IndexDefinitions definitions = DefinitionsYaml.parse(YAML.formatted("    counts: {total: true, facets: [state], shards: 8}"));
        IndexDefinition grid = definitions.index("grid").orElseThrow();
        String group = IndexProjector.partition(grid, List.of(AttributeValue.fromS("big")), null);
        String counters = CountLayout.counterPartition(group);
        List<WriteRequest> puts = new ArrayList<>();
        long perValue = 1_000_000 / 50;
        for (int shard = 0; shard < 8; shard++) {
            puts.add(counter(counters, CountLayout.totalPrefix() + shard, grid, null, 1_000_000 / 8));
            for (int v = 0; v < 50; v++) {
                puts.add(counter(counters, CountLayout.facetPrefix("state") + "Svalue" + v + "|" + shard, grid,
                        AttributeValue.fromS("value" + v), perValue / 8));
            }
        }
        write(engine, puts);
        int members = 100_000;
        List<WriteRequest> memberPuts = new ArrayList<>();
        for (int i = 0; i < members; i++) {
            Map<String, AttributeValue> item = new HashMap<>();
            item.put(IndexKey.ATTRIB_ID, AttributeValue.fromS(CountLayout.memberPartition(group)));
            item.put(IndexKey.SORT_KEY, AttributeValue.fromS(String.format("issue#%07d", i)));
            item.put("index", AttributeValue.fromS("grid"));
            item.put("itemKey", AttributeValue.fromM(Map.of("id", AttributeValue.fromS(String.format("issue#%07d", i)))));
            item.put("member", AttributeValue.fromBool(true));
            memberPuts.add(WriteRequest.builder().putRequest(PutRequest.builder().item(item).build()).build());
        }
        write(engine, memberPuts);

        CountingClient client = new CountingClient(engine);
        KeptCounts reader = new KeptCounts(client, TABLE);
        GroupCounts counts = null;
        long start = System.nanoTime();
        for (int i = 0; i < 20; i++) {
            counts = reader.read(grid, List.of(AttributeValue.fromS("big")), Optional.of("state"), 10).orElseThrow();
        }
        double readMs = (System.nanoTime() - start) / 1e6 / 20;
        client.reset();
        long counted = 0;
        long countCalls = 0;
        start = System.nanoTime();
        Map<String, AttributeValue> from = null;
        do {
            QueryRequest.Builder query = QueryRequest.builder().tableName(TABLE).select(Select.COUNT).keyConditionExpression("#p = :p")
                    .expressionAttributeNames(Map.of("#p", IndexKey.ATTRIB_ID))
                    .expressionAttributeValues(Map.of(":p", AttributeValue.fromS(CountLayout.memberPartition(group))));
            if (from != null) {
                query.exclusiveStartKey(from);
            }
            QueryResponse page = engine.query(query.build());
            counted += page.count();
            countCalls++;
            from = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
        } while (from != null);
        double countMs = (System.nanoTime() - start) / 1e6;
        out.println("(12c) a group of 1,000,000 indexed items: its total and the top 10 of 50 values of 'state'");
        out.println("| read | calls | items read | ms (local engine) |");
        out.println("|---|---|---|---|");
        out.printf("| kept counts (KeptCounts.read: total %,d, top value %,d, %d other values) | %d | %d counter items | %.1f |%n",
                counts.total().orElseThrow(), counts.values().getFirst().count(), counts.otherValues(), counts.calls(), 8 + 8 * 50, readMs);
        out.printf("| Select=COUNT over the group's member items, measured on %,d | %d | %,d | %.0f |%n", counted, countCalls, counted, countMs);
        out.printf("| Select=COUNT scaled to 1,000,000 (and once more per value of 'state') | %d | 1,000,000 | %.0f |%n",
                countCalls * 10, countMs * 10);
    }

    private static WriteRequest counter(String partition, String sortKey, IndexDefinition index, AttributeValue value, long count) {
        Map<String, AttributeValue> item = new HashMap<>();
        item.put(IndexKey.ATTRIB_ID, AttributeValue.fromS(partition));
        item.put(IndexKey.SORT_KEY, AttributeValue.fromS(sortKey));
        item.put("index", AttributeValue.fromS(index.name()));
        item.put(CountLayout.KIND, AttributeValue.fromS(value == null ? CountLayout.TOTAL : CountLayout.FACET));
        item.put(CountLayout.COUNT, AttributeValue.fromN(Long.toString(count)));
        if (value != null) {
            item.put(CountLayout.FIELD, AttributeValue.fromS("state"));
            item.put("value", value);
        }
        return WriteRequest.builder().putRequest(PutRequest.builder().item(item).build()).build();
    }

    private static void write(DynamoDbClient engine, List<WriteRequest> puts) {
        for (int from = 0; from < puts.size(); from += 25) {
            List<WriteRequest> call = puts.subList(from, Math.min(puts.size(), from + 25));
            engine.batchWriteItem(b -> b.requestItems(Map.of(TABLE, call)));
        }
    }
}

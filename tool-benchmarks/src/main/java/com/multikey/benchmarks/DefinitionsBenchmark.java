package com.multikey.benchmarks;

import com.amazonaws.services.lambda.runtime.events.DynamodbEvent.DynamodbStreamRecord;
import com.multikey.common.ChangeRecord;
import com.multikey.emulator.services.streams.LambdaEvents;
import com.multikey.index.IndexDiff;
import com.multikey.index.IndexProjector;
import com.multikey.index.ItemKey;
import com.multikey.index.definition.DefinitionsYaml;
import com.multikey.index.definition.IndexDefinitions;
import com.multikey.indexer.BatchPlanner;
import com.multikey.indexer.IndexerConfig;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Blackhole;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.Record;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * (7) The stream indexer with 1, 5 and 20 declared indexes over the same records: {@link BatchPlanner#plan} on
 * batches of {@value #BATCH} MODIFY records of single-table issues ({@code pk}/{@code sk}) with 20 custom fields,
 * a label list and 15 scalar attributes, each record changing one custom field, and one record in four one scalar
 * attribute too. One operation is one record.
 *
 * <p>The definitions: 1 = the issue grid (map entries grouped by project, by num); 5 = that, labels (list elements),
 * a sparse status index and two scalar indexes; 20 = those and fifteen more scalar indexes.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class DefinitionsBenchmark {

    static final int BATCH = 100;
    static final int BATCHES = 10;
    static final int FIELDS = 20;
    static final int SCALARS = 15;
    static final String ARN = "arn:aws:dynamodb:us-east-1:000000000000:table/Items/stream/bench";

    @Param({"1", "5", "20"})
    public int definitions;

    private List<List<DynamodbStreamRecord>> batches;
    private BatchPlanner planner;
    private int next;

    @Setup
    public void prepare() {
        batches = new ArrayList<>();
        List<Record> all = records(new Random(7), BATCH * BATCHES);
        for (int batch = 0; batch < BATCHES; batch++) {
            batches.add(LambdaEvents.dynamodbEvent(all.subList(batch * BATCH, (batch + 1) * BATCH), ARN).getRecords());
        }
        planner = new BatchPlanner(new IndexerConfig("Index", "Items", definitions(definitions)));
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public void planBatch(Blackhole blackhole) {
        List<DynamodbStreamRecord> batch = batches.get(next);
        next = next + 1 == BATCHES ? 0 : next + 1;
        blackhole.consume(planner.plan(batch.stream().map(ChangeRecord::from).toList()));
    }

    /** The first {@code count} of the declared indexes described above. */
    static IndexDefinitions definitions(int count) {
        List<String> indexes = new ArrayList<>(List.of(
                "{name: grid, covers: [{attribute: sk, beginsWith: 'ISSUE#'}], group: pk, values: {entriesOf: cf}, orderBy: num}",
                "{name: labels, covers: [{attribute: sk, beginsWith: 'ISSUE#'}], group: pk, values: {elementsOf: labels}, orderBy: num}",
                "{name: status, covers: [{attribute: status, exists: true}], group: pk, values: {attribute: status}, orderBy: num}",
                "{name: a0, group: pk, values: {attribute: a0}}",
                "{name: a1, values: {attribute: a1}, projection: [title]}"));
        for (int a = 2; a < SCALARS + 2; a++) {
            indexes.add("{name: a" + a + ", group: pk, values: {attribute: a" + (a % SCALARS) + "}, orderBy: num}");
        }
        return DefinitionsYaml.parse("version: 1\ntable: {partitionKey: {name: pk}, sortKey: {name: sk}}\nindexes:\n"
                + String.join("\n", indexes.subList(0, count).stream().map(i -> "  - " + i).toList()) + "\n");
    }

    /** MODIFY records of 50 issues: one custom field changed each, and in one record of four a scalar attribute too. */
    static List<Record> records(Random random, int count) {
        Map<String, Map<String, AttributeValue>> current = new LinkedHashMap<>();
        for (int i = 0; i < 50; i++) {
            current.put("ISSUE#" + i, issue(i, random));
        }
        List<Record> records = new ArrayList<>();
        for (int step = 0; step < count; step++) {
            String sk = "ISSUE#" + random.nextInt(50);
            Map<String, AttributeValue> before = current.get(sk);
            Map<String, AttributeValue> after = new LinkedHashMap<>(before);
            Map<String, AttributeValue> fields = new LinkedHashMap<>(before.get("cf").m());
            fields.put("f" + random.nextInt(FIELDS), IndexerBenchmark.value(random));
            after.put("cf", AttributeValue.fromM(fields));
            if (random.nextInt(4) == 0) {
                after.put("a" + random.nextInt(SCALARS), AttributeValue.fromS("v" + random.nextInt(100)));
            }
            current.put(sk, after);
            records.add(IndexerBenchmark.record(step, before, after, Map.of("pk", before.get("pk"), "sk", before.get("sk"))));
        }
        return records;
    }

    private static Map<String, AttributeValue> issue(int i, Random random) {
        Map<String, AttributeValue> item = new LinkedHashMap<>();
        item.put("pk", AttributeValue.fromS("PROJECT#" + i % 3));
        item.put("sk", AttributeValue.fromS("ISSUE#" + i));
        item.put("num", AttributeValue.fromN(Integer.toString(i)));
        item.put("title", AttributeValue.fromS("issue " + i));
        item.put("status", AttributeValue.fromS(random.nextBoolean() ? "open" : "closed"));
        item.put("labels", AttributeValue.fromL(List.of(AttributeValue.fromS("l" + random.nextInt(5)), AttributeValue.fromS("l" + random.nextInt(5)))));
        item.put("cf", AttributeValue.fromM(IndexerBenchmark.fieldsOf(FIELDS, random)));
        for (int a = 0; a < SCALARS; a++) {
            item.put("a" + a, AttributeValue.fromS("v" + random.nextInt(100)));
        }
        return item;
    }

    /** Writes the indexer plans per record, and the minimum: the diff of each record's two versions over every index. */
    record Writes(double perRecord, double minimumPerRecord) {
    }

    static Writes writes(int count) {
        IndexDefinitions defs = definitions(count);
        BatchPlanner planner = new BatchPlanner(new IndexerConfig("Index", "Items", defs));
        IndexProjector projector = new IndexProjector(defs);
        List<Record> records = records(new Random(7), 1000);
        long planned = 0;
        long minimum = 0;
        for (Record record : records) {
            planned += planner.plan(LambdaEvents.dynamodbEvent(List.of(record), ARN).getRecords().stream().map(ChangeRecord::from).toList())
                    .changes().size();
            ItemKey key = projector.keyOf(record.dynamodb().keys()).orElseThrow();
            minimum += IndexDiff.between(projector.project(key, record.dynamodb().oldImage()).items(),
                    projector.project(key, record.dynamodb().newImage()).items()).size();
        }
        return new Writes((double) planned / records.size(), (double) minimum / records.size());
    }
}

package com.multikey.benchmarks;

import com.amazonaws.services.lambda.runtime.events.DynamodbEvent.DynamodbStreamRecord;
import com.multikey.common.ChangeRecord;
import com.multikey.emulator.services.streams.LambdaEvents;
import com.multikey.indexer.BatchPlanner;
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
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * (1) diff + encode as a JMH benchmark: {@link BatchPlanner#plan} on stream batches of {@value #BATCH} MODIFY
 * records of issues with {@code fields} custom fields, one of them changed per record. The score is in
 * records per second (one operation is one record).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class DiffEncodeBenchmark {

    static final int BATCH = 100;
    private static final int BATCHES = 10;

    @Param({"20", "400"})
    public int fields;

    private List<List<DynamodbStreamRecord>> batches;
    private BatchPlanner planner;
    private int next;

    @Setup
    public void prepare() {
        Random random = new Random(fields);
        batches = new ArrayList<>();
        for (int batch = 0; batch < BATCHES; batch++) {
            List<Record> raw = new ArrayList<>();
            for (int i = batch * BATCH; i < (batch + 1) * BATCH; i++) {
                Map<String, AttributeValue> before = IndexerBenchmark.issue("issue#" + i, i, IndexerBenchmark.fieldsOf(fields, random));
                Map<String, AttributeValue> after = IndexerBenchmark.withField(before, "f" + random.nextInt(fields), IndexerBenchmark.value(random));
                raw.add(IndexerBenchmark.record(i, "issue#" + i, before, after));
            }
            batches.add(LambdaEvents.dynamodbEvent(raw, IndexerBenchmark.ARN).getRecords());
        }
        planner = new BatchPlanner(IndexerBenchmark.CONFIG);
    }

    /** Plans the next prepared batch, so the measured loop cycles over {@value #BATCHES} different batches. */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public void planBatch(Blackhole blackhole) {
        List<DynamodbStreamRecord> batch = batches.get(next);
        next = next + 1 == BATCHES ? 0 : next + 1;
        // reading both images of each record is part of the per-record cost, as in the handler
        blackhole.consume(planner.plan(batch.stream().map(ChangeRecord::from).toList()));
    }
}

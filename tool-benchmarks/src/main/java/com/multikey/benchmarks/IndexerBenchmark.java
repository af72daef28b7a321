package com.multikey.benchmarks;

import com.amazonaws.services.lambda.runtime.events.DynamodbEvent;
import com.amazonaws.services.lambda.runtime.events.DynamodbEvent.DynamodbStreamRecord;
import com.multikey.common.ChangeRecord;
import com.multikey.emulator.functions.LocalContext;
import com.multikey.emulator.services.dynamodb.LocalDynamoDb;
import com.multikey.emulator.services.streams.LambdaEvents;
import com.multikey.emulator.services.streams.StreamTail;
import com.multikey.emulator.template.SamTemplate;
import com.multikey.emulator.template.TemplateEnvironment;
import com.multikey.emulator.template.TemplateTables;
import com.multikey.index.IndexChange;
import com.multikey.index.IndexProjector;
import com.multikey.index.ItemKey;
import com.multikey.indexer.BatchPlanner;
import com.multikey.indexer.IndexerConfig;
import com.multikey.indexer.StreamIndexerHandler;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.OperationType;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.StreamRecord;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

import java.io.OutputStream;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Pattern;

/**
 * Measures the stream indexer: (1) records per second of diff + encode for issues with 20 and 400 custom
 * fields and one field changed, measured by JMH ({@link DiffEncodeBenchmark}); (2) index writes per stream record against a naive indexer that deletes
 * every old item and puts every new one; (3) records per second through the real handler on embedded
 * the local DynamoDB engine, as a ratio to raw BatchWriteItem of the same index items on the same local DynamoDB engine; (6)
 * throughput with concurrent batches per shard against one batch per shard, and with concurrent BatchWriteItem
 * calls against one at a time, on the local DynamoDB engine ({@link #runConcurrency}).
 *
 * <p>Results are ratios of numbers measured in one run: absolute rates depend on the machine.
 */
public final class IndexerBenchmark {

    static final IndexerConfig CONFIG = new IndexerConfig("IssueAttribIndexTable");
    static final String ARN = "arn:aws:dynamodb:us-east-1:000000000000:table/AppTable/stream/bench";

    private IndexerBenchmark() {
    }

    static void run(PrintStream out) throws RunnerException {
        PrintStream quiet = new PrintStream(OutputStream.nullOutputStream());

        out.printf("(1) diff + encode, one custom field changed per record: JMH throughput in records/s (%s)%n", JMH_SETUP);
        Map<Integer, Result<?>> rates = diffEncodeRates();
        Result<?> rate20 = rates.get(20);
        Result<?> rate400 = rates.get(400);
        out.printf("| custom fields | records/s | 99.9%% error | index items per issue |%n|---|---|---|---|%n");
        rates.forEach((fields, rate) -> out.printf("| %d | %,.0f | %,.0f | %d |%n", fields, rate.getScore(), rate.getScoreError(), fields));
        out.printf("400 fields / 20 fields throughput ratio: %.3f (items per issue ratio %.3f)%n%n",
                rate400.getScore() / rate20.getScore(), 20.0 / 400);

        out.println("(2) index writes per stream record: this indexer vs naive delete-all + put-all");
        out.printf("| custom fields | what changed | this indexer | naive | naive / this |%n|---|---|---|---|---|%n");
        for (int fields : new int[] {20, 400}) {
            for (WriteCounts counts : writeCounts(fields)) {
                out.printf("| %d | %s | %.2f | %.1f | %s |%n", fields, counts.change(), counts.perRecord(), counts.naivePerRecord(),
                        counts.perRecord() == 0 ? "no writes at all" : String.format("%.0fx", counts.naivePerRecord() / counts.perRecord()));
            }
        }
        out.println();

        runThroughput(out);
    }

    /** (3) alone: the real handler against raw BatchWriteItem of the same index items. */
    static void runThroughput(PrintStream out) {
        PrintStream quiet = new PrintStream(OutputStream.nullOutputStream());
        out.println("(3) real handler vs raw BatchWriteItem on the embedded DynamoDB engine");
        System.setOut(quiet);
        HandlerResult result;
        try {
            result = handlerVersusRaw(1000, 10);
        } finally {
            System.setOut(out);
        }
        out.printf("| path | records | index items | seconds | index items/s |%n|---|---|---|---|---|%n");
        out.printf("| handler (stream events of 100 records) | %d | %d | %.2f | %,.0f |%n", result.records, result.items,
                result.handlerSeconds, result.items / result.handlerSeconds);
        out.printf("| raw BatchWriteItem of the same items | - | %d | %.2f | %,.0f |%n", result.items, result.rawSeconds,
                result.items / result.rawSeconds);
        out.printf("handler / raw throughput ratio: %.2f%n", result.rawSeconds / result.handlerSeconds);
        out.flush();
    }

    // ------------------------------------------------------------------ (1)

    /**
     * Short, so that the whole default run takes a few minutes on 2 cores, yet long enough for the 400-field
     * case to reach its plateau on a busy 2-core machine. Kept next to the options it names.
     */
    private static final String JMH_SETUP = "1 fork, 6 x 2 s warm-up, 5 x 2 s measurement";

    /** Runs {@link DiffEncodeBenchmark} in a forked JVM; its score per {@code fields} parameter, in records/s. */
    static Map<Integer, Result<?>> diffEncodeRates() throws RunnerException {
        return jmhScores(DiffEncodeBenchmark.class, "fields");
    }

    /** Runs a JMH benchmark class with {@link #JMH_SETUP}; its score per value of one integer parameter. */
    static Map<Integer, Result<?>> jmhScores(Class<?> benchmark, String parameter) throws RunnerException {
        ChainedOptionsBuilder options = new OptionsBuilder()
                .include("^" + Pattern.quote(benchmark.getName()) + "\\.")
                .forks(1)
                .warmupIterations(6)
                .warmupTime(TimeValue.seconds(2))
                .measurementIterations(5)
                .measurementTime(TimeValue.seconds(2))
                .shouldFailOnError(true)
                .verbosity(VerboseMode.SILENT);
        if (Runtime.version().feature() >= 24) {
            // JMH 1.37 reads field offsets through sun.misc.Unsafe, which Java 24+ warns about on every start
            options.jvmArgsAppend("--sun-misc-unsafe-memory-access=allow");
        }
        Map<Integer, Result<?>> rates = new TreeMap<>();
        for (RunResult result : new Runner(options.build()).run()) {
            rates.put(Integer.valueOf(result.getParams().getParam(parameter)), result.getPrimaryResult());
        }
        return rates;
    }

    // ------------------------------------------------------------------ (2)

    /** Average writes per record of one kind of change. */
    record WriteCounts(String change, double perRecord, double naivePerRecord) {
    }

    /** Per kind of change, then for the whole mixed workload in batches of 1 and of 100. */
    static List<WriteCounts> writeCounts(int fields) {
        Random random = new Random(7 * fields);
        Map<String, Map<String, AttributeValue>> current = new LinkedHashMap<>();
        for (int i = 0; i < 50; i++) {
            current.put("issue#" + i, issue("issue#" + i, i, fieldsOf(fields, random)));
        }
        List<String> kinds = List.of("one custom field", "num (part of every sort key)", "an unindexed attribute");
        List<Record> records = new ArrayList<>();
        List<Integer> kindOf = new ArrayList<>();
        for (int step = 0; step < 2000; step++) {
            String id = "issue#" + random.nextInt(50);
            Map<String, AttributeValue> before = current.get(id);
            int kind = random.nextInt(10) < 7 ? 0 : random.nextBoolean() ? 1 : 2;
            Map<String, AttributeValue> after = switch (kind) {
                case 0 -> withField(before, "f" + random.nextInt(fields), value(random));
                case 1 -> withAttribute(before, "num", AttributeValue.fromN(Integer.toString(100 + step)));
                default -> withAttribute(before, "state", AttributeValue.fromS("state " + step));
            };
            records.add(record(step, id, before, after));
            kindOf.add(kind);
            current.put(id, after);
        }
        BatchPlanner planner = new BatchPlanner(CONFIG);
        IndexProjector projection = new IndexProjector(CONFIG.definitions());
        List<DynamodbStreamRecord> lambdaRecords = LambdaEvents.dynamodbEvent(records, ARN).getRecords();
        long[] ours = new long[kinds.size()];
        long[] naive = new long[kinds.size()];
        long[] count = new long[kinds.size()];
        for (int i = 0; i < records.size(); i++) {
            int kind = kindOf.get(i);
            count[kind]++;
            ours[kind] += planner.plan(read(List.of(lambdaRecords.get(i)))).changes().size();
            naive[kind] += projection.project(ItemKey.ofString("id", "issue#x"), records.get(i).dynamodb().oldImage()).items().size()
                    + projection.project(ItemKey.ofString("id", "issue#x"), records.get(i).dynamodb().newImage()).items().size();
        }
        List<WriteCounts> result = new ArrayList<>();
        for (int kind = 0; kind < kinds.size(); kind++) {
            result.add(new WriteCounts(kinds.get(kind), (double) ours[kind] / count[kind], (double) naive[kind] / count[kind]));
        }
        long batched = 0;
        for (int from = 0; from < lambdaRecords.size(); from += 100) {
            batched += planner.plan(read(lambdaRecords.subList(from, Math.min(lambdaRecords.size(), from + 100)))).changes().size();
        }
        double n = records.size();
        double allOurs = Arrays.stream(ours).sum() / n;
        double allNaive = Arrays.stream(naive).sum() / n;
        result.add(new WriteCounts("mixed (70/15/15), batches of 1", allOurs, allNaive));
        result.add(new WriteCounts("mixed (70/15/15), batches of 100", batched / n, allNaive));
        return result;
    }

    // ------------------------------------------------------------------ (3)

    record HandlerResult(int records, long items, double handlerSeconds, double rawSeconds) {
    }

    static HandlerResult handlerVersusRaw(int issues, int fields) {
        SamTemplate template = SamTemplate.ofRepository();
        try (LocalDynamoDb local = LocalDynamoDb.start(); DynamoDbClient dynamoDb = local.client()) {
            Map<String, String> tables = TemplateTables.create(template, dynamoDb);
            Map<String, String> env = TemplateEnvironment.forLocalRun(template, "StreamIndexerFunction", tables,
                    Map.of("DYNAMODB", local.endpoint()));
            StreamIndexerHandler handler = new StreamIndexerHandler(env);
            StreamTail tail = new StreamTail(dynamoDb, local.streamsClient(), tables.get("AppTable"));

            Random random = new Random(3);
            // warm-up round on other ids, then the measured round
            List<HandlerResult> rounds = new ArrayList<>();
            for (int round = 0; round < 2; round++) {
                for (int i = 0; i < issues; i++) {
                    Map<String, AttributeValue> item = issue("issue#r" + round + "-" + i, i, fieldsOf(fields, random));
                    dynamoDb.putItem(b -> b.tableName(tables.get("AppTable")).item(item));
                }
                List<Record> records = tail.poll();
                List<DynamodbEvent> events = new ArrayList<>();
                for (int from = 0; from < records.size(); from += 100) {
                    events.add(LambdaEvents.dynamodbEvent(records.subList(from, Math.min(records.size(), from + 100)), tail.streamArn()));
                }
                List<IndexChange> changes = new ArrayList<>();
                BatchPlanner planner = new BatchPlanner(IndexerConfig.fromEnvironment(env));
                events.forEach(e -> changes.addAll(planner.plan(read(e.getRecords())).changes()));

                long start = System.nanoTime();
                for (DynamodbEvent event : events) {
                    if (!handler.handleRequest(event, LocalContext.of("StreamIndexerFunction")).getBatchItemFailures().isEmpty()) {
                        throw new IllegalStateException("the handler reported failures");
                    }
                }
                double handlerSeconds = (System.nanoTime() - start) / 1e9;

                String rawTable = tables.get("IssueAttribIndexTable");
                List<WriteRequest> requests = changes.stream()
                        .map(c -> WriteRequest.builder().putRequest(PutRequest.builder()
                                .item(withAttribute(((IndexChange.Put) c).item().toItem(), "attribId",
                                        AttributeValue.fromS("raw-" + ((IndexChange.Put) c).item().attribId()))).build()).build())
                        .toList();
                start = System.nanoTime();
                for (int from = 0; from < requests.size(); from += 25) {
                    List<WriteRequest> chunk = requests.subList(from, Math.min(requests.size(), from + 25));
                    dynamoDb.batchWriteItem(b -> b.requestItems(Map.of(rawTable, chunk)));
                }
                double rawSeconds = (System.nanoTime() - start) / 1e9;
                rounds.add(new HandlerResult(records.size(), changes.size(), handlerSeconds, rawSeconds));
            }
            return rounds.get(rounds.size() - 1);
        }
    }

    // ------------------------------------------------------------------ (6)

    /** Write calls in flight per invocation and concurrent batches per shard, as measured. */
    record ConcurrencyRun(int factor, int calls, long records, long items, double seconds) {
        double itemsPerSecond() {
            return items / seconds;
        }
    }

    /** The configurations of (6): {ParallelizationFactor, BatchWriteItem calls in flight}. */
    private static final int[][] CONCURRENCY_CONFIGS = {{1, 1}, {2, 1}, {4, 1}, {1, 4}, {2, 4}, {4, 4}};

    /**
     * (6): concurrent batches of one shard against one batch per shard, and concurrent BatchWriteItem calls
     * against one at a time, through the real handler on the embedded DynamoDB engine.
     */
    /** (7) The indexer with 1, 5 and 20 declared indexes over the same records: throughput ratios and writes per record. */
    static void runDefinitions(PrintStream out) throws RunnerException {
        out.printf("(7) declared indexes: plan throughput over the same records with 1, 5 and 20 definitions (JMH, %s)%n", JMH_SETUP);
        Map<Integer, Result<?>> rates = jmhScores(DefinitionsBenchmark.class, "definitions");
        double one = rates.get(1).getScore();
        out.printf("| definitions | records/s | 99.9%% error | throughput / 1 definition | index writes per record | minimum |%n"
                + "|---|---|---|---|---|---|%n");
        rates.forEach((count, rate) -> {
            DefinitionsBenchmark.Writes writes = DefinitionsBenchmark.writes(count);
            out.printf("| %d | %,.0f | %,.0f | %.2f | %.3f | %.3f |%n", count, rate.getScore(), rate.getScoreError(), rate.getScore() / one,
                    writes.perRecord(), writes.minimumPerRecord());
        });
        out.println();
    }

    static void runConcurrency(PrintStream out) {
        out.println("(6) concurrent batches per shard and concurrent BatchWriteItem calls: real handler on the embedded DynamoDB engine");
        PrintStream quiet = new PrintStream(OutputStream.nullOutputStream());
        List<ConcurrencyRun> runs;
        System.setOut(quiet);
        try {
            runs = concurrencyRuns(1000, 10, 3);
        } finally {
            System.setOut(out);
        }
        out.printf("| ParallelizationFactor | calls in flight | records | index items | seconds (median of 3) | index items/s |%n"
                + "|---|---|---|---|---|---|%n");
        for (ConcurrencyRun run : runs) {
            out.printf("| %d | %d | %d | %d | %.2f | %,.0f |%n", run.factor(), run.calls(), run.records(), run.items(), run.seconds(),
                    run.itemsPerSecond());
        }
        ConcurrencyRun baseline = find(runs, 1, 1);
        for (int calls : new int[] {1, 4}) {
            for (int factor : new int[] {2, 4}) {
                out.printf("%d concurrent batches / one batch per shard, %d call%s in flight: %.2f%n", factor, calls, calls == 1 ? "" : "s",
                        find(runs, factor, calls).itemsPerSecond() / find(runs, 1, calls).itemsPerSecond());
            }
        }
        for (int factor : new int[] {1, 2, 4}) {
            out.printf("4 calls in flight / one at a time, %d batch%s per shard: %.2f%n", factor, factor == 1 ? "" : "es",
                    find(runs, factor, 4).itemsPerSecond() / find(runs, factor, 1).itemsPerSecond());
        }
        out.printf("the indexer's defaults (2 concurrent batches, 4 calls in flight) / one batch, one call at a time: %.2f%n",
                find(runs, 2, 4).itemsPerSecond() / baseline.itemsPerSecond());
        out.flush();
    }

    private static ConcurrencyRun find(List<ConcurrencyRun> runs, int factor, int calls) {
        return runs.stream().filter(r -> r.factor() == factor && r.calls() == calls).findFirst().orElseThrow();
    }

    /**
     * Indexes the same stream records (inserts of {@code issues} issues) once per configuration and repetition,
     * after a warm-up pass over every configuration; the same puts each time, as replays of a stream are. Records
     * go to {@code factor} lanes by their item's key, as Lambda keeps one item's records in one concurrent batch;
     * each lane has its own handler (Lambda runs each concurrent batch in an environment of its own) and works
     * through its batches of 100 in order.
     */
    static List<ConcurrencyRun> concurrencyRuns(int issues, int fields, int repetitions) {
        SamTemplate template = SamTemplate.ofRepository();
        try (LocalDynamoDb local = LocalDynamoDb.start(); DynamoDbClient dynamoDb = local.client()) {
            Map<String, String> tables = TemplateTables.create(template, dynamoDb);
            Map<String, String> env = TemplateEnvironment.forLocalRun(template, "StreamIndexerFunction", tables,
                    Map.of("DYNAMODB", local.endpoint()));
            StreamTail tail = new StreamTail(dynamoDb, local.streamsClient(), tables.get("AppTable"));
            Random random = new Random(11);
            for (int i = 0; i < issues; i++) {
                Map<String, AttributeValue> item = issue("issue#c" + i, i, fieldsOf(fields, random));
                dynamoDb.putItem(b -> b.tableName(tables.get("AppTable")).item(item));
            }
            List<Record> records = tail.poll();
            BatchPlanner planner = new BatchPlanner(IndexerConfig.fromEnvironment(env));
            long items = 0;
            for (int from = 0; from < records.size(); from += 100) {
                items += planner.plan(read(LambdaEvents.dynamodbEvent(records.subList(from, Math.min(records.size(), from + 100)),
                        tail.streamArn()).getRecords())).changes().size();
            }
            Map<Integer, List<Double>> seconds = new TreeMap<>();
            for (int pass = 0; pass <= repetitions; pass++) {
                for (int c = 0; c < CONCURRENCY_CONFIGS.length; c++) {
                    double took = indexConcurrently(records, tail.streamArn(), env, CONCURRENCY_CONFIGS[c][0], CONCURRENCY_CONFIGS[c][1]);
                    if (pass > 0) {
                        seconds.computeIfAbsent(c, k -> new ArrayList<>()).add(took);
                    }
                }
            }
            List<ConcurrencyRun> runs = new ArrayList<>();
            for (int c = 0; c < CONCURRENCY_CONFIGS.length; c++) {
                List<Double> sorted = seconds.get(c).stream().sorted().toList();
                runs.add(new ConcurrencyRun(CONCURRENCY_CONFIGS[c][0], CONCURRENCY_CONFIGS[c][1], records.size(), items,
                        sorted.get(sorted.size() / 2)));
            }
            return runs;
        }
    }

    /** Seconds to index {@code records} with {@code factor} lanes, each invocation sending up to {@code calls} calls at once. */
    private static double indexConcurrently(List<Record> records, String streamArn, Map<String, String> env, int factor, int calls) {
        Map<String, String> lambdaEnv = new LinkedHashMap<>(env);
        lambdaEnv.put("INDEX_WRITE_CONCURRENCY", Integer.toString(calls));
        List<List<Record>> lanes = new ArrayList<>();
        for (int i = 0; i < factor; i++) {
            lanes.add(new ArrayList<>());
        }
        for (Record record : records) {
            lanes.get(Math.floorMod(record.dynamodb().keys().get("id").s().hashCode(), factor)).add(record);
        }
        List<List<DynamodbEvent>> events = new ArrayList<>();
        List<StreamIndexerHandler> handlers = new ArrayList<>();
        for (List<Record> lane : lanes) {
            List<DynamodbEvent> laneEvents = new ArrayList<>();
            for (int from = 0; from < lane.size(); from += 100) {
                laneEvents.add(LambdaEvents.dynamodbEvent(lane.subList(from, Math.min(lane.size(), from + 100)), streamArn));
            }
            events.add(laneEvents);
            handlers.add(new StreamIndexerHandler(lambdaEnv));
        }
        ExecutorService threads = Executors.newFixedThreadPool(factor);
        try {
            long start = System.nanoTime();
            List<Future<?>> done = new ArrayList<>();
            for (int lane = 0; lane < factor; lane++) {
                StreamIndexerHandler handler = handlers.get(lane);
                List<DynamodbEvent> laneEvents = events.get(lane);
                done.add(threads.submit(() -> {
                    for (DynamodbEvent event : laneEvents) {
                        if (!handler.handleRequest(event, LocalContext.of("StreamIndexerFunction")).getBatchItemFailures().isEmpty()) {
                            throw new IllegalStateException("the handler reported failures");
                        }
                    }
                }));
            }
            for (Future<?> lane : done) {
                lane.get();
            }
            return (System.nanoTime() - start) / 1e9;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("a lane failed: " + e.getCause(), e.getCause());
        } finally {
            threads.shutdownNow();
        }
    }

    // ------------------------------------------------------------------ data

    static Map<String, AttributeValue> fieldsOf(int count, Random random) {
        Map<String, AttributeValue> fields = new LinkedHashMap<>();
        for (int i = 0; i < count; i++) {
            fields.put("f" + i, value(random));
        }
        return fields;
    }

    /** Dates, numbers, text and multi-select values, as an issue tracker's custom fields hold. */
    static AttributeValue value(Random random) {
        return switch (random.nextInt(4)) {
            case 0 -> AttributeValue.fromS(String.format("2026-%02d-%02d", 1 + random.nextInt(12), 1 + random.nextInt(28)));
            case 1 -> AttributeValue.fromN(Integer.toString(random.nextInt(100_000)));
            case 2 -> AttributeValue.fromS("text value " + random.nextInt(1000));
            default -> AttributeValue.fromSs(List.of("option-" + random.nextInt(5), "option-" + (5 + random.nextInt(5))));
        };
    }

    static Map<String, AttributeValue> issue(String id, int num, Map<String, AttributeValue> fields) {
        Map<String, AttributeValue> item = new LinkedHashMap<>();
        item.put("id", AttributeValue.fromS(id));
        item.put("project", AttributeValue.fromS("project#bench"));
        item.put("num", AttributeValue.fromN(Integer.toString(num)));
        item.put("name", AttributeValue.fromS("benchmark issue"));
        item.put("state", AttributeValue.fromS("open"));
        item.put("custom_fields", AttributeValue.fromM(fields));
        return item;
    }

    static Map<String, AttributeValue> withField(Map<String, AttributeValue> issue, String field, AttributeValue value) {
        Map<String, AttributeValue> fields = new LinkedHashMap<>(issue.get("custom_fields").m());
        fields.put(field, value);
        return withAttribute(issue, "custom_fields", AttributeValue.fromM(fields));
    }

    private static Map<String, AttributeValue> withAttribute(Map<String, AttributeValue> item, String name, AttributeValue value) {
        Map<String, AttributeValue> copy = new LinkedHashMap<>(item);
        copy.put(name, value);
        return copy;
    }

    static Record record(long sequence, String id, Map<String, AttributeValue> before, Map<String, AttributeValue> after) {
        return record(sequence, before, after, Map.of("id", AttributeValue.fromS(id)));
    }

    /** A MODIFY record of the item with these key attributes. */
    static Record record(long sequence, Map<String, AttributeValue> before, Map<String, AttributeValue> after,
                         Map<String, AttributeValue> keys) {
        return Record.builder().eventID("bench-" + sequence).eventName(OperationType.MODIFY).eventVersion("1.1").awsRegion("us-east-1")
                .dynamodb(StreamRecord.builder().keys(keys)
                        .oldImage(before).newImage(after).sequenceNumber(Long.toString(1_000_000 + sequence))
                        .streamViewType(StreamViewType.NEW_AND_OLD_IMAGES).build())
                .build();
    }

    /** Records as the indexer reads them (the conversion of both images is part of its per-record cost). */
    private static List<ChangeRecord> read(List<DynamodbStreamRecord> records) {
        return records.stream().map(ChangeRecord::from).toList();
    }
}

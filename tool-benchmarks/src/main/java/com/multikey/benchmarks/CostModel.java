package com.multikey.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import com.multikey.emulator.TemplateRuntime;
import com.multikey.emulator.functions.LocalFunction;
import com.multikey.emulator.services.bus.LocalEventBridge;
import com.multikey.emulator.services.streams.LambdaEvents;
import com.multikey.emulator.services.streams.StreamTail;
import com.multikey.emulator.template.SamTemplate;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.Record;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;

/**
 * The measured inputs of the cost model in docs/cost.md, for issues with 20 and 400 custom fields and one
 * field changed per record: index writes per record (counted by {@link IndexerBenchmark#writeCounts}), the
 * time each stream consumer's deployable jar takes for a warm batch of 100 such records (on the local DynamoDB engine
 * and the local PutEvents endpoint, in one JVM), and the PutEvents entries per record with their size in
 * EventBridge's 64 KB billing chunks. Then the price of a million changes from those numbers.
 */
final class CostModel {

    /** Records per batch: the template's {@code BatchSize}. */
    static final int BATCH = 100;
    /** Memory of both consumers in GB as Lambda bills it (MemorySize 1024 MB / 1024). */
    static final double MEMORY_GB = 1.0;
    /** us-east-1 prices (USD) read on 2026-11-22 from the AWS pricing pages named in docs/cost.md. */
    static final double LAMBDA_ARM_GB_SECOND = 0.0000133334;
    static final double LAMBDA_PER_MILLION_REQUESTS = 0.20;
    static final double DYNAMODB_PER_MILLION_WRITE_REQUEST_UNITS = 0.625;
    static final double EVENTBRIDGE_PER_MILLION_CUSTOM_EVENTS = 1.00;
    /** EventBridge bills each 64 KB chunk of an event's payload as one event. */
    static final int EVENTBRIDGE_BILLING_CHUNK_BYTES = 64 * 1024;

    private static final int WARM_UP_BATCHES = 5;
    private static final int MEASURED_BATCHES = 15;

    private CostModel() {
    }

    record Inputs(int fields, double writesPerRecord, double indexerMsPerBatch, double routerMsPerBatch,
                  double eventsPerRecord, double chunksPerEvent, int largestEventBytes) {
    }

    static void run(PrintStream out) {
        out.println("(B) cost model inputs: one custom field changed per record, warm batches of " + BATCH
                + " (median of " + MEASURED_BATCHES + " after " + WARM_UP_BATCHES + " warm-up batches)");
        List<Inputs> all = new ArrayList<>();
        for (int fields : new int[] {20, 400}) {
            all.add(measure(fields));
        }
        out.println("| custom fields | index writes / record | indexer ms / batch | router ms / batch | events / record"
                + " | 64 KB chunks / event | largest event |");
        out.println("|---|---|---|---|---|---|---|");
        for (Inputs in : all) {
            out.printf(Locale.ROOT, "| %d | %.2f | %.1f | %.1f | %.2f | %.2f | %,d bytes |%n", in.fields(), in.writesPerRecord(),
                    in.indexerMsPerBatch(), in.routerMsPerBatch(), in.eventsPerRecord(), in.chunksPerEvent(), in.largestEventBytes());
        }
        out.println();
        out.println("price of 1,000,000 issue changes, us-east-1 (formulas and sources: docs/cost.md)");
        out.println("| custom fields | Lambda GB-s (both) | Lambda $ | index WRU | DynamoDB $ | EventBridge events | EventBridge $ | total $ |");
        out.println("|---|---|---|---|---|---|---|---|");
        for (Inputs in : all) {
            double batches = 1_000_000.0 / BATCH;
            double gbSeconds = batches * (in.indexerMsPerBatch() + in.routerMsPerBatch()) / 1000 * MEMORY_GB;
            double lambda = gbSeconds * LAMBDA_ARM_GB_SECOND + 2 * batches / 1e6 * LAMBDA_PER_MILLION_REQUESTS;
            double writeUnits = 1_000_000.0 * in.writesPerRecord();
            double dynamoDb = writeUnits / 1e6 * DYNAMODB_PER_MILLION_WRITE_REQUEST_UNITS;
            double events = 1_000_000.0 * in.eventsPerRecord() * in.chunksPerEvent();
            double eventBridge = events / 1e6 * EVENTBRIDGE_PER_MILLION_CUSTOM_EVENTS;
            out.printf(Locale.ROOT, "| %d | %,.0f | %.2f | %,.0f | %.2f | %,.0f | %.2f | %.2f |%n", in.fields(), gbSeconds, lambda,
                    writeUnits, dynamoDb, events, eventBridge, lambda + dynamoDb + eventBridge);
        }
        out.flush();
    }

    static Inputs measure(int fields) {
        double writesPerRecord = IndexerBenchmark.writeCounts(fields).stream()
                .filter(counts -> counts.change().equals("one custom field")).findFirst().orElseThrow().perRecord();
        PrintStream console = System.out;
        // the functions' log and metric lines (their logs take System.out when built)
        System.setOut(new PrintStream(OutputStream.nullOutputStream()));
        try (TemplateRuntime stack = new TemplateRuntime(SamTemplate.ofRepository(), 0, line -> { })) {
            String table = stack.table("AppTable");
            StreamTail tail = new StreamTail(stack.dynamoDb(), stack.dynamoDbLocal().streamsClient(), table);
            LocalFunction indexer = stack.function("StreamIndexerFunction");
            LocalFunction router = stack.function("RouterFunction");
            Random random = new Random(fields);
            List<Map<String, AttributeValue>> issues = new ArrayList<>();
            for (int i = 0; i < BATCH; i++) {
                Map<String, AttributeValue> item = issue(i, fields, random);
                issues.add(item);
                stack.dynamoDb().putItem(b -> b.tableName(table).item(item));
            }
            String inserts = LambdaEvents.dynamodbEventJson(tail.poll(), tail.streamArn());
            indexer.invoke(inserts);

            List<Double> indexerMs = new ArrayList<>();
            List<Double> routerMs = new ArrayList<>();
            int records = 0;
            int before = stack.bus().received().size();
            for (int batch = 0; batch < WARM_UP_BATCHES + MEASURED_BATCHES; batch++) {
                for (int i = 0; i < BATCH; i++) {
                    Map<String, AttributeValue> changed = new HashMap<>(issues.get(i));
                    Map<String, AttributeValue> custom = new HashMap<>(changed.get("custom_fields").m());
                    custom.put("f" + random.nextInt(fields), AttributeValue.fromS("changed " + batch + " " + random.nextInt(1000)));
                    changed.put("custom_fields", AttributeValue.fromM(custom));
                    issues.set(i, changed);
                    stack.dynamoDb().putItem(b -> b.tableName(table).item(changed));
                }
                List<Record> modifies = tail.poll();
                records += modifies.size();
                String event = LambdaEvents.dynamodbEventJson(modifies, tail.streamArn());
                long start = System.nanoTime();
                indexer.invoke(event);
                long indexed = System.nanoTime();
                router.invoke(event);
                long routed = System.nanoTime();
                if (batch >= WARM_UP_BATCHES) {
                    indexerMs.add((indexed - start) / 1e6);
                    routerMs.add((routed - indexed) / 1e6);
                }
            }
            List<LocalEventBridge.Received> received = stack.bus().received().subList(before, stack.bus().received().size());
            long chunks = 0;
            int largest = 0;
            for (LocalEventBridge.Received event : received) {
                int bytes = entryBytes(event.envelope());
                largest = Math.max(largest, bytes);
                chunks += (bytes + EVENTBRIDGE_BILLING_CHUNK_BYTES - 1) / EVENTBRIDGE_BILLING_CHUNK_BYTES;
            }
            return new Inputs(fields, writesPerRecord, median(indexerMs), median(routerMs), (double) received.size() / records,
                    (double) chunks / received.size(), largest);
        } finally {
            System.setOut(console);
        }
    }

    /** The entry's size as PutEvents counts it: Source, DetailType, Detail, Resources (UTF-8) and Time. */
    private static int entryBytes(JsonNode envelope) {
        int bytes = 14;
        bytes += utf8(envelope.path("source").asText()) + utf8(envelope.path("detail-type").asText());
        bytes += utf8(envelope.path("detail").toString());
        for (JsonNode resource : envelope.path("resources")) {
            bytes += utf8(resource.asText());
        }
        return bytes;
    }

    private static int utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8).length;
    }

    /** An issue whose custom fields are dates, numbers and short texts, as a grid's fields are. */
    private static Map<String, AttributeValue> issue(int n, int fields, Random random) {
        Map<String, AttributeValue> custom = new HashMap<>();
        for (int f = 0; f < fields; f++) {
            custom.put("f" + f, switch (f % 3) {
                case 0 -> AttributeValue.fromS(String.format(Locale.ROOT, "2026-%02d-%02d", 1 + random.nextInt(12), 1 + random.nextInt(28)));
                case 1 -> AttributeValue.fromN(Integer.toString(random.nextInt(100_000)));
                default -> AttributeValue.fromS("text value " + random.nextInt(10_000));
            });
        }
        Map<String, AttributeValue> item = new HashMap<>();
        item.put("id", AttributeValue.fromS("issue#cost-" + n));
        item.put("project", AttributeValue.fromS("project#cost"));
        item.put("num", AttributeValue.fromN(Integer.toString(n + 1)));
        item.put("name", AttributeValue.fromS("issue " + n));
        item.put("state", AttributeValue.fromS("open"));
        item.put("custom_fields", AttributeValue.fromM(custom));
        return item;
    }

    private static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        int middle = sorted.size() / 2;
        return sorted.size() % 2 == 1 ? sorted.get(middle) : (sorted.get(middle - 1) + sorted.get(middle)) / 2;
    }
}

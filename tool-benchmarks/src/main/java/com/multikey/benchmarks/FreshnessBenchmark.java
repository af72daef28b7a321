package com.multikey.benchmarks;

import com.multikey.emulator.TemplateRuntime;
import com.multikey.emulator.services.kinesis.KinesisFaults;
import com.multikey.emulator.template.SamTemplate;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.io.OutputStream;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Freshness on the emulator: the time from a table write (PutItem answered) to the index answering it (a Query of the
 * index table's partition for the written field finds the written value), for each source in one run on one machine:
 * the DynamoDB stream with two readers, with one reader, and the Kinesis streaming destination (in order, then with
 * duplicates and reordering). Writes go one at a time, each waited for; the emulator polls every 200 ms, as Lambda
 * polls a DynamoDB stream four times a second, so the numbers are the local stack's and not AWS's (docs/benchmarks.md
 * models those).
 */
final class FreshnessBenchmark {

    private static final int WARM_UP = 10;
    private static final String INDEX_TABLE = "IssueAttribIndexTable";

    private FreshnessBenchmark() {
    }

    /** A source and what it measured, in milliseconds, sorted. */
    record Result(String source, List<Double> millis) {
        double percentile(double p) {
            int index = (int) Math.ceil(p / 100.0 * millis.size()) - 1;
            return millis.get(Math.max(0, Math.min(millis.size() - 1, index)));
        }
    }

    static void run(PrintStream out, int writes) throws InterruptedException {
        List<Result> results = new ArrayList<>();
        results.add(measure("DynamoDB stream, two readers", Map.of(), KinesisFaults.NONE, writes));
        results.add(measure("DynamoDB stream, one reader", Map.of("StreamReaders", "one"), KinesisFaults.NONE, writes));
        results.add(measure("Kinesis, in order", Map.of("StreamSource", "kinesis"), KinesisFaults.NONE, writes));
        results.add(measure("Kinesis, 30% duplicates, reordered in blocks of 8", Map.of("StreamSource", "kinesis"),
                new KinesisFaults(0.3, 8, 5), writes));
        out.printf("Freshness on the emulator: PutItem answered -> the index answers it (%d writes a source, one at a time)%n", writes);
        out.println("| source | p50 | p95 | p99 | max |");
        out.println("|---|---|---|---|---|");
        for (Result result : results) {
            out.printf(Locale.ROOT, "| %s | %.0f ms | %.0f ms | %.0f ms | %.0f ms |%n", result.source(), result.percentile(50),
                    result.percentile(95), result.percentile(99), result.millis().get(result.millis().size() - 1));
        }
        out.flush();
    }

    static Result measure(String source, Map<String, String> parameters, KinesisFaults faults, int writes) throws InterruptedException {
        PrintStream console = System.out;
        // the functions' log and metric lines (their logs take System.out when built)
        System.setOut(new PrintStream(OutputStream.nullOutputStream()));
        try (TemplateRuntime stack = new TemplateRuntime(SamTemplate.ofRepository().withParameterOverrides(parameters), 0, line -> { })) {
            stack.kinesisFaults(faults);
            stack.startPolling();
            DynamoDbClient dynamoDb = stack.dynamoDb();
            String table = stack.table("AppTable");
            List<Double> millis = new ArrayList<>();
            for (int i = 0; i < WARM_UP + writes; i++) {
                String value = "fresh-" + i;
                String id = "issue#fresh" + (i % 20);
                long start = System.nanoTime();
                dynamoDb.putItem(b -> b.tableName(table).item(Map.of("id", AttributeValue.fromS(id), "project", AttributeValue.fromS("project#fresh"),
                        "num", AttributeValue.fromN("1"), "custom_fields", AttributeValue.fromM(Map.of("f0", AttributeValue.fromS(value))))));
                while (!answers(dynamoDb, id, value)) {
                    Thread.sleep(5);
                    if (System.nanoTime() - start > 60_000_000_000L) {
                        throw new IllegalStateException(source + ": the index did not answer write " + i + " within 60 s");
                    }
                }
                if (i >= WARM_UP) {
                    millis.add((System.nanoTime() - start) / 1e6);
                }
            }
            Collections.sort(millis);
            return new Result(source, List.copyOf(millis));
        } finally {
            System.setOut(console);
        }
    }

    /** Whether the index holds the item under the written value of field f0. */
    private static boolean answers(DynamoDbClient dynamoDb, String id, String value) {
        return dynamoDb.query(b -> b.tableName(INDEX_TABLE).keyConditionExpression("attribId = :a")
                .filterExpression("#v = :v AND itemKey.id = :id").expressionAttributeNames(Map.of("#v", "value"))
                .expressionAttributeValues(Map.of(":a", AttributeValue.fromS("issue-grid|project#fresh|f0"),
                        ":v", AttributeValue.fromS(value), ":id", AttributeValue.fromS(id))).consistentRead(true)).count() > 0;
    }
}

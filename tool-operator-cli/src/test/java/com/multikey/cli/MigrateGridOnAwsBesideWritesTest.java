package com.multikey.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.multikey.emulator.functions.LocalContext;
import com.multikey.emulator.services.streams.LambdaEvents;
import com.multikey.emulator.services.streams.StreamTail;
import com.multikey.index.GridLayoutStore;
import com.multikey.index.definition.GridState;
import com.multikey.index.definition.IndexDefinitions;
import com.multikey.indexer.StreamIndexerHandler;
import com.multikey.reindex.Backfill;
import com.multikey.reindex.CheckpointStore;
import com.multikey.reindex.IndexScope;
import com.multikey.reindex.Verifier;
import com.multikey.reindex.worker.ReindexWorkerHandler;
import com.multikey.testkit.IssueFixtures;
import com.multikey.testkit.LocalTables;
import com.multikey.testkit.LocalTablesExtension;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.Record;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code migrate-grid --on-aws} on a populated stack while random updates stream through the stream indexer's handler:
 * every job is worked by the reindex worker's own handler, in this process, behind a stand-in of the Lambda Invoke API
 * (a synchronous start, then an asynchronous invocation per segment, each of them one page long before it continues
 * in a new one, as a worker with little time left does). The verify step converges as the in-process one does.
 */
@ExtendWith(LocalTablesExtension.class)
class MigrateGridOnAwsBesideWritesTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Map<String, String> LOCAL = Map.of("AWS_REGION", "us-east-1", "AWS_ACCESS_KEY_ID", "local",
            "AWS_SECRET_ACCESS_KEY", "local");
    private static final IndexDefinitions DEFINITIONS = IndexDefinitions.packaged();
    private static final String APP = "AppTable";
    private static final String INDEX = "IssueAttribIndexTable";
    private static final String WORKER = "ReindexWorkerFunction";

    private final LocalTables tables;
    private final DynamoDbClient dynamoDb;
    private final HttpServer lambda;
    private final ExecutorService asyncInvocations = Executors.newFixedThreadPool(4);
    private final ReindexWorkerHandler worker;
    private final List<String> failedInvocations = new CopyOnWriteArrayList<>();
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    MigrateGridOnAwsBesideWritesTest(LocalTables tables) throws IOException {
        this.tables = tables;
        this.dynamoDb = tables.dynamoDb();
        lambda = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        // the start invokes the segments while its own request is still open: requests must not wait on each other
        lambda.setExecutor(Executors.newCachedThreadPool());
        lambda.createContext("/", this::invoke);
        lambda.start();
        worker = new ReindexWorkerHandler(Map.ofEntries(Map.entry("AWS_REGION", "us-east-1"), Map.entry("AWS_ACCESS_KEY_ID", "local"),
                Map.entry("AWS_SECRET_ACCESS_KEY", "local"), Map.entry("AWS_ENDPOINT_URL_DYNAMODB", tables.local().endpoint().toString()),
                Map.entry("AWS_ENDPOINT_URL_LAMBDA", "http://127.0.0.1:" + lambda.getAddress().getPort()),
                Map.entry("APP_TABLE_NAME", APP), Map.entry("INDEX_TABLE_NAME", INDEX), Map.entry("JOBS_TABLE_NAME", "ReindexJobsTable"),
                Map.entry("WORKER_FUNCTION_NAME", WORKER), Map.entry("WORKER_CONCURRENCY", "4"), Map.entry(GridLayoutStore.CACHE_SECONDS, "0")));
    }

    @AfterEach
    void stop() {
        lambda.stop(0);
        asyncInvocations.shutdownNow();
    }

    /** Invoke: {@code Event} queues the request and answers 202; otherwise it runs it and answers its result. */
    @SuppressWarnings("unchecked")
    private void invoke(HttpExchange exchange) throws IOException {
        Map<String, Object> request = JSON.readValue(exchange.getRequestBody().readAllBytes(), Map.class);
        byte[] body;
        if ("Event".equals(exchange.getRequestHeaders().getFirst("X-Amz-Invocation-Type"))) {
            asyncInvocations.submit(() -> {
                try {
                    worker.handleRequest(request, context());
                } catch (RuntimeException e) {
                    failedInvocations.add(request + ": " + e);
                }
            });
            body = new byte[0];
            exchange.sendResponseHeaders(202, -1);
        } else {
            try {
                body = JSON.writeValueAsBytes(worker.handleRequest(request, context()));
            } catch (RuntimeException e) {
                body = JSON.writeValueAsBytes(Map.of("errorMessage", e.toString()));
                exchange.getResponseHeaders().add("X-Amz-Function-Error", "Unhandled");
            }
            exchange.sendResponseHeaders(200, body.length);
        }
        exchange.getResponseBody().write(body);
        exchange.close();
    }

    /** 60 s left, the worker's safety margin: time for one page, then the segment goes on in a new invocation. */
    private static LocalContext context() {
        return LocalContext.of(WORKER);
    }

    private int run(String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--endpoint", tables.local().endpoint().toString(), "--lambda-endpoint",
                "http://127.0.0.1:" + lambda.getAddress().getPort()));
        return OperatorCli.run(all.toArray(String[]::new), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), LOCAL, false);
    }

    @Test
    void migrateGridOnAws_besideRandomStreamUpdates_verifiesTheDifferencesItFoundAgain_andEndsGroupedWithZeroDrift() throws Exception {
        // given: a stack that had the grid before (field-partitioned items), its stream read by the indexer's handler
        IssueFixtures.putRandomIssues(dynamoDb, APP, 150, new Random(23));
        new Backfill(dynamoDb, APP, INDEX, IndexScope.all(DEFINITIONS), 100_000).run(CheckpointStore.open(null, 1), 1, p -> { },
                Duration.ofSeconds(1));
        StreamIndexerHandler indexer = new StreamIndexerHandler(Map.of("AWS_REGION", "us-east-1", "AWS_ACCESS_KEY_ID", "local",
                "AWS_SECRET_ACCESS_KEY", "local", "AWS_ENDPOINT_URL_DYNAMODB", tables.local().endpoint().toString(),
                "APP_TABLE_NAME", APP, "INDEX_TABLE_NAME", INDEX, GridLayoutStore.CACHE_SECONDS, "0"));
        StreamTail tail = new StreamTail(dynamoDb, tables.local().streamsClient(), APP);
        deliver(indexer, tail.poll());

        // when: the command runs while issues keep changing, about fifty changes a second, each indexed a second or so later
        AtomicBoolean migrating = new AtomicBoolean(true);
        Thread updates = new Thread(() -> {
            Random random = new Random(31);
            for (int i = 0; i < 200 || migrating.get(); i++) {
                pause(20);
                String id = "issue#" + random.nextInt(170);
                if (random.nextInt(8) == 0) {
                    dynamoDb.deleteItem(b -> b.tableName(APP).key(Map.of("id", AttributeValue.fromS(id))));
                } else {
                    Map<String, AttributeValue> item = IssueFixtures.randomIssue(id, random.nextInt(40), random, random.nextInt(5));
                    dynamoDb.putItem(b -> b.tableName(APP).item(item));
                }
            }
        });
        Thread stream = new Thread(() -> {
            while (updates.isAlive()) {
                pause(1000); // the indexer's batching window in the template (MaximumBatchingWindowInSeconds: 1)
                deliver(indexer, tail.poll());
            }
        });
        updates.start();
        stream.start();
        int exit;
        try {
            exit = run("migrate-grid", "--settle-seconds", "2", "--on-aws", "--function", WORKER, "--jobs-table", "ReindexJobsTable",
                    "--total-segments", "4", "--concurrency", "4", "--page-size", "25", "--output", "json");
        } finally {
            migrating.set(false);
            updates.join();
            stream.join();
        }
        deliver(indexer, tail.poll());

        // then
        String steps = err.toString(StandardCharsets.UTF_8);
        assertThat(exit).as(steps).isZero();
        assertThat(JSON.readTree(out.toString(StandardCharsets.UTF_8))).isEqualTo(JSON.readTree("{\"state\":\"grouped\",\"done\":true}"));
        assertThat(steps).as("the stream's lag leaves differences for a verify to find")
                .containsPattern("migrate-grid: [1-9][0-9]* difference\\(s\\) found and repaired")
                .contains("migrate-grid: looked again: 0 difference(s) left", "migrate-grid: verified issue-grid: recording switched");
        assertThat(failedInvocations).isEmpty();
        IndexDefinitions grouped = DEFINITIONS.withGridState(GridState.GROUPED);
        assertThat(withoutControl(IssueFixtures.storedIndex(dynamoDb, INDEX))).isEqualTo(IssueFixtures.expectedIndex(dynamoDb, APP, grouped));
        assertThat(new Verifier(dynamoDb, APP, INDEX, IndexScope.all(grouped)).verify(false).clean()).isTrue();
    }

    private static void deliver(StreamIndexerHandler indexer, List<Record> records) {
        for (int from = 0; from < records.size(); from += 100) {
            List<Record> batch = records.subList(from, Math.min(records.size(), from + 100));
            assertThat(indexer.handleRequest(LambdaEvents.dynamodbEvent(batch, "arn:stream"), LocalContext.of("StreamIndexerFunction"))
                    .getBatchItemFailures()).isEmpty();
        }
    }

    private static Set<Map<String, AttributeValue>> withoutControl(Set<Map<String, AttributeValue>> items) {
        return items.stream().filter(item -> !GridLayoutStore.isControl(item)).collect(Collectors.toSet());
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

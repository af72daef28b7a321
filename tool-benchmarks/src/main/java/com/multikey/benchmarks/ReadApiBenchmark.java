package com.multikey.benchmarks;

import com.multikey.emulator.TemplateRuntime;
import com.multikey.emulator.services.http.LocalHttpApi;
import com.multikey.emulator.template.SamTemplate;
import com.multikey.index.IndexItem;
import com.multikey.index.IndexKey;
import com.multikey.index.IndexProjector;
import com.multikey.index.ItemKey;
import com.multikey.index.definition.IndexDefinitions;
import com.multikey.query.IndexQuery;
import com.multikey.query.Order;
import com.multikey.query.Page;
import com.multikey.query.PageRequest;
import com.multikey.reindex.Backfill;
import com.multikey.reindex.CheckpointStore;
import com.multikey.reindex.IndexScope;
import software.amazon.awssdk.http.SdkHttpFullRequest;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

import java.io.OutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * (9) the read API: every page of project#bench sorted by {@code estimate}, read three ways in one run, page by page
 * in turn so that the machine's noise falls on all three alike: a raw Query of the index partition plus a
 * BatchGetItem of the same keys (no library), the query library ({@link IndexQuery}), and the HTTP API as
 * {@code local start} serves it (a SigV4-signed GET through the template's route, the query function in its own
 * class loader, JSON out). Then a bounded load: {@value #LOAD_REQUESTS} signed requests, {@value #IN_FLIGHT} in
 * flight, over pages of every field.
 */
final class ReadApiBenchmark {

    private static final int ISSUES = 2000;
    private static final int ROUNDS = 5;
    private static final int LOAD_REQUESTS = 5000;
    private static final int IN_FLIGHT = 16;
    private static final Pattern CURSOR = Pattern.compile("\"nextCursor\":(null|\"([^\"]*)\")");

    private ReadApiBenchmark() {
    }

    static void run(PrintStream out) throws Exception {
        PrintStream console = System.out;
        System.setOut(new PrintStream(OutputStream.nullOutputStream()));
        TemplateRuntime started;
        try {
            started = new TemplateRuntime(SamTemplate.ofRepository().withParameterOverrides(Map.of("QueryApiAuth", "IAM")),
                    new TemplateRuntime.Ports("127.0.0.1", 0, 0, 0), line -> { });
        } finally {
            System.setOut(console);
        }
        try (TemplateRuntime runtime = started) {
            // the query function's own client configuration (URL-connection HTTP client), for all three paths alike
            DynamoDbClient dynamoDb = new com.multikey.common.ClientFactory(runtime.environment("QueryFunction")).dynamoDb();
            String appTable = runtime.table("AppTable");
            String indexTable = runtime.table("IssueAttribIndexTable");
            GridBenchmark.putIssues(dynamoDb, appTable, ISSUES);
            IndexDefinitions definitions = IndexDefinitions.packaged();
            new Backfill(dynamoDb, appTable, indexTable, IndexScope.all(definitions), 1_000_000)
                    .run(CheckpointStore.open(null, 4), 4, p -> { }, Duration.ofSeconds(5));
            LocalHttpApi api = runtime.serveHttpApi("QueryHttpApi", "127.0.0.1", 0, Optional.empty());
            IndexQuery library = IndexQuery.of(dynamoDb, appTable, indexTable);
            Raw raw = new Raw(dynamoDb, appTable, indexTable, partitionOf(definitions, dynamoDb, appTable, "estimate"));
            Http http = new Http(api.endpoint());
            com.multikey.emulator.functions.LocalFunction function = runtime.function("QueryFunction");

            out.printf("(9) read API: every page of %d issues sorted by estimate, raw Query + BatchGetItem / library / the query"
                    + " function invoked in-process / HTTP API (SigV4, local start), pages in turn, %d rounds after a warm-up%n", ISSUES, ROUNDS);
            out.printf("| page size | pages | raw p50 / p95 ms | library p50 / p95 ms | function p50 / p95 ms | API p50 / p95 ms |"
                    + " library / raw (p50) | API - library (p50) |%n|---|---|---|---|---|---|---|---|%n");
            for (int pageSize : new int[] {25, 100}) {
                List<Double> rawMillis = new ArrayList<>();
                List<Double> libraryMillis = new ArrayList<>();
                List<Double> apiMillis = new ArrayList<>();
                List<Double> functionMillis = new ArrayList<>();
                for (int round = 0; round <= ROUNDS; round++) {
                    boolean measured = round > 0;
                    Map<String, AttributeValue> rawPosition = null;
                    PageRequest request = PageRequest.first("project#bench", "estimate", Order.ASC, pageSize);
                    String apiCursor = null;
                    boolean more = true;
                    while (more) {
                        long t0 = System.nanoTime();
                        Raw.Result rawPage = raw.page(rawPosition, pageSize);
                        long t1 = System.nanoTime();
                        Page page = library.page(request);
                        long t2 = System.nanoTime();
                        Http.Result apiPage = http.grid("estimate", pageSize, apiCursor);
                        long t3 = System.nanoTime();
                        String answer = function.invoke(event(Http.query("estimate", pageSize, apiCursor)));
                        long t4 = System.nanoTime();
                        if (!answer.contains("\"statusCode\":200")) {
                            throw new IllegalStateException("the function answered " + answer.substring(0, Math.min(200, answer.length())));
                        }
                        if (apiPage.status() != 200 || rawPage.items() != page.items().size()) {
                            throw new IllegalStateException("the three reads differ: raw " + rawPage.items() + " items, library "
                                    + page.items().size() + ", API status " + apiPage.status());
                        }
                        if (measured) {
                            rawMillis.add((t1 - t0) / 1e6);
                            libraryMillis.add((t2 - t1) / 1e6);
                            apiMillis.add((t3 - t2) / 1e6);
                            functionMillis.add((t4 - t3) / 1e6);
                        }
                        more = page.nextCursor().isPresent();
                        rawPosition = rawPage.next();
                        request = more ? request.after(page.nextCursor().get()) : request;
                        apiCursor = apiPage.nextCursor();
                    }
                }
                double rawP50 = percentile(rawMillis, 50);
                double libraryP50 = percentile(libraryMillis, 50);
                double apiP50 = percentile(apiMillis, 50);
                out.printf(Locale.ROOT, "| %d | %d | %.2f / %.2f | %.2f / %.2f | %.2f / %.2f | %.2f / %.2f | %.2fx | %+.2f ms |%n", pageSize,
                        rawMillis.size() / ROUNDS, rawP50, percentile(rawMillis, 95), libraryP50, percentile(libraryMillis, 95),
                        percentile(functionMillis, 50), percentile(functionMillis, 95), apiP50,
                        percentile(apiMillis, 95), libraryP50 / rawP50, apiP50 - libraryP50);
            }
            load(out, http);
        }
    }

    /** {@value #LOAD_REQUESTS} signed requests for first pages of 25 over every field, {@value #IN_FLIGHT} at once. */
    private static void load(PrintStream out, Http http) throws Exception {
        String[] fields = {"estimate", "due", "f0", "f1", "f2", "f3", "f4", "f5", "f6", "f7"};
        AtomicInteger next = new AtomicInteger();
        AtomicInteger errors = new AtomicInteger();
        List<Double> millis = java.util.Collections.synchronizedList(new ArrayList<>());
        ExecutorService clients = Executors.newFixedThreadPool(IN_FLIGHT);
        long start = System.nanoTime();
        List<Future<?>> running = new ArrayList<>();
        for (int c = 0; c < IN_FLIGHT; c++) {
            running.add(clients.submit(() -> {
                for (int i = next.getAndIncrement(); i < LOAD_REQUESTS; i = next.getAndIncrement()) {
                    long t = System.nanoTime();
                    try {
                        if (http.grid(fields[i % fields.length], 25, null).status() != 200) {
                            errors.incrementAndGet();
                        }
                    } catch (RuntimeException e) {
                        errors.incrementAndGet();
                    }
                    millis.add((System.nanoTime() - t) / 1e6);
                }
                return null;
            }));
        }
        for (Future<?> client : running) {
            client.get();
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        clients.shutdown();
        out.printf(Locale.ROOT, "load: %d requests, %d in flight: %d errors, %.0f requests/s, p50 %.1f ms, p95 %.1f ms, p99 %.1f ms%n",
                LOAD_REQUESTS, IN_FLIGHT, errors.get(), LOAD_REQUESTS / seconds, percentile(millis, 50), percentile(millis, 95),
                percentile(millis, 99));
    }

    /** The payload format 2.0 event API Gateway sends for a grid request (IAM-authorized). */
    private static String event(String query) {
        return "{\"version\":\"2.0\",\"routeKey\":\"GET /v1/grid\",\"rawPath\":\"/v1/grid\",\"rawQueryString\":\"" + query
                + "\",\"requestContext\":{\"http\":{\"method\":\"GET\",\"path\":\"/v1/grid\"},\"stage\":\"$default\"},"
                + "\"isBase64Encoded\":false}";
    }

    private static double percentile(List<Double> values, int percent) {
        double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        return sorted[(int) Math.max(0, Math.min(sorted.length - 1, Math.ceil(sorted.length * percent / 100.0) - 1))];
    }

    /** The index partition holding {@code field}'s items, as the stream indexer writes it for the project's issues. */
    private static String partitionOf(IndexDefinitions definitions, DynamoDbClient dynamoDb, String appTable, String field) {
        Map<String, AttributeValue> item = dynamoDb.scan(b -> b.tableName(appTable).limit(1)).items().getFirst();
        return new IndexProjector(definitions).project(ItemKey.ofString("id", item.get("id").s()), item).items().stream()
                .filter(index -> index.toItem().containsKey("value") && index.attribId().contains(field))
                .map(IndexItem::attribId).findFirst().orElseThrow();
    }

    /** A page without the library: one Query of the index partition, one BatchGetItem of the issues it names. */
    private record Raw(DynamoDbClient dynamoDb, String appTable, String indexTable, String partition) {
        record Result(int items, Map<String, AttributeValue> next) {
        }

        Result page(Map<String, AttributeValue> position, int pageSize) {
            QueryResponse index = dynamoDb.query(b -> b.tableName(indexTable).keyConditionExpression("#a = :a")
                    .expressionAttributeNames(Map.of("#a", IndexKey.ATTRIB_ID)).expressionAttributeValues(Map.of(":a",
                            AttributeValue.fromS(partition))).limit(pageSize).exclusiveStartKey(position));
            List<Map<String, AttributeValue>> keys = index.items().stream()
                    .map(item -> Map.of("id", item.get(IndexItem.ITEM_ID))).toList();
            int read = 0;
            Map<String, KeysAndAttributes> requested = keys.isEmpty() ? Map.of() : Map.of(appTable, KeysAndAttributes.builder().keys(keys).build());
            while (!requested.isEmpty()) {
                Map<String, KeysAndAttributes> batch = requested;
                BatchGetItemResponse response = dynamoDb.batchGetItem(b -> b.requestItems(batch));
                read += response.responses().getOrDefault(appTable, List.of()).size();
                requested = response.unprocessedKeys();
            }
            return new Result(read, index.hasLastEvaluatedKey() && !index.lastEvaluatedKey().isEmpty() ? index.lastEvaluatedKey() : null);
        }
    }

    /** A SigV4-signing HTTP client of the local read API. */
    private static final class Http {
        record Result(int status, String nextCursor) {
        }

        private final URI endpoint;
        private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        private final AwsV4HttpSigner signer = AwsV4HttpSigner.create();
        private final AwsCredentialsIdentity credentials = AwsCredentialsIdentity.create("local", "local");

        Http(URI endpoint) {
            this.endpoint = endpoint;
        }

        static String query(String field, int pageSize, String cursor) {
            return (cursor == null ? "" : "cursor=" + URLEncoder.encode(cursor, StandardCharsets.UTF_8) + "&") + "field=" + field
                    + "&pageSize=" + pageSize + "&project=project%23bench";
        }

        Result grid(String field, int pageSize, String cursor) {
            String query = query(field, pageSize, cursor);
            URI uri = URI.create(endpoint + "/v1/grid?" + query);
            var signed = signer.sign(r -> r.request(SdkHttpFullRequest.builder().method(SdkHttpMethod.GET).uri(uri).build())
                    .identity(credentials).putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, "execute-api")
                    .putProperty(AwsV4HttpSigner.REGION_NAME, "us-east-1"));
            HttpRequest.Builder request = HttpRequest.newBuilder(uri).GET();
            signed.request().headers().forEach((name, values) -> {
                if (!name.equalsIgnoreCase("host")) {
                    request.header(name, values.getFirst());
                }
            });
            try {
                HttpResponse<String> response = client.send(request.build(), HttpResponse.BodyHandlers.ofString());
                Matcher next = CURSOR.matcher(response.body());
                return new Result(response.statusCode(), next.find() && next.group(2) != null ? next.group(2) : null);
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }
}

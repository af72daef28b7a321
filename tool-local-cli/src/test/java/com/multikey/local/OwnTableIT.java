package com.multikey.local;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.multikey.emulator.services.dynamodb.LocalDynamoDb;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code start --definitions FILE --load FILE}: the local stack on a table of the shape a definitions file declares (a
 * pk/sk table with a number sort key, a table keyed by binary), seeded from DynamoDB JSON, its declared index filled
 * by the indexer from the table's stream; {@code demo --definitions FILE --load FILE} checks the same end to end.
 */
class OwnTableIT {

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @TempDir
    Path dir;

    private static int freePort() throws Exception {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /** Starts the stack for {@code seconds} in the background; returns once it printed ready, with its DynamoDB port. */
    private CompletableFuture<Integer> start(int port, int seconds, String... args) throws Exception {
        List<String> all = new ArrayList<>(List.of("start", "--port", Integer.toString(port), "--eventbridge-port", "0", "--lambda-port", "0",
                "--sqs-port", "0", "--api-port", "0", "--seconds", Integer.toString(seconds)));
        all.addAll(List.of(args));
        CompletableFuture<Integer> exit = CompletableFuture.supplyAsync(() -> LocalMain.run(all.toArray(String[]::new),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
                new FunctionLogs(dir.resolve("functions.log")), false));
        Instant until = Instant.now().plus(Duration.ofSeconds(90));
        while (!printed().lines().toList().contains(LocalMain.READY) && !exit.isDone() && Instant.now().isBefore(until)) {
            Thread.sleep(100);
        }
        assertThat(printed()).as(err.toString(StandardCharsets.UTF_8)).contains(LocalMain.READY);
        return exit;
    }

    /** A GET of the running stack's read API (the endpoint its 'read API:' line names), signed as any SigV4 client signs it. */
    private JsonNode readApi(String pathAndQuery) throws Exception {
        String endpoint = printed().lines().filter(line -> line.startsWith("read API: ")).findFirst().orElseThrow().split(" +")[2];
        URI uri = URI.create(endpoint + pathAndQuery);
        HttpRequest.Builder request = HttpRequest.newBuilder(uri).GET();
        LocalReadApiIT.sdkSigned(uri, LocalDynamoDb.ACCESS_KEY, LocalDynamoDb.SECRET_KEY, Instant.now()).forEach(request::header);
        HttpResponse<String> response = HttpClient.newHttpClient().send(request.build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return new ObjectMapper().readTree(response.body());
    }

    private String printed() {
        return out.toString(StandardCharsets.UTF_8);
    }

    private static DynamoDbClient client(int port) {
        return DynamoDbClient.builder().endpointOverride(URI.create("http://127.0.0.1:" + port)).region(LocalDynamoDb.REGION)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(LocalDynamoDb.ACCESS_KEY, LocalDynamoDb.SECRET_KEY)))
                .httpClient(UrlConnectionHttpClient.create()).build();
    }

    /** The index items of {@code index} in the stack's index table, once there are {@code expected} of them (or after 60 s). */
    private static List<Map<String, AttributeValue>> indexItems(DynamoDbClient dynamoDb, String index, int expected) throws InterruptedException {
        Instant until = Instant.now().plus(Duration.ofSeconds(60));
        List<Map<String, AttributeValue>> items = List.of();
        while (Instant.now().isBefore(until)) {
            items = dynamoDb.scan(b -> b.tableName("IssueAttribIndexTable")).items().stream()
                    .filter(item -> item.containsKey("index") && index.equals(item.get("index").s())).toList();
            if (items.size() >= expected) {
                return items;
            }
            Thread.sleep(250);
        }
        return items;
    }

    @Test
    void start_withDefinitionsOfAPkSkTableWithANumberSortKey_andTheLoadOfAScanOutput_indexesTheItems() throws Exception {
        Path definitions = Files.writeString(dir.resolve("docs.yaml"), """
                version: 1
                table: {partitionKey: {name: pk, type: S}, sortKey: {name: ver, type: N}}
                entityTypes: [{name: Doc, when: [{attribute: pk, beginsWith: "doc#"}]}]
                indexes:
                  - {name: by-status, group: pk, values: {attribute: status}}
                """);
        Path scan = Files.writeString(dir.resolve("scan.json"), """
                {"Items": [{"pk": {"S": "doc#1"}, "ver": {"N": "1"}, "status": {"S": "draft"}},
                           {"pk": {"S": "doc#1"}, "ver": {"N": "2"}, "status": {"S": "final"}},
                           {"pk": {"S": "doc#2"}, "ver": {"N": "1"}, "status": {"S": "draft"}}],
                 "Count": 3, "ScannedCount": 3, "ConsumedCapacity": null}
                """);
        int port = freePort();

        CompletableFuture<Integer> exit = start(port, 25, "--definitions", definitions.toString(), "--table-name", "Docs", "--load", scan.toString());

        assertThat(printed()).contains("your table: Docs (key pk S, ver N), indexes: by-status (from " + definitions + ")")
                .contains("loaded 3 items from " + scan + " into Docs")
                .containsPattern("curl --aws-sigv4 .* 'http://127\\.0\\.0\\.1:[0-9]+/v1/indexes'\n").doesNotContain("/v1/grid");
        try (DynamoDbClient dynamoDb = client(port)) {
            assertThat(dynamoDb.describeTable(b -> b.tableName("Docs")).table().keySchema()).extracting(k -> k.attributeName())
                    .containsExactly("pk", "ver");
            List<Map<String, AttributeValue>> index = indexItems(dynamoDb, "by-status", 3);
            assertThat(index).hasSize(3);
            assertThat(index).extracting(item -> item.get("itemKey").m().get("ver").n()).containsExactlyInAnyOrder("1", "2", "1");
            assertThat(index).extracting(item -> item.get("value").s()).containsExactlyInAnyOrder("draft", "final", "draft");
        }
        JsonNode page = readApi("/v1/indexes/by-status/items?group=doc%231");
        assertThat(page.path("items").findValuesAsText("value")).as(page.toString()).containsExactly("draft", "final");
        assertThat(exit.get()).as(printed()).isZero();
    }

    @Test
    void start_withDefinitionsOfABinaryKeyedTable_andALoadOfOneItemALine_indexesTheItems() throws Exception {
        Path definitions = Files.writeString(dir.resolve("blobs.yaml"), """
                version: 1
                table: {partitionKey: {name: id, type: B}}
                entityTypes: []
                indexes:
                  - {name: by-color, group: shop, values: {attribute: color}}
                """);
        Path lines = Files.writeString(dir.resolve("items.json"), """
                {"Item": {"id": {"B": "AQI="}, "shop": {"S": "s1"}, "color": {"S": "red"}}}
                {"id": {"B": "AwQ="}, "shop": {"S": "s1"}, "color": {"S": "blue"}}
                """);
        int port = freePort();

        CompletableFuture<Integer> exit = start(port, 25, "--definitions", definitions.toString(), "--load", lines.toString());

        assertThat(printed()).contains("your table: MyTable (key id B)").contains("loaded 2 items from " + lines + " into MyTable");
        try (DynamoDbClient dynamoDb = client(port)) {
            List<Map<String, AttributeValue>> index = indexItems(dynamoDb, "by-color", 2);
            assertThat(index).extracting(item -> item.get("value").s()).containsExactlyInAnyOrder("red", "blue");
            assertThat(index).extracting(item -> item.get("itemKey").m().get("id").b().asByteArray()[0]).containsExactlyInAnyOrder((byte) 1, (byte) 3);
        }
        JsonNode page = readApi("/v1/indexes/by-color/items?group=s1&order=desc");
        assertThat(page.path("items").findValuesAsText("value")).as(page.toString()).containsExactly("red", "blue");
        assertThat(exit.get()).as(printed()).isZero();
    }

    @Test
    void demo_withDefinitionsAndItems_passesEveryCheck_andSaysWhatItChecked() throws Exception {
        Path definitions = Files.writeString(dir.resolve("tickets.yaml"), """
                version: 1
                table: {partitionKey: {name: pk, type: S}, sortKey: {name: sk, type: S}}
                entityTypes: [{name: Ticket, when: [{attribute: sk, beginsWith: "T#"}]}]
                indexes:
                  - {name: ticket-fields, covers: [{attribute: sk, beginsWith: "T#"}], group: pk, values: {entriesOf: cf}, orderBy: num}
                  - {name: ticket-tags, covers: [{attribute: sk, beginsWith: "T#"}], group: pk, values: {elementsOf: tags}}
                """);
        Path items = Files.writeString(dir.resolve("tickets.json"), """
                {"pk": {"S": "P#1"}, "sk": {"S": "T#1"}, "num": {"N": "1"}, "cf": {"M": {"due": {"S": "2026-12-01"}, "size": {"N": "3"}}}, "tags": {"SS": ["a", "b"]}}
                {"pk": {"S": "P#1"}, "sk": {"S": "T#2"}, "num": {"N": "2"}, "cf": {"M": {"size": {"N": "1"}}}, "tags": {"L": [{"S": "a"}]}}
                {"pk": {"S": "P#2"}, "sk": {"S": "T#1"}, "num": {"N": "1"}, "cf": {"M": {}}}
                """);

        int exit = LocalMain.run(new String[] {"demo", "--definitions", definitions.toString(), "--load", items.toString(), "--output", "json"},
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
                new FunctionLogs(dir.resolve("functions.log")), false);

        assertThat(exit).as(printed() + err).isZero();
        var document = new com.fasterxml.jackson.databind.ObjectMapper().readTree(printed());
        assertThat(document.path("failed").asInt()).isZero();
        assertThat(document.path("passed").asInt()).isEqualTo(7);
        assertThat(document.path("checks").findValuesAsText("description")).contains("the table holds every loaded item (by key)",
                "ticket-fields: the index items the table's items imply", "ticket-tags: a first page holds items, in at most 2 API calls",
                "verify finds every index equal to what the table implies");
    }

    @Test
    void start_withALoadFileThatIsNotDynamoDbJson_isBadUsage_beforeAnythingStarts() throws Exception {
        Path bad = Files.writeString(dir.resolve("bad.json"), "{\"pk\": \"not typed\"}\nnot json\n");

        int exit;
        try (DefaultPortsTaken taken = DefaultPortsTaken.take()) {
            exit = LocalMain.run(new String[] {"start", "--load", bad.toString(), "--port", "0", "--eventbridge-port", "0", "--lambda-port", "0",
                            "--sqs-port", "0", "--api-port", "0"}, new PrintStream(out, true, StandardCharsets.UTF_8),
                    new PrintStream(err, true, StandardCharsets.UTF_8), new FunctionLogs(dir.resolve("functions.log")), false);
        }

        assertThat(exit).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).startsWith("error: " + bad + " line 2 is not JSON");
        assertThat(printed()).doesNotContain(LocalMain.READY);
    }
}

package com.multikey.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.multikey.emulator.services.lambda.LocalLambdaApi;
import com.multikey.index.definition.Condition;
import com.multikey.index.definition.DefinitionsYaml;
import com.multikey.index.definition.EntityTypeRule;
import com.multikey.index.definition.IndexDefinition;
import com.multikey.index.definition.IndexDefinitions;
import com.multikey.index.definition.KeySchema;
import com.multikey.testkit.LocalTables;
import com.multikey.testkit.LocalTablesExtension;
import com.multikey.testkit.SingleTableFixtures;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.lambda.LambdaClient;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code init} on the single-table example's data (examples/single-table, test-kit's SingleTableFixtures) in a pk/sk
 * table at a local endpoint, as a user runs it on their own table.
 */
@ExtendWith(LocalTablesExtension.class)
class InitCommandTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TABLE = "Tracker";

    private final LocalTables tables;
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    @TempDir
    Path directory;

    InitCommandTest(LocalTables tables) {
        this.tables = tables;
    }

    @BeforeEach
    void clearRecordedCalls() {
        OperationRecorder.clear();
    }

    static void createTable(DynamoDbClient dynamoDb, String name, StreamViewType stream) {
        dynamoDb.createTable(b -> b.tableName(name).billingMode("PAY_PER_REQUEST")
                .attributeDefinitions(a -> a.attributeName("pk").attributeType(ScalarAttributeType.S),
                        a -> a.attributeName("sk").attributeType(ScalarAttributeType.S))
                .keySchema(k -> k.attributeName("pk").keyType(KeyType.HASH), k -> k.attributeName("sk").keyType(KeyType.RANGE))
                .streamSpecification(stream == null ? null : software.amazon.awssdk.services.dynamodb.model.StreamSpecification.builder()
                        .streamEnabled(true).streamViewType(stream).build()));
    }

    private void exampleTable(StreamViewType stream) {
        createTable(tables.dynamoDb(), TABLE, stream);
        SingleTableFixtures.exampleItems().forEach(item -> tables.dynamoDb().putItem(b -> b.tableName(TABLE).item(item)));
        OperationRecorder.clear();
    }

    private int run(String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--endpoint", tables.local().endpoint().toString()));
        return OperatorCli.run(all.toArray(String[]::new), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private String printed() {
        return out.toString(StandardCharsets.UTF_8);
    }

    private String errors() {
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void init_onTheSingleTableExample_proposesItsEntityTypesWithCounts_andTheExamplesIndexesAmongTheCandidates() throws Exception {
        // given
        exampleTable(StreamViewType.NEW_AND_OLD_IMAGES);
        Path file = directory.resolve("tracker.yaml");

        // when
        int exit = run("init", "--table", TABLE, "--out", file.toString());

        // then
        assertThat(exit).as(errors()).isZero();
        String yaml = Files.readString(file);
        assertThat(yaml).contains("table:\n  partitionKey: {name: \"pk\", type: S}\n  sortKey: {name: \"sk\", type: S}\n")
                .contains("  - {name: Project, when: [{attribute: \"sk\", beginsWith: \"PROJECT#\"}]}   # 2 of 12 items")
                .contains("  - {name: Issue, when: [{attribute: \"sk\", beginsWith: \"ISSUE#\"}]}   # 5 of 12 items")
                .contains("  - {name: Lyr, when: [{attribute: \"pk\", beginsWith: \"lyr#\"}]}   # 5 of 12 items")
                .contains("  ## Issue map cf: on 5 of 5 Issue items; 2 entry names (due, priority); 4 distinct values; types M")
                .contains("  ## Issue list or set labels: on 4 of 5 Issue items; 3 distinct elements; types SS")
                .contains("  ## Lyr scalar dplySts: on 5 of 5 Lyr items; 2 distinct values; types S")
                .contains("# Stream: NEW_AND_OLD_IMAGES");
        assertThat(printed()).contains("wrote " + file + ": 12 items read (the whole table), 3 entity types")
                .contains("stream: NEW_AND_OLD_IMAGES (ready for the indexer)");

        IndexDefinitions proposed = DefinitionsYaml.parse(uncommentEveryCandidate(yaml));
        IndexDefinitions example = DefinitionsYaml.read(repository().resolve("examples/single-table/index-definitions.yaml"));
        assertThat(proposed.table()).isEqualTo(example.table());
        for (IndexDefinition wanted : example.indexes()) {
            assertThat(proposed.indexes()).as("a candidate like the example's " + wanted.name()).anySatisfy(candidate -> {
                assertThat(candidate.values()).isEqualTo(wanted.values());
                assertThat(candidate.covers()).hasSize(1);
                Condition.BeginsWith covers = (Condition.BeginsWith) candidate.covers().get(0);
                assertThat(wanted.covers().get(0)).isInstanceOfSatisfying(Condition.BeginsWith.class, w ->
                        assertThat(w.prefix()).as("the example's prefix begins with the proposal's")
                                .startsWith(covers.prefix().substring(0, 3)));
            });
        }
        for (Map<String, AttributeValue> item : SingleTableFixtures.exampleItems()) {
            String exampleType = example.entityTypeOf(item);
            assertThat(proposed.entityTypeOf(item)).as("type of " + item.get("pk") + " " + item.get("sk"))
                    .isEqualTo(exampleType.equals("Layer") ? "Lyr" : exampleType);
        }
    }

    @Test
    void init_theFileItWrites_passesTheDefinitionsCheckAsItIs_andWithEveryCandidateUncommented() throws Exception {
        exampleTable(StreamViewType.NEW_AND_OLD_IMAGES);
        Path file = directory.resolve("tracker.yaml");

        assertThat(run("init", "--table", TABLE, "--out", file.toString())).as(errors()).isZero();

        IndexDefinitions asWritten = DefinitionsYaml.read(file);
        assertThat(asWritten.indexes()).isEmpty();
        assertThat(asWritten.entityTypes()).hasSize(3).allSatisfy(rule -> assertThat(rule).isInstanceOf(EntityTypeRule.Named.class));
        assertThat(asWritten.table().sortKey()).contains(new KeySchema.KeyAttribute("sk", KeySchema.KeyType.S));
        IndexDefinitions everyCandidate = DefinitionsYaml.parse(uncommentEveryCandidate(Files.readString(file)));
        assertThat(everyCandidate.indexes()).extracting(IndexDefinition::name)
                .contains("issue-cf", "issue-labels", "issue-num", "issue-title", "lyr-dplySts", "lyr-pckg", "lyr-region", "lyr-vrsn");
        assertThat(everyCandidate.index("issue-cf").orElseThrow().group()).extracting(Object::toString).containsExactly("pk");
        assertThat(everyCandidate.index("project-name").orElseThrow().group()).as("each project is alone in its partition").isEmpty();
    }

    @Test
    void init_neverWrites_itCallsOnlyDescribeTableAndScan_andTheTableIsUnchanged() {
        exampleTable(StreamViewType.NEW_AND_OLD_IMAGES);
        List<Map<String, AttributeValue>> before = tables.dynamoDb().scan(b -> b.tableName(TABLE)).items();
        OperationRecorder.clear();

        assertThat(run("init", "--table", TABLE, "--out", directory.resolve("f.yaml").toString(), "--page-size", "5")).as(errors()).isZero();

        List<OperationRecorder.Call> calls = OperationRecorder.calls();
        assertThat(calls).extracting(OperationRecorder.Call::operation).as("no write operation of any client").doesNotContainAnyElementsOf(
                OperationRecorder.WRITES).containsOnly("DescribeTable", "Scan");
        assertThat(calls).filteredOn(c -> c.request() instanceof ScanRequest).allSatisfy(call -> {
            ScanRequest scan = (ScanRequest) call.request();
            assertThat(scan.limit()).isLessThanOrEqualTo(5);
            assertThat(scan.consistentRead()).as("eventually consistent: half the read units").isNotEqualTo(Boolean.TRUE);
        });
        assertThat(tables.dynamoDb().scan(b -> b.tableName(TABLE)).items()).containsExactlyInAnyOrderElementsOf(before);
    }

    @Test
    void init_readsAtMostTheSample_inPagesOfThePageSize_andReportsItInJson() throws Exception {
        exampleTable(StreamViewType.NEW_AND_OLD_IMAGES);

        assertThat(run("init", "--table", TABLE, "--out", directory.resolve("f.yaml").toString(), "--sample", "5", "--page-size", "2",
                "--output", "json")).as(errors()).isZero();

        JsonNode document = JSON.readTree(printed());
        assertThat(document.path("sampled").asInt()).isEqualTo(5);
        assertThat(document.path("pages").asInt()).isEqualTo(3);
        assertThat(document.path("wholeTable").asBoolean()).isFalse();
        assertThat(document.path("table").asText()).isEqualTo(TABLE);
        assertThat(document.path("stream").path("ready").asBoolean()).isTrue();
        assertThat(document.path("stream").path("viewType").asText()).isEqualTo("NEW_AND_OLD_IMAGES");
        assertThat(document.path("stream").path("change").isNull()).isTrue();
        assertThat(document.path("entityTypes").get(0).path("items").asInt()).isPositive();
        assertThat(OperationRecorder.calls()).filteredOn(c -> c.operation().equals("Scan")).hasSize(3);
        assertThat(Files.readString(directory.resolve("f.yaml"))).contains("# from 5 items read (a sample of DynamoDB's count of");
    }

    @Test
    void sampler_pausesAfterEachPage_forTheReadUnitsItConsumed_atTheRateGiven() throws Exception {
        exampleTable(StreamViewType.NEW_AND_OLD_IMAGES);
        List<Duration> pauses = new ArrayList<>();

        TableSampler.Sample sample = new TableSampler(tables.dynamoDb(), 4, 2.0, pauses::add).sample(TABLE, 100);

        assertThat(sample.items()).hasSize(12);
        assertThat(sample.whole()).isTrue();
        assertThat(pauses).as("a pause between pages, none after the last").hasSize(sample.pages() - 1);
        double paused = pauses.stream().mapToLong(Duration::toNanos).sum() / 1e9;
        assertThat(paused).as("units / rate, the last page's units excepted").isGreaterThanOrEqualTo((sample.readUnits() - 0.5 * 4) / 2.0 - 1e-6)
                .isLessThanOrEqualTo(sample.readUnits() / 2.0 + 1e-6).isPositive();
    }

    @Test
    void init_onATableWithoutAStream_writesTheFile_andSaysHowToEnableOne_exitOne() throws Exception {
        exampleTable(null);
        Path file = directory.resolve("f.yaml");

        assertThat(run("init", "--table", TABLE, "--out", file.toString())).as(errors()).isEqualTo(1);

        assertThat(printed()).contains("stream: not ready: table Tracker has no stream: enable one with both images "
                + "(aws dynamodb update-table --table-name Tracker --stream-specification StreamEnabled=true,StreamViewType=NEW_AND_OLD_IMAGES)");
        assertThat(Files.readString(file)).contains("# Stream: NOT READY: table Tracker has no stream");
        assertThat(DefinitionsYaml.read(file).entityTypes()).hasSize(3);
    }

    @Test
    void init_onAStreamWithoutBothImages_saysToDisableAndEnableIt_exitOne() throws Exception {
        exampleTable(StreamViewType.NEW_IMAGE);

        assertThat(run("init", "--table", TABLE, "--out", directory.resolve("f.yaml").toString(), "--output", "json")).isEqualTo(1);

        JsonNode stream = JSON.readTree(printed()).path("stream");
        assertThat(stream.path("ready").asBoolean()).isFalse();
        assertThat(stream.path("viewType").asText()).isEqualTo("NEW_IMAGE");
        assertThat(stream.path("change").asText()).contains("carries NEW_IMAGE, and the indexer needs NEW_AND_OLD_IMAGES",
                "StreamEnabled=false", "StreamEnabled=true,StreamViewType=NEW_AND_OLD_IMAGES", "a new ARN");
    }

    @Test
    void init_onATableThatDoesNotExist_isOneErrorLine_exitThree() {
        assertThat(run("init", "--table", "NoSuchTable", "--out", directory.resolve("f.yaml").toString())).isEqualTo(3);

        assertThat(errors().lines().toList()).containsExactly("error: table NoSuchTable does not exist at " + tables.local().endpoint()
                + " (--endpoint): pass --table with the name of an existing table (aws dynamodb list-tables --endpoint-url "
                + tables.local().endpoint() + ")");
        assertThat(directory.resolve("f.yaml")).doesNotExist();
    }

    @Test
    void init_whenTheFileExists_refusesWithoutForce_exitTwo_andReplacesItWithForce() throws Exception {
        exampleTable(StreamViewType.NEW_AND_OLD_IMAGES);
        Path file = Files.writeString(directory.resolve("f.yaml"), "mine");

        assertThat(run("init", "--table", TABLE, "--out", file.toString())).isEqualTo(2);
        assertThat(errors()).startsWith("error: " + file + " exists: pass --force to replace it, or --out another file");
        assertThat(Files.readString(file)).isEqualTo("mine");
        assertThat(OperationRecorder.calls()).as("nothing read before the options are checked").isEmpty();

        assertThat(run("init", "--table", TABLE, "--out", file.toString(), "--force")).isZero();
        assertThat(Files.readString(file)).startsWith("# Index definitions proposed by 'operator-cli init' for table Tracker");
    }

    @Test
    void init_onAStreamThatAlreadyHasAReader_listsIt_andSaysToDeployWithOneReader() throws Exception {
        // given: the table's stream already feeds a function of its own (as Klayers' layer table forwards its stream)
        exampleTable(StreamViewType.NEW_AND_OLD_IMAGES);
        String streamArn = tables.dynamoDb().describeTable(b -> b.tableName(TABLE)).table().latestStreamArn();
        try (LocalLambdaApi lambdaApi = LocalLambdaApi.start(); LambdaClient lambda = LambdaClient.builder()
                .endpointOverride(lambdaApi.endpoint()).region(Region.US_EAST_1).httpClient(UrlConnectionHttpClient.create())
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local"))).build()) {
            String uuid = lambda.createEventSourceMapping(b -> b.eventSourceArn(streamArn).functionName("layer-forwarder")
                    .startingPosition("LATEST")).uuid();

            // when
            int text = run("init", "--table", TABLE, "--out", directory.resolve("f.yaml").toString(),
                    "--lambda-endpoint", lambdaApi.endpoint().toString());
            String printedText = printed();
            out.reset();
            int json = run("init", "--table", TABLE, "--out", directory.resolve("f.yaml").toString(), "--force",
                    "--lambda-endpoint", lambdaApi.endpoint().toString(), "--output", "json");

            // then
            assertThat(text).as(errors()).isZero();
            assertThat(json).isZero();
            assertThat(printedText).contains("stream readers: 1 listed (Lambda event source mappings of " + streamArn + ")",
                    "layer-forwarder  Enabled  " + uuid,
                    "with the stack: 3 readers a shard with StreamReaders=two, 2 with StreamReaders=one (a shard serves 2)",
                    "choose: deploy with StreamReaders=one", "not listed, count them in: Kinesis Client Library", "EventBridge Pipes");
            JsonNode readers = JSON.readTree(printed()).path("streamReaders");
            assertThat(readers.path("listed").asBoolean()).isTrue();
            assertThat(readers.path("existing").asInt()).isEqualTo(1);
            assertThat(readers.path("withTwo").asInt()).isEqualTo(3);
            assertThat(readers.path("withOne").asInt()).isEqualTo(2);
            assertThat(readers.path("mode").asText()).isEqualTo("one");
            assertThat(readers.path("readers").get(0).path("functionArn").asText()).endsWith(":function:layer-forwarder");
            assertThat(Files.readString(directory.resolve("f.yaml"))).as("the file's header")
                    .contains("# Stream readers: 1 listed (Lambda event source mappings): with the stack 3 a shard with StreamReaders=two, 2 with"
                            + " StreamReaders=one (a shard serves 2).")
                    .contains("# Choose: deploy with StreamReaders=one");
        }
    }

    @Test
    void init_onAStreamWithTwoReaders_saysEveryModeMakesAThird_exitOne() throws Exception {
        exampleTable(StreamViewType.NEW_AND_OLD_IMAGES);
        String streamArn = tables.dynamoDb().describeTable(b -> b.tableName(TABLE)).table().latestStreamArn();
        try (LocalLambdaApi lambdaApi = LocalLambdaApi.start()) {
            lambdaApi.addEventSourceMapping(streamArn, "arn:aws:lambda:us-east-1:000000000000:function:a", "LATEST", 100);
            lambdaApi.addEventSourceMapping(streamArn, "arn:aws:lambda:us-east-1:000000000000:function:b", "LATEST", 100);
            lambdaApi.addEventSourceMapping("arn:aws:dynamodb:us-east-1:000000000000:table/Other/stream/x",
                    "arn:aws:lambda:us-east-1:000000000000:function:c", "LATEST", 100);

            int exit = run("init", "--table", TABLE, "--out", directory.resolve("f.yaml").toString(),
                    "--lambda-endpoint", lambdaApi.endpoint().toString());

            assertThat(exit).isEqualTo(1);
            assertThat(printed()).contains("stream readers: 2 listed", "the stream already has 2 readers: even StreamReaders=one makes 3")
                    .doesNotContain("function:c");
        }
    }

    @Test
    void init_onAStreamWithoutReaders_keepsTwoReaders_andWithoutALambdaEndpoint_saysItListedNone() throws Exception {
        exampleTable(StreamViewType.NEW_AND_OLD_IMAGES);
        try (LocalLambdaApi lambdaApi = LocalLambdaApi.start()) {
            assertThat(run("init", "--table", TABLE, "--out", directory.resolve("f.yaml").toString(),
                    "--lambda-endpoint", lambdaApi.endpoint().toString())).isZero();
            assertThat(printed()).contains("stream readers: 0 listed", "choose: no reader of its own: keep the default StreamReaders=two");
        }
        out.reset();

        assertThat(run("init", "--table", TABLE, "--out", directory.resolve("f.yaml").toString(), "--force")).isZero();

        assertThat(printed()).contains("stream readers: not listed: a table at --endpoint: pass --lambda-endpoint to list its readers",
                "if the stream already has a reader, deploy with StreamReaders=one");
        assertThat(Files.readString(directory.resolve("f.yaml"))).as("the file's header")
                .contains("# Stream readers: not listed: a table at --endpoint: pass --lambda-endpoint to list its readers.")
                .contains("# Choose: readers not listed");
    }

    /** Makes {@code indexes: []} a list of every candidate, uncommented. */
    static String uncommentEveryCandidate(String yaml) {
        return yaml.lines().map(line -> line.equals("indexes: []") ? "indexes:" : line.startsWith("  # ") ? "  " + line.substring(4) : line)
                .collect(Collectors.joining("\n"));
    }

    static Path repository() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !Files.isDirectory(dir.resolve("examples"))) {
            dir = dir.getParent();
        }
        if (dir == null) {
            throw new IllegalStateException("no examples directory above " + Path.of("").toAbsolutePath());
        }
        return dir;
    }
}

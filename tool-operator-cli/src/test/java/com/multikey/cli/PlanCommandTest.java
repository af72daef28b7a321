package com.multikey.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.multikey.common.ChangeKind;
import com.multikey.common.ChangeRecord;
import com.multikey.index.definition.DefinitionsYaml;
import com.multikey.index.definition.IndexDefinition;
import com.multikey.index.definition.IndexDefinitions;
import com.multikey.indexer.BatchPlanner;
import com.multikey.indexer.IndexerConfig;
import com.multikey.testkit.LocalTables;
import com.multikey.testkit.LocalTablesExtension;
import com.multikey.testkit.SingleTableFixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * {@code plan} on a table at a local endpoint: its figures against the indexer's own planner on the same changes, and
 * against docs/cost.md's measured writes per change on a sample like the benchmark's.
 */
@ExtendWith(LocalTablesExtension.class)
class PlanCommandTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    /** docs/cost.md: index writes per record, one custom field changed, issues of 20 custom fields (IndexerBenchmark (2)). */
    private static final double MEASURED_WRITES_PER_CHANGE = 2.47;

    private final LocalTables tables;
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    PlanCommandTest(LocalTables tables) {
        this.tables = tables;
    }

    private int run(String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--endpoint", tables.local().endpoint().toString()));
        return OperatorCli.run(all.toArray(String[]::new), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), Map.of(), false);
    }

    private JsonNode document() throws Exception {
        return JSON.readTree(out.toString(StandardCharsets.UTF_8));
    }

    private static Path exampleDefinitions() {
        return InitCommandTest.repository().resolve("examples/single-table/index-definitions.yaml");
    }

    private List<Map<String, AttributeValue>> exampleTable() {
        InitCommandTest.createTable(tables.dynamoDb(), "Tracker", StreamViewType.NEW_AND_OLD_IMAGES);
        SingleTableFixtures.exampleItems().forEach(item -> tables.dynamoDb().putItem(b -> b.tableName("Tracker").item(item)));
        return tables.dynamoDb().scan(b -> b.tableName("Tracker")).items();
    }

    /** The index writes the indexer's own planner makes of the plan's typical changes, one stream record each, per record. */
    private static double plannerWritesPerChange(IndexDefinitions definitions, IndexDefinition index, List<Map<String, AttributeValue>> sample) {
        IndexDefinitions alone = new IndexDefinitions(definitions.version(), definitions.table(), definitions.entityTypes(), List.of(index),
                definitions.gridState());
        BatchPlanner planner = new BatchPlanner(new IndexerConfig("IndexTable", "AppTable", alone));
        List<TypicalChanges.Change> changes = TypicalChanges.of(index, definitions.table(), sample);
        long writes = 0;
        int n = 0;
        for (TypicalChanges.Change change : changes) {
            n++;
            ChangeRecord record = new ChangeRecord("event" + n, ChangeKind.MODIFY, Integer.toString(n), change.key().toKey(), change.before(),
                    change.after(), null, null);
            writes += planner.plan(List.of(record)).changes().size();
        }
        return (double) writes / changes.size();
    }

    private static JsonNode index(JsonNode document, String name) {
        for (JsonNode index : document.path("indexes")) {
            if (index.path("index").asText().equals(name)) {
                return index;
            }
        }
        throw new AssertionError("no index " + name + " in " + document);
    }

    @Test
    void plan_onTheSingleTableExample_measuresEachIndex_andItsWritesPerChangeAreTheIndexersPlannersWithin10Percent() throws Exception {
        // given
        List<Map<String, AttributeValue>> sample = exampleTable();
        IndexDefinitions definitions = DefinitionsYaml.read(exampleDefinitions());

        // when
        int exit = run("plan", "--definitions", exampleDefinitions().toString(), "--table", "Tracker", "--output", "json");

        // then
        assertThat(exit).as(err.toString(StandardCharsets.UTF_8)).isZero();
        JsonNode document = document();
        for (IndexDefinition declared : definitions.indexes()) {
            JsonNode measured = index(document, declared.name());
            double planner = plannerWritesPerChange(definitions, declared, sample);
            assertThat(measured.path("writesPerChange").asDouble()).as(declared.name()).isPositive()
                    .isCloseTo(planner, within(planner * 0.10));
            assertThat(measured.path("sampled").asInt()).isEqualTo(12);
        }
        JsonNode fields = index(document, "issue-fields");
        assertThat(fields.path("covered").asInt()).isEqualTo(5);
        assertThat(fields.path("indexItemsPerItem").asDouble()).as("6 custom fields over 5 issues").isEqualTo(1.2);
        assertThat(index(document, "issue-labels").path("indexItemsPerItem").asDouble()).as("5 labels over 5 issues").isEqualTo(1.0);
        assertThat(index(document, "layers-by-package").path("covered").asInt()).isEqualTo(5);
        assertThat(document.path("tableItems").asLong()).isEqualTo(12);

        assertThat(fields.path("gsi").path("native").asBoolean()).isFalse();
        assertThat(index(document, "issue-labels").path("gsi").path("native").asBoolean()).isFalse();
        JsonNode byPackage = index(document, "layers-by-package").path("gsi");
        assertThat(byPackage.path("native").asBoolean()).isTrue();
        JsonNode gsi = YAML.readTree(byPackage.path("template").asText()).path("GlobalSecondaryIndexes").get(0);
        assertThat(gsi.path("KeySchema").findValuesAsText("AttributeName")).containsExactly("pckg", "dplySts", "vrsn");
        assertThat(gsi.path("KeySchema").findValuesAsText("KeyType")).containsExactly("HASH", "RANGE", "RANGE");
        assertThat(index(document, "layers-by-region").path("gsi").path("native").asBoolean()).isTrue();
        assertThat(document.path("gsiSlots").path("nativeCandidates").asInt()).isEqualTo(2);
        assertThat(document.path("gsiSlots").path("free").asInt()).isEqualTo(20);
    }

    @Test
    void plan_onIssuesLikeTheBenchmarks_writesPerChangeIsWithin10PercentOfTheMeasuredRun_andOfThePlanner() throws Exception {
        // given: 100 issues of 20 custom fields valued as IndexerBenchmark values them, in the stack's own AppTable
        Random random = new Random(20);
        for (int i = 0; i < 100; i++) {
            Map<String, AttributeValue> fields = new LinkedHashMap<>();
            for (int f = 0; f < 20; f++) {
                fields.put("f" + f, benchmarkValue(random));
            }
            Map<String, AttributeValue> issue = Map.of("id", AttributeValue.fromS("issue#" + i), "project", AttributeValue.fromS("project#bench"),
                    "num", AttributeValue.fromN(Integer.toString(i)), "name", AttributeValue.fromS("benchmark issue"),
                    "state", AttributeValue.fromS("open"), "custom_fields", AttributeValue.fromM(fields));
            tables.dynamoDb().putItem(b -> b.tableName("AppTable").item(issue));
        }
        List<Map<String, AttributeValue>> sample = tables.dynamoDb().scan(b -> b.tableName("AppTable")).items();
        IndexDefinitions packaged = IndexDefinitions.packaged();

        // when
        int exit = run("plan", "--table", "AppTable", "--output", "json");

        // then
        assertThat(exit).as(err.toString(StandardCharsets.UTF_8)).isZero();
        JsonNode grid = index(document(), "custom_fields");
        double planned = grid.path("writesPerChange").asDouble();
        assertThat(planned).as("docs/cost.md's measured 2.47").isCloseTo(MEASURED_WRITES_PER_CHANGE, within(MEASURED_WRITES_PER_CHANGE * 0.10));
        double planner = plannerWritesPerChange(packaged, packaged.index("custom_fields").orElseThrow(), sample);
        assertThat(planned).isCloseTo(planner, within(planner * 0.10));
        assertThat(grid.path("indexItemsPerItem").asDouble()).as("20 fields, a quarter of them two-element sets").isBetween(22.0, 28.0);
        assertThat(grid.path("gsi").path("native").asBoolean()).isFalse();
    }

    /** IndexerBenchmark's custom field values: dates, numbers, text and two-option multi-selects, a quarter each. */
    private static AttributeValue benchmarkValue(Random random) {
        return switch (random.nextInt(4)) {
            case 0 -> AttributeValue.fromS(String.format("2026-%02d-%02d", 1 + random.nextInt(12), 1 + random.nextInt(28)));
            case 1 -> AttributeValue.fromN(Integer.toString(random.nextInt(100_000)));
            case 2 -> AttributeValue.fromS("text value " + random.nextInt(1000));
            default -> AttributeValue.fromSs(List.of("option-" + random.nextInt(5), "option-" + (5 + random.nextInt(5))));
        };
    }

    @Test
    void plan_fromTheDefinitionsAlone_statesItsAssumptions_andPricesTheChangeRate() throws Exception {
        assertThat(run("plan", "--definitions", exampleDefinitions().toString(), "--changes-per-month", "2000000", "--items", "50000",
                "--output", "json")).as(err.toString(StandardCharsets.UTF_8)).isZero();

        JsonNode document = document();
        assertThat(document.path("table").isNull()).isTrue();
        assertThat(document.path("assumptions")).extracting(JsonNode::asText)
                .anySatisfy(a -> assertThat(a).startsWith("no table read: each index measured on 200 items made from its definition"))
                .anySatisfy(a -> assertThat(a).startsWith("50000 items in the table"));
        assertThat(document.path("prices").path("writeRequestUnitPerMillion").asDouble()).isEqualTo(0.625);
        assertThat(document.path("prices").path("dynamodbSource").asText()).isEqualTo("https://aws.amazon.com/dynamodb/pricing/on-demand/");
        JsonNode fields = index(document, "issue-fields");
        assertThat(fields.path("indexItemsPerItem").asDouble()).isEqualTo(20.0);
        assertThat(fields.path("writesPerChange").asDouble()).isEqualTo(2.0);
        assertThat(fields.path("monthly").path("writeUnits").asLong()).isEqualTo(4_000_000);
        assertThat(fields.path("monthly").path("writes").asDouble()).isEqualTo(2.5);
        assertThat(fields.path("indexItems").asLong()).isEqualTo(1_000_000);
        assertThat(index(document, "layers-by-region").path("gsi").path("native").asBoolean()).isTrue();
        assertThat(index(document, "layers-by-region").path("gsi").path("differences")).extracting(JsonNode::asText)
                .anySatisfy(d -> assertThat(d).contains("assumed S"));
    }

    @Test
    void plan_forPeople_printsEachIndex_theTotal_andTheGsiToPaste() {
        exampleTable();

        assertThat(run("plan", "--definitions", exampleDefinitions().toString(), "--table", "Tracker")).isZero();

        String printed = out.toString(StandardCharsets.UTF_8);
        assertThat(printed).contains("plan of " + exampleDefinitions() + " at 1,000,000 changes a month")
                .contains("  assumed: measured on 12 items read from Tracker (the whole table)")
                .containsPattern("issue-fields +5/12 +1\\.20 +2\\.00 ")
                .contains("total: $").contains("https://aws.amazon.com/dynamodb/pricing/on-demand/")
                .contains("native GSIs: 2 of 4 indexes could be one; the table has 0 GSIs, 20 more fit (at most 20)")
                .contains("  issue-fields: no GSI:\n    - it indexes the entries of the map cf")
                .contains("  layers-by-package: a GSI could serve it; paste into the table's Properties:\n      AttributeDefinitions:")
                .contains("            - {AttributeName: pckg, KeyType: HASH}\n            - {AttributeName: dplySts, KeyType: RANGE}");
    }

    /** Indexes of one scalar per item (2 index writes a change), with kept counts of 8, 1 and 32 shards, of the total alone, and none. */
    private static Path countedDefinitions(Path dir) throws Exception {
        String index = "  - {name: %s, group: pk, values: {attribute: state}, orderBy: num%s}\n";
        return java.nio.file.Files.writeString(dir.resolve("counted.yaml"), "version: 1\ntable: {partitionKey: {name: pk, type: S}, sortKey: "
                + "{name: sk, type: S}}\nindexes:\n" + index.formatted("plain", "") + index.formatted("s8", ", counts: {total: true, facets: [state]}")
                + index.formatted("s1", ", counts: {total: true, facets: [state], shards: 1}")
                + index.formatted("s32", ", counts: {total: true, facets: [state], shards: 32}")
                + index.formatted("totalOnly", ", counts: {total: true}"));
    }

    @Test
    void plan_ofIndexesWithKeptCounts_pricesTheirTransactionsAndCounterUpdatesAsCostMdModelsThem(@org.junit.jupiter.api.io.TempDir Path dir)
            throws Exception {
        assertThat(run("plan", "--definitions", countedDefinitions(dir).toString(), "--output", "json"))
                .as(err.toString(StandardCharsets.UTF_8)).isZero();

        JsonNode document = document();
        assertThat(index(document, "plain").path("writeUnitsPerChange").asDouble()).isEqualTo(2.0);
        assertThat(index(document, "plain").has("counts")).isFalse();
        assertThat(index(document, "plain").path("monthly").path("writeUnits").asLong()).isEqualTo(2_000_000);
        // docs/cost.md, With kept counts: 4.43 write units a change with 8 shards, 4.09 with 1, 5.35 with 32
        Map<String, Double> measured = Map.of("s8", 4.43, "s1", 4.09, "s32", 5.35);
        measured.forEach((name, units) -> {
            JsonNode counts = index(document, name).path("counts");
            assertThat(counts.path("writeUnitsPerChange").asDouble()).as(name).isCloseTo(units, within(0.005));
            assertThat(counts.path("transactionExtraWriteUnitsPerChange").asDouble()).as(name).isEqualTo(2.0);
            assertThat(counts.path("extraWriteUnitsPerItemCreatedOrDeleted").asDouble()).as(name).isCloseTo(units - 2, within(0.005));
            assertThat(counts.path("source").asText()).contains("docs/cost.md").contains("benchmarks.jar counts");
            assertThat(index(document, name).path("monthly").path("writeUnits").asLong()).as(name).isCloseTo(Math.round(units * 1_000_000), within(5_000L));
        });
        assertThat(index(document, "s8").path("counts").path("counterUpdatesPerChange").asDouble()).isCloseTo(0.22, within(0.005));
        assertThat(index(document, "s8").path("counts").path("shards").asInt()).isEqualTo(8);
        // the total alone: a change of a value changes no count; an item created or deleted writes its member item
        JsonNode totalOnly = index(document, "totalOnly").path("counts");
        assertThat(totalOnly.path("extraWriteUnitsPerChange").asDouble()).isZero();
        assertThat(totalOnly.path("extraWriteUnitsPerItemCreatedOrDeleted").asDouble()).isCloseTo(2.43, within(0.005));
        assertThat(index(document, "totalOnly").path("monthly").path("writeUnits").asLong()).isEqualTo(2_000_000);
    }

    @Test
    void plan_forPeople_ofAnIndexWithKeptCounts_printsTheirExtraWritesAndTheModelsSource(@org.junit.jupiter.api.io.TempDir Path dir)
            throws Exception {
        assertThat(run("plan", "--definitions", countedDefinitions(dir).toString())).isZero();

        String printed = out.toString(StandardCharsets.UTF_8);
        assertThat(printed).contains("kept counts of s8 (total, facets [state], 8 shards): 4.43 write units a change of a counted field "
                        + "instead of 2.00 (+2.00 for transactional writes, +0.43 for 0.215 counter updates), in $ writes; +2.43 an item created or deleted")
                .contains("kept counts of totalOnly (total, 8 shards): 2.00 write units")
                .contains("benchmarks.jar counts").doesNotContain("kept counts of plain");
    }

    @Test
    void plan_withDefinitionsOfAnotherKey_isBadUsage_exitTwo() {
        exampleTable();

        assertThat(run("plan", "--table", "Tracker")).isEqualTo(2);

        assertThat(err.toString(StandardCharsets.UTF_8)).startsWith("error: the definitions (the packaged index-definitions.yaml) declare the key "
                + "id (S), and table Tracker has pk (S), sk (S): pass its own definitions with --definitions");
    }

    @Test
    void plan_withDefinitionsThatCannotWork_isBadUsage_exitTwo_namingTheFileAndWhatToChange(@org.junit.jupiter.api.io.TempDir Path dir)
            throws Exception {
        Path file = java.nio.file.Files.writeString(dir.resolve("bad.yaml"),
                "version: 1\ntable: {partitionKey: {name: pk, type: S}}\nindexes:\n  - {name: a, values: {entriesOf: cf}, projection: [cf]}\n");

        assertThat(run("plan", "--definitions", file.toString())).isEqualTo(2);

        assertThat(err.toString(StandardCharsets.UTF_8).lines().toList()).singleElement().satisfies(line -> assertThat(line)
                .startsWith("error: " + file + ": index 'a': projection (cf): overlaps the indexed attribute 'cf'").doesNotContain("Exception"));
    }

    @Test
    void plan_neverWrites() {
        exampleTable();
        OperationRecorder.clear();

        assertThat(run("plan", "--definitions", exampleDefinitions().toString(), "--table", "Tracker", "--output", "json")).isZero();

        assertThat(OperationRecorder.calls()).extracting(OperationRecorder.Call::operation).containsOnly("DescribeTable", "Scan");
    }
}

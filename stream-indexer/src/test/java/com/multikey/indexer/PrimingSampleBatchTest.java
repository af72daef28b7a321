package com.multikey.indexer;

import com.amazonaws.services.lambda.runtime.events.DynamodbEvent.DynamodbStreamRecord;
import com.amazonaws.services.lambda.runtime.events.StreamsEventResponse;
import com.multikey.common.Deadline;
import com.multikey.index.IndexItem;
import com.multikey.index.definition.DefinitionsYaml;
import com.multikey.index.definition.IndexDefinition;
import com.multikey.index.definition.IndexDefinitions;
import com.multikey.index.definition.KeySchema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The priming sample is built from the definitions the function runs with: whatever the table's key schema and the
 * declared indexes, the sample's records carry that key and reach every index, so priming neither crashes nor skips.
 */
class PrimingSampleBatchTest {

    static final String NESTED_AND_EQUALS = """
            version: 1
            table: {partitionKey: {name: tenant, type: S}, sortKey: {name: seq, type: N}}
            indexes:
              - name: open-by-owner
                covers: [{attribute: state, equals: open}, {attribute: tenant, beginsWith: "t#"}]
                group: [meta.owner, meta.team]
                values: {attribute: meta.due}
                orderBy: [{attribute: meta.rank}]
              - name: flags
                covers: [{attribute: flagged, equals: true}]
                values: {elementsOf: meta.flags}
            """;

    /** The key attributes in the conditions and the group, with other types than the sample's strings. */
    static final String KEY_IN_CONDITIONS_AND_GROUP = """
            version: 1
            table: {partitionKey: {name: id, type: N}, sortKey: {name: ver, type: B}}
            indexes:
              - name: by-kind
                covers: [{attribute: kind, equals: 3}, {attribute: id, exists: true}]
                group: id
                values: {attribute: title}
                orderBy: rank
            """;

    /** A binary sort key in a condition, which the sample's condition value (a string) cannot be. */
    static final String BINARY_KEY_IN_CONDITIONS = """
            version: 1
            table: {partitionKey: {name: tenant, type: S}, sortKey: {name: ver, type: B}}
            indexes:
              - name: versions
                covers: [{attribute: ver, exists: true}]
                values: {attribute: title}
            """;

    static Stream<Arguments> definitions() throws IOException {
        return Stream.of(
                Arguments.of("packaged (issue grid)", Files.readString(Path.of("..", "index-definitions.yaml"))),
                Arguments.of("single-table example", Files.readString(Path.of("..", "examples", "single-table", "index-definitions.yaml"))),
                Arguments.of("number and binary keys", DeclaredIndexesPropertiesTest.NUMBER_AND_BINARY_KEYS_YAML),
                Arguments.of("grid beside grouped indexes", DeclaredIndexesPropertiesTest.GRID_AND_GROUPED_YAML),
                Arguments.of("nested paths and equals", NESTED_AND_EQUALS),
                Arguments.of("key attributes in conditions and group", KEY_IN_CONDITIONS_AND_GROUP),
                Arguments.of("binary key in conditions", BINARY_KEY_IN_CONDITIONS));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("definitions")
    void sampleBatch_ofAnyDefinitions_carriesTheirKey_andReachesEveryIndexWithoutFailureOrSkip(String name, String yaml) {
        // given
        IndexDefinitions definitions = DefinitionsYaml.parse(yaml);
        IndexerConfig config = new IndexerConfig("index", "", definitions);
        InMemoryIndexWriter index = new InMemoryIndexWriter();
        RecordingMetrics metrics = new RecordingMetrics();

        // when
        List<DynamodbStreamRecord> sample = StreamIndexerPriming.sampleBatch(config);
        StreamsEventResponse response = new StreamIndexer(new BatchPlanner(config), index, metrics, IndexerFixtures.quietLog())
                .process(sample, Deadline.after(Duration.ofSeconds(30)));

        // then
        assertThat(sample).allSatisfy(record -> assertThat(record.getDynamodb().getKeys().keySet())
                .containsExactlyInAnyOrderElementsOf(definitions.table().attributes().stream().map(KeySchema.KeyAttribute::name).toList()));
        assertThat(response.getBatchItemFailures()).isEmpty();
        IndexerMetrics.BatchSummary summary = metrics.last();
        assertThat(summary.skippedRecords() + summary.ignoredRecords() + summary.missingImages()).isZero();
        assertThat(summary.puts()).isPositive();
        assertThat(summary.deletes()).as("the sample's change of a value deletes its old index item").isPositive();
        assertThat(index.items().values()).extracting(IndexItem::index)
                .containsAll(definitions.indexes().stream().map(IndexDefinition::name).toList());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("definitions")
    void prime_withTheDefinitionsFileTheEnvironmentNames_runsTheSampleThrough(String name, String yaml, @TempDir Path dir)
            throws IOException {
        // given: the definitions as the build packages them (JSON), in a file INDEX_DEFINITIONS names
        Path written = dir.resolve("index-definitions.yaml");
        Files.writeString(written, yaml, StandardCharsets.UTF_8);
        Path file = dir.resolve("index-definitions.json");
        Files.writeString(file, DefinitionsYaml.toJson(written), StandardCharsets.UTF_8);
        Map<String, String> env = Map.of("INDEX_TABLE_NAME", "index", "INDEX_DEFINITIONS", file.toString(),
                "AWS_REGION", "us-east-1", "AWS_ACCESS_KEY_ID", "priming", "AWS_SECRET_ACCESS_KEY", "priming");

        // when
        int changes = new StreamIndexerPriming(env).prime();

        // then: at least a put per index and the delete of a changed value
        assertThat(changes).isGreaterThan(DefinitionsYaml.parse(yaml).indexes().size());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("definitions")
    void sampleBatch_isAsAStreamDeliversIt_fromDynamoDb_eachRecordItsOwnId_inSequenceOrder(String name, String yaml) {
        List<DynamodbStreamRecord> sample = StreamIndexerPriming.sampleBatch(new IndexerConfig("index", "", DefinitionsYaml.parse(yaml)));

        assertThat(sample).hasSizeGreaterThan(1).allSatisfy(record -> assertThat(record.getEventSource()).isEqualTo("aws:dynamodb"));
        assertThat(sample).extracting(DynamodbStreamRecord::getEventID).doesNotContainNull().doesNotHaveDuplicates();
        List<BigInteger> sequence = sample.stream().map(record -> new BigInteger(record.getDynamodb().getSequenceNumber())).toList();
        assertThat(sequence).isSorted().doesNotHaveDuplicates().allSatisfy(number -> assertThat(number).isPositive());
    }

    @Test
    void register_returnsTheHookItRegistered_whichPrimesWithTheEnvironmentItWasGiven() {
        Map<String, String> env = Map.of("INDEX_TABLE_NAME", "index", "AWS_REGION", "us-east-1",
                "AWS_ACCESS_KEY_ID", "priming", "AWS_SECRET_ACCESS_KEY", "priming");

        int changes = StreamIndexerPriming.register(env).prime();

        assertThat(changes).isGreaterThan(IndexDefinitions.packaged().indexes().size());
    }
}

package com.multikey.router;

import com.amazonaws.services.lambda.runtime.events.DynamodbEvent.DynamodbStreamRecord;
import com.multikey.common.ChangeRecord;
import com.multikey.index.ItemKey;
import com.multikey.index.definition.DefinitionsYaml;
import com.multikey.index.definition.IndexDefinitions;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

/**
 * The priming hook on tables keyed otherwise than by one string {@code id}: its sample records carry the
 * definitions' key, so priming a function configured for any declared table runs through (a crash would fail the
 * SnapStart snapshot, so the deploy).
 */
class RouterPrimingKeySchemaTest {

    private static final String NUMBER_AND_BINARY = """
            version: 1
            table: {partitionKey: {name: tenant, type: N}, sortKey: {name: blob, type: B}}
            entityTypes: [{name: Layer, when: [{attribute: arn, exists: true}]}]
            indexes: []
            """;

    static Stream<Arguments> definitionFiles() throws Exception {
        return Stream.of(
                argumentSet("the packaged file (id)", Files.readString(Path.of("..", "index-definitions.yaml"))),
                argumentSet("the single-table example (pk, sk)", Files.readString(SingleTableRouterTest.EXAMPLE.resolve("index-definitions.yaml"))),
                argumentSet("a number and a binary key", NUMBER_AND_BINARY));
    }

    private static Path json(Path dir, String yaml) throws Exception {
        Path source = Files.writeString(dir.resolve("index-definitions.yaml"), yaml);
        return Files.writeString(dir.resolve("index-definitions.json"), DefinitionsYaml.toJson(source));
    }

    @ParameterizedTest
    @MethodSource("definitionFiles")
    void prime_withTheDefinitionsOfAnyKeySchema_buildsTheEntryOfEverySampleRecord(String yaml, @TempDir Path dir) throws Exception {
        // given
        Map<String, String> env = Map.of("EVENT_BUS_NAME", "app-events", "TABLE_ARN", RouterFixtures.TABLE_ARN, "AWS_REGION", "us-east-1",
                "INDEX_DEFINITIONS", json(dir, yaml).toString());

        // when
        int entries = new RouterPriming(env).prime();

        // then
        assertThat(entries).isEqualTo(3);
    }

    @ParameterizedTest
    @MethodSource("definitionFiles")
    void sampleRecords_carryTheTablesFullKey_inKeysAndImages(String yaml) {
        // given
        IndexDefinitions definitions = DefinitionsYaml.parse(yaml);

        // when
        List<DynamodbStreamRecord> records = RouterPriming.sampleRecords(definitions.table());

        // then
        assertThat(records).hasSize(3).allSatisfy(record -> {
            ChangeRecord change = ChangeRecord.from(record);
            assertThat(ItemKey.of(definitions.table(), change.keys())).isPresent();
            assertThat(change.keys()).hasSameSizeAs(definitions.table().attributes());
            change.oldImage().or(change::newImage).ifPresent(image -> assertThat(image).containsAllEntriesOf(change.keys()));
        });
    }
}

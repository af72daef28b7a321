package com.multikey.index.definition;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/** The definitions file a function is given by {@code INDEX_DEFINITIONS}: YAML or JSON, as the command lines read it. */
class IndexDefinitionsFileTest {

    private static final Path EXAMPLE = Path.of("..", "examples", "single-table", "index-definitions.yaml");

    @Test
    void fromEnvironment_whenTheFileIsYaml_readsItAsTheCommandLinesDo(@TempDir Path dir) throws Exception {
        // given
        Path yaml = Files.copy(EXAMPLE, dir.resolve("definitions.yaml"));

        // when
        IndexDefinitions definitions = IndexDefinitions.fromEnvironment(Map.of(IndexDefinitions.ENVIRONMENT_VARIABLE, yaml.toString()));

        // then
        assertThat(definitions).isEqualTo(DefinitionsYaml.read(EXAMPLE));
        assertThat(definitions.table().partitionKey().name()).isEqualTo("pk");
    }

    @Test
    void fromEnvironment_whenTheFileIsJson_readsTheSameDefinitions(@TempDir Path dir) throws Exception {
        // given: the JSON the build makes of the YAML file, with any file name
        Path json = Files.writeString(dir.resolve("definitions"), DefinitionsYaml.toJson(EXAMPLE));

        // when
        IndexDefinitions definitions = IndexDefinitions.fromEnvironment(Map.of(IndexDefinitions.ENVIRONMENT_VARIABLE, json.toString()));

        // then
        assertThat(definitions).isEqualTo(DefinitionsYaml.read(EXAMPLE));
    }

    @Test
    void fromEnvironment_whenTheFileIsNeitherYamlNorJson_namesTheFileAndTheLine(@TempDir Path dir) throws Exception {
        Path broken = Files.writeString(dir.resolve("broken.yaml"), "version: 1\ntable: {partitionKey: [\n");

        assertThatThrownBy(() -> IndexDefinitions.fromEnvironment(Map.of(IndexDefinitions.ENVIRONMENT_VARIABLE, broken.toString())))
                .isInstanceOf(DefinitionException.class).hasMessageContaining("broken.yaml").hasMessageContaining("not valid YAML or JSON (line ");
    }

    @Test
    void fromEnvironment_whenAliasesRepeatACollectionWithinSnakeYamlsAliasLimit_refusesTheFileQuickly(@TempDir Path dir) throws Exception {
        // given: 48 aliases (SnakeYAML allows 50), each level naming the one before twice: 2^24 values once expanded
        StringBuilder yaml = new StringBuilder("a0: &a0 [lol, lol]\n");
        for (int i = 1; i <= 24; i++) {
            yaml.append("a").append(i).append(": &a").append(i).append(" [*a").append(i - 1).append(", *a").append(i - 1).append("]\n");
        }
        Path bomb = Files.writeString(dir.resolve("bomb.yaml"), yaml);

        // when / then
        assertTimeoutPreemptively(Duration.ofSeconds(10), () -> assertThatThrownBy(
                () -> IndexDefinitions.fromEnvironment(Map.of(IndexDefinitions.ENVIRONMENT_VARIABLE, bomb.toString())))
                .isInstanceOf(DefinitionException.class).hasMessageContaining("bomb.yaml").hasMessageContaining("values"));
    }

    @Test
    void fromEnvironment_whenTheFileIsHuge_refusesItQuicklyNamingTheFile(@TempDir Path dir) throws Exception {
        // given: a valid file behind a 20 MB comment
        Path huge = Files.writeString(dir.resolve("huge.yaml"), "# " + "x".repeat(20_000_000) + "\n" + Files.readString(EXAMPLE));

        // when / then
        assertTimeoutPreemptively(Duration.ofSeconds(10), () -> assertThatThrownBy(
                () -> IndexDefinitions.fromEnvironment(Map.of(IndexDefinitions.ENVIRONMENT_VARIABLE, huge.toString())))
                .isInstanceOf(DefinitionException.class).hasMessageContaining("huge.yaml").hasMessageContaining("larger than"));
    }

    @Test
    void fromEnvironment_whenAJsonFileGivesASettingTwice_refusesItAsAYamlFileIsRefused(@TempDir Path dir) throws Exception {
        // given: the JSON the build makes, an empty 'indexes' before the real one
        Path json = Files.writeString(dir.resolve("twice.json"), DefinitionsYaml.toJson(EXAMPLE).replaceFirst("\\{", "{\"indexes\": [],"));

        // when / then
        assertThatThrownBy(() -> IndexDefinitions.fromEnvironment(Map.of(IndexDefinitions.ENVIRONMENT_VARIABLE, json.toString())))
                .isInstanceOf(DefinitionException.class).hasMessageContaining("twice.json").hasMessageContaining("'indexes' is given twice");
    }
}

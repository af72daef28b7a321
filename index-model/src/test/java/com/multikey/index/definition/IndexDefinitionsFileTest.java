package com.multikey.index.definition;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
}

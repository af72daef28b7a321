package com.multikey.index.definition;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The build's packaging of the definitions file, and reading it from a stream. */
class DefinitionsYamlTest {

    private static final String YAML = "version: 1\ntable: {partitionKey: {name: id}}\nindexes: [{name: by-owner, values: {attribute: owner}}]\n";

    @Test
    void read_fromAStream_isTheDefinitionsTheTextHolds() throws Exception {
        IndexDefinitions read = DefinitionsYaml.read(new ByteArrayInputStream(YAML.getBytes(StandardCharsets.UTF_8)), "stream");

        assertThat(read).isEqualTo(DefinitionsYaml.parse(YAML));
    }

    @Test
    void main_writesTheCheckedFileAsJson_inADirectoryItCreates(@TempDir Path dir) throws Exception {
        // given
        Path yaml = Files.writeString(dir.resolve("index-definitions.yaml"), YAML);
        Path json = dir.resolve("classes").resolve("index-definitions.json");

        // when
        DefinitionsYaml.main(new String[] {yaml.toString(), json.toString()});

        // then
        assertThat(DefinitionsFile.read(json).declared()).extracting(IndexDefinition::name).containsExactly("by-owner");
    }

    @Test
    void main_whenNotGivenTwoFiles_saysHowToCallIt() {
        assertThatThrownBy(() -> DefinitionsYaml.main(new String[] {"index-definitions.yaml"})).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("usage: DefinitionsYaml <index-definitions.yaml> <index-definitions.json>");
    }
}

package com.multikey.index.definition;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** How a definitions file's text becomes the JSON the reader checks (and the build packages). */
class DefinitionsFileTest {

    private static final String ID = "version: 1\ntable: {partitionKey: {name: id}}\n";

    @Test
    void toJson_copiesNumbersDigitForDigit_andStringsAsTheyAre(@TempDir Path dir) throws Exception {
        // given
        Path yaml = Files.writeString(dir.resolve("definitions.yaml"), ID + """
                indexes:
                  - name: open issues
                    layout: grouped
                    covers: [{attribute: weight, equals: 1.0e+3}, {attribute: rank, equals: +5}, {attribute: code, equals: 0x1F},
                             {attribute: note, equals: "tab\\there \\"quoted\\" back\\\\slash\\u0001"}]
                    values: {attribute: state}
                """.replace("open issues", "open-issues"));

        // when
        String json = DefinitionsYaml.toJson(yaml);

        // then
        assertThat(json).isEqualTo("{\"version\":1,\"table\":{\"partitionKey\":{\"name\":\"id\"}},\"indexes\":[{\"name\":\"open-issues\","
                + "\"layout\":\"grouped\",\"covers\":[{\"attribute\":\"weight\",\"equals\":1.0e+3},{\"attribute\":\"rank\",\"equals\":5},"
                + "{\"attribute\":\"code\",\"equals\":\"0x1F\"},{\"attribute\":\"note\",\"equals\":\"tab\\there \\\"quoted\\\" back\\\\slash\\u0001\"}]"
                + ",\"values\":{\"attribute\":\"state\"}}]}");
    }

    @Test
    void read_whenYamlNumbersHaveNoJsonSpelling_readsTheirValue_orTheirText() {
        // when
        IndexDefinitions definitions = DefinitionsYaml.parse(ID + """
                indexes: [{name: a, values: {attribute: x}, covers: [{attribute: n, equals: +5}, {attribute: h, equals: 0x1F},
                          {attribute: i, equals: .inf}, {attribute: s, equals: 1_000}]}]
                """);

        // then
        assertThat(definitions.index("a").orElseThrow().covers()).extracting(condition -> ((Condition.Equals) condition).value())
                .containsExactly(AttributeValue.fromN("5"), AttributeValue.fromS("0x1F"), AttributeValue.fromS(".inf"), AttributeValue.fromN("1000"));
    }

    @Test
    void read_whenAnIndexNameIsAYamlNumber_refusesItAsWritten_andQuotedKeepsIt(@TempDir Path dir) throws Exception {
        // given
        String number = ID + "indexes: [{name: 012, values: {attribute: x}}]\n";
        Path file = Files.writeString(dir.resolve("definitions.yaml"), number);

        // then: the build's check too, which packages the JSON
        assertThatThrownBy(() -> DefinitionsYaml.toJson(file)).isInstanceOf(DefinitionException.class)
                .hasMessage(file + ": index '012': 'name' must be text, and 012 is read as the number 12; quote it to keep it as written: name: '012'");
        assertThat(DefinitionsYaml.parse(number.replace("012", "'012'")).index("012")).as("quoted").isPresent();
    }

    @Test
    void read_whenAJsonIndexNameIsANumber_refusesIt() {
        // given
        String json = "{\"version\": 1, \"table\": {\"partitionKey\": {\"name\": \"id\"}}, \"indexes\": [{\"name\": 12, \"values\": {\"attribute\": \"x\"}}]}";

        // then
        assertThatThrownBy(() -> DefinitionsFile.read(json, "definitions.json")).isInstanceOf(DefinitionException.class)
                .hasMessage("definitions.json: index '12': 'name' must be text, and 12 is read as a number; quote it to keep it as written: name: '12'");
    }

    @Test
    void read_whenJsonWithComments_readsItAsJson() {
        // given: comments YAML cannot read
        String json = """
                {"version": 1, /* the format */ "table": {"partitionKey": {"name": "id"}},
                 // none yet
                 "indexes": []}
                """;

        // then
        assertThat(DefinitionsFile.read(json, "definitions.json").indexes()).isEmpty();
        assertThat(DefinitionsFile.read("\uFEFF" + json, "definitions.json").indexes()).as("after a byte order mark").isEmpty();
    }

    @Test
    void read_whenNeitherJsonNorYaml_saysWhyAsBoth() {
        assertThatThrownBy(() -> DefinitionsFile.read("{\"version\": 1,\n \"table\": [}", "definitions.json"))
                .isInstanceOf(DefinitionException.class)
                .hasMessageStartingWith("definitions.json: not valid YAML or JSON (line 2): ")
                .hasMessageMatching("(?s).*; as JSON: \\w+Exception: \\S.*");
    }

    @Test
    void read_whenNotValidYaml_saysTheLine_andNothingAboutJson() {
        assertThatThrownBy(() -> DefinitionsFile.read("version: 1\ntable: {partitionKey: {name: id}}\nindexes: [\n", "definitions.yaml"))
                .isInstanceOf(DefinitionException.class)
                .hasMessageStartingWith("definitions.yaml: not valid YAML or JSON (line 4): ")
                .hasMessageNotContaining("as JSON");
    }

    @Test
    void read_whenASettingIsGivenTwice_namesItsLine() {
        assertThatThrownBy(() -> DefinitionsFile.read(ID + "indexes: []\nversion: 1\n", "definitions.yaml"))
                .isInstanceOf(DefinitionException.class)
                .hasMessage("definitions.yaml: 'version' is given twice in one mapping (line 4)");
    }

    @Test
    void read_whenExactlyTheMostValues_convertsThem_andOneMoreRefuses() {
        // given: a list of n - 1 elements is n values
        String most = "[" + "0,".repeat(DefinitionsFile.MAX_VALUES - 2) + "0]";
        String tooMany = "[" + "0,".repeat(DefinitionsFile.MAX_VALUES - 1) + "0]";

        // then: the most values reach the reader, which wants a mapping
        assertThatThrownBy(() -> DefinitionsFile.read(most, "list.yaml")).isInstanceOf(DefinitionException.class)
                .hasMessage("list.yaml: expected a mapping with 'version', 'table' and 'indexes'");
        assertThatThrownBy(() -> DefinitionsFile.read(tooMany, "list.yaml")).isInstanceOf(DefinitionException.class)
                .hasMessage("list.yaml: more than 100000 values once its aliases are expanded (line 1)");
    }

    @Test
    void read_whenAnAliasNestsExactlyTheDeepestLevel_convertsIt_andOneLevelMoreRefuses() {
        // then: 'x' is at level 1, the alias's lists below the lists that hold it
        assertThatThrownBy(() -> DefinitionsFile.read(nested(32, 32), "deep.yaml")).isInstanceOf(DefinitionException.class)
                .hasMessage("deep.yaml: the file: unknown setting 'x'; expected one of version, table, entityTypes, indexes");
        assertThatThrownBy(() -> DefinitionsFile.read(nested(32, 33), "deep.yaml")).isInstanceOf(DefinitionException.class)
                .hasMessageStartingWith("deep.yaml: nested deeper than 64 levels (line ");
    }

    /** {@code x} holds {@code inner} nested lists (levels 1 to inner); {@code y} holds the alias of x in {@code outer} lists. */
    private static String nested(int inner, int outer) {
        return "x: &a " + "[".repeat(inner) + "]".repeat(inner) + "\ny: " + "[".repeat(outer) + "*a" + "]".repeat(outer) + "\n";
    }

    @Test
    void read_whenExactlyTheLargestFile_readsIt(@TempDir Path dir) throws Exception {
        // given: a file of exactly the most bytes, padded by a comment
        String definitions = ID + "indexes: []\n";
        int padding = DefinitionsFile.MAX_BYTES - definitions.length() - 2;
        Path file = Files.writeString(dir.resolve("largest.yaml"), definitions + "#" + "x".repeat(padding) + "\n");

        // then
        assertThat(Files.size(file)).isEqualTo(DefinitionsFile.MAX_BYTES);
        assertThat(DefinitionsFile.read(file).indexes()).isEmpty();
    }
}

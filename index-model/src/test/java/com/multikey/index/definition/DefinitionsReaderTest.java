package com.multikey.index.definition;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DefinitionsReaderTest {

    private static final String TABLE = "version: 1\ntable: {partitionKey: {name: pk, type: S}, sortKey: {name: sk, type: S}}\n";

    private static String withIndex(String index) {
        StringBuilder text = new StringBuilder(TABLE).append("indexes:\n");
        boolean first = true;
        for (String line : index.split("\n")) {
            text.append(first || line.startsWith("- ") ? "  " + (line.startsWith("- ") ? "" : "- ") : "    ").append(line).append('\n');
            first = false;
        }
        return text.toString();
    }

    @Test
    void packaged_whenTheRepositoryFile_isTheIssueGridInTheOriginalLayout() {
        // when
        IndexDefinitions definitions = IndexDefinitions.packaged();

        // then
        assertThat(definitions.table().partitionKey()).isEqualTo(new KeySchema.KeyAttribute("id", KeySchema.KeyType.S));
        assertThat(definitions.table().sortKey()).isEmpty();
        assertThat(definitions.indexes()).singleElement().satisfies(index -> {
            assertThat(index.name()).isEqualTo("custom_fields");
            assertThat(index.layout()).isEqualTo(IndexDefinition.Layout.FIELD_PARTITIONED);
            assertThat(index.values()).isEqualTo(new ValueSource.MapEntries(new AttributePath(List.of("custom_fields"))));
        });
    }

    @Test
    void read_whenEveryDefinitionsFileInTheRepository_acceptsIt() throws Exception {
        // given: the root file and every example's
        List<Path> files;
        try (Stream<Path> walk = Files.walk(Path.of(".."), 4)) {
            files = walk.filter(p -> p.getFileName().toString().equals("index-definitions.yaml"))
                    .filter(p -> !p.toString().contains("target")).toList();
        }

        // then
        assertThat(files).isNotEmpty();
        files.forEach(DefinitionsYaml::read);
    }

    @Test
    void parse_whenASingleTableDesign_readsEveryFeature() {
        IndexDefinitions definitions = DefinitionsYaml.parse(TABLE + """
                entityTypes:
                  - {name: Layer, when: [{attribute: pk, beginsWith: "lyr#"}]}
                  - {name: Issue, when: [{attribute: type, equals: issue}]}
                indexes:
                  - name: issue-fields
                    covers: [{attribute: sk, beginsWith: "ISSUE#"}, {attribute: deleted, equals: false}]
                    group: [pk, details.team]
                    values: {entriesOf: cf}
                    orderBy: [num, {attribute: title, maxBytes: 100}]
                    projection: [title, state]
                  - name: layers-by-region
                    covers: [{attribute: dplySts, exists: true}]
                    values: {attribute: region}
                """);

        IndexDefinition fields = definitions.index("issue-fields").orElseThrow();
        assertThat(fields.group()).extracting(AttributePath::toString).containsExactly("pk", "details.team");
        assertThat(fields.orderBy()).containsExactly(new TieBreaker(AttributePath.parse("num", ""), TieBreaker.DEFAULT_MAX_BYTES),
                new TieBreaker(AttributePath.parse("title", ""), 100));
        assertThat(fields.layout()).isEqualTo(IndexDefinition.Layout.GROUPED);
        assertThat(definitions.index("layers-by-region").orElseThrow().values()).isInstanceOf(ValueSource.Scalar.class);
        assertThat(definitions.entityTypes()).hasSize(2);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            duplicate name         | name: a\\nvalues: {attribute: x}\\n- name: a\\nvalues: {attribute: y}          | index 'a'                 | declared twice
            empty path             | name: a\\nvalues: {attribute: ''}                                              | index 'a': values.attribute | path is empty
            empty name in a path   | name: a\\nvalues: {entriesOf: 'cf..x'}                                         | index 'a': values.entriesOf | empty name between dots
            no values              | name: a\\ngroup: pk                                                            | index 'a': values         | exactly one of
            two value sources      | name: a\\nvalues: {attribute: x, entriesOf: y}                                 | index 'a': values         | exactly one of
            unknown setting        | name: a\\nvalues: {attribute: x}\\nprojections: [y]                            | index 'a'                 | unknown setting 'projections'
            a name with a space    | name: 'a b'\\nvalues: {attribute: x}                                           | index 'a b'               | the name must be
            sort key too long      | name: a\\nvalues: {attribute: x}\\norderBy: [{attribute: p, maxBytes: 400}, {attribute: q, maxBytes: 400}] | index 'a': orderBy | cannot fit DynamoDB's 1024 bytes
            tie-breaker too short  | name: a\\nvalues: {attribute: x}\\norderBy: [{attribute: p, maxBytes: 8}]      | index 'a': orderBy (p)    | maxBytes must be from 48
            projection of values   | name: a\\nvalues: {entriesOf: cf}\\nprojection: [cf]                           | index 'a': projection (cf) | overlaps the indexed attribute 'cf'
            group over values      | name: a\\nvalues: {entriesOf: cf}\\ngroup: cf.x                               | index 'a': group (cf.x)   | overlaps the indexed attribute
            old layout on pk/sk    | name: a\\nlayout: field-partitioned\\nvalues: {entriesOf: cf}\\ngroup: p\\norderBy: n | index 'a'      | table keyed by one string attribute
            unknown layout         | name: a\\nlayout: flat\\nvalues: {attribute: x}                                | index 'a': layout         | must be grouped
            exists false           | name: a\\nvalues: {attribute: x}\\ncovers: [{attribute: x, exists: false}]    | index 'a': covers[0] (x)  | exists takes true
            maxBytes a string      | name: a\\nvalues: {attribute: x}\\norderBy: [{attribute: p, maxBytes: '100'}] | index 'a': orderBy (p)    | maxBytes must be from 48
            maxBytes a fraction    | name: a\\nvalues: {attribute: x}\\norderBy: [{attribute: p, maxBytes: 100.5}]  | index 'a': orderBy (p)    | maxBytes must be from 48
            key equals a number    | name: a\\nvalues: {attribute: x}\\ncovers: [{attribute: sk, equals: 5}]      | index 'a': covers[0] (sk) | table's sort key of type S
            entries of a key       | name: a\\nvalues: {entriesOf: sk}                                            | index 'a': values.entriesOf (sk) | the table's sort key
            elements of a key      | name: a\\nvalues: {elementsOf: pk}                                           | index 'a': values.elementsOf (pk) | the table's partition key
            """)
    void parse_whenADefinitionCannotWork_namesTheIndexTheAttributeAndWhatToChange(String what, String index, String where, String message) {
        String text = withIndex(index.replace("\\n", "\n"));

        assertThatThrownBy(() -> DefinitionsYaml.parse(text)).as(what).isInstanceOf(DefinitionException.class)
                .hasMessageContaining(where).hasMessageContaining(message);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            no version         | table: {partitionKey: {name: id}}\\nindexes: []                                | version               | must be 1
            bad key type       | version: 1\\ntable: {partitionKey: {name: id, type: M}}\\nindexes: []          | table.partitionKey.type | must be of type S, N or B
            no table           | version: 1\\nindexes: []                                                      | table                 | expected the table's key
            same key twice     | version: 1\\ntable: {partitionKey: {name: id}, sortKey: {name: id}}\\nindexes: [] | table.sortKey     | names the partition key's attribute
            entity type name   | version: 1\\ntable: {partitionKey: {name: id}}\\nentityTypes: [{name: layer, when: [{attribute: id, beginsWith: l}]}]\\nindexes: [] | entityTypes[0].name | PascalCase
            entity type with no test | version: 1\\ntable: {partitionKey: {name: id}}\\nentityTypes: [{name: Layer}]\\nindexes: [] | entityTypes[0] (Layer).when | lists no condition
            beginsWith on N key | version: 1\\ntable: {partitionKey: {name: id, type: N}}\\nindexes: [{name: a, values: {attribute: x}, covers: [{attribute: id, beginsWith: '1'}]}] | index 'a': covers[0] (id) | table's partition key of type N
            type told by a B key | version: 1\\ntable: {partitionKey: {name: id, type: B}}\\nentityTypes: [{name: Layer, when: [{attribute: id, beginsWith: l}]}]\\nindexes: [] | entityTypes[0] (Layer).when[0] (id) | table's partition key of type B
            B key as tie-breaker | version: 1\\ntable: {partitionKey: {name: id, type: S}, sortKey: {name: v, type: B}}\\nindexes: [{name: a, values: {attribute: x}, orderBy: [v]}] | index 'a': orderBy (v) | the table's sort key of type B
            B key as the value  | version: 1\\ntable: {partitionKey: {name: id, type: B}}\\nindexes: [{name: a, values: {attribute: id}}] | index 'a': values.attribute (id) | the table's partition key of type B
            not YAML           | version: [1                                                                    | not valid YAML        | line
            """)
    void parse_whenTheFileCannotWork_saysWhereAndWhat(String what, String text, String where, String message) {
        assertThatThrownBy(() -> DefinitionsYaml.parse(text.replace("\\n", "\n"))).as(what).isInstanceOf(DefinitionException.class)
                .hasMessageContaining(where).hasMessageContaining(message);
    }

    @Test
    void parse_whenTwoIndexesUseTheOriginalLayout_refuses() {
        String text = "version: 1\ntable: {partitionKey: {name: id}}\nindexes:\n"
                + "  - {name: a, layout: field-partitioned, values: {entriesOf: cf}, group: p, orderBy: n}\n"
                + "  - {name: b, layout: field-partitioned, values: {entriesOf: cg}, group: p, orderBy: n}\n";

        assertThatThrownBy(() -> DefinitionsYaml.parse(text)).isInstanceOf(DefinitionException.class)
                .hasMessageContaining("more than one index uses layout field-partitioned");
    }
}

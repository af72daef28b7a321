package com.multikey.index.definition;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.params.provider.Arguments.arguments;

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

    private static final String ID = "version: 1\ntable: {partitionKey: {name: id}}\n";

    static Stream<Arguments> refusedDefinitions() {
        return Stream.of(
                arguments("an unknown top-level setting", ID + "indexs: []",
                        "definitions: the file: unknown setting 'indexs'; expected one of version, table, entityTypes, indexes"),
                arguments("no version", "table: {partitionKey: {name: id}}\nindexes: []",
                        "definitions: version: must be 1 (the format this build reads), found none"),
                arguments("another version", "version: 2\ntable: {partitionKey: {name: id}}\nindexes: []",
                        "definitions: version: must be 1 (the format this build reads), found '2'"),
                arguments("an unknown table setting", "version: 1\ntable: {partitionKey: {name: id}, sortkey: {name: sk}}\nindexes: []",
                        "definitions: table: unknown setting 'sortkey'; expected one of partitionKey, sortKey, maxItemKeyBytes"),
                arguments("an unknown key setting", "version: 1\ntable: {partitionKey: {name: id, typ: S}}\nindexes: []",
                        "definitions: table.partitionKey: unknown setting 'typ'; expected one of name, type"),
                arguments("item key below 8 bytes", "version: 1\ntable: {partitionKey: {name: id}, maxItemKeyBytes: 7}\nindexes: []",
                        "definitions: table.maxItemKeyBytes: must be a whole number from 8 to 512 (the bytes an item's key may take at the end of an index sort key)"),
                arguments("item key above half a sort key", "version: 1\ntable: {partitionKey: {name: id}, maxItemKeyBytes: 513}\nindexes: []",
                        "definitions: table.maxItemKeyBytes: must be a whole number from 8 to 512 (the bytes an item's key may take at the end of an index sort key)"),
                arguments("item key bytes as text", "version: 1\ntable: {partitionKey: {name: id}, maxItemKeyBytes: '64'}\nindexes: []",
                        "definitions: table.maxItemKeyBytes: must be a whole number from 8 to 512 (the bytes an item's key may take at the end of an index sort key)"),
                arguments("the second entity type's name", ID + "entityTypes: [{keyPrefix: {attribute: id}}, {name: layer, when: [{attribute: id, beginsWith: l}]}]\nindexes: []",
                        "definitions: entityTypes[1].name: 'layer' is not an entity type name; use PascalCase letters and digits, e.g. Layer"),
                arguments("a key prefix rule with a name", ID + "entityTypes: [{keyPrefix: {attribute: id}, name: Layer}]\nindexes: []",
                        "definitions: entityTypes[0]: unknown setting 'name'; expected one of keyPrefix"),
                arguments("an unknown key prefix setting", ID + "entityTypes: [{keyPrefix: {attribute: id, sep: '#'}}]\nindexes: []",
                        "definitions: entityTypes[0].keyPrefix: unknown setting 'sep'; expected one of attribute, separator"),
                arguments("an empty separator", ID + "entityTypes: [{keyPrefix: {attribute: id, separator: ''}}]\nindexes: []",
                        "definitions: entityTypes[0].keyPrefix.separator: must not be empty"),
                arguments("an unknown entity type setting", ID + "entityTypes: [{name: Layer, when: [{attribute: id, beginsWith: l}], type: x}]\nindexes: []",
                        "definitions: entityTypes[0]: unknown setting 'type'; expected one of name, when"),
                arguments("the second condition", ID + "indexes: [{name: a, values: {attribute: x}, covers: [{attribute: x, exists: true}, {attribute: y, exists: false}]}]",
                        "definitions: index 'a': covers[1] (y): exists takes true (an index covering items that lack an attribute lists what they have instead)"),
                arguments("an unknown condition", ID + "indexes: [{name: a, values: {attribute: x}, covers: [{attribute: x, equal: 1}]}]",
                        "definitions: index 'a': covers[0]: unknown setting 'equal'; expected one of attribute, beginsWith, equals, exists"),
                arguments("a number key equal to a string", "version: 1\ntable: {partitionKey: {name: id, type: N}}\nindexes: [{name: a, values: {attribute: x}, covers: [{attribute: id, equals: x}]}]",
                        "definitions: index 'a': covers[0] (id): id is the table's partition key of type N, and equals a string, so it could never work: name another attribute"),
                arguments("a string key equal to a boolean", ID + "indexes: [{name: a, values: {attribute: x}, covers: [{attribute: id, equals: true}]}]",
                        "definitions: index 'a': covers[0] (id): id is the table's partition key of type S, and equals a boolean, so it could never work: name another attribute"),
                arguments("an empty value path", ID + "indexes: [{name: a, values: {attribute: ''}}]",
                        "definitions: index 'a': values.attribute: the attribute path is empty; name an attribute, e.g. 'project' or 'details.team'"),
                arguments("an empty tie-breaker path", ID + "indexes: [{name: a, values: {attribute: x}, orderBy: [{attribute: ''}]}]",
                        "definitions: index 'a': orderBy: the attribute path is empty; name an attribute, e.g. 'project' or 'details.team'"),
                arguments("a tie-breaker path with an empty name", ID + "indexes: [{name: a, values: {attribute: x}, orderBy: ['p..q']}]",
                        "definitions: index 'a': orderBy: the attribute path 'p..q' has an empty name between dots; write names joined by single dots, e.g. 'details.team'"),
                arguments("an unknown value source", ID + "indexes: [{name: a, values: {attributes: x}}]",
                        "definitions: index 'a': values: unknown setting 'attributes'; expected one of entriesOf, elementsOf, attribute, wordsOf"),
                arguments("an unknown tie-breaker setting", ID + "indexes: [{name: a, values: {attribute: x}, orderBy: [{attribute: p, maxByte: 100}]}]",
                        "definitions: index 'a': orderBy: unknown setting 'maxByte'; expected one of attribute, maxBytes"),
                arguments("a tie-breaker below 48 bytes", ID + "indexes: [{name: a, values: {attribute: x}, orderBy: [{attribute: p, maxBytes: 47}]}]",
                        "definitions: index 'a': orderBy (p): maxBytes must be from 48 to 512, found 47"),
                arguments("a tie-breaker above half a sort key", "version: 1\ntable: {partitionKey: {name: id}, maxItemKeyBytes: 8}\nindexes: [{name: a, values: {attribute: x}, orderBy: [{attribute: p, maxBytes: 513}]}]",
                        "definitions: index 'a': orderBy (p): maxBytes must be from 48 to 512, found 513"),
                arguments("a binary key as a tie-breaker with maxBytes", "version: 1\ntable: {partitionKey: {name: id}, sortKey: {name: v, type: B}}\nindexes: [{name: a, values: {attribute: x}, orderBy: [{attribute: v, maxBytes: 100}]}]",
                        "definitions: index 'a': orderBy (v): v is the table's sort key of type B, and a tie-breaker is a string, a number or a boolean, so it could never work: name another attribute"),
                arguments("an index name YAML reads as a number", ID + "indexes: [{name: 012, values: {attribute: x}}]",
                        "definitions: index '012': 'name' must be text, and 012 is read as the number 12; quote it to keep it as written: name: '012'"),
                arguments("an index name YAML reads as a boolean", ID + "indexes: [{name: yes, values: {attribute: x}}]",
                        "definitions: index 'yes': 'name' must be text, and yes is read as the boolean true; quote it to keep it as written: name: 'yes'"),
                arguments("an index name that is a number as written", ID + "indexes: [{name: 12, values: {attribute: x}}]",
                        "definitions: index '12': 'name' must be text, and 12 is read as a number; quote it to keep it as written: name: '12'"),
                arguments("a key attribute name YAML reads as a number", "version: 1\ntable: {partitionKey: {name: +5}}\nindexes: []",
                        "definitions: table.partitionKey: 'name' must be text, and +5 is read as the number 5; quote it to keep it as written: name: '+5'"),
                arguments("a sort key name YAML reads as a boolean", "version: 1\ntable: {partitionKey: {name: id}, sortKey: {name: on}}\nindexes: []",
                        "definitions: table.sortKey: 'name' must be text, and on is read as the boolean true; quote it to keep it as written: name: 'on'"),
                arguments("a key prefix attribute YAML reads as a number", ID + "entityTypes: [{keyPrefix: {attribute: 010}}]\nindexes: []",
                        "definitions: entityTypes[0].keyPrefix: 'attribute' must be text, and 010 is read as the number 10; quote it to keep it as written: attribute: '010'"),
                arguments("a key prefix separator YAML reads as a number", ID + "entityTypes: [{keyPrefix: {attribute: id, separator: 00}}]\nindexes: []",
                        "definitions: entityTypes[0].keyPrefix: 'separator' must be text, and 00 is read as the number 0; quote it to keep it as written: separator: '00'"),
                arguments("a condition's attribute YAML reads as a number", ID + "indexes: [{name: a, values: {attribute: x}, covers: [{attribute: 007, exists: true}]}]",
                        "definitions: index 'a': covers[0]: 'attribute' must be text, and 007 is read as the number 7; quote it to keep it as written: attribute: '007'"),
                arguments("an entity type's condition attribute YAML reads as a number", ID + "entityTypes: [{name: Layer, when: [{attribute: 1_000, beginsWith: l}]}]\nindexes: []",
                        "definitions: entityTypes[0] (Layer).when[0]: 'attribute' must be text, and 1_000 is read as the number 1000; quote it to keep it as written: attribute: '1_000'"),
                arguments("a tie-breaker's attribute YAML reads as a number", ID + "indexes: [{name: a, values: {attribute: x}, orderBy: [{attribute: 1.50, maxBytes: 100}]}]",
                        "definitions: index 'a': orderBy: 'attribute' must be text, and 1.50 is read as a number; quote it to keep it as written: attribute: '1.50'"),
                arguments("a value attribute YAML reads as a number", ID + "indexes: [{name: a, values: {entriesOf: 2e3}}]",
                        "definitions: index 'a': values: 'entriesOf' must be text, and 2e3 is read as a number; quote it to keep it as written: entriesOf: '2e3'"),
                arguments("a value one byte short", ID + "indexes: [{name: a, values: {attribute: x}, orderBy: [{attribute: p, maxBytes: 352}, {attribute: q, maxBytes: 350}]}]",
                        "definitions: index 'a': orderBy: the sort key cannot fit DynamoDB's 1024 bytes: the tie-breakers (702 bytes) and the item key "
                                + "(table.maxItemKeyBytes 256) leave the value 63 bytes, and it needs at least 64; lower their maxBytes, or drop a tie-breaker"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refusedDefinitions")
    void parse_whenRefused_saysExactlyWhereAndWhatToChange(String what, String text, String message) {
        assertThatThrownBy(() -> DefinitionsYaml.parse(text)).as(what).isInstanceOf(DefinitionException.class).hasMessage(message);
    }

    static Stream<Arguments> limitsAccepted() {
        return Stream.of(
                arguments("the least item key", "version: 1\ntable: {partitionKey: {name: id}, maxItemKeyBytes: 8}\nindexes: []"),
                arguments("the longest item key", "version: 1\ntable: {partitionKey: {name: id}, maxItemKeyBytes: 512}\nindexes: []"),
                arguments("the shortest tie-breaker", ID + "indexes: [{name: a, values: {attribute: x}, orderBy: [{attribute: p, maxBytes: 48}]}]"),
                arguments("the longest tie-breaker", "version: 1\ntable: {partitionKey: {name: id}, maxItemKeyBytes: 8}\n"
                        + "indexes: [{name: a, values: {attribute: x}, orderBy: [{attribute: p, maxBytes: 512}]}]"),
                arguments("a value of exactly 64 bytes", ID + "indexes: [{name: a, values: {attribute: x}, orderBy: [{attribute: p, maxBytes: 352}, {attribute: q, maxBytes: 349}]}]"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("limitsAccepted")
    void parse_whenAtALimit_acceptsIt(String what, String text) {
        assertThatCode(() -> DefinitionsYaml.parse(text)).as(what).doesNotThrowAnyException();
    }

    @Test
    void parse_whenTheLimitsAreGiven_keepsThem() {
        // when
        IndexDefinitions definitions = DefinitionsYaml.parse("version: 1\ntable: {partitionKey: {name: id}, maxItemKeyBytes: 100}\n"
                + "indexes: [{name: a, values: {attribute: x}, orderBy: [{attribute: p, maxBytes: 48}]}]");

        // then
        assertThat(definitions.table().maxItemKeyBytes()).isEqualTo(100);
        assertThat(definitions.index("a").orElseThrow().orderBy()).containsExactly(new TieBreaker(AttributePath.parse("p", ""), 48));
    }

    @Test
    void entityTypeOf_whenNoRulesAreDeclared_isThePartitionKeysPrefixBeforeTheFirstHash() {
        // given
        IndexDefinitions definitions = DefinitionsYaml.parse(ID + "indexes: []");

        // then
        assertThat(definitions.entityTypeOf(Map.of("id", AttributeValue.fromS("issue#020e#x")))).isEqualTo("issue");
        assertThat(definitions.entityTypeOf(Map.of("id", AttributeValue.fromS("issue")))).isEqualTo("item");
    }

    @Test
    void entityTypeOf_triesTheRulesInOrder_andTheFirstThatDecidesGivesTheType() {
        // given
        IndexDefinitions definitions = DefinitionsYaml.parse(ID + """
                entityTypes:
                  - {name: Layer, when: [{attribute: id, beginsWith: "lyr#"}, {attribute: live, equals: true}]}
                  - {keyPrefix: {attribute: kind.name, separator: "/"}}
                  - {name: Other, when: [{attribute: id, exists: true}]}
                indexes: []
                """);

        // then
        assertThat(definitions.entityTypeOf(Map.of("id", AttributeValue.fromS("lyr#1"), "live", AttributeValue.fromBool(true)))).isEqualTo("Layer");
        assertThat(definitions.entityTypeOf(Map.of("id", AttributeValue.fromS("lyr#1"), "live", AttributeValue.fromBool(false),
                "kind", AttributeValue.fromM(Map.of("name", AttributeValue.fromS("task/7")))))).isEqualTo("task");
        assertThat(definitions.entityTypeOf(Map.of("id", AttributeValue.fromS("lyr#1")))).isEqualTo("Other");
        assertThat(definitions.entityTypeOf(Map.of("key", AttributeValue.fromS("lyr#1")))).isEqualTo("item");
    }
}

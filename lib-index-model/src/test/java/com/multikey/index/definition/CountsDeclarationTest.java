package com.multikey.index.definition;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The {@code counts:} setting of an index: what it declares, and the declarations refused, naming what to change. */
class CountsDeclarationTest {

    private static final String TABLE = "version: 1\ntable: {partitionKey: {name: pk, type: S}, sortKey: {name: sk, type: S}}\nindexes:\n";

    @Test
    void parse_whenAMapEntriesIndexDeclaresCounts_keepsTotalFacetsAndShards() {
        // given
        String text = TABLE + "  - {name: grid, group: pk, values: {entriesOf: cf}, counts: {total: true, facets: [state, prio], shards: 16}}\n";

        // when
        IndexDefinition index = DefinitionsYaml.parse(text).index("grid").orElseThrow();

        // then
        assertThat(index.counts()).isEqualTo(new CountsDeclaration(true, List.of("state", "prio"), 16));
    }

    @Test
    void parse_whenCountsAreLeftOut_keepsNone_andShardsDefaultTo8() {
        String text = TABLE + "  - {name: a, group: pk, values: {attribute: status}}\n"
                + "  - {name: b, group: pk, values: {attribute: status}, counts: {facets: [status]}}\n";

        IndexDefinitions definitions = DefinitionsYaml.parse(text);

        assertThat(definitions.index("a").orElseThrow().counts()).isEqualTo(CountsDeclaration.NONE);
        assertThat(definitions.index("b").orElseThrow().counts()).isEqualTo(new CountsDeclaration(false, List.of("status"), 8));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            not a mapping          | {name: a, values: {attribute: s}, counts: [s]}                                    | index 'a': counts          | is a mapping of total, facets and shards
            unknown setting        | {name: a, values: {attribute: s}, counts: {facet: [s]}}                           | index 'a': counts          | unknown setting 'facet'
            counts nothing         | {name: a, values: {attribute: s}, counts: {total: false}}                         | index 'a': counts          | counts nothing
            total not a boolean    | {name: a, values: {attribute: s}, counts: {total: yes please}}                    | index 'a': counts: total   | takes true or false
            facets not a list      | {name: a, values: {attribute: s}, counts: {facets: s}}                            | index 'a': counts: facets  | is a list of fields
            empty facet            | {name: a, values: {entriesOf: cf}, counts: {facets: ['']}}                        | index 'a': counts: facets  | non-empty strings
            facet twice            | {name: a, values: {entriesOf: cf}, counts: {facets: [x, x]}}                      | index 'a': counts: facets (x) | is named twice
            other attribute        | {name: a, values: {attribute: s}, counts: {facets: [t]}}                          | index 'a': counts: facets (t) | write facets: [s]
            other than elements    | {name: a, values: {elementsOf: tags}, counts: {facets: [t]}}                      | index 'a': counts: facets (t) | values.elementsOf counts its own values only
            shards zero            | {name: a, values: {attribute: s}, counts: {facets: [s], shards: 0}}               | index 'a': counts: shards  | from 1 to 64
            shards too many        | {name: a, values: {attribute: s}, counts: {facets: [s], shards: 65}}              | index 'a': counts: shards  | from 1 to 64
            shards a fraction      | {name: a, values: {attribute: s}, counts: {facets: [s], shards: 2.5}}             | index 'a': counts: shards  | from 1 to 64
            """)
    void parse_whenCountsCannotWork_namesTheIndexTheSettingAndWhatToChange(String what, String index, String where, String message) {
        String text = TABLE + "  - " + index + "\n";

        assertThatThrownBy(() -> DefinitionsYaml.parse(text)).as(what).isInstanceOf(DefinitionException.class)
                .hasMessageContaining(where).hasMessageContaining(message);
    }

    @Test
    void parse_whenAFieldPartitionedIndexDeclaresCounts_refusesIt() {
        String text = "version: 1\ntable: {partitionKey: {name: id, type: S}}\nindexes:\n"
                + "  - {name: custom_fields, layout: field-partitioned, group: project, values: {entriesOf: custom_fields}, orderBy: num, counts: {total: true}}\n";

        assertThatThrownBy(() -> DefinitionsYaml.parse(text)).isInstanceOf(DefinitionException.class)
                .hasMessageContaining("index 'custom_fields': counts").hasMessageContaining("grouped indexes only");
    }
}

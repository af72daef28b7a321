package com.multikey.index.definition;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class IndexDefinitionsTest {

    /** The issue grid in both layouts beside an index of its own. */
    private static final String GRID_YAML = """
            version: 1
            table: {partitionKey: {name: id, type: S}}
            indexes:
              - {name: by-owner, values: {attribute: owner}}
              - {name: issue-grid, replaces: custom_fields, group: project, values: {entriesOf: custom_fields}, orderBy: num}
              - {name: custom_fields, layout: field-partitioned, group: project, values: {entriesOf: custom_fields}, orderBy: num}
            """;
    private static final IndexDefinitions GRID = DefinitionsYaml.parse(GRID_YAML);

    @Test
    void indexes_inEveryGridState_keepTheIndexesOutsideTheGrid() {
        for (GridState state : GridState.values()) {
            assertThat(GRID.withGridState(state).indexes()).extracting(IndexDefinition::name).as(state.label()).contains("by-owner");
        }
    }

    @Test
    void readDefinitions_areVersionOne_inTheFieldPartitionedState() {
        assertThat(GRID.version()).isEqualTo(DefinitionsReader.VERSION).isEqualTo(1);
        assertThat(GRID.gridState()).isEqualTo(GridState.FIELD_PARTITIONED);
        assertThat(GRID.withGridState(GridState.FIELD_PARTITIONED)).isSameAs(GRID);
    }

    @Test
    void groupedGrid_isTheIndexThatReplacesAnother_andNoneWithout() {
        assertThat(GRID.groupedGrid()).get().extracting(IndexDefinition::name).isEqualTo("issue-grid");
        assertThat(DefinitionsYaml.parse("version: 1\ntable: {partitionKey: {name: id}}\nindexes: [{name: by-owner, values: {attribute: owner}}]")
                .groupedGrid()).isEmpty();
    }

    @Test
    void isGrid_whenEitherOfTheGridsLayouts() {
        assertThat(GRID.isGrid(GRID.index("issue-grid").orElseThrow())).isTrue();
        assertThat(GRID.isGrid(GRID.index("custom_fields").orElseThrow())).isTrue();
        assertThat(GRID.isGrid(GRID.index("by-owner").orElseThrow())).isFalse();
    }

    @Test
    void equals_whenTheSameDeclarationsInTheSameGridState() {
        IndexDefinitions again = DefinitionsYaml.parse(GRID_YAML);

        assertThat(again).isEqualTo(GRID).hasSameHashCodeAs(GRID);
        assertThat(GRID.withGridState(GridState.GROUPED)).isNotEqualTo(GRID);
        assertThat(GRID.withGridState(GridState.GROUPED).hashCode()).isNotEqualTo(GRID.hashCode());
    }

    @Test
    void fromEnvironment_whenNoFileIsNamed_isThePackagedDefinitions() {
        assertThat(IndexDefinitions.fromEnvironment(Map.of())).isEqualTo(IndexDefinitions.packaged());
        assertThat(IndexDefinitions.fromEnvironment(Map.of(IndexDefinitions.ENVIRONMENT_VARIABLE, " "))).isEqualTo(IndexDefinitions.packaged());
    }
}

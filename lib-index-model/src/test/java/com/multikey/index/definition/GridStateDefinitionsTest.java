package com.multikey.index.definition;

import com.multikey.index.IndexItem;
import com.multikey.index.IndexProjector;
import com.multikey.index.ItemKey;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class GridStateDefinitionsTest {

    private static final String GRID = """
            version: 1
            table: {partitionKey: {name: id, type: S}}
            indexes:
              - {name: issue-grid, replaces: custom_fields, covers: [{attribute: id, beginsWith: "issue#"}], group: project,
                 values: {entriesOf: custom_fields}, orderBy: num}
              - {name: custom_fields, layout: field-partitioned, covers: [{attribute: id, beginsWith: "issue#"}], group: project,
                 values: {entriesOf: custom_fields}, orderBy: num}
            """;

    @Test
    void packaged_declaresTheGroupedGridReplacingTheFieldPartitionedOne() {
        // when
        IndexDefinitions definitions = IndexDefinitions.packaged();

        // then
        assertThat(definitions.declared()).extracting(IndexDefinition::name).containsExactly("issue-grid", "custom_fields");
        assertThat(definitions.groupedGrid()).get().extracting(IndexDefinition::layout).isEqualTo(IndexDefinition.Layout.GROUPED);
        assertThat(definitions.groupedGrid().get().replaces()).contains("custom_fields");
        assertThat(definitions.withGridState(GridState.GROUPED).indexes()).extracting(IndexDefinition::name).containsExactly("issue-grid");
        assertThat(definitions.withGridState(GridState.GROUPED).grid()).get().extracting(IndexDefinition::name).isEqualTo("issue-grid");
    }

    @ParameterizedTest
    @CsvSource({
            "field-partitioned, custom_fields,            custom_fields",
            "migrating,         issue-grid custom_fields, custom_fields",
            "switched,          issue-grid custom_fields, issue-grid",
            "grouped,           issue-grid,               issue-grid"})
    void withGridState_keepsTheLayoutsTheStateWrites_andReadsTheOneItReads(String state, String written, String read) {
        // when
        IndexDefinitions definitions = DefinitionsYaml.parse(GRID).withGridState(GridState.ofLabel(state));

        // then
        assertThat(definitions.indexes()).extracting(IndexDefinition::name).containsExactly(written.split(" "));
        assertThat(definitions.grid()).get().extracting(IndexDefinition::name).isEqualTo(read);
        assertThat(definitions.declared()).hasSize(2);
    }

    @Test
    void project_whenMigrating_writesBothLayouts_andOneIndexAloneWhateverTheState() {
        // given
        IndexDefinitions read = DefinitionsYaml.parse(GRID);
        ItemKey key = ItemKey.ofString("id", "issue#1");
        Map<String, AttributeValue> issue = Map.of("id", AttributeValue.fromS("issue#1"), "project", AttributeValue.fromS("p1"),
                "num", AttributeValue.fromN("7"), "custom_fields", AttributeValue.fromM(Map.of("f1", AttributeValue.fromN("3"))));

        // when
        Set<String> migrating = indexes(new IndexProjector(read.withGridState(GridState.MIGRATING)).project(key, issue).items());
        Set<String> before = indexes(new IndexProjector(read).project(key, issue).items());
        Set<String> after = indexes(new IndexProjector(read.withGridState(GridState.GROUPED)).project(key, issue).items());
        Set<String> alone = indexes(new IndexProjector(read).project("issue-grid", key, issue).items());

        // then
        assertThat(migrating).containsExactlyInAnyOrder("issue-grid", "custom_fields");
        assertThat(before).containsExactly("custom_fields");
        assertThat(after).containsExactly("issue-grid");
        assertThat(alone).containsExactly("issue-grid");
    }

    private static Set<String> indexes(Set<IndexItem> items) {
        return items.stream().map(IndexItem::index).collect(Collectors.toSet());
    }

    @Test
    void read_whenTheReplacementIndexesOtherItems_refusesIt() {
        assertThatThrownBy(() -> DefinitionsYaml.parse(GRID.replace("orderBy: num}\n  - {name: custom_fields", "orderBy: name}\n  - {name: custom_fields")))
                .isInstanceOf(DefinitionException.class).hasMessageContaining("must index the same items");
        assertThatThrownBy(() -> DefinitionsYaml.parse(GRID.replace("replaces: custom_fields", "replaces: nothing")))
                .isInstanceOf(DefinitionException.class).hasMessageContaining("no index named 'nothing'");
    }
}

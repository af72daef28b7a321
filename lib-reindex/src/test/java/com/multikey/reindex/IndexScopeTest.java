package com.multikey.reindex;

import com.multikey.index.IndexItem;
import com.multikey.index.IndexValue;
import com.multikey.index.ItemKey;
import com.multikey.index.definition.DefinitionsYaml;
import com.multikey.index.definition.IndexDefinitions;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.math.BigDecimal;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Which indexes a job works on: what it projects, which stored items are its own, what its writes condition on. */
class IndexScopeTest {

    /** The issue grid in both layouts, and an index of issues by state. */
    private static final IndexDefinitions DEFINITIONS = DefinitionsYaml.parse("""
            version: 1
            table: {partitionKey: {name: id, type: S}}
            indexes:
              - {name: custom_fields, layout: field-partitioned, covers: [{attribute: id, beginsWith: "issue#"}],
                 group: project, values: {entriesOf: custom_fields}, orderBy: num}
              - {name: issue-grid, covers: [{attribute: id, beginsWith: "issue#"}], group: project,
                 values: {entriesOf: custom_fields}, orderBy: num}
              - {name: by-state, covers: [{attribute: id, beginsWith: "issue#"}], values: {attribute: state},
                 projection: [title]}
            """);
    private static final ItemKey KEY = ItemKey.ofString("id", "issue#1");
    private static final Map<String, AttributeValue> ISSUE = Map.of("id", s("issue#1"), "project", s("project#1"),
            "num", AttributeValue.fromN("7"), "state", s("open"), "title", s("one"),
            "custom_fields", AttributeValue.fromM(Map.of("f1", s("red"), "f2", AttributeValue.fromN("3"))));

    private static AttributeValue s(String value) {
        return AttributeValue.fromS(value);
    }

    private static Map<String, AttributeValue> storedOf(String index) {
        return IndexScope.of(DEFINITIONS, Optional.of(index)).project(KEY, ISSUE).items().iterator().next().toItem();
    }

    @Test
    void of_whenNoIndexOfThatNameIsDeclared_failsNamingTheDeclaredOnes() {
        assertThatThrownBy(() -> IndexScope.of(DEFINITIONS, Optional.of("by-colour")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no index named 'by-colour'")
                .hasMessageContaining("[custom_fields, issue-grid, by-state]");
    }

    @Test
    void project_ofOneIndex_givesThatIndexsItemsOnly_andOfEveryIndexAllOfThem() {
        // when
        List<String> one = IndexScope.of(DEFINITIONS, Optional.of("issue-grid")).project(KEY, ISSUE).items().stream()
                .map(IndexItem::index).toList();
        List<String> all = IndexScope.of(DEFINITIONS, Optional.empty()).project(KEY, ISSUE).items().stream()
                .map(IndexItem::index).toList();

        // then
        assertThat(one).containsExactly("issue-grid", "issue-grid");
        assertThat(all).containsExactlyInAnyOrder("custom_fields", "custom_fields", "issue-grid", "issue-grid", "by-state");
    }

    @Test
    void owns_ofAGroupedIndex_isTrueOnlyForItemsNamingIt() {
        IndexScope byState = IndexScope.of(DEFINITIONS, Optional.of("by-state"));

        assertThat(byState.owns(storedOf("by-state"))).isTrue();
        assertThat(byState.owns(storedOf("issue-grid"))).isFalse();
        assertThat(byState.owns(storedOf("custom_fields"))).isFalse();
    }

    @Test
    void owns_ofTheFieldPartitionedIndex_isTrueForEveryItemWithoutAnIndexName_evenOneNamingNoIssue() {
        IndexScope grid = IndexScope.of(DEFINITIONS, Optional.of("custom_fields"));
        Map<String, AttributeValue> issueless = new HashMap<>(
                IndexItem.of("f1", new IndexValue.Text("red"), "issue#1", "project#1", BigDecimal.ONE).toItem());
        issueless.remove(IndexItem.ITEM_ID);

        assertThat(grid.owns(storedOf("custom_fields"))).isTrue();
        assertThat(grid.owns(issueless)).as("orphaned, so verify of this index must see it").isTrue();
        assertThat(grid.owns(storedOf("issue-grid"))).isFalse();
    }

    @Test
    void owns_ofEveryIndex_isTrueForAnyItem_includingOneOfAnIndexNoLongerDeclared() {
        Map<String, AttributeValue> ofARemovedIndex = new HashMap<>(storedOf("by-state"));
        ofARemovedIndex.put(IndexItem.INDEX, s("by-colour"));

        assertThat(IndexScope.all(DEFINITIONS).owns(ofARemovedIndex)).isTrue();
    }

    @Test
    void dependsOn_ofOneIndex_namesTheTopLevelAttributesItDerivesFrom_butNoKeyAttribute() {
        assertThat(IndexScope.of(DEFINITIONS, Optional.of("by-state")).dependsOn()).containsExactly("state", "title");
        assertThat(IndexScope.all(DEFINITIONS).dependsOn()).containsExactlyInAnyOrder("project", "custom_fields", "num", "state", "title");
    }
}

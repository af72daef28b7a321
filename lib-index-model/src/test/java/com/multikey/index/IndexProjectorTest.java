package com.multikey.index;

import com.multikey.index.definition.DefinitionsYaml;
import com.multikey.index.definition.IndexDefinitions;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class IndexProjectorTest {

    /** The issue grid's original layout beside a grouped index of issues' states. */
    private static final IndexDefinitions DEFINITIONS = DefinitionsYaml.parse("""
            version: 1
            table: {partitionKey: {name: id, type: S}}
            indexes:
              - {name: custom_fields, layout: field-partitioned, covers: [{attribute: id, beginsWith: "issue#"}], group: project,
                 values: {entriesOf: custom_fields}, orderBy: num}
              - {name: status, covers: [{attribute: id, beginsWith: "issue#"}], group: project, values: {attribute: state}}
            """);
    private static final IndexProjector PROJECTOR = new IndexProjector(DEFINITIONS);
    private static final ItemKey KEY = ItemKey.ofString("id", "issue#1");

    private static Map<String, AttributeValue> issue(Map<String, AttributeValue> customFields) {
        return Map.of("id", AttributeValue.fromS("issue#1"), "project", AttributeValue.fromS("p1"), "num", AttributeValue.fromN("7"),
                "state", AttributeValue.fromS("open"), "custom_fields", AttributeValue.fromM(customFields));
    }

    @Test
    void project_whenAFieldIdReadsAsAPartitionOfTheGroupedIndex_leavesThatFieldOut_andIndexesTheOthers() {
        // given: field ids 'status' and 'status|x' would share the grouped index's partitions; 'custom_fields' is the
        // field-partitioned index's own name, which no grouped partition begins with
        Map<String, AttributeValue> issue = issue(Map.of("status", AttributeValue.fromN("1"), "status|x", AttributeValue.fromN("2"),
                "custom_fields", AttributeValue.fromN("3"), "f1", AttributeValue.fromN("4")));

        // when: a projector of its own (a static one is built before pitest tells which test covers its constructor)
        ItemProjection projection = new IndexProjector(DEFINITIONS).project(KEY, issue);

        // then
        assertThat(projection.items()).filteredOn(item -> item.index().equals("custom_fields")).extracting(IndexItem::attribId)
                .containsExactlyInAnyOrder("custom_fields", "f1");
        assertThat(projection.items()).filteredOn(item -> item.index().equals("status")).extracting(IndexItem::attribId)
                .containsExactly("status|p1");
        assertThat(projection.rejections()).containsExactlyInAnyOrder(
                new Rejection.Field(KEY, "custom_fields", "status", "field id reads as a partition of another declared index"),
                new Rejection.Field(KEY, "custom_fields", "status|x", "field id reads as a partition of another declared index"));
        assertThat(projection.rejections()).extracting(Rejection::itemKeyText).containsOnly("issue#1");
    }

    @Test
    void project_whenTheIndexDoesNotCoverTheItem_projectsNothing() {
        // given
        Map<String, AttributeValue> layer = Map.of("id", AttributeValue.fromS("layer#1"), "project", AttributeValue.fromS("p1"),
                "num", AttributeValue.fromN("7"), "state", AttributeValue.fromS("open"),
                "custom_fields", AttributeValue.fromM(Map.of("f1", AttributeValue.fromN("4"))));

        // then
        assertThat(PROJECTOR.project("custom_fields", ItemKey.ofString("id", "layer#1"), layer)).isEqualTo(ItemProjection.EMPTY);
        assertThat(PROJECTOR.projectEntry("custom_fields", ItemKey.ofString("id", "layer#1"), layer, "f1")).isEqualTo(ItemProjection.EMPTY);
    }

    @Test
    void coversAny_whenSomeIndexCoversTheItem_isTrue() {
        assertThat(PROJECTOR.coversAny(issue(Map.of()))).isTrue();
        assertThat(PROJECTOR.coversAny(Map.of("id", AttributeValue.fromS("layer#1")))).isFalse();
        assertThat(PROJECTOR.coversAny(null)).as("a deleted item").isFalse();
    }

    @Test
    void coversAny_whenOnlyTheSecondIndexCoversTheItem_isTrue() {
        // given
        IndexProjector projector = new IndexProjector(DefinitionsYaml.parse("""
                version: 1
                table: {partitionKey: {name: id, type: S}}
                indexes:
                  - {name: issues, covers: [{attribute: id, beginsWith: "issue#"}], values: {attribute: state}}
                  - {name: layers, covers: [{attribute: id, beginsWith: "layer#"}], values: {attribute: state}}
                """));

        // then
        assertThat(projector.coversAny(Map.of("id", AttributeValue.fromS("layer#1")))).isTrue();
        assertThat(projector.coversAny(Map.of("id", AttributeValue.fromS("task#1")))).isFalse();
    }

    @Test
    void partition_whenGrouped_isTheIndexNameAndTheGroupEscaped_whenFieldPartitioned_isTheEntryAlone() {
        // given
        List<AttributeValue> group = List.of(AttributeValue.fromS("p|1%"), AttributeValue.fromN("7.50"),
                AttributeValue.fromB(SdkBytes.fromUtf8String("ab")), AttributeValue.fromBool(true));

        // then
        assertThat(IndexProjector.partition(DEFINITIONS.index("status").orElseThrow(), group, null))
                .isEqualTo("status|p%7C1%25|%N7.5|%BYWI=|%Ttrue");
        assertThat(IndexProjector.partition(DEFINITIONS.index("status").orElseThrow(), List.of(AttributeValue.fromS("p1")), "a|b"))
                .isEqualTo("status|p1|a%7Cb");
        assertThat(IndexProjector.partition(DEFINITIONS.index("custom_fields").orElseThrow(), List.of(AttributeValue.fromS("p1")), "f1"))
                .isEqualTo("f1");
    }

    @Test
    void definitionsAndTable_areTheOnesItProjects() {
        assertThat(PROJECTOR.definitions()).isSameAs(DEFINITIONS);
        assertThat(PROJECTOR.table()).isEqualTo(DEFINITIONS.table());
    }

    @Test
    void project_whenNoIndexHasTheName_refusesNamingTheDeclaredOnes() {
        assertThatThrownBy(() -> PROJECTOR.project("custom-fields", KEY, issue(Map.of()))).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("no index named 'custom-fields' is declared; declared: [custom_fields, status]");
    }
}

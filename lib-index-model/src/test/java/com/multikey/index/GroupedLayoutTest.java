package com.multikey.index;

import com.multikey.index.definition.DefinitionsYaml;
import com.multikey.index.definition.IndexDefinitions;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class GroupedLayoutTest {

    private static final IndexDefinitions DEFINITIONS = DefinitionsYaml.parse("""
            version: 1
            table: {partitionKey: {name: pk}, sortKey: {name: sk}, maxItemKeyBytes: 40}
            indexes:
              - name: fields
                covers: [{attribute: sk, beginsWith: "ISSUE#"}, {attribute: kind, equals: 1}]
                group: [pk, team]
                values: {entriesOf: cf}
                orderBy: num
                projection: [title, missing]
              - name: labels
                covers: [{attribute: sk, beginsWith: "ISSUE#"}]
                values: {elementsOf: labels}
              - name: status
                covers: [{attribute: status, exists: true}]
                values: {attribute: status}
            """);
    private static final IndexProjector PROJECTOR = new IndexProjector(DEFINITIONS);
    private static final ItemKey KEY = ItemKey.of(DEFINITIONS.table(), Map.of("pk", s("P#1"), "sk", s("ISSUE#1"))).orElseThrow();

    private static AttributeValue s(String value) {
        return AttributeValue.fromS(value);
    }

    private static Map<String, AttributeValue> issue() {
        Map<String, AttributeValue> item = new LinkedHashMap<>();
        item.put("pk", s("P#1"));
        item.put("sk", s("ISSUE#1"));
        item.put("kind", AttributeValue.fromN("1.0"));
        item.put("team", AttributeValue.fromN("7"));
        item.put("num", AttributeValue.fromN("3"));
        item.put("title", s("a title"));
        item.put("cf", AttributeValue.fromM(Map.of("prio", AttributeValue.fromN("2"))));
        item.put("labels", AttributeValue.fromSs(List.of("a", "b")));
        item.put("status", s("open"));
        return item;
    }

    private static Map<String, AttributeValue> with(String attribute, AttributeValue value) {
        Map<String, AttributeValue> item = issue();
        if (value == null) {
            item.remove(attribute);
        } else {
            item.put(attribute, value);
        }
        return item;
    }

    private static ItemProjection project(String index, Map<String, AttributeValue> item) {
        return PROJECTOR.project(index, KEY, item);
    }

    @Test
    void project_whenCovered_givesItemsInTheGroupsPartition_withKeyValueAndProjection() {
        // when
        ItemProjection fields = project("fields", issue());

        // then
        assertThat(fields.rejections()).isEmpty();
        assertThat(fields.items()).singleElement().satisfies(item -> {
            assertThat(item.attribId()).isEqualTo("fields|P#1|%N7|prio");
            assertThat(item.toItem().get(IndexItem.INDEX)).isEqualTo(s("fields"));
            assertThat(item.toItem().get(IndexItem.ITEM_KEY)).isEqualTo(AttributeValue.fromM(KEY.attributes()));
            assertThat(item.toItem().get(IndexItem.ATTRS)).isEqualTo(AttributeValue.fromM(Map.of("title", s("a title"))));
            assertThat(item.toItem().get(IndexItem.VALUE)).isEqualTo(AttributeValue.fromN("2"));
            assertThat(item.sortKey()).endsWith(SortKeyCodec.SEPARATOR + "P#1" + SortKeyCodec.SEPARATOR + "ISSUE#1");
        });
        assertThat(project("labels", issue()).items()).extracting(IndexItem::attribId).containsOnly("labels");
        assertThat(project("status", issue()).items()).extracting(IndexItem::value).containsExactly(new IndexValue.Text("open"));
    }

    @Test
    void projectEntry_ofAMapEntriesIndex_isThatEntrysItems_andOfAnotherIndex_everyItem() {
        // given
        Map<String, AttributeValue> item = with("cf", AttributeValue.fromM(Map.of("prio", AttributeValue.fromN("2"),
                "tags", AttributeValue.fromSs(List.of("x", "y")))));

        // when
        ItemProjection tags = PROJECTOR.projectEntry("fields", KEY, item, "tags");
        ItemProjection labels = PROJECTOR.projectEntry("labels", KEY, item, "");

        // then
        assertThat(tags.items()).hasSize(2).containsExactlyInAnyOrderElementsOf(project("fields", item).items().stream()
                .filter(indexItem -> indexItem.attribId().endsWith("|tags")).toList());
        assertThat(labels).isEqualTo(project("labels", item));
        assertThat(PROJECTOR.projectEntry("fields", KEY, item, "absent").items()).isEmpty();
    }

    @Test
    void project_whenNotCovered_givesNothing() {
        assertThat(project("fields", with("kind", AttributeValue.fromN("2")))).isEqualTo(ItemProjection.EMPTY);
        assertThat(project("fields", with("kind", s("1")))).isEqualTo(ItemProjection.EMPTY);
        assertThat(project("status", with("status", AttributeValue.fromNul(true)))).isEqualTo(ItemProjection.EMPTY);
        assertThat(project("status", with("status", null))).isEqualTo(ItemProjection.EMPTY);
        assertThat(project("fields", with("cf", null))).isEqualTo(ItemProjection.EMPTY);
    }

    @Test
    void project_whenSomethingCannotBeIndexed_rejectsItWithAReasonAndNoValue() {
        assertThat(reason("fields", with("team", null))).isEqualTo("group attribute team is missing");
        assertThat(reason("fields", with("team", AttributeValue.fromL(List.of())))).contains("group attribute team is of type L");
        assertThat(reason("fields", with("num", AttributeValue.fromM(Map.of())))).contains("orderBy attribute num is of type M");
        assertThat(reason("fields", with("cf", s("x")))).isEqualTo("cf is of type S, not a map");
        assertThat(reason("labels", with("labels", s("x")))).contains("labels is of type S, not a list");
        assertThat(reason("status", with("status", AttributeValue.fromSs(List.of("a"))))).contains("index a list's or set's elements");
        assertThat(reason("status", with("status", AttributeValue.fromN("1E+200")))).contains("outside DynamoDB's range");
        assertThat(reason("fields", with("cf", AttributeValue.fromM(Map.of("x".repeat(2100), s("v")))))).contains("longer than 2048");
        ItemKey longKey = ItemKey.of(DEFINITIONS.table(), Map.of("pk", s("P#" + "k".repeat(40)), "sk", s("ISSUE#1"))).orElseThrow();
        assertThat(PROJECTOR.project("labels", longKey, issue()).rejections()).singleElement()
                .satisfies(r -> assertThat(r.reason()).contains("maxItemKeyBytes (40)"));
    }

    private static String reason(String index, Map<String, AttributeValue> item) {
        ItemProjection projection = project(index, item);
        assertThat(projection.items()).isEmpty();
        assertThat(projection.rejections()).hasSize(1);
        assertThat(projection.rejections().get(0).index()).isEqualTo(index);
        return projection.rejections().get(0).reason();
    }

    @Test
    void changed_whenWhatAnIndexReadsIsUnchanged_givesNothingToWrite_elseTheDiffOfFullProjections() {
        Map<String, AttributeValue> renamed = with("title", s("another"));
        Map<String, AttributeValue> relabelled = with("labels", AttributeValue.fromSs(List.of("a", "c")));
        Map<String, AttributeValue> closed = with("status", s("closed"));

        for (String index : List.of("labels", "status", "fields")) {
            for (Map<String, AttributeValue> after : List.of(renamed, relabelled, closed, with("kind", AttributeValue.fromN("2")))) {
                IndexProjector.Changed changed = PROJECTOR.changed(index, KEY, issue(), after);
                List<IndexChange> restricted = IndexDiff.between(changed.before().items(), changed.after().items());
                List<IndexChange> full = IndexDiff.between(project(index, issue()).items(), project(index, after).items());
                assertThat(restricted).as("%s after %s", index, after).containsExactlyInAnyOrderElementsOf(full);
            }
        }
        assertThat(PROJECTOR.changed("status", KEY, issue(), renamed).after()).isEqualTo(ItemProjection.EMPTY);
        assertThat(PROJECTOR.changed("labels", KEY, issue(), closed).before()).isEqualTo(ItemProjection.EMPTY);
    }

    @Test
    void bounds_ofAGroupedIndex_keepEveryKeyOfAValueInside_andTheNextValueOutside() {
        ValueBounds bounds = PROJECTOR.bounds("status");
        String open = project("status", issue()).items().iterator().next().sortKey();
        String opened = project("status", with("status", s("opened"))).items().iterator().next().sortKey();
        IndexValue value = new IndexValue.Text("open");

        assertThat(bounds.grouped()).isTrue();
        assertThat(open).startsWith(bounds.valuePrefix(value));
        assertThat(KeyOrder.compare(open, bounds.upperBound(value, true))).isNegative();
        assertThat(KeyOrder.compare(opened, bounds.upperBound(value, true))).isPositive();
        assertThat(KeyOrder.compare(open, bounds.upperBound(value, false))).isPositive();
        assertThat(KeyOrder.compare(open, bounds.lowerBound(value, true))).isPositive();
        assertThat(KeyOrder.compare(open, bounds.lowerBound(value, false))).isNegative();
        assertThat(KeyOrder.compare(opened, bounds.lowerBound(value, false))).isPositive();
        assertThat(opened).startsWith(bounds.textPrefix("ope"));
        assertThat(KeyOrder.compare(bounds.sampleKey(value), bounds.upperBound(value, true))).isNegative();
        assertThat(PROJECTOR.bounds("fields").valueBytes()).isEqualTo(SortKeyCodec.MAX_KEY_BYTES - 1 - 65 - 40);
    }
}

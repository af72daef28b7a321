package com.multikey.index;

import com.multikey.index.definition.DefinitionsYaml;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/** What a grouped index projects for a change of an item, and the key sizes at DynamoDB's limits. */
class GroupedLayoutChangedTest {

    private static final IndexProjector PROJECTOR = new IndexProjector(DefinitionsYaml.parse("""
            version: 1
            table: {partitionKey: {name: id, type: S}}
            indexes:
              - {name: fields, covers: [{attribute: id, beginsWith: "issue#"}], group: project, values: {entriesOf: cf}}
            """));
    private static final ItemKey KEY = ItemKey.ofString("id", "issue#1");

    private static Map<String, AttributeValue> issue(String id, AttributeValue cf) {
        Map<String, AttributeValue> issue = new HashMap<>(Map.of("id", AttributeValue.fromS(id), "project", AttributeValue.fromS("p1")));
        if (cf != null) {
            issue.put("cf", cf);
        }
        return issue;
    }

    private static AttributeValue fields(String f1, String f2) {
        return AttributeValue.fromM(Map.of("f1", AttributeValue.fromS(f1), "f2", AttributeValue.fromS(f2)));
    }

    private static Set<String> partitions(ItemProjection projection) {
        return projection.items().stream().map(IndexItem::attribId).collect(Collectors.toSet());
    }

    @Test
    void changed_whenOneEntryOfTheMapChanges_projectsThatEntryAlone() {
        // when
        IndexProjector.Changed changed = PROJECTOR.changed("fields", KEY, issue("issue#1", fields("a", "b")), issue("issue#1", fields("a", "c")));

        // then
        assertThat(partitions(changed.before())).containsExactly("fields|p1|f2");
        assertThat(partitions(changed.after())).containsExactly("fields|p1|f2");
    }

    @Test
    void changed_whenTheMapAppearsOrWasNotAMap_projectsBothVersionsWhole() {
        // when
        IndexProjector.Changed added = PROJECTOR.changed("fields", KEY, issue("issue#1", null), issue("issue#1", fields("a", "b")));
        IndexProjector.Changed removed = PROJECTOR.changed("fields", KEY, issue("issue#1", fields("a", "b")), issue("issue#1", null));
        IndexProjector.Changed fromText = PROJECTOR.changed("fields", KEY, issue("issue#1", AttributeValue.fromS("a")),
                issue("issue#1", fields("a", "b")));
        IndexProjector.Changed toText = PROJECTOR.changed("fields", KEY, issue("issue#1", fields("a", "b")),
                issue("issue#1", AttributeValue.fromS("a")));

        // then
        assertThat(partitions(added.after())).containsExactlyInAnyOrder("fields|p1|f1", "fields|p1|f2");
        assertThat(partitions(removed.before())).containsExactlyInAnyOrder("fields|p1|f1", "fields|p1|f2");
        assertThat(partitions(fromText.after())).containsExactlyInAnyOrder("fields|p1|f1", "fields|p1|f2");
        assertThat(fromText.before().rejections()).singleElement().extracting(Rejection::reason).isEqualTo("cf is of type S, not a map");
        assertThat(partitions(toText.before())).containsExactlyInAnyOrder("fields|p1|f1", "fields|p1|f2");
    }

    @Test
    void changed_whenTheItemIsCreatedOrDeleted_projectsTheVersionThatExists() {
        // when
        IndexProjector.Changed created = PROJECTOR.changed("fields", KEY, null, issue("issue#1", fields("a", "b")));
        IndexProjector.Changed deleted = PROJECTOR.changed("fields", KEY, issue("issue#1", fields("a", "b")), null);

        // then
        assertThat(created.before()).isEqualTo(ItemProjection.EMPTY);
        assertThat(partitions(created.after())).containsExactlyInAnyOrder("fields|p1|f1", "fields|p1|f2");
        assertThat(partitions(deleted.before())).containsExactlyInAnyOrder("fields|p1|f1", "fields|p1|f2");
        assertThat(deleted.after()).isEqualTo(ItemProjection.EMPTY);
    }

    @Test
    void changed_whenNeitherVersionIsCovered_projectsNothing() {
        // when
        IndexProjector.Changed changed = PROJECTOR.changed("fields", ItemKey.ofString("id", "layer#1"),
                issue("layer#1", fields("a", "b")), issue("layer#1", fields("a", "c")));

        // then
        assertThat(changed).isEqualTo(new IndexProjector.Changed(ItemProjection.EMPTY, ItemProjection.EMPTY));
    }

    @Test
    void changed_whenTheItemComesIntoOrLeavesTheIndex_projectsTheCoveredVersionWhole() {
        // when
        IndexProjector.Changed entering = PROJECTOR.changed("fields", KEY, issue("layer#1", fields("a", "b")), issue("issue#1", fields("a", "b")));
        IndexProjector.Changed leaving = PROJECTOR.changed("fields", KEY, issue("issue#1", fields("a", "b")), issue("layer#1", fields("a", "b")));

        // then
        assertThat(entering.before()).isEqualTo(ItemProjection.EMPTY);
        assertThat(partitions(entering.after())).containsExactlyInAnyOrder("fields|p1|f1", "fields|p1|f2");
        assertThat(partitions(leaving.before())).containsExactlyInAnyOrder("fields|p1|f1", "fields|p1|f2");
        assertThat(leaving.after()).isEqualTo(ItemProjection.EMPTY);
    }

    @Test
    void project_whenTheItemKeyTakesExactlyTheBytesAllowed_indexesIt_andOneMoreRejectsIt() {
        // given: an index whose table allows exactly this item key's bytes
        ItemKey key = ItemKey.ofString("id", "issue#0123456789");
        int itemKeyBytes = DynamoDbLimits.utf8Bytes(SortKeyCodec.encodeItemKey(key));
        IndexProjector exact = new IndexProjector(DefinitionsYaml.parse("version: 1\ntable: {partitionKey: {name: id}, maxItemKeyBytes: "
                + itemKeyBytes + "}\nindexes: [{name: fields, group: project, values: {entriesOf: cf}}]"));
        ItemKey longer = ItemKey.ofString("id", "issue#01234567890");

        // when
        ItemProjection fits = exact.project("fields", key, issue("issue#0123456789", fields("a", "b")));
        ItemProjection over = exact.project("fields", longer, issue("issue#01234567890", fields("a", "b")));

        // then
        assertThat(fits.items()).hasSize(2);
        assertThat(over.items()).isEmpty();
        assertThat(over.rejections()).singleElement().extracting(Rejection::reason)
                .isEqualTo("the item's key takes more than table.maxItemKeyBytes (" + itemKeyBytes + ") bytes of the sort key");
    }

    @Test
    void project_whenThePartitionKeyTakesExactlyDynamoDbsLimit_indexesIt_andOneByteMoreRejectsTheField() {
        // given: a scalar index, its partition 'status|' and the project
        IndexProjector status = new IndexProjector(DefinitionsYaml.parse(
                "version: 1\ntable: {partitionKey: {name: id}}\nindexes: [{name: status, group: project, values: {attribute: state}}]"));
        String project = "p".repeat(DynamoDbLimits.MAX_PARTITION_KEY_BYTES - "status|".length());
        Map<String, AttributeValue> fits = Map.of("id", AttributeValue.fromS("issue#1"), "project", AttributeValue.fromS(project),
                "state", AttributeValue.fromS("open"));
        Map<String, AttributeValue> over = Map.of("id", AttributeValue.fromS("issue#1"), "project", AttributeValue.fromS(project + "p"),
                "state", AttributeValue.fromS("open"));

        // then
        assertThat(status.project("status", KEY, fits).items()).singleElement().extracting(IndexItem::attribId).isEqualTo("status|" + project);
        assertThat(status.project("status", KEY, over).rejections()).singleElement().isEqualTo(new Rejection.Field(KEY, "status", "state",
                "state index partition key (index name, group) longer than 2048 bytes"));
    }

    @Test
    void project_whenTheItemKeyIsANumberOutsideDynamoDbsRange_rejectsTheItem() {
        // given
        IndexProjector byNumber = new IndexProjector(DefinitionsYaml.parse(
                "version: 1\ntable: {partitionKey: {name: id, type: N}}\nindexes: [{name: status, values: {attribute: state}}]"));
        Map<String, AttributeValue> item = Map.of("id", AttributeValue.fromN("1E+200"), "state", AttributeValue.fromS("open"));
        ItemKey key = byNumber.keyOf(item).orElseThrow();

        // when
        ItemProjection projection = byNumber.project("status", key, item);

        // then
        assertThat(projection.items()).isEmpty();
        assertThat(projection.rejections()).containsExactly(new Rejection.Image(key, "status", "the item's key holds a number outside DynamoDB's range"));
    }
}

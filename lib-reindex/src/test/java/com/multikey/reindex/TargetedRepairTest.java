package com.multikey.reindex;

import com.multikey.index.IndexChange;
import com.multikey.index.IndexItem;
import com.multikey.index.IndexKey;
import com.multikey.index.IndexProjector;
import com.multikey.index.IndexValue;
import com.multikey.index.ItemKey;
import com.multikey.index.definition.IndexDefinitions;
import com.multikey.testkit.IssueFixtures;
import com.multikey.testkit.LocalTables;
import com.multikey.testkit.LocalTablesExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/** The planning of a targeted repair (pure), and the repair itself on the local DynamoDB engine with the template's tables. */
@ExtendWith(LocalTablesExtension.class)
class TargetedRepairTest {

    private static final IndexScope SCHEMA = IndexScope.all(IndexDefinitions.packaged());
    private static final String APP = "AppTable";
    private static final String INDEX = "IssueAttribIndexTable";
    private final DynamoDbClient dynamoDb;

    TargetedRepairTest(LocalTables tables) {
        this.dynamoDb = tables.dynamoDb();
    }

    private static IndexItem item(String field, String value, String issue, int num) {
        return IndexItem.of(field, new IndexValue.Text(value), issue, "P", BigDecimal.valueOf(num));
    }

    private static Map<String, AttributeValue> issue(String id, int num, Map<String, String> fields) {
        return Map.of("id", AttributeValue.fromS(id), "project", AttributeValue.fromS("P"), "num", AttributeValue.fromN(String.valueOf(num)),
                "custom_fields", AttributeValue.fromM(fields.entrySet().stream()
                        .collect(Collectors.toMap(Map.Entry::getKey, e -> AttributeValue.fromS(e.getValue())))));
    }

    @Test
    void plan_whenTheStoredItemEqualsTheWantedOne_writesNothing() {
        IndexItem a = item("f1", "x", "issue#1", 1);

        List<IndexChange> changes = TargetedRepair.plan(Set.of(a.key()), Map.of(a.key(), a.toItem()), List.of(a));

        assertThat(changes).isEmpty();
    }

    @Test
    void plan_putsMissingOrDifferentItems_andDeletesConsideredKeysNoLongerImplied() {
        // given
        IndexItem wanted = item("f1", "new", "issue#1", 1);
        IndexItem missing = item("f2", "y", "issue#1", 1);
        IndexItem old = item("f1", "old", "issue#1", 1);
        IndexItem absentOld = item("f3", "z", "issue#1", 1);
        Map<String, AttributeValue> differs = new java.util.HashMap<>(wanted.toItem());
        differs.put("project", AttributeValue.fromS("Q"));

        // when
        List<IndexChange> changes = TargetedRepair.plan(Set.of(wanted.key(), missing.key(), old.key(), absentOld.key()),
                Map.of(wanted.key(), differs, old.key(), old.toItem()), List.of(wanted, missing));

        // then
        assertThat(changes).containsExactlyInAnyOrder(new IndexChange.Put(wanted), new IndexChange.Put(missing), new IndexChange.Delete(old.key()));
    }

    @Test
    void plan_neverDeletesAKeyThatWasNotConsidered() {
        IndexItem stray = item("f9", "s", "issue#1", 1);

        assertThat(TargetedRepair.plan(Set.of(), Map.of(stray.key(), stray.toItem()), List.of())).isEmpty();
    }

    @Test
    void repair_fromOldImages_makesTheIssuesIndexThatOfItsCurrentState_andTouchesNoOtherIssue() {
        // given: issue 1 indexed from an old version, issue 2 deleted with its items left, issue 3 wrong but not named
        Map<String, AttributeValue> v1 = issue("issue#1", 1, Map.of("f1", "old", "f2", "gone"));
        Map<String, AttributeValue> v2 = issue("issue#1", 1, Map.of("f1", "new", "f3", "added"));
        Map<String, AttributeValue> deleted = issue("issue#2", 2, Map.of("f1", "a"));
        Map<String, AttributeValue> other = issue("issue#3", 3, Map.of("f1", "b"));
        dynamoDb.putItem(b -> b.tableName(APP).item(v2));
        dynamoDb.putItem(b -> b.tableName(APP).item(other));
        IndexProjector projector = new IndexProjector(SCHEMA.definitions());
        projector.project(ItemKey.ofString("id", "issue#1"), v1).items().forEach(i -> dynamoDb.putItem(b -> b.tableName(INDEX).item(i.toItem())));
        projector.project(ItemKey.ofString("id", "issue#2"), deleted).items().forEach(i -> dynamoDb.putItem(b -> b.tableName(INDEX).item(i.toItem())));
        IndexItem strayOfOther = item("f1", "stale", "issue#3", 3);
        dynamoDb.putItem(b -> b.tableName(INDEX).item(strayOfOther.toItem()));
        TargetedRepair repair = new TargetedRepair(dynamoDb, APP, INDEX, SCHEMA);

        // when
        TargetedRepair.Outcome planned = repair.repair(ItemKey.ofString("id", "issue#1"), List.of(v1, v2), true);
        Set<Map<String, AttributeValue>> afterDryRun = IssueFixtures.storedIndex(dynamoDb, INDEX);
        TargetedRepair.Outcome first = repair.repair(ItemKey.ofString("id", "issue#1"), List.of(v1, v2), false);
        TargetedRepair.Outcome second = repair.repair(ItemKey.ofString("id", "issue#2"), List.of(deleted), false);
        TargetedRepair.Outcome again = repair.repair(ItemKey.ofString("id", "issue#1"), List.of(v1, v2), false);

        // then
        assertThat(planned).isEqualTo(new TargetedRepair.Outcome.Planned(ItemKey.ofString("id", "issue#1"), 2, 2));
        assertThat(afterDryRun).contains(item("f1", "old", "issue#1", 1).toItem());
        assertThat(first).isEqualTo(new TargetedRepair.Outcome.Repaired(ItemKey.ofString("id", "issue#1"), 2, 2));
        assertThat(second).isEqualTo(new TargetedRepair.Outcome.Repaired(ItemKey.ofString("id", "issue#2"), 0, 1));
        assertThat(again).isEqualTo(new TargetedRepair.Outcome.AlreadyRight(ItemKey.ofString("id", "issue#1")));
        assertThat(IssueFixtures.storedIndex(dynamoDb, INDEX)).containsExactlyInAnyOrderElementsOf(
                Set.of(item("f1", "new", "issue#1", 1).toItem(), item("f3", "added", "issue#1", 1).toItem(), strayOfOther.toItem()));
    }

    @Test
    void repair_whenNoImageImpliesAStoredKey_leavesItForVerify() {
        Map<String, AttributeValue> now = issue("issue#1", 1, Map.of("f1", "a"));
        dynamoDb.putItem(b -> b.tableName(APP).item(now));
        IndexItem stray = item("f7", "from long ago", "issue#1", 1);
        dynamoDb.putItem(b -> b.tableName(INDEX).item(stray.toItem()));

        new TargetedRepair(dynamoDb, APP, INDEX, SCHEMA).repair(ItemKey.ofString("id", "issue#1"), List.of(now), false);

        assertThat(IssueFixtures.storedIndex(dynamoDb, INDEX)).contains(stray.toItem(), item("f1", "a", "issue#1", 1).toItem());
        assertThat(IndexKey.of(stray.toItem())).isEqualTo(stray.key());
    }
}

package com.multikey.reindex;

import com.multikey.index.IndexItem;
import com.multikey.index.IndexKey;
import com.multikey.index.definition.IndexDefinitions;
import com.multikey.index.definition.KeySchema.KeyType;
import com.multikey.testkit.IssueFixtures;
import com.multikey.testkit.LocalTables;
import com.multikey.testkit.LocalTablesExtension;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Backfill, verify, repair and removal on the local DynamoDB engine over a table keyed pk and sk of type N or B (issues of a
 * project told apart by their sort key alone), with three declared indexes: every index, or one named.
 */
@ExtendWith(LocalTablesExtension.class)
class SortKeyedReindexIntegrationTest {

    private static final String TABLE = SortKeyedTable.TABLE;
    private static final String INDEX_TABLE = SortKeyedTable.INDEX_TABLE;
    private final DynamoDbClient dynamoDb;

    SortKeyedReindexIntegrationTest(LocalTables tables) {
        this.dynamoDb = tables.dynamoDb();
    }

    private Set<Map<String, AttributeValue>> stored() {
        return IssueFixtures.storedIndex(dynamoDb, INDEX_TABLE);
    }

    private Set<Map<String, AttributeValue>> expected(IndexDefinitions definitions) {
        return IssueFixtures.expectedIndex(dynamoDb, TABLE, definitions);
    }

    private Set<Map<String, AttributeValue>> expectedOf(IndexDefinitions definitions, String index) {
        return expected(definitions).stream().filter(item -> index.equals(item.get(IndexItem.INDEX).s())).collect(Collectors.toSet());
    }

    private Backfill.Progress backfill(IndexDefinitions definitions, Optional<String> index) throws InterruptedException {
        return new Backfill(dynamoDb, TABLE, INDEX_TABLE, IndexScope.of(definitions, index), 100_000)
                .run(CheckpointStore.open(null, 3), 3, progress -> { }, Duration.ofSeconds(1));
    }

    private Verifier.Report verify(IndexDefinitions definitions, Optional<String> index, boolean repair) {
        return new Verifier(dynamoDb, TABLE, INDEX_TABLE, IndexScope.of(definitions, index)).verify(repair, 3, 1e9);
    }

    private static List<Long> drift(Verifier.Report report) {
        return List.of(report.missingCount(), report.staleCount(), report.orphanedCount());
    }

    private void putIndexItem(Map<String, AttributeValue> item) {
        dynamoDb.putItem(b -> b.tableName(INDEX_TABLE).item(item));
    }

    @ParameterizedTest
    @EnumSource(value = KeyType.class, names = {"N", "B"})
    void backfill_ofEveryIndex_buildsExactlyWhatTheDefinitionsImply_andVerifyFindsNoDrift(KeyType type) throws Exception {
        // given
        IndexDefinitions definitions = SortKeyedTable.definitions(type);
        SortKeyedTable.create(dynamoDb, type);

        // when
        Backfill.Progress done = backfill(definitions, Optional.empty());

        // then
        assertThat(stored()).isEqualTo(expected(definitions));
        int issues = SortKeyedTable.PROJECTS * SortKeyedTable.ISSUES_PER_PROJECT;
        assertThat(expectedOf(definitions, SortKeyedTable.ISSUE_FIELDS)).as("two fields an issue").hasSize(2 * issues);
        assertThat(expectedOf(definitions, SortKeyedTable.DEVICES)).as("devices with a status").hasSize(6);
        assertThat(expectedOf(definitions, SortKeyedTable.ISSUE_LABELS)).isNotEmpty();
        assertThat(done.itemsIndexed()).isEqualTo(issues + 6);
        Verifier.Report report = verify(definitions, Optional.empty(), false);
        assertThat(report.clean()).isTrue();
        assertThat(report.indexItems()).isEqualTo(expected(definitions).size());
    }

    @ParameterizedTest
    @EnumSource(value = KeyType.class, names = {"N", "B"})
    void backfill_ofOneIndex_writesThatIndexAlone_andVerifyOfEveryIndexFindsOnlyTheOthersMissing(KeyType type) throws Exception {
        // given
        IndexDefinitions definitions = SortKeyedTable.definitions(type);
        SortKeyedTable.create(dynamoDb, type);

        // when
        Backfill.Progress done = backfill(definitions, Optional.of(SortKeyedTable.ISSUE_LABELS));

        // then
        assertThat(stored()).isNotEmpty().isEqualTo(expectedOf(definitions, SortKeyedTable.ISSUE_LABELS));
        assertThat(done.itemsIndexed()).as("issues only: no device is in that index")
                .isEqualTo(SortKeyedTable.PROJECTS * SortKeyedTable.ISSUES_PER_PROJECT);
        assertThat(verify(definitions, Optional.of(SortKeyedTable.ISSUE_LABELS), false).clean()).isTrue();
        assertThat(drift(verify(definitions, Optional.of(SortKeyedTable.DEVICES), false)))
                .containsExactly((long) expectedOf(definitions, SortKeyedTable.DEVICES).size(), 0L, 0L);
        assertThat(drift(verify(definitions, Optional.empty(), false))).containsExactly(
                (long) (expected(definitions).size() - stored().size()), 0L, 0L);
    }

    @ParameterizedTest
    @EnumSource(value = KeyType.class, names = {"N", "B"})
    void verify_findsEachIndexsOwnMissingStaleAndOrphanedItems_andRepairOfOneIndexFixesThatIndexAlone(KeyType type) throws Exception {
        // given: a backfilled index, then drift in each index
        IndexDefinitions definitions = SortKeyedTable.definitions(type);
        SortKeyedTable.create(dynamoDb, type);
        backfill(definitions, Optional.empty());
        Map<String, AttributeValue> missing = expectedOf(definitions, SortKeyedTable.ISSUE_FIELDS).iterator().next();
        dynamoDb.deleteItem(b -> b.tableName(INDEX_TABLE).key(IndexKey.of(missing).toKey()));
        Map<String, AttributeValue> stale = new HashMap<>(expectedOf(definitions, SortKeyedTable.DEVICES).iterator().next());
        stale.put(IndexItem.ATTRS, AttributeValue.fromM(Map.of("model", SortKeyedTable.s("edited"))));
        putIndexItem(stale);
        // an issue of a partition that holds issues, at a sort key none has: found by the item's whole key only
        Map<String, AttributeValue> ofAnAbsentIssue = new HashMap<>(expectedOf(definitions, SortKeyedTable.ISSUE_LABELS).iterator().next());
        ofAnAbsentIssue.put(IndexKey.SORT_KEY, SortKeyedTable.s(ofAnAbsentIssue.get(IndexKey.SORT_KEY).s() + "~"));
        ofAnAbsentIssue.put(IndexItem.ITEM_KEY, AttributeValue.fromM(SortKeyedTable.issueKey(type, 0, 77)));
        putIndexItem(ofAnAbsentIssue);
        // an item whose item key lacks the sort key: it names no item of the table
        Map<String, AttributeValue> namingNoItem = new HashMap<>(expectedOf(definitions, SortKeyedTable.DEVICES).iterator().next());
        namingNoItem.put(IndexKey.SORT_KEY, SortKeyedTable.s(namingNoItem.get(IndexKey.SORT_KEY).s() + "~"));
        namingNoItem.put(IndexItem.ITEM_KEY, AttributeValue.fromM(Map.of("pk", SortKeyedTable.s("FLEET#f1"))));
        putIndexItem(namingNoItem);

        // when
        Map<String, List<Long>> byIndex = new HashMap<>();
        for (String index : SortKeyedTable.INDEXES) {
            byIndex.put(index, drift(verify(definitions, Optional.of(index), false)));
        }
        List<Long> all = drift(verify(definitions, Optional.empty(), false));
        Verifier.Report labelsRepaired = verify(definitions, Optional.of(SortKeyedTable.ISSUE_LABELS), true);
        List<Long> afterLabelsRepair = drift(verify(definitions, Optional.empty(), false));
        Verifier.Report allRepaired = verify(definitions, Optional.empty(), true);

        // then
        assertThat(byIndex).containsExactlyInAnyOrderEntriesOf(Map.of(
                SortKeyedTable.ISSUE_FIELDS, List.of(1L, 0L, 0L),
                SortKeyedTable.ISSUE_LABELS, List.of(0L, 0L, 1L),
                SortKeyedTable.DEVICES, List.of(0L, 1L, 1L)));
        assertThat(all).containsExactly(1L, 1L, 2L);
        assertThat(labelsRepaired.repairedItems()).isEqualTo(1);
        assertThat(afterLabelsRepair).as("the other indexes' drift is left alone").containsExactly(1L, 1L, 1L);
        assertThat(allRepaired.repairedItems()).isEqualTo(3);
        assertThat(verify(definitions, Optional.empty(), false).clean()).isTrue();
        assertThat(stored()).isEqualTo(expected(definitions));
    }

    @ParameterizedTest
    @EnumSource(value = KeyType.class, names = {"N", "B"})
    void removal_ofAnIndexNoLongerDeclared_deletesExactlyItsItems_andASecondRunDeletesNothing(KeyType type) throws Exception {
        // given
        IndexDefinitions before = SortKeyedTable.definitions(type);
        IndexDefinitions after = SortKeyedTable.definitions(type, List.of(SortKeyedTable.ISSUE_FIELDS, SortKeyedTable.DEVICES));
        SortKeyedTable.create(dynamoDb, type);
        backfill(before, Optional.empty());
        int labelItems = expectedOf(before, SortKeyedTable.ISSUE_LABELS).size();

        // when
        long first = new IndexRemoval(dynamoDb, INDEX_TABLE, after, SortKeyedTable.ISSUE_LABELS, 100_000, 5).run(3);
        long second = new IndexRemoval(dynamoDb, INDEX_TABLE, after, SortKeyedTable.ISSUE_LABELS, 100_000, 5).run(3);

        // then
        assertThat(labelItems).isPositive();
        assertThat(first).isEqualTo(labelItems);
        assertThat(second).isZero();
        assertThat(stored()).isEqualTo(expected(after));
        assertThat(verify(after, Optional.empty(), false).clean()).isTrue();
        assertThatThrownBy(() -> new IndexRemoval(dynamoDb, INDEX_TABLE, before, SortKeyedTable.ISSUE_LABELS, 100_000, 5))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'issue-labels' is still declared");
    }
}

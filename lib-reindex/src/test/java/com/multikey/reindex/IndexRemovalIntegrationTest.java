package com.multikey.reindex;

import com.multikey.index.IndexItem;
import com.multikey.index.definition.DefinitionsYaml;
import com.multikey.index.definition.IndexDefinitions;
import com.multikey.testkit.IssueFixtures;
import com.multikey.testkit.LocalTables;
import com.multikey.testkit.LocalTablesExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.time.Duration;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Removing an index no longer declared from the template's index table on the local DynamoDB engine: the original issue grid's
 * field-partitioned items once the grid has moved to a grouped index, page by page and resumed, and refused while
 * the index is declared.
 */
@ExtendWith(LocalTablesExtension.class)
class IndexRemovalIntegrationTest {

    private static final String APP = "AppTable";
    private static final String INDEX = "IssueAttribIndexTable";
    /** The issue grid in both layouts: the state while it moves to the grouped one. */
    private static final String BOTH_TEXT = """
            version: 1
            table: {partitionKey: {name: id, type: S}}
            indexes:
              - {name: custom_fields, layout: field-partitioned, covers: [{attribute: id, beginsWith: "issue#"}],
                 group: project, values: {entriesOf: custom_fields}, orderBy: num}
              - {name: issue-grid, covers: [{attribute: id, beginsWith: "issue#"}], group: project,
                 values: {entriesOf: custom_fields}, orderBy: num}
            """;
    private static final IndexDefinitions BOTH = DefinitionsYaml.parse(BOTH_TEXT);
    /** After the move: the grouped grid alone. */
    private static final IndexDefinitions GROUPED = DefinitionsYaml.parse("""
            version: 1
            table: {partitionKey: {name: id, type: S}}
            indexes:
              - {name: issue-grid, covers: [{attribute: id, beginsWith: "issue#"}], group: project,
                 values: {entriesOf: custom_fields}, orderBy: num}
            """);
    private final DynamoDbClient dynamoDb;

    IndexRemovalIntegrationTest(LocalTables tables) {
        this.dynamoDb = tables.dynamoDb();
    }

    private Set<Map<String, AttributeValue>> stored() {
        return IssueFixtures.storedIndex(dynamoDb, INDEX);
    }

    private void backfillBoth() throws InterruptedException {
        IssueFixtures.putRandomIssues(dynamoDb, APP, 25, new Random(21));
        new Backfill(dynamoDb, APP, INDEX, IndexScope.all(BOTH), 100_000).run(CheckpointStore.open(null, 2), 2, p -> { },
                Duration.ofSeconds(1));
    }

    @Test
    void run_ofTheFieldPartitionedLayout_onceNoLongerDeclared_deletesExactlyItsItems_andASecondRunNothing() throws Exception {
        // given
        backfillBoth();
        int legacyItems = IssueFixtures.expectedIndex(dynamoDb, APP, IndexDefinitions.packaged()).size();

        // when
        long first = new IndexRemoval(dynamoDb, INDEX, GROUPED, IndexRemoval.FIELD_PARTITIONED, 100_000, 10).run(3);
        long second = new IndexRemoval(dynamoDb, INDEX, GROUPED, IndexRemoval.FIELD_PARTITIONED, 100_000, 10).run(3);

        // then
        assertThat(legacyItems).isPositive();
        assertThat(first).isEqualTo(legacyItems);
        assertThat(second).isZero();
        assertThat(stored()).isEqualTo(IssueFixtures.expectedIndex(dynamoDb, APP, GROUPED));
        assertThat(stored()).allSatisfy(item -> assertThat(item.get(IndexItem.INDEX).s()).isEqualTo("issue-grid"));
    }

    @Test
    void page_stoppedAfterItsFirstPage_andResumedFromThatPosition_deletesEveryItemOnce() throws Exception {
        // given
        backfillBoth();
        int groupedItems = IssueFixtures.expectedIndex(dynamoDb, APP, GROUPED).size();
        // definitions that no longer declare issue-grid: the grid back in the field-partitioned layout alone
        IndexDefinitions packaged = DefinitionsYaml.parse(BOTH_TEXT.substring(0, BOTH_TEXT.indexOf("  - {name: issue-grid")));
        PageOutcome firstPage = new IndexRemoval(dynamoDb, INDEX, packaged, "issue-grid", 100_000, 4)
                .page(0, 1, SegmentPosition.START);

        // when: another process resumes from the saved position
        long deleted = firstPage.counts().writes();
        IndexRemoval resumed = new IndexRemoval(dynamoDb, INDEX, packaged, "issue-grid", 100_000, 4);
        for (SegmentPosition at = firstPage.next(); !at.done(); ) {
            PageOutcome page = resumed.page(0, 1, at);
            deleted += page.counts().writes();
            at = page.next();
        }

        // then
        assertThat(firstPage.next().done()).as("more than one page").isFalse();
        assertThat(deleted).isEqualTo(groupedItems);
        assertThat(stored()).isEqualTo(IssueFixtures.expectedIndex(dynamoDb, APP, packaged));
    }

    @Test
    void removal_ofAnIndexStillDeclared_isRefusedBeforeAnythingIsDeleted() throws Exception {
        // given
        backfillBoth();
        Set<Map<String, AttributeValue>> before = stored();

        // when, then
        assertThatThrownBy(() -> new IndexRemoval(dynamoDb, INDEX, BOTH, "issue-grid", 100_000, 10))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'issue-grid' is still declared");
        assertThatThrownBy(() -> new IndexRemoval(dynamoDb, INDEX, BOTH, IndexRemoval.FIELD_PARTITIONED, 100_000, 10))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'custom_fields' still uses the field-partitioned layout");
        assertThat(stored()).isEqualTo(before);
    }
}

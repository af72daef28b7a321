package com.multikey.reindex;

import com.multikey.index.IndexItem;
import com.multikey.index.IndexValue;
import com.multikey.index.definition.IndexDefinitions;
import com.multikey.testkit.IssueFixtures;
import com.multikey.testkit.LocalTables;
import com.multikey.testkit.LocalTablesExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The bounded verifier page by page on the local DynamoDB engine: every page holds at most its page size of items and
 * the keys they imply, so what a page finds depends on nothing kept from other pages.
 */
@ExtendWith(LocalTablesExtension.class)
class SegmentVerifierIntegrationTest {

    private static final IndexScope SCHEMA = IndexScope.all(IndexDefinitions.packaged());
    private final DynamoDbClient dynamoDb;

    SegmentVerifierIntegrationTest(LocalTables tables) {
        this.dynamoDb = tables.dynamoDb();
    }

    private record Run(PageCounts totals, List<SegmentVerifier.Discrepancy> found, long pages, long largestPage,
                       List<SegmentVerifier.Discrepancy> listed) {
    }

    private Run verify(boolean repair, int segments, int pageSize) throws InterruptedException {
        List<SegmentVerifier.Discrepancy> found = new ArrayList<>();
        SegmentVerifier verifier = new SegmentVerifier(dynamoDb, "AppTable", "IssueAttribIndexTable", SCHEMA, repair, 1e9, pageSize,
                found::add);
        List<SegmentVerifier.Discrepancy> listed = new ArrayList<>();
        PageCounts totals = PageCounts.NONE;
        long pages = 0;
        long largest = 0;
        for (int segment = 0; segment < segments; segment++) {
            SegmentPosition at = SegmentPosition.START;
            while (!at.done()) {
                PageOutcome page = verifier.page(segment, segments, at);
                totals = totals.plus(page.counts());
                listed.addAll(page.found());
                largest = Math.max(largest, page.counts().items());
                pages++;
                at = page.next();
            }
        }
        return new Run(totals, found, pages, largest, listed);
    }

    @Test
    void page_readsAtMostItsPageSize_andFindsEachInjectedDriftOnce_overManySegments() throws Exception {
        IssueFixtures.putRandomIssues(dynamoDb, "AppTable", 60, new Random(11));
        SegmentBackfill backfill = new SegmentBackfill(dynamoDb, "AppTable", "IssueAttribIndexTable", SCHEMA, 1e9, 7);
        for (SegmentPosition at = SegmentPosition.START; !at.done(); ) {
            at = backfill.page(0, 1, at).next();
        }
        assertThat(verify(false, 5, 4).totals().drift()).isZero();
        List<IndexItem> items = new ArrayList<>(IssueFixtures.expectedItems(dynamoDb, "AppTable", SCHEMA.definitions()));
        items.sort(Comparator.comparing(IndexItem::sortKey).thenComparing(IndexItem::attribId));
        IndexItem removed = items.get(0);
        IndexItem changed = items.stream().filter(i -> !i.itemKeyText().equals(removed.itemKeyText())).findFirst().orElseThrow();
        dynamoDb.deleteItem(b -> b.tableName("IssueAttribIndexTable").key(removed.key().toKey()));
        Map<String, AttributeValue> wrong = new LinkedHashMap<>(changed.toItem());
        wrong.put("num", AttributeValue.fromN("99999"));
        dynamoDb.putItem(b -> b.tableName("IssueAttribIndexTable").item(wrong));
        IndexItem orphan = IndexItem.of("f2", new IndexValue.Text("ghost"), "issue#gone", "project#0", BigDecimal.ONE);
        dynamoDb.putItem(b -> b.tableName("IssueAttribIndexTable").item(orphan.toItem()));

        Run run = verify(false, 5, 4);

        assertThat(run.largestPage()).isLessThanOrEqualTo(4);
        assertThat(run.totals().sourceItems()).isEqualTo(60);
        assertThat(run.found()).containsExactlyInAnyOrder(
                new SegmentVerifier.Discrepancy(SegmentVerifier.Kind.MISSING, removed.itemKeyText(), removed.key()),
                new SegmentVerifier.Discrepancy(SegmentVerifier.Kind.STALE, changed.itemKeyText(), changed.key()),
                new SegmentVerifier.Discrepancy(SegmentVerifier.Kind.ORPHANED, "issue#gone", orphan.key()));
        assertThat(run.totals()).extracting(PageCounts::missing, PageCounts::stale, PageCounts::orphaned).containsExactly(1L, 1L, 1L);
        assertThat(run.listed()).as("each page's outcome lists what it counted").isEqualTo(run.found());

        Run repaired = verify(true, 3, 5);
        assertThat(repaired.totals().repaired()).isEqualTo(3);
        assertThat(verify(false, 2, 100).totals().drift()).isZero();
        assertThat(IssueFixtures.storedIndex(dynamoDb, "IssueAttribIndexTable"))
                .isEqualTo(IssueFixtures.expectedIndex(dynamoDb, "AppTable", SCHEMA.definitions()));
    }

    @Test
    void appPage_ofAnIssueImplyingMoreThanOneHundredItems_readsThemInSeveralBatchGetItemCalls() throws Exception {
        IssueFixtures.putRandomIssues(dynamoDb, "AppTable", 1, new Random(5));

        Run run = verify(false, 1, 1);

        assertThat(run.totals().missing()).as("issue#0's 150 fields, none indexed yet").isGreaterThan(100);
        assertThat(run.found()).allMatch(d -> d.kind() == SegmentVerifier.Kind.MISSING && d.itemKey().equals("issue#0"));
    }

    @Test
    void indexPage_ofAnItemItsExistingIssueDoesNotImply_isStale_andRepairDeletesIt() throws Exception {
        IssueFixtures.putRandomIssues(dynamoDb, "AppTable", 3, new Random(6));
        verify(true, 1, 10);
        IndexItem extra = IndexItem.of("not-a-field-of-it", new IndexValue.Num(BigDecimal.TEN), "issue#1", "project#1", BigDecimal.ONE);
        dynamoDb.putItem(b -> b.tableName("IssueAttribIndexTable").item(extra.toItem()));

        Run run = verify(true, 1, 10);

        assertThat(run.found()).containsExactly(new SegmentVerifier.Discrepancy(SegmentVerifier.Kind.STALE, "issue#1", extra.key()));
        assertThat(dynamoDb.getItem(b -> b.tableName("IssueAttribIndexTable").key(extra.key().toKey())).item()).isNullOrEmpty();
    }

    @Test
    void indexPage_ofItemsNamingANonIssue_orNoIssueAtAll_findsThem_andRepairDeletesThem() throws Exception {
        IssueFixtures.putRandomIssues(dynamoDb, "AppTable", 2, new Random(7));
        verify(true, 1, 10);
        dynamoDb.putItem(b -> b.tableName("AppTable").item(Map.of("id", AttributeValue.fromS("project#9"))));
        IndexItem ofAProject = IndexItem.of("f1", new IndexValue.Text("x"), "project#9", "project#9", BigDecimal.ONE);
        dynamoDb.putItem(b -> b.tableName("IssueAttribIndexTable").item(ofAProject.toItem()));
        Map<String, AttributeValue> noIssue = new LinkedHashMap<>(
                IndexItem.of("f1", new IndexValue.Text("y"), "issue#77", "project#9", BigDecimal.TEN).toItem());
        noIssue.remove(IndexItem.ITEM_ID);
        dynamoDb.putItem(b -> b.tableName("IssueAttribIndexTable").item(noIssue));

        Run run = verify(true, 1, 10);

        assertThat(run.found()).extracting(SegmentVerifier.Discrepancy::key)
                .contains(ofAProject.key(), com.multikey.index.IndexKey.of(noIssue));
        assertThat(verify(false, 1, 10).totals().drift()).as("repaired").isZero();
    }
}

package com.multikey.reindex;

import com.multikey.index.IndexItem;
import com.multikey.index.IndexValue;
import com.multikey.index.definition.IndexDefinitions;
import com.multikey.testkit.IssueFixtures;
import com.multikey.testkit.LocalTables;
import com.multikey.testkit.LocalTablesExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Backfill, verify and repair against the embedded DynamoDB engine with the template's tables. */
@ExtendWith(LocalTablesExtension.class)
class ReindexIntegrationTest {

    private static final IndexScope CONFIG = IndexScope.all(IndexDefinitions.packaged());
    private final DynamoDbClient dynamoDb;

    ReindexIntegrationTest(LocalTables tables) {
        this.dynamoDb = tables.dynamoDb();
    }

    private void populate(int issues, Random random) {
        IssueFixtures.putRandomIssues(dynamoDb, "AppTable", issues, random);
        dynamoDb.putItem(b -> b.tableName("AppTable").item(Map.of("id", AttributeValue.fromS("project#0"),
                "name", AttributeValue.fromS("not an issue"))));
    }

    private Set<Map<String, AttributeValue>> index() {
        return IssueFixtures.storedIndex(dynamoDb, "IssueAttribIndexTable");
    }

    private Set<Map<String, AttributeValue>> expected() {
        return IssueFixtures.expectedIndex(dynamoDb, "AppTable", CONFIG.definitions());
    }

    private Backfill backfill() {
        return new Backfill(dynamoDb, "AppTable", "IssueAttribIndexTable", CONFIG, 100_000);
    }

    private Verifier verifier() {
        return new Verifier(dynamoDb, "AppTable", "IssueAttribIndexTable", CONFIG);
    }

    @Test
    void backfill_ofATablePopulatedBeforeTheStream_buildsTheWholeIndex_withProgress(@TempDir Path dir) throws Exception {
        populate(300, new Random(1));
        List<Backfill.Progress> progress = new ArrayList<>();

        Backfill.Progress done = backfill().run(CheckpointStore.open(dir.resolve("checkpoint.json"), 4), 4, progress::add,
                Duration.ofMillis(200));

        assertThat(index()).isEqualTo(expected()).hasSizeGreaterThan(150);
        assertThat(done.itemsScanned()).isEqualTo(301);
        assertThat(done.itemsTotal()).as("the engine's item count is current").isEqualTo(301);
        assertThat(done.itemsIndexed()).isEqualTo(300);
        assertThat(done.itemsPerSecond()).isPositive();
        assertThat(progress).isNotEmpty();
        assertThat(CheckpointStore.open(dir.resolve("checkpoint.json"), 4).allDone()).isTrue();
        assertThat(verifier().verify(false).clean()).isTrue();
    }

    @Test
    void backfill_resumesFromItsCheckpoints(@TempDir Path dir) throws Exception {
        populate(120, new Random(2));
        Path file = dir.resolve("checkpoint.json");
        CheckpointStore interrupted = CheckpointStore.open(file, 3);
        interrupted.save(1, new CheckpointStore.Position(true, Map.of()));

        backfill().run(CheckpointStore.open(file, 3), 3, p -> { }, Duration.ofSeconds(1));
        Verifier.Report partial = verifier().verify(false);

        assertThat(partial.missingCount()).as("segment 1 was recorded as done, so it was not scanned again").isPositive();
        Files.delete(file);
        backfill().run(CheckpointStore.open(file, 3), 3, p -> { }, Duration.ofSeconds(1));
        assertThat(verifier().verify(false).clean()).isTrue();
        assertThatThrownBy(() -> CheckpointStore.open(file, 5)).hasMessageContaining("is for 3 segments, not 5");
    }

    @Test
    void checkpoint_keepsStartKeysOfEveryKeyType(@TempDir Path dir) {
        Path file = dir.resolve("checkpoint.json");
        Map<String, AttributeValue> key = Map.of("s", AttributeValue.fromS("issue#1"), "n", AttributeValue.fromN("-12.5"),
                "b", AttributeValue.fromB(software.amazon.awssdk.core.SdkBytes.fromByteArray(new byte[] {0, 1, (byte) 255})));
        CheckpointStore.open(file, 2).save(1, new CheckpointStore.Position(false, key));

        assertThat(CheckpointStore.open(file, 2).position(1)).isEqualTo(new CheckpointStore.Position(false, key));
    }

    @Test
    void verify_findsMissingStaleAndOrphanedItems_andRepairFixesThem(@TempDir Path dir) throws Exception {
        populate(80, new Random(3));
        backfill().run(CheckpointStore.open(null, 2), 2, p -> { }, Duration.ofSeconds(1));
        List<IndexItem> items = new ArrayList<>(IssueFixtures.expectedItems(dynamoDb, "AppTable", CONFIG.definitions()));
        items.sort(java.util.Comparator.comparing(IndexItem::sortKey));
        IndexItem removed = items.get(0);
        IndexItem changed = items.get(1);
        dynamoDb.deleteItem(b -> b.tableName("IssueAttribIndexTable").key(removed.key().toKey()));
        Map<String, AttributeValue> wrongProject = new LinkedHashMap<>(changed.toItem());
        wrongProject.put("project", AttributeValue.fromS("project#elsewhere"));
        dynamoDb.putItem(b -> b.tableName("IssueAttribIndexTable").item(wrongProject));
        IndexItem orphan = IndexItem.of("f1", new IndexValue.Text("ghost"), "issue#gone", "project#0", BigDecimal.ONE);
        IndexItem extra = IndexItem.of("f9", new IndexValue.Text("extra"), "issue#5", "project#2", BigDecimal.valueOf(5));
        dynamoDb.putItem(b -> b.tableName("IssueAttribIndexTable").item(orphan.toItem()));
        dynamoDb.putItem(b -> b.tableName("IssueAttribIndexTable").item(extra.toItem()));

        List<PageCounts> pages = java.util.Collections.synchronizedList(new ArrayList<>());
        Verifier.Report found = verifier().verify(true, 2, 1e9, pages::add);

        assertThat(found.missingCount()).isEqualTo(1);
        assertThat(found.missing()).containsExactly(new Verifier.Discrepancy(removed.itemKeyText(), removed.key()));
        assertThat(found.staleCount()).isEqualTo(2);
        assertThat(found.stale()).containsExactlyInAnyOrder(new Verifier.Discrepancy(changed.itemKeyText(), changed.key()),
                new Verifier.Discrepancy("issue#5", extra.key()));
        assertThat(found.orphanedCount()).isEqualTo(1);
        assertThat(found.orphaned()).containsExactly(new Verifier.Discrepancy("issue#gone", orphan.key()));
        Set<String> wrongIssues = new HashSet<>();
        java.util.stream.Stream.of(found.missing(), found.stale(), found.orphaned()).flatMap(List::stream)
                .forEach(d -> wrongIssues.add(d.itemKey()));
        assertThat(found.repairedItems()).as("one conditional write per wrong issue on each side it was found from")
                .isBetween((long) wrongIssues.size(), 4L);
        PageCounts summed = pages.stream().reduce(PageCounts.NONE, PageCounts::plus);
        assertThat(summed.items()).as("every page of both tables told").isEqualTo(81 + found.indexItems());
        assertThat(summed.drift()).isEqualTo(4);
        assertThat(verifier().verify(false).clean()).isTrue();
        assertThat(index()).isEqualTo(expected());
    }
}

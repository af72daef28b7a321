package com.multikey.reindex;

import com.multikey.index.IndexItem;
import com.multikey.index.IndexKey;
import com.multikey.index.definition.DefinitionsYaml;
import com.multikey.index.definition.IndexDefinitions;
import com.multikey.testkit.IssueFixtures;
import com.multikey.testkit.LocalTables;
import com.multikey.testkit.LocalTablesExtension;
import com.multikey.testkit.SingleTableFixtures;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Backfill, verify, repair and removal of declared indexes over a single-table design (pk/sk; projects, issues and
 * layer versions; the example definitions), on the local DynamoDB engine: every index or one at a time.
 */
@ExtendWith(LocalTablesExtension.class)
class DeclaredIndexesReindexIntegrationTest {

    private static final Path EXAMPLE = Path.of("..", "examples", "single-table", "index-definitions.yaml");
    private static final String TABLE = "Items";
    private static final String INDEX = "IssueAttribIndexTable";
    private final DynamoDbClient dynamoDb;
    private IndexDefinitions definitions;

    DeclaredIndexesReindexIntegrationTest(LocalTables tables) {
        this.dynamoDb = tables.dynamoDb();
    }

    @BeforeEach
    void createTable() {
        definitions = DefinitionsYaml.read(EXAMPLE);
        if (!dynamoDb.listTables().tableNames().contains(TABLE)) {
            dynamoDb.createTable(b -> b.tableName(TABLE).billingMode(BillingMode.PAY_PER_REQUEST)
                    .attributeDefinitions(a -> a.attributeName("pk").attributeType(ScalarAttributeType.S),
                            a -> a.attributeName("sk").attributeType(ScalarAttributeType.S))
                    .keySchema(k -> k.attributeName("pk").keyType(KeyType.HASH), k -> k.attributeName("sk").keyType(KeyType.RANGE)));
        }
        for (int p = 0; p < 3; p++) {
            put(Map.of("pk", s("PROJECT#p" + p), "sk", s("PROJECT#p" + p), "name", s("project " + p)));
            for (int i = 1; i <= 12; i++) {
                Map<String, AttributeValue> issue = new LinkedHashMap<>();
                issue.put("pk", s("PROJECT#p" + p));
                issue.put("sk", s("ISSUE#" + i));
                issue.put("num", AttributeValue.fromN(Integer.toString(i)));
                issue.put("title", s("issue " + i));
                issue.put("state", s(i % 2 == 0 ? "open" : "closed"));
                issue.put("cf", AttributeValue.fromM(Map.of("prio", AttributeValue.fromN(Integer.toString(i % 4)),
                        "due", s("2026-0" + (1 + i % 9) + "-01"))));
                issue.put("labels", AttributeValue.fromL(List.of(s("l" + i % 3), s("l" + i % 5))));
                put(issue);
            }
        }
        for (int v = 0; v < 10; v++) {
            put(SingleTableFixtures.layerVersion(v, v >= 7 ? (v == 9 ? "latest" : "deprecated") : null));
        }
    }

    private void put(Map<String, AttributeValue> item) {
        dynamoDb.putItem(b -> b.tableName(TABLE).item(item));
    }

    private Set<Map<String, AttributeValue>> stored() {
        return IssueFixtures.storedIndex(dynamoDb, INDEX);
    }

    private Set<Map<String, AttributeValue>> expected(IndexDefinitions defs) {
        return IssueFixtures.expectedIndex(dynamoDb, TABLE, defs);
    }

    private Set<Map<String, AttributeValue>> expectedOf(String index) {
        return expected(definitions).stream().filter(item -> index.equals(item.get(IndexItem.INDEX).s())).collect(Collectors.toSet());
    }

    private Backfill backfill(Optional<String> index) {
        return new Backfill(dynamoDb, TABLE, INDEX, IndexScope.of(definitions, index), 100_000);
    }

    private Verifier verifier(Optional<String> index) {
        return new Verifier(dynamoDb, TABLE, INDEX, IndexScope.of(definitions, index));
    }

    @Test
    void backfill_ofEveryIndex_buildsWhatTheTableImplies_andVerifyFindsNoDrift() throws Exception {
        backfill(Optional.empty()).run(CheckpointStore.open(null, 3), 3, p -> { }, java.time.Duration.ofSeconds(1));

        assertThat(stored()).isEqualTo(expected(definitions));
        assertThat(stored()).extracting(item -> item.get(IndexItem.INDEX).s()).containsOnly(
                "issue-fields", "issue-labels", "layers-by-package", "layers-by-region");
        assertThat(expectedOf("layers-by-package")).hasSize(3);
        assertThat(verifier(Optional.empty()).verify(false).clean()).isTrue();
    }

    @Test
    void backfill_ofOneIndex_writesThatIndexAlone_andVerifyOfTheOthersFindsThemMissing() throws Exception {
        backfill(Optional.of("layers-by-package")).run(CheckpointStore.open(null, 2), 2, p -> { }, java.time.Duration.ofSeconds(1));

        assertThat(stored()).isEqualTo(expectedOf("layers-by-package"));
        assertThat(verifier(Optional.of("layers-by-package")).verify(false).clean()).isTrue();
        Verifier.Report all = verifier(Optional.empty()).verify(false);
        assertThat(all.missingCount()).isEqualTo(expected(definitions).size() - expectedOf("layers-by-package").size());
        assertThat(all.staleCount() + all.orphanedCount()).isZero();
    }

    @Test
    void verify_ofOneIndex_seesOnlyItsOwnDrift_andRepairOfAllFixesEveryKind() throws Exception {
        backfill(Optional.empty()).run(CheckpointStore.open(null, 2), 2, p -> { }, java.time.Duration.ofSeconds(1));
        Map<String, AttributeValue> fieldItem = expectedOf("issue-fields").iterator().next();
        dynamoDb.deleteItem(b -> b.tableName(INDEX).key(IndexKey.of(fieldItem).toKey()));
        Map<String, AttributeValue> layerItem = new HashMap<>(expectedOf("layers-by-package").iterator().next());
        layerItem.put("attrs", AttributeValue.fromM(Map.of("arn", s("arn:edited"))));
        dynamoDb.putItem(b -> b.tableName(INDEX).item(layerItem));
        Map<String, AttributeValue> orphan = new HashMap<>(expectedOf("issue-labels").iterator().next());
        orphan.put("sortKey", s(orphan.get("sortKey").s() + "9"));
        orphan.put("itemKey", AttributeValue.fromM(Map.of("pk", s("PROJECT#p9"), "sk", s("ISSUE#999"))));
        dynamoDb.putItem(b -> b.tableName(INDEX).item(orphan));

        Verifier.Report fields = verifier(Optional.of("issue-fields")).verify(false);
        Verifier.Report all = verifier(Optional.empty()).verify(false);
        Verifier.Report repaired = verifier(Optional.empty()).verify(true);

        assertThat(List.of(fields.missingCount(), fields.staleCount(), fields.orphanedCount())).containsExactly(1L, 0L, 0L);
        assertThat(List.of(all.missingCount(), all.staleCount(), all.orphanedCount())).containsExactly(1L, 1L, 1L);
        assertThat(repaired.repairedItems()).isPositive();
        assertThat(stored()).isEqualTo(expected(definitions));
    }

    @Test
    void removal_ofAnIndexNoLongerDeclared_deletesExactlyItsItems_andIsIdempotent() throws Exception {
        backfill(Optional.empty()).run(CheckpointStore.open(null, 2), 2, p -> { }, java.time.Duration.ofSeconds(1));
        String text = Files.readString(EXAMPLE);
        IndexDefinitions without = DefinitionsYaml.parse(text.substring(0, text.indexOf("  # Active layer versions in a region")));
        int removedItems = expectedOf("layers-by-region").size();

        assertThatThrownBy(() -> new IndexRemoval(dynamoDb, INDEX, definitions, "layers-by-region", 1000, 10))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("still declared");
        long first = remove(without, "layers-by-region");
        long second = remove(without, "layers-by-region");

        assertThat(removedItems).isPositive();
        assertThat(first).isEqualTo(removedItems);
        assertThat(second).isZero();
        assertThat(stored()).isEqualTo(expected(without));
    }

    private long remove(IndexDefinitions defs, String index) throws InterruptedException {
        IndexRemoval removal = new IndexRemoval(dynamoDb, INDEX, defs, index, 100_000, 7);
        long deleted = 0;
        for (int segment = 0; segment < 3; segment++) {
            for (SegmentPosition at = SegmentPosition.START; !at.done(); ) {
                PageOutcome page = removal.page(segment, 3, at);
                deleted += page.counts().writes();
                at = page.next();
            }
        }
        return deleted;
    }

    private static AttributeValue s(String value) {
        return AttributeValue.fromS(value);
    }
}

package com.multikey.reindex;

import com.multikey.index.IndexItem;
import com.multikey.index.IndexKey;
import com.multikey.index.definition.DefinitionsYaml;
import com.multikey.index.definition.IndexDefinitions;
import com.multikey.testkit.IssueFixtures;
import com.multikey.testkit.LocalTables;
import com.multikey.testkit.LocalTablesExtension;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Backfill, verify and repair of a words index on the local DynamoDB engine: the backfill writes an index item per distinct
 * word of each title, as the indexer's projection does; verify sees a word gone missing, a word no title holds any more and
 * a stale copy, and repair leaves the index exactly the titles' words.
 */
@ExtendWith(LocalTablesExtension.class)
class WordsIndexReindexIntegrationTest {

    private static final String TABLE = "Titles";
    private static final String INDEX = "IssueAttribIndexTable";
    private static final IndexDefinitions DEFINITIONS = DefinitionsYaml.parse("""
            version: 1
            table: {partitionKey: {name: pk, type: S}, sortKey: {name: sk, type: S}}
            indexes:
              - name: title-words
                covers: [{attribute: sk, beginsWith: "ISSUE#"}]
                group: pk
                values: {wordsOf: title}
                orderBy: num
                projection: [state]
            """);
    private final DynamoDbClient dynamoDb;

    WordsIndexReindexIntegrationTest(LocalTables tables) {
        this.dynamoDb = tables.dynamoDb();
    }

    @BeforeEach
    void createTable() {
        if (!dynamoDb.listTables().tableNames().contains(TABLE)) {
            dynamoDb.createTable(b -> b.tableName(TABLE).billingMode(BillingMode.PAY_PER_REQUEST)
                    .attributeDefinitions(a -> a.attributeName("pk").attributeType(ScalarAttributeType.S),
                            a -> a.attributeName("sk").attributeType(ScalarAttributeType.S))
                    .keySchema(k -> k.attributeName("pk").keyType(KeyType.HASH), k -> k.attributeName("sk").keyType(KeyType.RANGE)));
        }
        String[] titles = {"Fix the timeout", "Timeout, TIMEOUT and a timer", "db: don't time out", "Café crash", "--"};
        for (int p = 0; p < 2; p++) {
            for (int i = 1; i <= 15; i++) {
                Map<String, AttributeValue> issue = new LinkedHashMap<>();
                issue.put("pk", s("PROJECT#p" + p));
                issue.put("sk", s("ISSUE#" + i));
                issue.put("num", AttributeValue.fromN(Integer.toString(i)));
                issue.put("title", s(titles[i % titles.length] + " " + i));
                issue.put("state", s(i % 2 == 0 ? "open" : "closed"));
                dynamoDb.putItem(b -> b.tableName(TABLE).item(issue));
            }
        }
    }

    private Set<Map<String, AttributeValue>> stored() {
        return IssueFixtures.storedIndex(dynamoDb, INDEX);
    }

    private Set<Map<String, AttributeValue>> expected() {
        return IssueFixtures.expectedIndex(dynamoDb, TABLE, DEFINITIONS);
    }

    private Verifier verifier() {
        return new Verifier(dynamoDb, TABLE, INDEX, IndexScope.of(DEFINITIONS, Optional.empty()));
    }

    @Test
    void backfill_writesEachTitlesWords_andRepairFixesAWordMissingStaleOrGone() throws Exception {
        // given: the backfill of the words index
        new Backfill(dynamoDb, TABLE, INDEX, IndexScope.of(DEFINITIONS, Optional.empty()), 100_000)
                .run(CheckpointStore.open(null, 2), 2, p -> { }, Duration.ofSeconds(1));
        assertThat(stored()).isEqualTo(expected());
        // "Timeout, TIMEOUT and a timer 1": timeout, and, a, timer, 1
        assertThat(stored()).filteredOn(item -> item.get(IndexKey.ATTRIB_ID).s().equals("title-words|PROJECT#p0")
                && item.get(IndexItem.ITEM_KEY).m().get("sk").s().equals("ISSUE#1")).hasSize(5);
        assertThat(verifier().verify(false).clean()).isTrue();

        // when: a word's item is deleted, another's projection goes stale, and a title changes without the indexer
        Set<Map<String, AttributeValue>> p0 = expected().stream()
                .filter(item -> item.get(IndexKey.ATTRIB_ID).s().equals("title-words|PROJECT#p0")).collect(java.util.stream.Collectors.toSet());
        Map<String, AttributeValue> word = p0.iterator().next();
        dynamoDb.deleteItem(b -> b.tableName(INDEX).key(IndexKey.of(word).toKey()));
        Map<String, AttributeValue> stale = new HashMap<>(p0.stream().filter(item -> !item.equals(word)).findFirst().orElseThrow());
        stale.put(IndexItem.ATTRS, AttributeValue.fromM(Map.of("state", s("edited"))));
        dynamoDb.putItem(b -> b.tableName(INDEX).item(stale));
        dynamoDb.updateItem(b -> b.tableName(TABLE).key(Map.of("pk", s("PROJECT#p1"), "sk", s("ISSUE#3")))
                .updateExpression("SET title = :t").expressionAttributeValues(Map.of(":t", s("Segfault in login"))));

        // then: verify sees each, and repair leaves the index exactly the titles' words
        Verifier.Report report = verifier().verify(false);
        // missing: the deleted word, and segfault, in, login; stale: the edited copy, and café, crash, 3 of the old title
        // "Café crash 3" (index items its existing item no longer implies); orphaned: none (every source item exists)
        assertThat(report.missingCount()).isEqualTo(1 + 3);
        assertThat(report.staleCount()).isEqualTo(1 + 3);
        assertThat(report.orphanedCount()).isZero();
        verifier().verify(true);
        assertThat(stored()).isEqualTo(expected());
        assertThat(verifier().verify(false).clean()).isTrue();
    }

    private static AttributeValue s(String value) {
        return AttributeValue.fromS(value);
    }
}

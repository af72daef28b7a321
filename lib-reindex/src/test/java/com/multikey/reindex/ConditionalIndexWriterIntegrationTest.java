package com.multikey.reindex;

import com.multikey.index.IndexChange;
import com.multikey.index.IndexItem;
import com.multikey.index.ItemKey;
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
import software.amazon.awssdk.services.dynamodb.model.ConditionCheck;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The conditional writes on a table keyed pk and sk (N or B), where the items of one partition differ by their sort
 * key alone: a write is conditioned on its own item, by every key attribute, never on a neighbour in its partition.
 */
@ExtendWith(LocalTablesExtension.class)
class ConditionalIndexWriterIntegrationTest {

    private final DynamoDbClient dynamoDb;

    ConditionalIndexWriterIntegrationTest(LocalTables tables) {
        this.dynamoDb = tables.dynamoDb();
    }

    private ConditionalIndexWriter writer(IndexDefinitions definitions) {
        return new ConditionalIndexWriter(dynamoDb, SortKeyedTable.TABLE, SortKeyedTable.INDEX_TABLE, IndexScope.all(definitions));
    }

    private static ItemKey key(KeyType type, int project, int n) {
        return new ItemKey(SortKeyedTable.issueKey(type, project, n));
    }

    private static List<IndexChange> puts(IndexDefinitions definitions, ItemKey key, Map<String, AttributeValue> version) {
        return IndexScope.all(definitions).project(key, version).items().stream().<IndexChange>map(IndexChange.Put::new).toList();
    }

    private Set<Map<String, AttributeValue>> storedOf(ItemKey key) {
        return IssueFixtures.storedIndex(dynamoDb, SortKeyedTable.INDEX_TABLE).stream()
                .filter(item -> key.toKey().equals(item.get(IndexItem.ITEM_KEY).m())).collect(Collectors.toSet());
    }

    @ParameterizedTest
    @EnumSource(value = KeyType.class, names = {"N", "B"})
    void condition_onAnItem_namesEveryKeyAttribute_presentWhenReadAndAbsentWhenReadAsAbsent(KeyType type) {
        // given
        ConditionalIndexWriter writer = new ConditionalIndexWriter(null, SortKeyedTable.TABLE, SortKeyedTable.INDEX_TABLE,
                IndexScope.all(SortKeyedTable.definitions(type)));
        ItemKey key = key(type, 0, 1);

        // when
        ConditionCheck read = writer.condition(key, SortKeyedTable.issue(type, 0, 1));
        ConditionCheck absent = writer.condition(key, null);

        // then
        for (ConditionCheck check : List.of(read, absent)) {
            assertThat(check.key()).isEqualTo(key.toKey());
            assertThat(check.expressionAttributeNames()).containsValues("pk", "sk");
        }
        assertThat(read.conditionExpression()).contains(exists("attribute_exists", read, "pk"), exists("attribute_exists", read, "sk"));
        assertThat(absent.conditionExpression()).isEqualTo(exists("attribute_not_exists", absent, "pk") + " AND "
                + exists("attribute_not_exists", absent, "sk"));
    }

    private static String exists(String function, ConditionCheck check, String attribute) {
        String placeholder = check.expressionAttributeNames().entrySet().stream().filter(e -> e.getValue().equals(attribute))
                .map(Map.Entry::getKey).findFirst().orElseThrow();
        return function + "(" + placeholder + ")";
    }

    @ParameterizedTest
    @EnumSource(value = KeyType.class, names = {"N", "B"})
    void write_whenAnotherItemOfItsPartitionChangedSinceTheRead_writes(KeyType type) {
        // given
        IndexDefinitions definitions = SortKeyedTable.definitions(type);
        SortKeyedTable.create(dynamoDb, type);
        ItemKey key = key(type, 0, 1);
        Map<String, AttributeValue> version = writer(definitions).currentVersion(key);
        Map<String, AttributeValue> neighbour = new java.util.HashMap<>(SortKeyedTable.issue(type, 0, 2));
        neighbour.put("title", SortKeyedTable.s("edited"));
        SortKeyedTable.put(dynamoDb, neighbour);

        // when
        ConditionalIndexWriter.Outcome outcome = writer(definitions).write(key, version, puts(definitions, key, version));

        // then
        assertThat(outcome).isEqualTo(ConditionalIndexWriter.Outcome.WRITTEN);
        assertThat(storedOf(key)).isNotEmpty().isEqualTo(puts(definitions, key, version).stream()
                .map(change -> ((IndexChange.Put) change).item().toItem()).collect(Collectors.toSet()));
    }

    @ParameterizedTest
    @EnumSource(value = KeyType.class, names = {"N", "B"})
    void write_whenTheItemItselfChangedSinceTheRead_findsItChanged_andWritesNothing(KeyType type) {
        // given
        IndexDefinitions definitions = SortKeyedTable.definitions(type);
        SortKeyedTable.create(dynamoDb, type);
        ItemKey key = key(type, 1, 3);
        Map<String, AttributeValue> version = writer(definitions).currentVersion(key);
        Map<String, AttributeValue> changed = new java.util.HashMap<>(version);
        changed.put("labels", AttributeValue.fromL(List.of(SortKeyedTable.s("other"))));
        SortKeyedTable.put(dynamoDb, changed);

        // when
        ConditionalIndexWriter.Outcome outcome = writer(definitions).write(key, version, puts(definitions, key, version));

        // then
        assertThat(outcome).isEqualTo(ConditionalIndexWriter.Outcome.ITEM_CHANGED);
        assertThat(storedOf(key)).isEmpty();
    }

    @ParameterizedTest
    @EnumSource(value = KeyType.class, names = {"N", "B"})
    void write_forAnItemReadAsAbsent_writesWhileOnlyItsNeighboursExist_andFindsItChangedOnceItExists(KeyType type) {
        // given: the partition holds issues 1..9, not issue 42
        IndexDefinitions definitions = SortKeyedTable.definitions(type);
        SortKeyedTable.create(dynamoDb, type);
        ItemKey absent = key(type, 0, 42);
        List<IndexChange> someChanges = puts(definitions, absent, SortKeyedTable.issue(type, 0, 42));

        // when
        ConditionalIndexWriter.Outcome whileAbsent = writer(definitions).write(absent, null, someChanges);
        SortKeyedTable.put(dynamoDb, SortKeyedTable.issue(type, 0, 42));
        ConditionalIndexWriter.Outcome onceItExists = writer(definitions).write(absent, null, someChanges);

        // then
        assertThat(whileAbsent).isEqualTo(ConditionalIndexWriter.Outcome.WRITTEN);
        assertThat(onceItExists).isEqualTo(ConditionalIndexWriter.Outcome.ITEM_CHANGED);
    }

    @ParameterizedTest
    @EnumSource(value = KeyType.class, names = {"N"})
    void write_whenAnItemsIndexItemsTogetherPassATransactionsFourMegabytes_writesThemAll(KeyType type) {
        // given: 99 custom fields, each index item carrying a copy of a 60 KB title (the projection): about 6 MB of
        // index items for one source item of about 62 KB, more than one TransactWriteItems call may carry (4 MB)
        IndexDefinitions definitions = SortKeyedTable.definitions(type, List.of(SortKeyedTable.ISSUE_FIELDS));
        SortKeyedTable.create(dynamoDb, type);
        Map<String, AttributeValue> issue = new java.util.LinkedHashMap<>(SortKeyedTable.issue(type, 0, 1));
        issue.put("title", SortKeyedTable.s("t".repeat(60 * 1024)));
        Map<String, AttributeValue> fields = new java.util.LinkedHashMap<>();
        for (int f = 0; f < 99; f++) {
            fields.put("f" + f, AttributeValue.fromN(Integer.toString(f)));
        }
        issue.put("cf", AttributeValue.fromM(fields));
        SortKeyedTable.put(dynamoDb, issue);
        ItemKey key = key(type, 0, 1);
        Map<String, AttributeValue> version = writer(definitions).currentVersion(key);
        List<IndexChange> changes = puts(definitions, key, version);
        assertThat(changes).hasSize(99);

        // when
        ConditionalIndexWriter.Outcome outcome = writer(definitions).write(key, version, changes);

        // then
        assertThat(outcome).isEqualTo(ConditionalIndexWriter.Outcome.WRITTEN);
        assertThat(storedOf(key)).hasSize(99);
    }
}

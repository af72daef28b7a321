package com.multikey.testkit;

import com.multikey.index.GridLayoutStore;
import com.multikey.index.IndexItem;
import com.multikey.index.IndexProjector;
import com.multikey.index.definition.IndexDefinitions;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.time.Duration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/** Random issues, and the index a table holds or implies, for tests of the index on the local DynamoDB engine. */
public final class IssueFixtures {

    private IssueFixtures() {
    }

    /** An issue with {@code fieldCount} random custom fields (numbers, strings, string sets) in one of three projects. */
    public static Map<String, AttributeValue> randomIssue(String id, int num, Random random, int fieldCount) {
        Map<String, AttributeValue> fields = new LinkedHashMap<>();
        for (int f = 0; f < fieldCount; f++) {
            fields.put("f" + f, switch (random.nextInt(3)) {
                case 0 -> AttributeValue.fromN(Integer.toString(random.nextInt(1000)));
                case 1 -> AttributeValue.fromS("v" + random.nextInt(50));
                default -> AttributeValue.fromSs(List.of("a" + random.nextInt(3), "b" + random.nextInt(3)));
            });
        }
        return Map.of("id", AttributeValue.fromS(id), "project", AttributeValue.fromS("project#" + (num % 3)),
                "num", AttributeValue.fromN(Integer.toString(num)), "custom_fields", AttributeValue.fromM(fields));
    }

    /**
     * Writes issues {@code issue#0} to {@code issue#<count-1>} to the app table with {@link #randomIssue}: the
     * first with 150 fields, the others with up to 5.
     */
    public static void putRandomIssues(DynamoDbClient dynamoDb, String appTable, int count, Random random) {
        for (int i = 0; i < count; i++) {
            Map<String, AttributeValue> item = randomIssue("issue#" + i, i, random, i == 0 ? 150 : random.nextInt(6));
            dynamoDb.putItem(b -> b.tableName(appTable).item(item));
        }
    }

    /**
     * The index table's index items, numbers spelled as the model spells them ({@link IndexItem#normalized}); not the
     * grid layout's control item ({@link GridLayoutStore}).
     */
    public static Set<Map<String, AttributeValue>> storedIndex(DynamoDbClient dynamoDb, String indexTable) {
        Set<Map<String, AttributeValue>> items = new HashSet<>();
        dynamoDb.scanPaginator(b -> b.tableName(indexTable)).items().forEach(i -> {
            if (!GridLayoutStore.isControl(i)) {
                items.add(IndexItem.normalized(i));
            }
        });
        return items;
    }

    /**
     * The packaged definitions in the grid layout state the stack recorded in its index table (a new stack, whose
     * first function found the table empty: grouped), as its functions run them.
     */
    public static IndexDefinitions recorded(DynamoDbClient dynamoDb, String indexTable) {
        return new GridLayoutStore(dynamoDb, indexTable, IndexDefinitions.packaged(), false, Duration.ZERO, System::nanoTime).current();
    }

    /** The index items the app table's items imply under the definitions (a rebuild from the table). */
    public static Set<Map<String, AttributeValue>> expectedIndex(DynamoDbClient dynamoDb, String appTable, IndexDefinitions definitions) {
        IndexProjector projector = new IndexProjector(definitions);
        Set<Map<String, AttributeValue>> items = new HashSet<>();
        dynamoDb.scanPaginator(b -> b.tableName(appTable)).items().forEach(item -> projector.keyOf(item)
                .ifPresent(key -> projector.project(key, item).items().forEach(i -> items.add(i.toItem()))));
        return items;
    }

    /** The index items (as the model holds them) the app table's items imply under the definitions. */
    public static Set<IndexItem> expectedItems(DynamoDbClient dynamoDb, String appTable, IndexDefinitions definitions) {
        IndexProjector projector = new IndexProjector(definitions);
        Set<IndexItem> items = new HashSet<>();
        dynamoDb.scanPaginator(b -> b.tableName(appTable)).items().forEach(item -> projector.keyOf(item)
                .ifPresent(key -> items.addAll(projector.project(key, item).items())));
        return items;
    }

    /** The index the app table implies under the packaged (default) definitions. */
    public static Set<Map<String, AttributeValue>> expectedIndex(DynamoDbClient dynamoDb, String appTable) {
        return expectedIndex(dynamoDb, appTable, IndexDefinitions.packaged());
    }
}

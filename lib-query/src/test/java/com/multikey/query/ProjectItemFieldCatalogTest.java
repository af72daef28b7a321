package com.multikey.query;

import com.multikey.testkit.LocalTables;
import com.multikey.testkit.LocalTablesExtension;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/** The catalog over a table whose key attribute is not {@code id}, on a clock the test moves. */
class ProjectItemFieldCatalogTest {

    @RegisterExtension
    static final LocalTablesExtension TABLES = LocalTablesExtension.createdOnce();
    private static DynamoDbClient dynamoDb;

    @BeforeAll
    static void createItemsTable(LocalTables tables) {
        dynamoDb = tables.dynamoDb();
        dynamoDb.createTable(b -> b.tableName("Items").billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(d -> d.attributeName("pk").attributeType(ScalarAttributeType.S))
                .keySchema(k -> k.attributeName("pk").keyType(KeyType.HASH)));
    }

    private static void defines(String project, String... attribIds) {
        Map<String, AttributeValue> attributes = new java.util.HashMap<>();
        for (String id : attribIds) {
            attributes.put(id, AttributeValue.fromM(Map.of()));
        }
        dynamoDb.putItem(b -> b.tableName("Items").item(Map.of("pk", AttributeValue.fromS(project),
                "attributes", AttributeValue.fromM(attributes))));
    }

    @Test
    void defines_readsTheProjectItemByTheConfiguredKey_keepsItForTheTtl_andLooksAgainOnAnUnknownId() {
        defines("project#a", "f1", "f2");
        AtomicLong now = new AtomicLong();
        RecordingDynamoDbClient client = new RecordingDynamoDbClient(dynamoDb);
        ProjectItemFieldCatalog catalog = new ProjectItemFieldCatalog(client, "Items", "pk", Duration.ofSeconds(60), now::get);

        assertThat(catalog.defines("project#a", "f1")).isTrue();
        assertThat(catalog.defines("project#a", "f2")).isTrue();
        assertThat(client.requestsOf(GetItemRequest.class)).hasSize(1)
                .allSatisfy(get -> assertThat(get.key()).containsOnlyKeys("pk"));

        defines("project#a", "f1", "f3");
        assertThat(catalog.defines("project#a", "f3")).as("added field, looked up again at once").isTrue();
        assertThat(catalog.defines("project#a", "nope")).isFalse();
        assertThat(client.requestsOf(GetItemRequest.class)).hasSize(3);

        defines("project#a", "f3");
        assertThat(catalog.defines("project#a", "f1")).as("removed field, within the TTL").isTrue();
        assertThat(client.requestsOf(GetItemRequest.class)).hasSize(3);
        now.addAndGet(Duration.ofSeconds(61).toNanos());
        assertThat(catalog.defines("project#a", "f1")).as("removed field, after the TTL").isFalse();
        assertThat(client.requestsOf(GetItemRequest.class)).hasSize(4);
    }

    @Test
    void defines_whenTheProjectHasNoItemOrNoAttributesMap_acceptsEveryId() {
        dynamoDb.putItem(b -> b.tableName("Items").item(Map.of("pk", AttributeValue.fromS("project#plain"))));
        ProjectItemFieldCatalog catalog = new ProjectItemFieldCatalog(dynamoDb, "Items", "pk", Duration.ofSeconds(60), System::nanoTime);

        assertThat(catalog.defines("project#none", "anything")).isTrue();
        assertThat(catalog.defines("project#plain", "anything")).isTrue();
    }
}

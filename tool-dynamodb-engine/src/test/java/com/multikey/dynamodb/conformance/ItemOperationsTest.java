package com.multikey.dynamodb.conformance;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;

import java.util.List;
import java.util.Map;

import static com.multikey.dynamodb.conformance.Errors.expect;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * PutItem, GetItem, UpdateItem and DeleteItem, written from the API reference
 * (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_PutItem.html, API_GetItem.html,
 * API_UpdateItem.html, API_DeleteItem.html) and the item and key limits of
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html.
 */
class ItemOperationsTest extends EngineTestSupport {

    @Test
    void putItem_everyType_readBackEqual() {
        // given
        String table = hashTable();
        Map<String, AttributeValue> item = Map.ofEntries(
                Map.entry("id", s("all-types")),
                Map.entry("s", s("text ü 𝄞")), Map.entry("empty", s("")), Map.entry("n", n("-12.5")),
                Map.entry("b", AttributeValue.fromB(SdkBytes.fromByteArray(new byte[] {0, -1, 2}))),
                Map.entry("bool", AttributeValue.fromBool(true)), Map.entry("nul", AttributeValue.fromNul(true)),
                Map.entry("l", AttributeValue.fromL(List.of(s("x"), n("1")))),
                Map.entry("m", AttributeValue.fromM(Map.of("inner", AttributeValue.fromM(Map.of("deep", n("3")))))),
                Map.entry("ss", AttributeValue.fromSs(List.of("a", "b"))), Map.entry("ns", AttributeValue.fromNs(List.of("1", "2"))),
                Map.entry("bs", AttributeValue.fromBs(List.of(SdkBytes.fromUtf8String("x")))));
        // when
        dynamoDb.putItem(b -> b.tableName(table).item(item));
        // then
        assertThat(dynamoDb.getItem(b -> b.tableName(table).key(Map.of("id", s("all-types"))).consistentRead(true)).item()).isEqualTo(item);
    }

    @Test
    void putItem_numbersNormalized_oneItemPerKeyNumber() {
        String table = rangeTable();
        dynamoDb.putItem(b -> b.tableName(table).item(Map.of("pk", s("p"), "sk", n("1"), "v", n("1.50"))));
        dynamoDb.putItem(b -> b.tableName(table).item(Map.of("pk", s("p"), "sk", n("1.0"), "v", n("2.500"))));

        var items = dynamoDb.scan(b -> b.tableName(table)).items();
        assertThat(items).containsExactly(Map.of("pk", s("p"), "sk", n("1"), "v", n("2.5")));
    }

    @Test
    void putItem_conditionFails_conditionalCheckFailedWithOldItemWhenAsked() {
        String table = hashTable();
        Map<String, AttributeValue> item = Map.of("id", s("a"), "v", n("1"));
        dynamoDb.putItem(b -> b.tableName(table).item(item));

        var error = expect(() -> dynamoDb.putItem(b -> b.tableName(table).item(Map.of("id", s("a")))
                        .conditionExpression("attribute_not_exists(id)")
                        .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)),
                ConditionalCheckFailedException.class, "The conditional request failed");
        assertThat(error.item()).isEqualTo(item);
    }

    @Test
    void putItem_returnValuesAllOld_givesTheReplacedItem() {
        String table = hashTable();
        dynamoDb.putItem(b -> b.tableName(table).item(Map.of("id", s("a"), "v", n("1"))));

        var response = dynamoDb.putItem(b -> b.tableName(table).item(Map.of("id", s("a"), "v", n("2"))).returnValues(ReturnValue.ALL_OLD));

        assertThat(response.attributes()).isEqualTo(Map.of("id", s("a"), "v", n("1")));
        expect(() -> dynamoDb.putItem(b -> b.tableName(table).item(Map.of("id", s("a"))).returnValues(ReturnValue.ALL_NEW)),
                DynamoDbException.class, "Return values set to invalid value");
    }

    @Test
    void putItem_keyProblems_validationExceptionsAsAwsWordsThem() {
        String table = hashTable();
        expect(() -> dynamoDb.putItem(b -> b.tableName(table).item(Map.of("other", s("x")))),
                DynamoDbException.class, "One or more parameter values were invalid: Missing the key id in the item");
        expect(() -> dynamoDb.putItem(b -> b.tableName(table).item(Map.of("id", n("1")))),
                DynamoDbException.class, "One or more parameter values were invalid: Type mismatch for key id expected: S actual: N");
        expect(() -> dynamoDb.putItem(b -> b.tableName(table).item(Map.of("id", s("")))),
                DynamoDbException.class, "The AttributeValue for a key attribute cannot contain an empty string value. Key: id");
        expect(() -> dynamoDb.putItem(b -> b.tableName("missing-table").item(Map.of("id", s("x")))),
                ResourceNotFoundException.class, "Requested resource not found");
    }

    @Test
    void putItem_partitionKeyOf2048Bytes_acceptedAnd2049Refused() {
        String table = hashTable();
        dynamoDb.putItem(b -> b.tableName(table).item(Map.of("id", s("k".repeat(2048)))));
        expect(() -> dynamoDb.putItem(b -> b.tableName(table).item(Map.of("id", s("k".repeat(2049))))),
                DynamoDbException.class, "Size of hashkey has exceeded the maximum size limit of 2048 bytes");
    }

    @Test
    void putItem_sortKeyOf1024Bytes_acceptedAnd1025Refused() {
        String table = uniqueName("sorted");
        dynamoDb.createTable(b -> b.tableName(table).billingMode("PAY_PER_REQUEST")
                .attributeDefinitions(attribute("pk", software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType.S),
                        attribute("sk", software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType.S))
                .keySchema(key("pk", software.amazon.awssdk.services.dynamodb.model.KeyType.HASH),
                        key("sk", software.amazon.awssdk.services.dynamodb.model.KeyType.RANGE)));
        dynamoDb.putItem(b -> b.tableName(table).item(Map.of("pk", s("p"), "sk", s("é".repeat(512)))));
        expect(() -> dynamoDb.putItem(b -> b.tableName(table).item(Map.of("pk", s("p"), "sk", s("é".repeat(512) + "x")))),
                DynamoDbException.class, "Aggregated size of all range keys has exceeded the size limit of 1024 bytes");
    }

    @Test
    void putItem_itemOf400KB_acceptedAndOneByteMoreRefused() {
        String table = hashTable();
        // the item's size is its attribute names' UTF-8 bytes plus its values': "id" + "k" + "v" + the text
        String atLimit = "x".repeat(400 * 1024 - "id".length() - 1 - "v".length());
        dynamoDb.putItem(b -> b.tableName(table).item(Map.of("id", s("k"), "v", s(atLimit))));
        expect(() -> dynamoDb.putItem(b -> b.tableName(table).item(Map.of("id", s("k"), "v", s(atLimit + "x")))),
                DynamoDbException.class, "Item size has exceeded the maximum allowed size");
    }

    @Test
    void putItem_indexKeyOfWrongType_refused_andItemWithoutIndexKeyStaysOutOfTheIndex() {
        String table = rangeTable();
        expect(() -> dynamoDb.putItem(b -> b.tableName(table).item(Map.of("pk", s("p"), "sk", n("1"), "grp", n("5"), "rank", n("1")))),
                DynamoDbException.class, "Type mismatch for Index Key grp Expected: S Actual: N IndexName: ByGroup");

        dynamoDb.putItem(b -> b.tableName(table).item(Map.of("pk", s("p"), "sk", n("1"), "grp", s("g"))));

        assertThat(dynamoDb.scan(b -> b.tableName(table).indexName("ByGroup")).count()).isZero();
    }

    @Test
    void putItem_indexKeysOf2048And1024Bytes_acceptedAndOneMoreRefused() {
        String table = rangeTable();
        dynamoDb.putItem(b -> b.tableName(table).item(Map.of("pk", s("p"), "sk", n("1"), "grp", s("g".repeat(2048)), "rank", n("1"))));
        expect(() -> dynamoDb.putItem(b -> b.tableName(table).item(Map.of("pk", s("p"), "sk", n("2"), "grp", s("g".repeat(2049))))),
                DynamoDbException.class, "Size of hashkey has exceeded the maximum size limit of 2048 bytes for index ByGroup");
    }

    @Test
    void getItem_keyNotMatchingSchema_refused_andProjectionApplied() {
        String table = hashTable();
        dynamoDb.putItem(b -> b.tableName(table).item(Map.of("id", s("a"), "x", n("1"), "y", n("2"))));

        expect(() -> dynamoDb.getItem(b -> b.tableName(table).key(Map.of("id", s("a"), "x", n("1")))),
                DynamoDbException.class, "The provided key element does not match the schema");
        expect(() -> dynamoDb.getItem(b -> b.tableName(table).key(Map.of("id", n("1")))),
                DynamoDbException.class, "The provided key element does not match the schema");
        var item = dynamoDb.getItem(b -> b.tableName(table).key(Map.of("id", s("a"))).projectionExpression("#y")
                .expressionAttributeNames(Map.of("#y", "y"))).item();
        assertThat(item).isEqualTo(Map.of("y", n("2")));
        assertThat(dynamoDb.getItem(b -> b.tableName(table).key(Map.of("id", s("none")))).hasItem()).isFalse();
    }

    @Test
    void updateItem_returnValues_asDocumented() {
        String table = hashTable();
        Map<String, AttributeValue> key = Map.of("id", s("u"));
        dynamoDb.putItem(b -> b.tableName(table).item(Map.of("id", s("u"), "a", n("1"), "b", s("keep"))));

        var updatedNew = dynamoDb.updateItem(b -> b.tableName(table).key(key).updateExpression("SET a = a + :one")
                .expressionAttributeValues(Map.of(":one", n("1"))).returnValues(ReturnValue.UPDATED_NEW));
        var updatedOld = dynamoDb.updateItem(b -> b.tableName(table).key(key).updateExpression("SET a = a + :one")
                .expressionAttributeValues(Map.of(":one", n("1"))).returnValues(ReturnValue.UPDATED_OLD));
        var allNew = dynamoDb.updateItem(b -> b.tableName(table).key(key).updateExpression("REMOVE b")
                .returnValues(ReturnValue.ALL_NEW));

        assertThat(updatedNew.attributes()).isEqualTo(Map.of("a", n("2")));
        assertThat(updatedOld.attributes()).isEqualTo(Map.of("a", n("2")));
        assertThat(allNew.attributes()).isEqualTo(Map.of("id", s("u"), "a", n("3")));
    }

    @Test
    void updateItem_updatedValuesOfANestedPath_holdOnlyThatPath() {
        String table = hashTable();
        Map<String, AttributeValue> key = Map.of("id", s("n"));
        dynamoDb.putItem(b -> b.tableName(table).item(Map.of("id", s("n"),
                "m", AttributeValue.fromM(Map.of("changed", n("1"), "kept", n("2"))))));

        var updatedNew = dynamoDb.updateItem(b -> b.tableName(table).key(key).updateExpression("SET m.changed = :v")
                .expressionAttributeValues(Map.of(":v", n("3"))).returnValues(ReturnValue.UPDATED_NEW));

        assertThat(updatedNew.attributes()).isEqualTo(Map.of("m", AttributeValue.fromM(Map.of("changed", n("3")))));
    }

    @Test
    void expressions_reachingIntoAKeyAttribute_refused() {
        String table = rangeTable();
        expect(() -> dynamoDb.putItem(b -> b.tableName(table).item(Map.of("pk", s("p"), "sk", n("1")))
                        .conditionExpression("attribute_not_exists(pk.part)")),
                DynamoDbException.class, "Key attributes must be scalars; list random access '[]' and map lookup '.' are not allowed: Key: pk");
        expect(() -> dynamoDb.putItem(b -> b.tableName(table).item(Map.of("pk", s("p"), "sk", n("1")))
                        .conditionExpression("attribute_not_exists(grp[0])")),
                DynamoDbException.class, "are not allowed: IndexKey: grp");
    }

    @Test
    void updateItem_missingItem_createdFromTheKey_andKeyAttributesCannotBeUpdated() {
        String table = hashTable();
        dynamoDb.updateItem(b -> b.tableName(table).key(Map.of("id", s("new"))).updateExpression("SET v = :v")
                .expressionAttributeValues(Map.of(":v", s("x"))));

        assertThat(dynamoDb.getItem(b -> b.tableName(table).key(Map.of("id", s("new")))).item()).isEqualTo(Map.of("id", s("new"), "v", s("x")));
        expect(() -> dynamoDb.updateItem(b -> b.tableName(table).key(Map.of("id", s("new"))).updateExpression("SET id = :v")
                        .expressionAttributeValues(Map.of(":v", s("x")))),
                DynamoDbException.class, "Cannot update attribute id. This attribute is part of the key");
    }

    @Test
    void expressionAttributes_unusedOrWithoutExpression_refused() {
        String table = hashTable();
        expect(() -> dynamoDb.putItem(b -> b.tableName(table).item(Map.of("id", s("a"))).conditionExpression("attribute_not_exists(id)")
                        .expressionAttributeNames(Map.of("#unused", "x"))),
                DynamoDbException.class, "Value provided in ExpressionAttributeNames unused in expressions: keys: {#unused}");
        expect(() -> dynamoDb.putItem(b -> b.tableName(table).item(Map.of("id", s("a"))).conditionExpression("attribute_not_exists(id)")
                        .expressionAttributeValues(Map.of(":unused", n("1")))),
                DynamoDbException.class, "Value provided in ExpressionAttributeValues unused in expressions: keys: {:unused}");
        expect(() -> dynamoDb.putItem(b -> b.tableName(table).item(Map.of("id", s("a"))).expressionAttributeValues(Map.of(":v", n("1")))),
                DynamoDbException.class, "ExpressionAttributeValues can only be specified when using expressions");
    }

    @Test
    void legacyParameters_refusedWithAClearMessage() {
        String table = hashTable();
        expect(() -> dynamoDb.getItem(b -> b.tableName(table).key(Map.of("id", s("a"))).attributesToGet("x")),
                DynamoDbException.class, "AttributesToGet is a legacy parameter");
    }

    @Test
    void deleteItem_conditionAndReturnValues() {
        String table = hashTable();
        dynamoDb.putItem(b -> b.tableName(table).item(Map.of("id", s("d"), "v", n("1"))));

        expect(() -> dynamoDb.deleteItem(b -> b.tableName(table).key(Map.of("id", s("d"))).conditionExpression("v = :two")
                        .expressionAttributeValues(Map.of(":two", n("2")))),
                ConditionalCheckFailedException.class, "The conditional request failed");
        var deleted = dynamoDb.deleteItem(b -> b.tableName(table).key(Map.of("id", s("d"))).returnValues(ReturnValue.ALL_OLD));

        assertThat(deleted.attributes()).isEqualTo(Map.of("id", s("d"), "v", n("1")));
        assertThat(dynamoDb.deleteItem(b -> b.tableName(table).key(Map.of("id", s("d"))).returnValues(ReturnValue.ALL_OLD)).hasAttributes()).isFalse();
    }
}

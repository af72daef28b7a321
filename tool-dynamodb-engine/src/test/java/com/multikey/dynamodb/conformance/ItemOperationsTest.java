package com.multikey.dynamodb.conformance;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

import java.util.List;
import java.util.Map;

import static com.multikey.dynamodb.conformance.Errors.expect;
import static com.multikey.dynamodb.conformance.Errors.expectValidation;
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
    void legacyParameters_notMixedWithExpressions() {
        // the legacy parameters are served (LegacyParametersTest), but never beside the expressions replacing them
        String table = hashTable();
        expect(() -> dynamoDb.getItem(b -> b.tableName(table).key(Map.of("id", s("a"))).attributesToGet("x").projectionExpression("x")),
                DynamoDbException.class, "Can not use both expression and non-expression parameters in the same request");
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

    // Attribute names are at least one character long, at the top of an item and as the keys of its maps (AWS
    // "Supported data types and naming rules in Amazon DynamoDB", Naming rules). DynamoDB refuses an empty one with
    // "Empty attribute name"; an empty name in ExpressionAttributeNames, or inside a value of
    // ExpressionAttributeValues, is refused as an invalid value of that map, for its key.

    @Test
    void putItem_attributeNamedEmpty_refusedAtTheTopAndInNestedMaps() {
        // given
        String table = hashTable();
        // when, then
        expectValidation(() -> dynamoDb.putItem(b -> b.tableName(table).item(Map.of("id", s("e"), "", s("x")))),
                "Empty attribute name");
        expectValidation(() -> dynamoDb.putItem(b -> b.tableName(table).item(Map.of("id", s("e"),
                "m", AttributeValue.fromM(Map.of("", s("x")))))), "Empty attribute name");
        expectValidation(() -> dynamoDb.putItem(b -> b.tableName(table).item(Map.of("id", s("e"),
                "m", AttributeValue.fromM(Map.of("in", AttributeValue.fromL(List.of(AttributeValue.fromM(Map.of("", n("1")))))))))),
                "Empty attribute name");
        expectValidation(() -> dynamoDb.putItem(b -> b.tableName(table).item(Map.of("id", s("e")))
                        .conditionExpression("attribute_not_exists(#e)").expressionAttributeNames(Map.of("#e", ""))),
                "ExpressionAttributeNames contains invalid value: Empty attribute name for key #e");
        assertThat(dynamoDb.scan(b -> b.tableName(table)).count()).isZero();
        // at the limit: names of one character, at the top and in a map
        Map<String, AttributeValue> shortNames = Map.of("id", s("e"), "x", s("1"), "m", AttributeValue.fromM(Map.of("y", s("2"))));
        dynamoDb.putItem(b -> b.tableName(table).item(shortNames));
        assertThat(dynamoDb.getItem(b -> b.tableName(table).key(Map.of("id", s("e")))).item()).isEqualTo(shortNames);
    }

    @Test
    void updateItem_attributeNamedEmpty_refusedByNamePlaceholderAndInAMapValue() {
        // given
        String table = hashTable();
        Map<String, AttributeValue> key = Map.of("id", s("u"));
        dynamoDb.putItem(b -> b.tableName(table).item(Map.of("id", s("u"), "m", AttributeValue.fromM(Map.of("a", n("1"))))));
        // when, then
        expectValidation(() -> dynamoDb.updateItem(b -> b.tableName(table).key(key).updateExpression("SET #e = :v")
                        .expressionAttributeNames(Map.of("#e", "")).expressionAttributeValues(Map.of(":v", s("x")))),
                "ExpressionAttributeNames contains invalid value: Empty attribute name for key #e");
        expectValidation(() -> dynamoDb.updateItem(b -> b.tableName(table).key(key).updateExpression("SET m.#e = :v")
                        .expressionAttributeNames(Map.of("#e", "")).expressionAttributeValues(Map.of(":v", s("x")))),
                "ExpressionAttributeNames contains invalid value: Empty attribute name for key #e");
        expectValidation(() -> dynamoDb.updateItem(b -> b.tableName(table).key(key).updateExpression("SET m = :v")
                        .expressionAttributeValues(Map.of(":v", AttributeValue.fromM(Map.of("", s("x")))))),
                "ExpressionAttributeValues contains invalid value: Empty attribute name for key :v");
        expectValidation(() -> dynamoDb.updateItem(b -> b.tableName(table).key(key).updateExpression("SET m.a = :v")
                        .expressionAttributeValues(Map.of(":v", AttributeValue.fromM(Map.of("deep",
                                AttributeValue.fromM(Map.of("", s("x"))))))).returnValues(ReturnValue.ALL_NEW)),
                "ExpressionAttributeValues contains invalid value: Empty attribute name for key :v");
        expectValidation(() -> dynamoDb.updateItem(b -> b.tableName(table).key(key).updateExpression("SET b = :v")
                        .conditionExpression("attribute_exists(#e)").expressionAttributeNames(Map.of("#e", ""))
                        .expressionAttributeValues(Map.of(":v", s("x")))),
                "ExpressionAttributeNames contains invalid value: Empty attribute name for key #e");
        // the item is as it was
        assertThat(dynamoDb.getItem(b -> b.tableName(table).key(key)).item())
                .isEqualTo(Map.of("id", s("u"), "m", AttributeValue.fromM(Map.of("a", n("1")))));
        // at the limit: a one-character name through a placeholder
        dynamoDb.updateItem(b -> b.tableName(table).key(key).updateExpression("SET #e = :v")
                .expressionAttributeNames(Map.of("#e", "e")).expressionAttributeValues(Map.of(":v", AttributeValue.fromM(Map.of("f", s("x"))))));
        assertThat(dynamoDb.getItem(b -> b.tableName(table).key(key)).item()).containsEntry("e", AttributeValue.fromM(Map.of("f", s("x"))));
    }

    @Test
    void getItemAndDeleteItem_emptyKeyValue_refused() {
        String table = hashTable();
        expectValidation(() -> dynamoDb.getItem(b -> b.tableName(table).key(Map.of("id", s("")))),
                "One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty string value. Key: id");
        expectValidation(() -> dynamoDb.deleteItem(b -> b.tableName(table).key(Map.of("id", s("")))),
                "One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty string value. Key: id");
        String binary = uniqueName("binary");
        dynamoDb.createTable(b -> b.tableName(binary).billingMode("PAY_PER_REQUEST")
                .attributeDefinitions(attribute("pk", ScalarAttributeType.B)).keySchema(key("pk", KeyType.HASH)));
        expectValidation(() -> dynamoDb.getItem(b -> b.tableName(binary).key(Map.of("pk", AttributeValue.fromB(SdkBytes.fromByteArray(new byte[0]))))),
                "One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty binary value. Key: pk");
        expectValidation(() -> dynamoDb.deleteItem(b -> b.tableName(binary).key(Map.of("pk", AttributeValue.fromB(SdkBytes.fromByteArray(new byte[0]))))),
                "One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty binary value. Key: pk");
    }

    // Numbers (AWS "Supported data types and naming rules in Amazon DynamoDB", Number): up to 38 significant
    // digits, magnitude 1E-130 to 9.9999999999999999999999999999999999999E+125, or zero. Zero has no magnitude to
    // over- or underflow, whatever exponent it is written with; it is stored and returned as 0.

    @Test
    void putItem_zeroWrittenWithAnyExponent_storedAsZero() {
        String table = hashTable();
        List<String> zeros = List.of("0E+500", "0E-200", "-0", "0.000E-999", "00E+130", "0e126", "0E-131", "-0.0E+99999");
        for (int i = 0; i < zeros.size(); i++) {
            String id = "z" + i;
            String zero = zeros.get(i);
            dynamoDb.putItem(b -> b.tableName(table).item(Map.of("id", s(id), "v", n(zero), "ns", AttributeValue.fromNs(List.of(zero, "1")))));
            assertThat(dynamoDb.getItem(b -> b.tableName(table).key(Map.of("id", s(id)))).item())
                    .as(zero).isEqualTo(Map.of("id", s(id), "v", n("0"), "ns", AttributeValue.fromNs(List.of("0", "1"))));
        }
        var updated = dynamoDb.updateItem(b -> b.tableName(table).key(Map.of("id", s("z0"))).updateExpression("SET v = v + :z")
                .expressionAttributeValues(Map.of(":z", n("0E+1000"))).returnValues(ReturnValue.UPDATED_NEW));
        assertThat(updated.attributes()).isEqualTo(Map.of("v", n("0")));
    }

    @Test
    void putItem_numbersAtAndPastTheirLimits_asDocumented() {
        String table = hashTable();
        String max = "9.9999999999999999999999999999999999999E+125";
        dynamoDb.putItem(b -> b.tableName(table).item(Map.of("id", s("n"), "max", n(max), "min", n("1E-130"),
                "neg", n("-" + max), "negmin", n("-1E-130"), "digits", n("12345678901234567890123456789012345678"))));
        assertThat(dynamoDb.getItem(b -> b.tableName(table).key(Map.of("id", s("n")))).item()).containsEntry("min", n("0." + "0".repeat(129) + "1"));
        expectValidation(() -> dynamoDb.putItem(b -> b.tableName(table).item(Map.of("id", s("n"), "v", n("1E+126")))),
                "Number overflow. Attempting to store a number with magnitude larger than supported range");
        expectValidation(() -> dynamoDb.putItem(b -> b.tableName(table).item(Map.of("id", s("n"), "v", n("-1E+126")))),
                "Number overflow. Attempting to store a number with magnitude larger than supported range");
        expectValidation(() -> dynamoDb.putItem(b -> b.tableName(table).item(Map.of("id", s("n"), "v", n("9.9E-131")))),
                "Number underflow. Attempting to store a number with magnitude smaller than supported range");
        expectValidation(() -> dynamoDb.putItem(b -> b.tableName(table).item(Map.of("id", s("n"), "v", n("-1E-131")))),
                "Number underflow. Attempting to store a number with magnitude smaller than supported range");
        expectValidation(() -> dynamoDb.putItem(b -> b.tableName(table).item(Map.of("id", s("n"), "v", n("123456789012345678901234567890123456789")))),
                "Attempting to store more than 38 significant digits in a Number");
    }

    // Several SET actions on the indexes of one list (AWS "Using update expressions in DynamoDB", SET: "If the
    // element doesn't already exist, SET appends the new element at the end of the list. If you add multiple
    // elements in a single SET operation, the elements are sorted in order by element number"); REMOVE of
    // several elements names them by their positions before the update.

    private Map<String, AttributeValue> updateList(String table, List<String> list, String expression) {
        Map<String, AttributeValue> key = Map.of("id", s("list"));
        dynamoDb.putItem(b -> b.tableName(table).item(Map.of("id", s("list"),
                "c", AttributeValue.fromL(list.stream().map(EngineTestSupport::n).toList()))));
        Map<String, AttributeValue> values = new java.util.HashMap<>(Map.of(":x", n("-1"), ":y", n("3"), ":z", n("7")));
        values.keySet().removeIf(name -> !expression.contains(name));
        return dynamoDb.updateItem(b -> b.tableName(table).key(key).updateExpression(expression)
                .expressionAttributeValues(values.isEmpty() ? null : values)
                .returnValues(ReturnValue.ALL_NEW)).attributes();
    }

    private static AttributeValue numbers(String... values) {
        return AttributeValue.fromL(List.of(values).stream().map(EngineTestSupport::n).toList());
    }

    @Test
    void updateItem_severalListIndexesPastTheEnd_eachAppendedInIndexOrder() {
        String table = hashTable();
        assertThat(updateList(table, List.of("1", "3"), "SET c[4] = :x, c[2] = :y")).containsEntry("c", numbers("1", "3", "3", "-1"));
        assertThat(updateList(table, List.of("1", "3"), "SET c[2] = :y, c[4] = :x")).containsEntry("c", numbers("1", "3", "3", "-1"));
        assertThat(updateList(table, List.of("1", "3"), "SET c[9] = :z, c[2] = :x, c[5] = :y")).containsEntry("c", numbers("1", "3", "-1", "3", "7"));
        assertThat(updateList(table, List.of("1", "3"), "SET c[3] = :x, c[2] = :y")).containsEntry("c", numbers("1", "3", "3", "-1"));
        assertThat(updateList(table, List.of(), "SET c[1] = :x, c[0] = :y")).containsEntry("c", numbers("3", "-1"));
    }

    @Test
    void updateItem_listIndexInRangeAndPastTheEnd_replacedAndAppended() {
        String table = hashTable();
        assertThat(updateList(table, List.of("1", "3"), "SET c[7] = :x, c[0] = :y")).containsEntry("c", numbers("3", "3", "-1"));
        assertThat(updateList(table, List.of("1", "3"), "SET c[1] = :x, c[2] = :y")).containsEntry("c", numbers("1", "-1", "3"));
        assertThat(updateList(table, List.of("1", "3"), "SET c[2] = :x, c[1] = :y, c[6] = :z")).containsEntry("c", numbers("1", "3", "-1", "7"));
        // SET appends, REMOVE names the elements as they were before the update
        assertThat(updateList(table, List.of("1", "3", "5"), "SET c[8] = :x, c[9] = :y REMOVE c[0], c[2]"))
                .containsEntry("c", numbers("3", "-1", "3"));
        assertThat(updateList(table, List.of("1", "3", "5", "7"), "REMOVE c[3], c[0], c[1]")).containsEntry("c", numbers("5"));
        assertThat(updateList(table, List.of("1", "3", "5"), "REMOVE c[0], c[5], c[1]")).containsEntry("c", numbers("5"));
    }

    @Test
    void updateItem_nestedListIndexesPastTheEnd_appendedInIndexOrder() {
        String table = hashTable();
        Map<String, AttributeValue> key = Map.of("id", s("nested"));
        dynamoDb.putItem(b -> b.tableName(table).item(Map.of("id", s("nested"),
                "m", AttributeValue.fromM(Map.of("l", AttributeValue.fromL(List.of(numbers("1"), numbers("2"))))))));

        var updated = dynamoDb.updateItem(b -> b.tableName(table).key(key)
                .updateExpression("SET m.l[1][5] = :x, m.l[1][3] = :y, m.l[0][1] = :z REMOVE m.l[0][0]")
                .expressionAttributeValues(Map.of(":x", n("-1"), ":y", n("3"), ":z", n("7"))).returnValues(ReturnValue.ALL_NEW));

        assertThat(updated.attributes()).containsEntry("m",
                AttributeValue.fromM(Map.of("l", AttributeValue.fromL(List.of(numbers("7"), numbers("2", "3", "-1"))))));
    }
}

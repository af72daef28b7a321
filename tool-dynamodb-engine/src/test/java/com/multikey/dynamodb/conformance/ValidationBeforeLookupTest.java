package com.multikey.dynamodb.conformance;

import org.assertj.core.api.ThrowableAssert;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * DynamoDB validates a request before it looks up its table: a malformed request naming a table that does not
 * exist is a ValidationException, not ResourceNotFoundException (an empty attribute value, two datatypes in one,
 * an item over 400 KB, an expression that does not parse, names or values no expression uses).
 */
class ValidationBeforeLookupTest extends EngineTestSupport {

    private static final String MISSING = "no-such-table";

    @Test
    void itemOperations_validateBeforeTheLookup() {
        Map<String, AttributeValue> emptySet = Map.of("id", AttributeValue.fromS("a"), "tags", AttributeValue.builder().ss(List.of()).build());
        assertValidation(() -> dynamoDb.putItem(b -> b.tableName(MISSING).item(emptySet)));
        Map<String, AttributeValue> big = Map.of("id", AttributeValue.fromS("a"),
                "blob", AttributeValue.fromB(SdkBytes.fromByteArray(new byte[400 * 1024])));
        assertValidation(() -> dynamoDb.putItem(b -> b.tableName(MISSING).item(big)));
        assertValidation(() -> dynamoDb.putItem(b -> b.tableName(MISSING).item(Map.of("id", AttributeValue.fromS("a")))
                .conditionExpression("attribute_exists(#a)")));
        assertValidation(() -> dynamoDb.getItem(b -> b.tableName(MISSING).key(Map.of("id", AttributeValue.fromS("a")))
                .projectionExpression("a,,b")));
        assertValidation(() -> dynamoDb.deleteItem(b -> b.tableName(MISSING).key(Map.of("id", AttributeValue.fromS("a")))
                .expressionAttributeNames(Map.of("#unused", "x"))));
        assertValidation(() -> dynamoDb.updateItem(b -> b.tableName(MISSING).key(Map.of("id", AttributeValue.fromS("a")))
                .updateExpression("SET")));
    }

    @Test
    void queryAndScan_validateBeforeTheLookup() {
        assertValidation(() -> dynamoDb.scan(b -> b.tableName(MISSING).expressionAttributeNames(Map.of("#unused", "x"))));
        assertValidation(() -> dynamoDb.scan(b -> b.tableName(MISSING).filterExpression("a = ")));
        assertValidation(() -> dynamoDb.query(b -> b.tableName(MISSING).keyConditionExpression("id = :v")
                .expressionAttributeValues(Map.of(":v", AttributeValue.fromS("a"))).filterExpression("(")));
        // a well-formed request still answers that the table does not exist
        DynamoDbException missing = catchThrowableOfType(DynamoDbException.class, () -> dynamoDb.scan(b -> b.tableName(MISSING)));
        assertThat(missing.awsErrorDetails().errorCode()).isEqualTo("ResourceNotFoundException");
    }

    @Test
    void batches_validateEveryTableBeforeTheLookup() {
        Map<String, AttributeValue> key = Map.of("id", AttributeValue.fromS("a"));
        Map<String, AttributeValue> twoTypes = Map.of("id", AttributeValue.builder().s("a").n("1").build());
        assertValidation(() -> dynamoDb.batchWriteItem(b -> b.requestItems(Map.of(MISSING, List.of(
                software.amazon.awssdk.services.dynamodb.model.WriteRequest.builder().putRequest(p -> p.item(twoTypes)).build())))));
        assertValidation(() -> dynamoDb.batchWriteItem(b -> b.requestItems(Map.of(MISSING, List.of()))));
        assertValidation(() -> dynamoDb.batchGetItem(b -> b.requestItems(Map.of(MISSING,
                software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes.builder().keys(key, key).build()))));
        assertValidation(() -> dynamoDb.batchGetItem(b -> b.requestItems(Map.of(MISSING,
                software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes.builder().keys(key).projectionExpression("").build()))));
    }

    @Test
    void query_checksTheKeyConditionExpressionsShapeBeforeTheLookup() {
        Map<String, AttributeValue> values = Map.of(":a", AttributeValue.fromS("a"), ":b", AttributeValue.fromS("b"));
        Map<String, String> shapes = new java.util.LinkedHashMap<>();
        shapes.put("a > :a and b > :a or a > :b", "Invalid operator used in KeyConditionExpression: OR");
        shapes.put("a = :a and attribute_exists(b)", "Invalid operator used in KeyConditionExpression: attribute_exists");
        shapes.put(":a between b and :b", "Invalid condition in KeyConditionExpression: BETWEEN operator must have the key attribute as its first operand");
        shapes.put("begins_with(:a, b) and a = :b", "Invalid condition in KeyConditionExpression: begins_with operator must have the key attribute as its first operand");
        shapes.put("a = :a and b > size(c)", "Invalid KeyConditionExpression: KeyConditionExpressions cannot contain nested operations");
        shapes.put("b > a", "Invalid condition in KeyConditionExpression: Multiple attribute names used in one condition");
        shapes.put("begins_with(a, b)", "Invalid condition in KeyConditionExpression: Multiple attribute names used in one condition");
        shapes.put("a.d = :a", "Invalid KeyConditionExpression: KeyConditionExpressions cannot have conditions on nested attributes");
        shapes.put(":b > :a AND a = :b", "Invalid condition in KeyConditionExpression: No key attribute specified");
        shapes.put("b > :a AND b < :b", "Invalid KeyConditionExpression: KeyConditionExpressions must only contain one condition per key");
        shapes.put("a = :a and b = :a and c = :b", "Conditions can be of length 1 or 2 only");
        shapes.put("a = :a and b between :b and :a", "Invalid KeyConditionExpression: The BETWEEN operator requires upper bound to be "
                + "greater than or equal to lower bound; lower bound operand: AttributeValue: {S:b}, upper bound operand: AttributeValue: {S:a}");
        shapes.forEach((expression, message) -> {
            Map<String, AttributeValue> used = new java.util.HashMap<>(values);
            used.keySet().removeIf(key -> !expression.contains(key));
            Errors.expectValidation(() -> dynamoDb.query(b -> b.tableName(MISSING).keyConditionExpression(expression)
                    .expressionAttributeValues(used.isEmpty() ? null : used)), message);
        });
        // a well-formed key condition, whatever the key schema, still answers that the table does not exist
        DynamoDbException missing = catchThrowableOfType(DynamoDbException.class, () -> dynamoDb.query(b -> b.tableName(MISSING)
                .keyConditionExpression("z = :a and b between :a and :b").expressionAttributeValues(values)));
        assertThat(missing.awsErrorDetails().errorCode()).isEqualTo("ResourceNotFoundException");
    }

    private static void assertValidation(ThrowableAssert.ThrowingCallable call) {
        DynamoDbException error = catchThrowableOfType(DynamoDbException.class, call);
        assertThat(error).as("a ValidationException").isNotNull();
        assertThat(error.awsErrorDetails().errorCode()).as(error.getMessage()).isEqualTo("ValidationException");
    }
}

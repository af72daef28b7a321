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

    private static void assertValidation(ThrowableAssert.ThrowingCallable call) {
        DynamoDbException error = catchThrowableOfType(DynamoDbException.class, call);
        assertThat(error).as("a ValidationException").isNotNull();
        assertThat(error.awsErrorDetails().errorCode()).as(error.getMessage()).isEqualTo("ValidationException");
    }
}

package com.multikey.dynamodb.conformance;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * Table names are 3 to 255 characters of {@code [a-zA-Z0-9_.-]} (Constraints.html, "Naming rules"): a request
 * naming a table that cannot exist is refused as invalid (ValidationException, 400), before any table is looked
 * up, not answered ResourceNotFoundException; an ARN is still looked up as a name.
 */
class TableNameValidationTest extends EngineTestSupport {

    private static final String LONG = "a".repeat(256);
    private static final Map<String, AttributeValue> KEY = Map.of("id", AttributeValue.fromS("a"));

    @ParameterizedTest
    @ValueSource(strings = {"", "a", "ab", "a;", "tab le", "t#able"})
    void itemAndTableOperations_refuseAnInvalidTableName(String name) {
        assertValidation(() -> dynamoDb.getItem(b -> b.tableName(name).key(KEY)));
        assertValidation(() -> dynamoDb.putItem(b -> b.tableName(name).item(KEY)));
        assertValidation(() -> dynamoDb.deleteItem(b -> b.tableName(name).key(KEY)));
        assertValidation(() -> dynamoDb.updateItem(b -> b.tableName(name).key(KEY)));
        assertValidation(() -> dynamoDb.query(b -> b.tableName(name).keyConditionExpression("id = :a")
                .expressionAttributeValues(Map.of(":a", AttributeValue.fromS("a")))));
        assertValidation(() -> dynamoDb.scan(b -> b.tableName(name)));
        assertValidation(() -> dynamoDb.describeTable(b -> b.tableName(name)));
        assertValidation(() -> dynamoDb.deleteTable(b -> b.tableName(name)));
        assertValidation(() -> dynamoDb.batchGetItem(b -> b.requestItems(Map.of(name, KeysAndAttributes.builder().keys(KEY).build()))));
        assertValidation(() -> dynamoDb.batchWriteItem(b -> b.requestItems(Map.of(name,
                List.of(WriteRequest.builder().putRequest(PutRequest.builder().item(KEY).build()).build())))));
    }

    @Test
    void aNameOf256Characters_isRefused_andOf255IsLookedUp() {
        assertValidation(() -> dynamoDb.describeTable(b -> b.tableName(LONG)));
        DynamoDbException missing = catchThrowableOfType(DynamoDbException.class,
                () -> dynamoDb.describeTable(b -> b.tableName(LONG.substring(1))));
        assertThat(missing.awsErrorDetails().errorCode()).isEqualTo("ResourceNotFoundException");
    }

    @Test
    void theMessage_namesEveryConstraintTheNameBreaks() {
        DynamoDbException error = catchThrowableOfType(DynamoDbException.class, () -> dynamoDb.describeTable(b -> b.tableName("a;")));
        assertThat(error.awsErrorDetails().errorMessage()).isEqualTo("2 validation errors detected: "
                + "Value 'a;' at 'tableName' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+; "
                + "Value 'a;' at 'tableName' failed to satisfy constraint: Member must have length greater than or equal to 3");
    }

    @Test
    void listTables_refusesAnEmptyOrInvalidExclusiveStartTableName() {
        assertValidation(() -> dynamoDb.listTables(b -> b.exclusiveStartTableName("")));
        assertValidation(() -> dynamoDb.listTables(b -> b.exclusiveStartTableName("a;")));
        assertValidation(() -> dynamoDb.listTables(b -> b.exclusiveStartTableName(LONG)));
        assertThat(dynamoDb.listTables(b -> b.exclusiveStartTableName("aaa")).sdkHttpResponse().statusCode()).isEqualTo(200);
    }

    @Test
    void aTableArn_isStillLookedUpAsItsTable() {
        String table = hashTable();
        String arn = dynamoDb.describeTable(b -> b.tableName(table)).table().tableArn();
        assertThat(dynamoDb.describeTable(b -> b.tableName(arn)).table().tableName()).isEqualTo(table);
    }

    private static void assertValidation(org.assertj.core.api.ThrowableAssert.ThrowingCallable call) {
        DynamoDbException error = catchThrowableOfType(DynamoDbException.class, call);
        assertThat(error).as("a ValidationException").isNotNull();
        assertThat(error.awsErrorDetails().errorCode()).isEqualTo("ValidationException");
        assertThat(error.statusCode()).isEqualTo(400);
    }
}

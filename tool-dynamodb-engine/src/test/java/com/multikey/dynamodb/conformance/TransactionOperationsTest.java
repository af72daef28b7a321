package com.multikey.dynamodb.conformance;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.TransactGetItem;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static com.multikey.dynamodb.conformance.Errors.expect;
import static com.multikey.dynamodb.conformance.Errors.expectValidation;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * TransactWriteItems and TransactGetItems, written from
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_TransactWriteItems.html and
 * API_TransactGetItems.html: at most 100 actions and 4 MB, one action per item, cancellation reasons in the
 * request's order with "None" for the actions that did not fail.
 */
class TransactionOperationsTest extends EngineTestSupport {

    private static TransactWriteItem put(String table, String id) {
        return TransactWriteItem.builder().put(p -> p.tableName(table).item(Map.of("id", s(id)))).build();
    }

    @Test
    void transactWriteItems_allOrNothing_withReasonsInOrder() {
        String table = hashTable();
        dynamoDb.putItem(b -> b.tableName(table).item(Map.of("id", s("exists"), "v", n("1"))));

        var error = expect(() -> dynamoDb.transactWriteItems(b -> b.clientRequestToken("token-1").transactItems(
                        put(table, "new"),
                        TransactWriteItem.builder().conditionCheck(c -> c.tableName(table).key(Map.of("id", s("exists")))
                                .conditionExpression("v = :two").expressionAttributeValues(Map.of(":two", n("2")))
                                .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)).build(),
                        TransactWriteItem.builder().delete(d -> d.tableName(table).key(Map.of("id", s("other")))).build())),
                TransactionCanceledException.class, "Transaction cancelled, please refer cancellation reasons for specific reasons [None, ConditionalCheckFailed, None]");

        assertThat(error.cancellationReasons()).extracting(r -> r.code()).containsExactly("None", "ConditionalCheckFailed", "None");
        assertThat(error.cancellationReasons().get(1).item()).isEqualTo(Map.of("id", s("exists"), "v", n("1")));
        assertThat(dynamoDb.getItem(b -> b.tableName(table).key(Map.of("id", s("new")))).hasItem()).isFalse();
    }

    @Test
    void transactWriteItems_putsUpdatesAndDeletes() {
        String table = hashTable();
        dynamoDb.putItem(b -> b.tableName(table).item(Map.of("id", s("gone"))));
        dynamoDb.putItem(b -> b.tableName(table).item(Map.of("id", s("count"), "n", n("1"))));

        dynamoDb.transactWriteItems(b -> b.transactItems(put(table, "added"),
                TransactWriteItem.builder().update(u -> u.tableName(table).key(Map.of("id", s("count")))
                        .updateExpression("ADD n :one").expressionAttributeValues(Map.of(":one", n("1")))).build(),
                TransactWriteItem.builder().delete(d -> d.tableName(table).key(Map.of("id", s("gone")))).build()));

        var got = dynamoDb.transactGetItems(b -> b.transactItems(
                TransactGetItem.builder().get(g -> g.tableName(table).key(Map.of("id", s("added")))).build(),
                TransactGetItem.builder().get(g -> g.tableName(table).key(Map.of("id", s("count")))).build(),
                TransactGetItem.builder().get(g -> g.tableName(table).key(Map.of("id", s("gone")))).build()));
        assertThat(got.responses().get(0).item()).isEqualTo(Map.of("id", s("added")));
        assertThat(got.responses().get(1).item()).isEqualTo(Map.of("id", s("count"), "n", n("2")));
        assertThat(got.responses().get(2).hasItem()).isFalse();
    }

    @Test
    void transactWriteItems_attributeNamedEmpty_refusedAndNothingWritten() {
        // given: attribute names are at least one character long, map keys too (AWS "Supported data types and
        // naming rules in Amazon DynamoDB")
        String table = hashTable();
        dynamoDb.putItem(b -> b.tableName(table).item(Map.of("id", s("kept"), "v", n("1"))));
        TransactWriteItem emptyNamedPut = TransactWriteItem.builder().put(p -> p.tableName(table)
                .item(Map.of("id", s("bad"), "", s("x")))).build();
        TransactWriteItem emptyKeyInMap = TransactWriteItem.builder().put(p -> p.tableName(table)
                .item(Map.of("id", s("bad"), "m", AttributeValue.fromM(Map.of("", s("x")))))).build();
        TransactWriteItem emptyPlaceholder = TransactWriteItem.builder().update(u -> u.tableName(table).key(Map.of("id", s("kept")))
                .updateExpression("SET #e = :v").expressionAttributeNames(Map.of("#e", ""))
                .expressionAttributeValues(Map.of(":v", s("x")))).build();
        TransactWriteItem emptyKeyInValue = TransactWriteItem.builder().update(u -> u.tableName(table).key(Map.of("id", s("kept")))
                .updateExpression("SET v = :v").expressionAttributeValues(Map.of(":v", AttributeValue.fromM(Map.of("", s("x")))))).build();
        // when, then
        expectValidation(() -> dynamoDb.transactWriteItems(b -> b.transactItems(put(table, "a"), emptyNamedPut)), "Empty attribute name");
        expectValidation(() -> dynamoDb.transactWriteItems(b -> b.transactItems(put(table, "a"), emptyKeyInMap)), "Empty attribute name");
        expectValidation(() -> dynamoDb.transactWriteItems(b -> b.transactItems(put(table, "a"), emptyPlaceholder)),
                "ExpressionAttributeNames contains invalid value: Empty attribute name for key #e");
        expectValidation(() -> dynamoDb.transactWriteItems(b -> b.transactItems(put(table, "a"), emptyKeyInValue)),
                "ExpressionAttributeValues contains invalid value: Empty attribute name for key :v");
        assertThat(dynamoDb.scan(b -> b.tableName(table)).items()).containsExactly(Map.of("id", s("kept"), "v", n("1")));
    }

    @Test
    void transactWriteItems_100Accepted_101Refused_andOneItemTwiceRefused() {
        String table = hashTable();
        List<TransactWriteItem> hundred = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            hundred.add(put(table, "t" + i));
        }
        dynamoDb.transactWriteItems(b -> b.transactItems(hundred));
        assertThat(dynamoDb.scan(b -> b.tableName(table)).count()).isEqualTo(100);

        List<TransactWriteItem> tooMany = new ArrayList<>(hundred);
        tooMany.add(put(table, "t100"));
        expect(() -> dynamoDb.transactWriteItems(b -> b.transactItems(tooMany)),
                DynamoDbException.class, "Member must have length less than or equal to 100");
        expect(() -> dynamoDb.transactWriteItems(b -> b.transactItems(put(table, "x"), put(table, "x"))),
                DynamoDbException.class, "Transaction request cannot include multiple operations on one item");
    }

    @EngineOnly("the engine's clock moved 11 minutes")
    @Test
    void transactWriteItems_sameClientRequestToken_appliedOnce_andMismatchRefused() {
        String table = hashTable();
        dynamoDb.putItem(b -> b.tableName(table).item(Map.of("id", s("c"), "n", n("0"))));
        TransactWriteItem increment = TransactWriteItem.builder().update(u -> u.tableName(table).key(Map.of("id", s("c")))
                .updateExpression("ADD n :one").expressionAttributeValues(Map.of(":one", n("1")))).build();

        dynamoDb.transactWriteItems(b -> b.clientRequestToken("once").transactItems(increment));
        dynamoDb.transactWriteItems(b -> b.clientRequestToken("once").transactItems(increment));

        assertThat(dynamoDb.getItem(b -> b.tableName(table).key(Map.of("id", s("c")))).item().get("n")).isEqualTo(n("1"));
        expect(() -> dynamoDb.transactWriteItems(b -> b.clientRequestToken("once").transactItems(put(table, "other"))),
                software.amazon.awssdk.services.dynamodb.model.IdempotentParameterMismatchException.class, "same client token");
        clock.advance(java.time.Duration.ofMinutes(11));
        dynamoDb.transactWriteItems(b -> b.clientRequestToken("once").transactItems(increment));
        assertThat(dynamoDb.getItem(b -> b.tableName(table).key(Map.of("id", s("c")))).item().get("n")).isEqualTo(n("2"));
    }

    @Test
    void transactGetItems_100Accepted_101Refused() {
        String table = hashTable();
        List<TransactGetItem> gets = new ArrayList<>();
        for (int i = 0; i < 101; i++) {
            int index = i;
            gets.add(TransactGetItem.builder().get(g -> g.tableName(table).key(Map.of("id", s("g" + index)))).build());
        }
        assertThat(dynamoDb.transactGetItems(b -> b.transactItems(gets.subList(0, 100))).responses()).hasSize(100);
        expect(() -> dynamoDb.transactGetItems(b -> b.transactItems(gets)),
                DynamoDbException.class, "Member must have length less than or equal to 100");
    }

    @Test
    void transactWriteItems_over4MB_refused() {
        String table = hashTable();
        String big = "x".repeat(390 * 1024);
        List<TransactWriteItem> items = new ArrayList<>();
        for (int i = 0; i < 11; i++) {
            int index = i;
            items.add(TransactWriteItem.builder().put(p -> p.tableName(table).item(Map.of("id", s("big" + index), "v", s(big)))).build());
        }
        dynamoDb.transactWriteItems(b -> b.transactItems(items.subList(0, 10)));
        expect(() -> dynamoDb.transactWriteItems(b -> b.transactItems(items)),
                DynamoDbException.class, "Transaction request cannot be larger than 4 MB");
    }
}

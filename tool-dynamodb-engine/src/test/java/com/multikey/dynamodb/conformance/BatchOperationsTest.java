package com.multikey.dynamodb.conformance;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static com.multikey.dynamodb.conformance.Errors.expect;
import static com.multikey.dynamodb.conformance.Errors.expectValidation;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * BatchWriteItem and BatchGetItem, written from
 * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_BatchWriteItem.html and
 * API_BatchGetItem.html: 25 writes and 100 reads a call, no two requests on one key, UnprocessedItems and
 * UnprocessedKeys always in the response.
 */
class BatchOperationsTest extends EngineTestSupport {

    private static List<WriteRequest> puts(int count, String prefix) {
        List<WriteRequest> writes = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            int index = i;
            writes.add(WriteRequest.builder().putRequest(p -> p.item(Map.of("id", s(prefix + index)))).build());
        }
        return writes;
    }

    @Test
    void batchWriteItem_25Accepted_26Refused() {
        String table = hashTable();
        var response = dynamoDb.batchWriteItem(b -> b.requestItems(Map.of(table, puts(25, "a"))));
        assertThat(response.unprocessedItems()).isEmpty();
        assertThat(response.sdkHttpResponse().isSuccessful()).isTrue();
        assertThat(dynamoDb.scan(b -> b.tableName(table)).count()).isEqualTo(25);

        expect(() -> dynamoDb.batchWriteItem(b -> b.requestItems(Map.of(table, puts(26, "b")))),
                DynamoDbException.class, "Too many items requested for the BatchWriteItem call");
    }

    @Test
    void batchWriteItem_twoRequestsOnOneKey_refusedAndNothingWritten() {
        String table = hashTable();
        List<WriteRequest> writes = new ArrayList<>(puts(2, "a"));
        writes.add(WriteRequest.builder().deleteRequest(d -> d.key(Map.of("id", s("a0")))).build());

        expect(() -> dynamoDb.batchWriteItem(b -> b.requestItems(Map.of(table, writes))),
                DynamoDbException.class, "Provided list of item keys contains duplicates");
        assertThat(dynamoDb.scan(b -> b.tableName(table)).count()).isZero();
    }

    @Test
    void batchWriteItem_attributeNamedEmpty_refusedAndNothingWritten() {
        // given: attribute names are at least one character long, map keys too (AWS "Supported data types and
        // naming rules in Amazon DynamoDB")
        String table = hashTable();
        List<WriteRequest> topLevel = new ArrayList<>(puts(2, "t"));
        topLevel.add(WriteRequest.builder().putRequest(p -> p.item(Map.of("id", s("bad"), "", s("x")))).build());
        List<WriteRequest> nested = new ArrayList<>(puts(2, "n"));
        nested.add(WriteRequest.builder().putRequest(p -> p.item(Map.of("id", s("bad"),
                "m", AttributeValue.fromM(Map.of("ok", AttributeValue.fromM(Map.of("", s("x")))))))).build());
        // when, then
        expectValidation(() -> dynamoDb.batchWriteItem(b -> b.requestItems(Map.of(table, topLevel))), "Empty attribute name");
        expectValidation(() -> dynamoDb.batchWriteItem(b -> b.requestItems(Map.of(table, nested))), "Empty attribute name");
        assertThat(dynamoDb.scan(b -> b.tableName(table)).count()).isZero();
        // at the limit: one character
        dynamoDb.batchWriteItem(b -> b.requestItems(Map.of(table, List.of(WriteRequest.builder()
                .putRequest(p -> p.item(Map.of("id", s("ok"), "x", AttributeValue.fromM(Map.of("y", s("z")))))).build()))));
        assertThat(dynamoDb.scan(b -> b.tableName(table)).count()).isEqualTo(1);
    }

    @EngineOnly("faults on demand")
    @Test
    void batchWriteItem_injectedUnprocessedItems_returnedForRetry() {
        String table = hashTable();
        engine.faults().unprocessNext(2);

        var response = dynamoDb.batchWriteItem(b -> b.requestItems(Map.of(table, puts(5, "u"))));

        assertThat(response.unprocessedItems().get(table)).hasSize(2);
        assertThat(dynamoDb.scan(b -> b.tableName(table)).count()).isEqualTo(3);
        dynamoDb.batchWriteItem(b -> b.requestItems(response.unprocessedItems()));
        assertThat(dynamoDb.scan(b -> b.tableName(table)).count()).isEqualTo(5);
    }

    @Test
    void batchGetItem_100Accepted_101Refused_andProjection() {
        String table = hashTable();
        for (int start = 0; start < 100; start += 25) {
            int from = start;
            List<WriteRequest> writes = new ArrayList<>();
            for (int i = 0; i < 25; i++) {
                int index = i;
                writes.add(WriteRequest.builder().putRequest(p -> p.item(Map.of("id", s("k" + index + "-" + from), "v", n("1")))).build());
            }
            dynamoDb.batchWriteItem(b -> b.requestItems(Map.of(table, writes)));
        }
        List<Map<String, AttributeValue>> keys = new ArrayList<>();
        for (int start = 0; start < 100; start += 25) {
            for (int i = 0; i < 25; i++) {
                keys.add(Map.of("id", s("k" + i + "-" + start)));
            }
        }

        var response = dynamoDb.batchGetItem(b -> b.requestItems(Map.of(table,
                KeysAndAttributes.builder().keys(keys).projectionExpression("id").build())));

        assertThat(response.responses().get(table)).hasSize(100).allSatisfy(i -> assertThat(i).containsOnlyKeys("id"));
        assertThat(response.unprocessedKeys()).isEmpty();
        List<Map<String, AttributeValue>> tooMany = new ArrayList<>(keys);
        tooMany.add(Map.of("id", s("one-more")));
        expect(() -> dynamoDb.batchGetItem(b -> b.requestItems(Map.of(table, KeysAndAttributes.builder().keys(tooMany).build()))),
                DynamoDbException.class, "Too many items requested for the BatchGetItem call");
        expect(() -> dynamoDb.batchGetItem(b -> b.requestItems(Map.of(table, KeysAndAttributes.builder()
                        .keys(Map.of("id", s("a")), Map.of("id", s("a"))).build()))),
                DynamoDbException.class, "Provided list of item keys contains duplicates");
    }

    @Test
    void batchGetItem_responsesOver16MB_restComeBackUnprocessed() {
        String table = hashTable();
        String big = "x".repeat(390 * 1024);
        List<Map<String, AttributeValue>> keys = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            int index = i;
            dynamoDb.putItem(b -> b.tableName(table).item(Map.of("id", s("big" + index), "v", s(big))));
            keys.add(Map.of("id", s("big" + index)));
        }

        var response = dynamoDb.batchGetItem(b -> b.requestItems(Map.of(table, KeysAndAttributes.builder().keys(keys).build())));

        int returned = response.responses().get(table).size();
        assertThat(returned).isBetween(40, 43);
        assertThat(response.unprocessedKeys().get(table).keys()).hasSize(50 - returned);
    }

    /**
     * API_BatchGetItem.html: "if you ask to retrieve 100 items, but each individual item is 300 KB in size, the
     * system returns 52 items (so as not to exceed the 16 MB limit)", and the rest in UnprocessedKeys.
     */
    @Test
    void batchGetItem_100ItemsOf300KB_52Returned_asAwsDocumentsIt() {
        String table = hashTable();
        String value = "x".repeat(300 * 1024 - "id".length() - "k00".length() - "v".length());
        List<Map<String, AttributeValue>> keys = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            String id = String.format("k%02d", i);
            dynamoDb.putItem(b -> b.tableName(table).item(Map.of("id", s(id), "v", s(value))));
            keys.add(Map.of("id", s(id)));
        }

        var response = dynamoDb.batchGetItem(b -> b.requestItems(Map.of(table, KeysAndAttributes.builder().keys(keys).build())));

        assertThat(response.responses().get(table)).hasSize(52);
        assertThat(response.unprocessedKeys().get(table).keys()).hasSize(48);
    }

    @EngineOnly("faults on demand")
    @Test
    void batchGetItem_injectedUnprocessedKeys() {
        String table = hashTable();
        dynamoDb.batchWriteItem(b -> b.requestItems(Map.of(table, puts(3, "g"))));
        engine.faults().unprocessNext(1);

        var response = dynamoDb.batchGetItem(b -> b.requestItems(Map.of(table, KeysAndAttributes.builder()
                .keys(Map.of("id", s("g0")), Map.of("id", s("g1")), Map.of("id", s("g2"))).build())));

        assertThat(response.responses().get(table)).hasSize(2);
        assertThat(response.unprocessedKeys().get(table).keys()).containsExactly(Map.of("id", s("g0")));
    }
}

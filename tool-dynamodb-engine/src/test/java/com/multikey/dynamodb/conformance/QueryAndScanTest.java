package com.multikey.dynamodb.conformance;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.Select;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static com.multikey.dynamodb.conformance.Errors.expect;
import static com.multikey.dynamodb.conformance.Errors.expectValidation;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Query and Scan, written from https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_Query.html
 * and API_Scan.html: Limit counts items read before the filter, a page holds at most 1 MB read, LastEvaluatedKey
 * of an index holds the index key and the table key, ConsistentRead is refused on a GSI.
 */
class QueryAndScanTest extends EngineTestSupport {

    private String tableWithTenItems() {
        String table = rangeTable();
        for (int i = 1; i <= 10; i++) {
            int sk = i;
            dynamoDb.putItem(b -> b.tableName(table).item(Map.of("pk", s("p"), "sk", n(Integer.toString(sk)),
                    "grp", s("g"), "rank", n(Integer.toString(sk % 3)), "odd", AttributeValue.fromBool(sk % 2 == 1))));
        }
        dynamoDb.putItem(b -> b.tableName(table).item(Map.of("pk", s("other"), "sk", n("1"))));
        return table;
    }

    @Test
    void query_sortConditionsAndDirection() {
        String table = tableWithTenItems();
        assertThat(sortKeys(dynamoDb.query(q(table, "pk = :p AND sk BETWEEN :a AND :b", Map.of(":a", n("3"), ":b", n("5"))))))
                .containsExactly("3", "4", "5");
        assertThat(sortKeys(dynamoDb.query(q(table, "pk = :p AND sk > :a", Map.of(":a", n("8"))))))
                .containsExactly("9", "10");
        assertThat(sortKeys(dynamoDb.query(q(table, "pk = :p AND sk <= :a", Map.of(":a", n("2"))).toBuilder().scanIndexForward(false).build())))
                .containsExactly("2", "1");
        assertThat(dynamoDb.query(q(table, "pk = :p", Map.of())).count()).isEqualTo(10);
    }

    @Test
    void query_ofAPartitionWithNoItems_withASortKeyCondition_findsNothing() {
        String table = tableWithTenItems();

        QueryResponse between = dynamoDb.query(b -> b.tableName(table).keyConditionExpression("pk = :p AND sk BETWEEN :a AND :b")
                .expressionAttributeValues(Map.of(":p", s("none"), ":a", n("3"), ":b", n("5"))));
        QueryResponse after = dynamoDb.query(b -> b.tableName(table).keyConditionExpression("pk = :p AND sk > :a")
                .expressionAttributeValues(Map.of(":p", s("none"), ":a", n("3"))).scanIndexForward(false));

        assertThat(between.count()).isZero();
        assertThat(after.count()).isZero();
        assertThat(after.hasLastEvaluatedKey() && !after.lastEvaluatedKey().isEmpty()).isFalse();
    }

    @Test
    void query_limitAppliesBeforeTheFilter_andPagesResume() {
        String table = tableWithTenItems();
        QueryRequest request = q(table, "pk = :p", Map.of(":t", AttributeValue.fromBool(true))).toBuilder()
                .filterExpression("odd = :t").limit(4).build();

        QueryResponse first = dynamoDb.query(request);

        assertThat(first.scannedCount()).isEqualTo(4);
        assertThat(first.count()).isEqualTo(2);
        assertThat(first.lastEvaluatedKey()).isEqualTo(Map.of("pk", s("p"), "sk", n("4")));
        List<String> all = new ArrayList<>();
        dynamoDb.queryPaginator(request).items().forEach(i -> all.add(i.get("sk").n()));
        assertThat(all).containsExactly("1", "3", "5", "7", "9");
    }

    @Test
    void query_onIndex_lastEvaluatedKeyHoldsIndexAndTableKeys() {
        String table = tableWithTenItems();
        QueryRequest request = QueryRequest.builder().tableName(table).indexName("ByGroup").keyConditionExpression("grp = :g")
                .expressionAttributeValues(Map.of(":g", s("g"))).limit(3).build();

        QueryResponse first = dynamoDb.query(request);

        assertThat(first.lastEvaluatedKey()).containsOnlyKeys("grp", "rank", "pk", "sk");
        List<String> ranks = new ArrayList<>();
        dynamoDb.queryPaginator(request).items().forEach(i -> ranks.add(i.get("rank").n() + "/" + i.get("sk").n()));
        assertThat(ranks).containsExactly("0/3", "0/6", "0/9", "1/1", "1/4", "1/7", "1/10", "2/2", "2/5", "2/8");
        expect(() -> dynamoDb.query(request.toBuilder().consistentRead(true).build()),
                DynamoDbException.class, "Consistent reads are not supported on global secondary indexes");
    }

    @Test
    void query_selectCountAndErrors() {
        String table = tableWithTenItems();
        QueryResponse count = dynamoDb.query(q(table, "pk = :p", Map.of()).toBuilder().select(Select.COUNT).build());
        assertThat(count.count()).isEqualTo(10);
        assertThat(count.hasItems()).isFalse();

        expect(() -> dynamoDb.query(q(table, "pk = :p", Map.of(":one", n("1"))).toBuilder().filterExpression("sk > :one").build()),
                DynamoDbException.class, "Filter Expression can only contain non-primary key attributes: Primary key attribute: sk");
        expect(() -> dynamoDb.query(q(table, "pk = :p", Map.of()).toBuilder().limit(0).build()),
                DynamoDbException.class, "failed to satisfy constraint: Member must have value greater than or equal to 1");
        expect(() -> dynamoDb.query(QueryRequest.builder().tableName(table).build()),
                DynamoDbException.class, "Either the KeyConditions or KeyConditionExpression parameter must be specified");
        expect(() -> dynamoDb.query(q(table, "pk = :p", Map.of()).toBuilder().indexName("Nope").build()),
                DynamoDbException.class, "The table does not have the specified index: Nope");
        expect(() -> dynamoDb.query(QueryRequest.builder().tableName(table).keyConditionExpression("pk = :p")
                        .expressionAttributeValues(Map.of(":p", n("1"))).build()),
                DynamoDbException.class, "Condition parameter type does not match schema type");
    }

    @Test
    void scan_pagesOf1MegabyteAsAwsCountsThem() {
        String table = hashTable();
        String big = "x".repeat(100 * 1024);
        for (int i = 0; i < 25; i++) {
            int index = i;
            dynamoDb.putItem(b -> b.tableName(table).item(Map.of("id", s(String.format("item-%02d", index)), "v", s(big))));
        }

        var first = dynamoDb.scan(b -> b.tableName(table));

        // 1 MB = 1,048,576 bytes; an item is a little over 100 KB, so the page ends at its 11th item
        assertThat(first.count()).isEqualTo(11);
        assertThat(first.hasLastEvaluatedKey()).isTrue();
        Set<String> ids = new HashSet<>();
        dynamoDb.scanPaginator(b -> b.tableName(table)).items().forEach(i -> ids.add(i.get("id").s()));
        assertThat(ids).hasSize(25);
    }

    @Test
    void scan_parallelSegmentsCoverEveryItemOnce() {
        String table = hashTable();
        for (int i = 0; i < 40; i++) {
            int index = i;
            dynamoDb.putItem(b -> b.tableName(table).item(Map.of("id", s("item-" + index))));
        }
        List<String> ids = new ArrayList<>();
        for (int segment = 0; segment < 3; segment++) {
            int current = segment;
            dynamoDb.scanPaginator(ScanRequest.builder().tableName(table).segment(current).totalSegments(3).limit(5).build())
                    .items().forEach(i -> ids.add(i.get("id").s()));
        }
        assertThat(ids).hasSize(40).doesNotHaveDuplicates();

        expect(() -> dynamoDb.scan(b -> b.tableName(table).segment(3).totalSegments(3)),
                DynamoDbException.class, "The Segment parameter is zero-based and must be less than parameter TotalSegments");
        expect(() -> dynamoDb.scan(b -> b.tableName(table).segment(0)),
                DynamoDbException.class, "The TotalSegments parameter is required");
        expect(() -> dynamoDb.scan(b -> b.tableName(table).segment(0).totalSegments(1_000_001)),
                DynamoDbException.class, "Member must have value less than or equal to 1000000");
    }

    @Test
    void scan_filterAndProjection() {
        String table = tableWithTenItems();
        var response = dynamoDb.scan(b -> b.tableName(table).filterExpression("sk >= :five AND pk = :p")
                .projectionExpression("sk").expressionAttributeValues(Map.of(":five", n("5"), ":p", s("p"))));
        assertThat(response.items()).hasSize(6).allSatisfy(i -> assertThat(i).containsOnlyKeys("sk"));
        assertThat(response.scannedCount()).isEqualTo(11);
    }

    // Key attribute values of type String and Binary have a length greater than zero (AWS API reference, PutItem
    // and Query: "Attribute values of type String and Binary must have a length greater than zero if the attribute
    // is used as a key attribute for a table or index"): a key condition that compares a key with an empty value
    // is refused, naming the key (and the index when the Query reads one), whatever its operator.

    private static final String EMPTY_STRING_KEY =
            "One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty string value. Key: ";
    private static final String EMPTY_BINARY_KEY =
            "One or more parameter values are not valid. The AttributeValue for a key attribute cannot contain an empty binary value. Key: ";

    /** A table keyed pk (S) and sk (S) holding sk "a" and "ab", with a GSI ByName on name (S). */
    private String stringSortKeyTable() {
        String table = uniqueName("strings");
        dynamoDb.createTable(b -> b.tableName(table).billingMode("PAY_PER_REQUEST")
                .attributeDefinitions(attribute("pk", ScalarAttributeType.S), attribute("sk", ScalarAttributeType.S),
                        attribute("name", ScalarAttributeType.S))
                .keySchema(key("pk", KeyType.HASH), key("sk", KeyType.RANGE))
                .globalSecondaryIndexes(g -> g.indexName("ByName").keySchema(key("name", KeyType.HASH))
                        .projection(pr -> pr.projectionType("ALL"))));
        dynamoDb.putItem(b -> b.tableName(table).item(Map.of("pk", s("p"), "sk", s("a"), "name", s("n"))));
        dynamoDb.putItem(b -> b.tableName(table).item(Map.of("pk", s("p"), "sk", s("ab"))));
        return table;
    }

    @Test
    void query_emptyStringSortKeyValue_refusedForEveryOperator() {
        String table = stringSortKeyTable();
        Map<String, AttributeValue> values = Map.of(":p", s("p"), ":e", s(""), ":z", s("z"));
        for (String condition : List.of("pk = :p AND begins_with(sk, :e)", "pk = :p AND sk > :e", "pk = :p AND sk = :e",
                "pk = :p AND sk >= :e", "pk = :p AND sk < :e", "pk = :p AND sk <= :e", "pk = :p AND :e < sk",
                "pk = :p AND sk BETWEEN :e AND :z", "begins_with(sk, :e) AND pk = :p")) {
            Map<String, AttributeValue> used = new java.util.HashMap<>(values);
            if (!condition.contains(":z")) {
                used.remove(":z");
            }
            expectValidation(() -> dynamoDb.query(b -> b.tableName(table).keyConditionExpression(condition)
                    .expressionAttributeValues(used)), EMPTY_STRING_KEY + "sk");
        }
        // at the limit: a value of one character
        QueryResponse one = dynamoDb.query(b -> b.tableName(table).keyConditionExpression("pk = :p AND begins_with(sk, :a)")
                .expressionAttributeValues(Map.of(":p", s("p"), ":a", s("a"))));
        assertThat(one.items()).extracting(i -> i.get("sk").s()).containsExactly("a", "ab");
    }

    @Test
    void query_emptyStringPartitionKeyValue_refused_onTheTableAndOnAnIndex() {
        String table = stringSortKeyTable();
        expectValidation(() -> dynamoDb.query(b -> b.tableName(table).keyConditionExpression("pk = :e")
                .expressionAttributeValues(Map.of(":e", s("")))), EMPTY_STRING_KEY + "pk");
        expectValidation(() -> dynamoDb.query(b -> b.tableName(table).keyConditionExpression("pk = :e AND sk = :a")
                .expressionAttributeValues(Map.of(":e", s(""), ":a", s("a")))), EMPTY_STRING_KEY + "pk");
        expectValidation(() -> dynamoDb.query(b -> b.tableName(table).indexName("ByName").keyConditionExpression("#n = :e")
                        .expressionAttributeNames(Map.of("#n", "name")).expressionAttributeValues(Map.of(":e", s("")))),
                "One or more parameter values are not valid. A value specified for a secondary index key is not supported. "
                        + "The AttributeValue for a key attribute cannot contain an empty string value. IndexName: ByName, IndexKey: name");
        assertThat(dynamoDb.query(b -> b.tableName(table).indexName("ByName").keyConditionExpression("#n = :n")
                .expressionAttributeNames(Map.of("#n", "name")).expressionAttributeValues(Map.of(":n", s("n")))).count()).isEqualTo(1);
    }

    @Test
    void query_emptyBinaryKeyValue_refused() {
        String table = uniqueName("binary");
        dynamoDb.createTable(b -> b.tableName(table).billingMode("PAY_PER_REQUEST")
                .attributeDefinitions(attribute("pk", ScalarAttributeType.B), attribute("sk", ScalarAttributeType.B))
                .keySchema(key("pk", KeyType.HASH), key("sk", KeyType.RANGE)));
        AttributeValue empty = AttributeValue.fromB(SdkBytes.fromByteArray(new byte[0]));
        AttributeValue one = AttributeValue.fromB(SdkBytes.fromByteArray(new byte[] {1}));
        dynamoDb.putItem(b -> b.tableName(table).item(Map.of("pk", one, "sk", one)));

        expectValidation(() -> dynamoDb.query(b -> b.tableName(table).keyConditionExpression("pk = :p AND sk > :e")
                .expressionAttributeValues(Map.of(":p", one, ":e", empty))), EMPTY_BINARY_KEY + "sk");
        expectValidation(() -> dynamoDb.query(b -> b.tableName(table).keyConditionExpression("pk = :p AND begins_with(sk, :e)")
                .expressionAttributeValues(Map.of(":p", one, ":e", empty))), EMPTY_BINARY_KEY + "sk");
        expectValidation(() -> dynamoDb.query(b -> b.tableName(table).keyConditionExpression("pk = :e")
                .expressionAttributeValues(Map.of(":e", empty))), EMPTY_BINARY_KEY + "pk");
        assertThat(dynamoDb.query(b -> b.tableName(table).keyConditionExpression("pk = :p AND sk >= :p")
                .expressionAttributeValues(Map.of(":p", one))).count()).isEqualTo(1);
    }

    private static QueryRequest q(String table, String condition, Map<String, AttributeValue> values) {
        Map<String, AttributeValue> all = new java.util.HashMap<>(values);
        all.put(":p", s("p"));
        return QueryRequest.builder().tableName(table).keyConditionExpression(condition).expressionAttributeValues(all).build();
    }

    private static List<String> sortKeys(QueryResponse response) {
        return response.items().stream().map(i -> i.get("sk").n()).toList();
    }

    /**
     * An ExclusiveStartKey whose sort key the key condition excludes is refused (as DynamoDB answers it), not
     * an internal error.
     */
    @Test
    void query_startKeyOutsideTheSortKeyCondition_isRefused() {
        String table = rangeTable();
        dynamoDb.putItem(b -> b.tableName(table).item(Map.of("pk", s("p"), "sk", n("5"))));
        expectValidation(() -> dynamoDb.query(b -> b.tableName(table).keyConditionExpression("pk = :p AND sk > :s")
                        .expressionAttributeValues(Map.of(":p", s("p"), ":s", n("3")))
                        .exclusiveStartKey(Map.of("pk", s("p"), "sk", n("1")))),
                "The provided starting key does not match the range key predicate");
        assertThat(dynamoDb.query(b -> b.tableName(table).keyConditionExpression("pk = :p AND sk > :s")
                .expressionAttributeValues(Map.of(":p", s("p"), ":s", n("3")))
                .exclusiveStartKey(Map.of("pk", s("p"), "sk", n("4")))).items()).hasSize(1);
    }
}

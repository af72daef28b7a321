package com.multikey.dynamodb.conformance;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeAction;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.AttributeValueUpdate;
import software.amazon.awssdk.services.dynamodb.model.ComparisonOperator;
import software.amazon.awssdk.services.dynamodb.model.Condition;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.ConditionalOperator;
import software.amazon.awssdk.services.dynamodb.model.ExpectedAttributeValue;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static com.multikey.dynamodb.conformance.Errors.expect;
import static com.multikey.dynamodb.conformance.Errors.expectValidation;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The legacy conditional parameters, written from AWS "Legacy DynamoDB conditional parameters" and "Writing
 * conditions with legacy parameters": AttributesToGet (GetItem, BatchGetItem, Query, Scan), KeyConditions (Query),
 * QueryFilter and ScanFilter, Expected (PutItem, UpdateItem, DeleteItem) with ConditionalOperator, AttributeUpdates
 * (UpdateItem). They are served as the expressions they stand for, never mixed with expressions in one request, and
 * checked (argument counts and types) before the table is looked up.
 */
class LegacyParametersTest extends EngineTestSupport {

    private static final String MISSING = "no-such-table";

    private static Condition condition(ComparisonOperator operator, AttributeValue... values) {
        return Condition.builder().comparisonOperator(operator).attributeValueList(Arrays.asList(values)).build();
    }

    private static ExpectedAttributeValue exists(boolean exists) {
        return ExpectedAttributeValue.builder().exists(exists).build();
    }

    private static ExpectedAttributeValue expected(ComparisonOperator operator, AttributeValue... values) {
        return ExpectedAttributeValue.builder().comparisonOperator(operator).attributeValueList(Arrays.asList(values)).build();
    }

    private static AttributeValueUpdate update(AttributeAction action, AttributeValue value) {
        return AttributeValueUpdate.builder().action(action).value(value).build();
    }

    private static AttributeValue ss(String... values) {
        return AttributeValue.fromSs(List.of(values));
    }

    @Test
    void getItem_attributesToGet_returnsOnlyThoseAttributes() {
        String table = hashTable();
        dynamoDb.putItem(b -> b.tableName(table).item(Map.of("id", s("a"), "x", n("1"), "y", s("two"), "z", n("3"))));

        var item = dynamoDb.getItem(b -> b.tableName(table).key(Map.of("id", s("a"))).attributesToGet("x", "y", "missing")).item();

        assertThat(item).isEqualTo(Map.of("x", n("1"), "y", s("two")));
    }

    @Test
    void batchGetItem_attributesToGet_returnsOnlyThoseAttributes() {
        String table = hashTable();
        dynamoDb.putItem(b -> b.tableName(table).item(Map.of("id", s("a"), "x", n("1"), "y", s("two"))));

        var items = dynamoDb.batchGetItem(b -> b.requestItems(Map.of(table,
                KeysAndAttributes.builder().keys(Map.of("id", s("a"))).attributesToGet("id", "y").build()))).responses().get(table);

        assertThat(items).containsExactly(Map.of("id", s("a"), "y", s("two")));
    }

    @Test
    void attributesToGet_duplicatesAndExpressions_refused() {
        String table = hashTable();
        expectValidation(() -> dynamoDb.getItem(b -> b.tableName(table).key(Map.of("id", s("a"))).attributesToGet("x", "x")),
                "One or more parameter values were invalid: Duplicate value in attribute name: x");
        expectValidation(() -> dynamoDb.getItem(b -> b.tableName(table).key(Map.of("id", s("a"))).attributesToGet("x")
                        .projectionExpression("y")),
                "Can not use both expression and non-expression parameters in the same request: "
                        + "Non-expression parameters: {AttributesToGet} Expression parameters: {ProjectionExpression}");
    }

    @Test
    void putItem_expected_existsAndValue() {
        String table = hashTable();
        Map<String, AttributeValue> item = Map.of("id", s("a"), "v", n("1"));
        dynamoDb.putItem(b -> b.tableName(table).item(item).expected(Map.of("id", exists(false))));

        expect(() -> dynamoDb.putItem(b -> b.tableName(table).item(item).expected(Map.of("id", exists(false)))),
                ConditionalCheckFailedException.class, "The conditional request failed");
        expect(() -> dynamoDb.putItem(b -> b.tableName(table).item(item)
                        .expected(Map.of("v", ExpectedAttributeValue.builder().value(n("2")).build()))),
                ConditionalCheckFailedException.class, "The conditional request failed");
        dynamoDb.putItem(b -> b.tableName(table).item(Map.of("id", s("a"), "v", n("2")))
                .expected(Map.of("v", ExpectedAttributeValue.builder().value(n("1")).exists(true).build(), "other", exists(false))));

        assertThat(dynamoDb.getItem(b -> b.tableName(table).key(Map.of("id", s("a")))).item().get("v")).isEqualTo(n("2"));
    }

    @Test
    void putItem_expected_comparisonOperatorsAndConditionalOperator() {
        String table = hashTable();
        dynamoDb.putItem(b -> b.tableName(table).item(Map.of("id", s("a"), "v", n("5"), "tags", ss("x", "y"), "name", s("alpha"))));
        Map<String, AttributeValue> next = Map.of("id", s("a"), "v", n("5"), "tags", ss("x", "y"), "name", s("alpha"));

        // each of these holds for the stored item
        for (Map<String, ExpectedAttributeValue> holds : List.of(
                Map.of("v", expected(ComparisonOperator.GT, n("4"))),
                Map.of("v", expected(ComparisonOperator.LE, n("5"))),
                Map.of("v", expected(ComparisonOperator.NE, s("5"))),
                Map.of("v", expected(ComparisonOperator.BETWEEN, n("5"), n("6"))),
                Map.of("v", expected(ComparisonOperator.IN, n("1"), n("5"))),
                Map.of("tags", expected(ComparisonOperator.CONTAINS, s("y"))),
                Map.of("tags", expected(ComparisonOperator.NOT_CONTAINS, s("z"))),
                Map.of("name", expected(ComparisonOperator.BEGINS_WITH, s("al"))),
                Map.of("name", expected(ComparisonOperator.NOT_NULL)),
                Map.of("nothing", expected(ComparisonOperator.NULL)),
                Map.of("v", ExpectedAttributeValue.builder().comparisonOperator(ComparisonOperator.EQ).value(n("5")).build()))) {
            dynamoDb.putItem(b -> b.tableName(table).item(next).expected(holds));
        }
        // and these do not
        for (Map<String, ExpectedAttributeValue> fails : List.of(
                Map.of("v", expected(ComparisonOperator.LT, n("5"))),
                Map.of("v", expected(ComparisonOperator.GE, s("5"))),
                Map.of("name", expected(ComparisonOperator.CONTAINS, s("z"))),
                Map.of("nothing", expected(ComparisonOperator.NOT_NULL)),
                Map.of("v", expected(ComparisonOperator.EQ, n("5")), "name", expected(ComparisonOperator.EQ, s("beta"))))) {
            expect(() -> dynamoDb.putItem(b -> b.tableName(table).item(next).expected(fails)),
                    ConditionalCheckFailedException.class, "The conditional request failed");
        }
        // OR: one of the two holds
        dynamoDb.putItem(b -> b.tableName(table).item(next).conditionalOperator(ConditionalOperator.OR)
                .expected(Map.of("v", expected(ComparisonOperator.EQ, n("5")), "name", expected(ComparisonOperator.EQ, s("beta")))));
    }

    @Test
    void expected_invalidCombinations_refusedBeforeTheLookup() {
        Map<String, AttributeValue> item = Map.of("id", s("a"));
        expectValidation(() -> dynamoDb.putItem(b -> b.tableName(MISSING).item(item)
                        .expected(Map.of("v", ExpectedAttributeValue.builder().exists(true).build()))),
                "One or more parameter values were invalid: Value must be provided when Exists is true for Attribute: v");
        expectValidation(() -> dynamoDb.putItem(b -> b.tableName(MISSING).item(item)
                        .expected(Map.of("v", ExpectedAttributeValue.builder().exists(false).value(n("1")).build()))),
                "One or more parameter values were invalid: Value cannot be used when Exists is false for Attribute: v");
        expectValidation(() -> dynamoDb.putItem(b -> b.tableName(MISSING).item(item)
                        .expected(Map.of("v", expected(ComparisonOperator.NULL).toBuilder().exists(false).build()))),
                "One or more parameter values were invalid: Exists and ComparisonOperator cannot be used together for Attribute: v");
        expectValidation(() -> dynamoDb.deleteItem(b -> b.tableName(MISSING).key(item)
                        .expected(Map.of("v", expected(ComparisonOperator.BETWEEN, n("1"))))),
                "One or more parameter values were invalid: Invalid number of argument(s) for the BETWEEN ComparisonOperator");
        expectValidation(() -> dynamoDb.deleteItem(b -> b.tableName(MISSING).key(item)
                        .expected(Map.of("v", expected(ComparisonOperator.BETWEEN, n("2"), n("1"))))),
                "The BETWEEN condition was provided a range where the lower bound is greater than the upper bound");
        expectValidation(() -> dynamoDb.deleteItem(b -> b.tableName(MISSING).key(item)
                        .expected(Map.of("v", expected(ComparisonOperator.LT, ss("a"))))),
                "One or more parameter values were invalid: ComparisonOperator LT is not valid for SS AttributeValue type");
        expectValidation(() -> dynamoDb.deleteItem(b -> b.tableName(MISSING).key(item).expected(Map.of("v", exists(false)))
                        .conditionExpression("attribute_exists(id)")),
                "Can not use both expression and non-expression parameters in the same request: "
                        + "Non-expression parameters: {Expected} Expression parameters: {ConditionExpression}");
        // a well-formed legacy request still answers that the table does not exist
        expect(() -> dynamoDb.deleteItem(b -> b.tableName(MISSING).key(item).expected(Map.of("v", exists(false)))),
                ResourceNotFoundException.class, "");
    }

    @Test
    void deleteItem_expected() {
        String table = hashTable();
        dynamoDb.putItem(b -> b.tableName(table).item(Map.of("id", s("a"), "v", n("1"))));

        expect(() -> dynamoDb.deleteItem(b -> b.tableName(table).key(Map.of("id", s("a"))).expected(Map.of("v", exists(false)))),
                ConditionalCheckFailedException.class, "The conditional request failed");
        var old = dynamoDb.deleteItem(b -> b.tableName(table).key(Map.of("id", s("a"))).returnValues(ReturnValue.ALL_OLD)
                .expected(Map.of("v", ExpectedAttributeValue.builder().value(n("1")).build()))).attributes();

        assertThat(old).isEqualTo(Map.of("id", s("a"), "v", n("1")));
        assertThat(dynamoDb.getItem(b -> b.tableName(table).key(Map.of("id", s("a")))).hasItem()).isFalse();
    }

    @Test
    void updateItem_attributeUpdates_putAddDelete() {
        String table = hashTable();
        Map<String, AttributeValue> key = Map.of("id", s("a"));
        dynamoDb.putItem(b -> b.tableName(table).item(Map.of("id", s("a"), "count", n("1"), "tags", ss("x", "y"),
                "list", AttributeValue.fromL(List.of(n("1"))), "gone", s("soon"), "kept", s("k"))));

        var updated = dynamoDb.updateItem(b -> b.tableName(table).key(key).returnValues(ReturnValue.ALL_NEW).attributeUpdates(Map.of(
                "count", update(AttributeAction.ADD, n("2")),
                "fresh", update(AttributeAction.ADD, n("7")),
                "tags", update(AttributeAction.DELETE, ss("x", "z")),
                "list", update(AttributeAction.ADD, AttributeValue.fromL(List.of(n("2")))),
                "gone", AttributeValueUpdate.builder().action(AttributeAction.DELETE).build(),
                "name", AttributeValueUpdate.builder().value(s("put by default")).build()))).attributes();

        assertThat(updated).isEqualTo(Map.of("id", s("a"), "count", n("3"), "fresh", n("7"), "tags", ss("y"),
                "list", AttributeValue.fromL(List.of(n("1"), n("2"))), "kept", s("k"), "name", s("put by default")));

        var changed = dynamoDb.updateItem(b -> b.tableName(table).key(key).returnValues(ReturnValue.UPDATED_OLD)
                .attributeUpdates(Map.of("tags", update(AttributeAction.DELETE, ss("y")), "kept", update(AttributeAction.PUT, s("new"))))
                .expected(Map.of("count", expected(ComparisonOperator.EQ, n("3"))))).attributes();

        assertThat(changed).isEqualTo(Map.of("tags", ss("y"), "kept", s("k")));
        assertThat(dynamoDb.getItem(b -> b.tableName(table).key(key)).item()).doesNotContainKey("tags").containsEntry("kept", s("new"));
    }

    @Test
    void updateItem_attributeUpdates_ofAnItemThatDoesNotExist_createsIt() {
        String table = hashTable();
        Map<String, AttributeValue> key = Map.of("id", s("new"));

        dynamoDb.updateItem(b -> b.tableName(table).key(key).attributeUpdates(Map.of(
                "n", update(AttributeAction.ADD, n("4")), "s", update(AttributeAction.ADD, ss("a")),
                "nothing", update(AttributeAction.DELETE, ss("a")))));

        assertThat(dynamoDb.getItem(b -> b.tableName(table).key(key)).item()).isEqualTo(Map.of("id", s("new"), "n", n("4"), "s", ss("a")));
    }

    @Test
    void updateItem_attributeUpdates_refused() {
        String table = hashTable();
        Map<String, AttributeValue> key = Map.of("id", s("a"));
        dynamoDb.putItem(b -> b.tableName(table).item(Map.of("id", s("a"), "v", s("text"))));

        expectValidation(() -> dynamoDb.updateItem(b -> b.tableName(table).key(key).attributeUpdates(Map.of("v", update(AttributeAction.ADD, n("1"))))),
                "Type mismatch for attribute to update");
        expectValidation(() -> dynamoDb.updateItem(b -> b.tableName(table).key(key).attributeUpdates(Map.of("id", update(AttributeAction.PUT, s("b"))))),
                "One or more parameter values were invalid: Cannot update attribute id. This attribute is part of the key");
        expectValidation(() -> dynamoDb.updateItem(b -> b.tableName(MISSING).key(key)
                        .attributeUpdates(Map.of("v", AttributeValueUpdate.builder().action(AttributeAction.ADD).build()))),
                "One or more parameter values were invalid: Only DELETE action is allowed when no attribute value is specified");
        expectValidation(() -> dynamoDb.updateItem(b -> b.tableName(MISSING).key(key).attributeUpdates(Map.of("v", update(AttributeAction.DELETE, s("x"))))),
                "One or more parameter values were invalid: DELETE action with value is not supported for the type S");
        expectValidation(() -> dynamoDb.updateItem(b -> b.tableName(MISSING).key(key).attributeUpdates(Map.of("v", update(AttributeAction.ADD, s("x"))))),
                "One or more parameter values were invalid: ADD action is not supported for the type S");
        expectValidation(() -> dynamoDb.updateItem(b -> b.tableName(MISSING).key(key).attributeUpdates(Map.of("v", update(AttributeAction.PUT, s("x"))))
                        .updateExpression("SET w = :w").expressionAttributeValues(Map.of(":w", n("1")))),
                "Can not use both expression and non-expression parameters in the same request: "
                        + "Non-expression parameters: {AttributeUpdates} Expression parameters: {UpdateExpression}");
    }

    private String tableWithItems() {
        String table = rangeTable();
        for (int i = 1; i <= 6; i++) {
            int sk = i;
            dynamoDb.putItem(b -> b.tableName(table).item(Map.of("pk", s("p"), "sk", n(Integer.toString(sk)),
                    "color", s(sk % 2 == 0 ? "red" : "blue"), "size", n(Integer.toString(sk * 10)))));
        }
        dynamoDb.putItem(b -> b.tableName(table).item(Map.of("pk", s("q"), "sk", n("1"))));
        return table;
    }

    private static List<String> sortKeys(List<Map<String, AttributeValue>> items) {
        return items.stream().map(item -> item.get("sk").n()).toList();
    }

    @Test
    void query_keyConditionsQueryFilterAndAttributesToGet() {
        String table = tableWithItems();

        QueryResponse between = dynamoDb.query(b -> b.tableName(table).keyConditions(Map.of(
                "pk", condition(ComparisonOperator.EQ, s("p")), "sk", condition(ComparisonOperator.BETWEEN, n("2"), n("5")))));
        QueryResponse filtered = dynamoDb.query(b -> b.tableName(table).scanIndexForward(false).keyConditions(Map.of(
                        "pk", condition(ComparisonOperator.EQ, s("p")), "sk", condition(ComparisonOperator.GT, n("1"))))
                .queryFilter(Map.of("color", condition(ComparisonOperator.EQ, s("red")), "size", condition(ComparisonOperator.LT, n("60"))))
                .attributesToGet("sk", "color"));
        QueryResponse either = dynamoDb.query(b -> b.tableName(table).keyConditions(Map.of("pk", condition(ComparisonOperator.EQ, s("p"))))
                .conditionalOperator(ConditionalOperator.OR)
                .queryFilter(Map.of("color", condition(ComparisonOperator.EQ, s("red")), "size", condition(ComparisonOperator.LT, n("20")))));
        QueryResponse withFilterExpression = dynamoDb.query(b -> b.tableName(table)
                .keyConditions(Map.of("pk", condition(ComparisonOperator.EQ, s("p"))))
                .filterExpression("color = :c").expressionAttributeValues(Map.of(":c", s("blue"))));

        assertThat(sortKeys(between.items())).containsExactly("2", "3", "4", "5");
        assertThat(filtered.items()).containsExactly(Map.of("sk", n("4"), "color", s("red")), Map.of("sk", n("2"), "color", s("red")));
        assertThat(filtered.scannedCount()).isEqualTo(5);
        assertThat(sortKeys(either.items())).containsExactly("1", "2", "4", "6");
        assertThat(sortKeys(withFilterExpression.items())).containsExactly("1", "3", "5");
    }

    @Test
    void query_keyConditions_onAnIndex() {
        String table = rangeTable();
        dynamoDb.putItem(b -> b.tableName(table).item(Map.of("pk", s("p"), "sk", n("1"), "grp", s("g"), "rank", n("9"))));
        dynamoDb.putItem(b -> b.tableName(table).item(Map.of("pk", s("p"), "sk", n("2"), "grp", s("g"), "rank", n("3"))));

        QueryResponse response = dynamoDb.query(b -> b.tableName(table).indexName("ByGroup").keyConditions(Map.of(
                "grp", condition(ComparisonOperator.EQ, s("g")), "rank", condition(ComparisonOperator.LE, n("9")))));

        assertThat(sortKeys(response.items())).containsExactly("2", "1");
    }

    @Test
    void query_keyConditions_refused() {
        String table = tableWithItems();
        expectValidation(() -> dynamoDb.query(b -> b.tableName(table).keyConditions(Map.of("pk", condition(ComparisonOperator.NE, s("p"))))),
                "Attempted conditional constraint is not an indexable operation");
        expectValidation(() -> dynamoDb.query(b -> b.tableName(table).keyConditions(Map.of("pk", condition(ComparisonOperator.GT, s("p"))))),
                "Query key condition not supported");
        expectValidation(() -> dynamoDb.query(b -> b.tableName(table).keyConditions(Map.of("sk", condition(ComparisonOperator.EQ, n("1"))))),
                "Query condition missed key schema element: pk");
        expectValidation(() -> dynamoDb.query(b -> b.tableName(table).keyConditions(Map.of("pk", condition(ComparisonOperator.EQ, n("1"))))),
                "One or more parameter values were invalid: Condition parameter type does not match schema type");
        expectValidation(() -> dynamoDb.query(b -> b.tableName(table).keyConditions(Map.of("pk", condition(ComparisonOperator.EQ, s("p"))))
                        .queryFilter(Map.of("sk", condition(ComparisonOperator.EQ, n("1"))))),
                "QueryFilter can only contain non-primary key attributes: Primary key attribute: sk");
        expectValidation(() -> dynamoDb.query(b -> b.tableName(MISSING).keyConditions(Map.of("pk", condition(ComparisonOperator.EQ, s("p"))))
                        .keyConditionExpression("pk = :p").expressionAttributeValues(Map.of(":p", s("p")))),
                "Can not use both expression and non-expression parameters in the same request: "
                        + "Non-expression parameters: {KeyConditions} Expression parameters: {KeyConditionExpression}");
        expectValidation(() -> dynamoDb.query(b -> b.tableName(MISSING).keyConditions(Map.of(
                        "a", condition(ComparisonOperator.EQ, s("p")), "b", condition(ComparisonOperator.EQ, s("p")),
                        "c", condition(ComparisonOperator.EQ, s("p"))))),
                "Conditions can be of length 1 or 2 only");
    }

    @Test
    void scan_scanFilter_eachOperator() {
        String table = tableWithItems();
        dynamoDb.putItem(b -> b.tableName(table).item(Map.of("pk", s("r"), "sk", n("1"), "color", s("green"),
                "tags", ss("a", "b"))));

        assertThat(scanned(table, Map.of("color", condition(ComparisonOperator.NE, s("blue"))))).containsExactly("p/2", "p/4", "p/6", "q/1", "r/1");
        assertThat(scanned(table, Map.of("color", condition(ComparisonOperator.IN, s("green"), s("red"))))).containsExactly("p/2", "p/4", "p/6", "r/1");
        assertThat(scanned(table, Map.of("size", condition(ComparisonOperator.BETWEEN, n("20"), n("40"))))).containsExactly("p/2", "p/3", "p/4");
        assertThat(scanned(table, Map.of("size", condition(ComparisonOperator.GE, n("50"))))).containsExactly("p/5", "p/6");
        assertThat(scanned(table, Map.of("color", condition(ComparisonOperator.NULL)))).containsExactly("q/1");
        assertThat(scanned(table, Map.of("tags", condition(ComparisonOperator.NOT_NULL)))).containsExactly("r/1");
        assertThat(scanned(table, Map.of("color", condition(ComparisonOperator.BEGINS_WITH, s("gr"))))).containsExactly("r/1");
        assertThat(scanned(table, Map.of("color", condition(ComparisonOperator.CONTAINS, s("e"))))).containsExactly("p/1", "p/2", "p/3", "p/4", "p/5", "p/6", "r/1");
        assertThat(scanned(table, Map.of("tags", condition(ComparisonOperator.CONTAINS, s("b"))))).containsExactly("r/1");
        assertThat(scanned(table, Map.of("color", condition(ComparisonOperator.NOT_CONTAINS, s("r"))))).containsExactly("p/1", "p/3", "p/5", "q/1");
    }

    @Test
    void scan_scanFilter_refusedBeforeTheLookup() {
        expectValidation(() -> dynamoDb.scan(b -> b.tableName(MISSING).scanFilter(Map.of("a", condition(ComparisonOperator.EQ)))),
                "One or more parameter values were invalid: Invalid number of argument(s) for the EQ ComparisonOperator");
        expectValidation(() -> dynamoDb.scan(b -> b.tableName(MISSING).scanFilter(Map.of("a", condition(ComparisonOperator.NULL, s("a"))))),
                "One or more parameter values were invalid: Invalid number of argument(s) for the NULL ComparisonOperator");
        expectValidation(() -> dynamoDb.scan(b -> b.tableName(MISSING).scanFilter(Map.of("a", condition(ComparisonOperator.IN, s("a"), n("1"))))),
                "One or more parameter values were invalid: AttributeValues inside AttributeValueList must be of same type");
        expectValidation(() -> dynamoDb.scan(b -> b.tableName(MISSING).scanFilter(Map.of("a", condition(ComparisonOperator.BEGINS_WITH, n("1"))))),
                "One or more parameter values were invalid: ComparisonOperator BEGINS_WITH is not valid for N AttributeValue type");
        expectValidation(() -> dynamoDb.scan(b -> b.tableName(MISSING).scanFilter(Map.of("a", condition(ComparisonOperator.CONTAINS, ss("a"))))),
                "One or more parameter values were invalid: ComparisonOperator CONTAINS is not valid for SS AttributeValue type");
        expectValidation(() -> dynamoDb.scan(b -> b.tableName(MISSING).scanFilter(Map.of("a", condition(ComparisonOperator.NULL)))
                        .filterExpression("attribute_exists(b)")),
                "Can not use both expression and non-expression parameters in the same request: "
                        + "Non-expression parameters: {ScanFilter} Expression parameters: {FilterExpression}");
        expect(() -> dynamoDb.scan(b -> b.tableName(MISSING).scanFilter(Map.of("a", condition(ComparisonOperator.NULL))).attributesToGet("a")),
                ResourceNotFoundException.class, "");
    }

    /** The items a ScanFilter keeps, as "pk/sk", sorted. */
    private List<String> scanned(String table, Map<String, Condition> filter) {
        ScanResponse response = dynamoDb.scan(b -> b.tableName(table).scanFilter(filter).attributesToGet("pk", "sk"));
        response.items().forEach(item -> assertThat(item.keySet()).containsOnly("pk", "sk"));
        return response.items().stream().map(item -> item.get("pk").s() + "/" + item.get("sk").n()).sorted().toList();
    }
}

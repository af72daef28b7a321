package com.multikey.dynamodb.conformance;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.ExecuteStatementResponse;
import software.amazon.awssdk.services.dynamodb.model.IdempotentParameterMismatchException;
import software.amazon.awssdk.services.dynamodb.model.ParameterizedStatement;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static com.multikey.dynamodb.conformance.Errors.expect;
import static com.multikey.dynamodb.conformance.Errors.expectValidation;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * PartiQL for DynamoDB at its edges: paging that must lose and repeat nothing, the limits a transaction shares with
 * TransactWriteItems, numbers, nested paths and the errors AWS's pages name.
 */
class PartiqlEdgesTest extends EngineTestSupport {

    private ExecuteStatementResponse execute(String statement, AttributeValue... parameters) {
        return dynamoDb.executeStatement(b -> {
            b.statement(statement);
            if (parameters.length > 0) {
                b.parameters(parameters);
            }
        });
    }

    private List<Map<String, AttributeValue>> allPages(String statement, int limit) {
        List<Map<String, AttributeValue>> found = new ArrayList<>();
        String token = null;
        int pages = 0;
        do {
            String next = token;
            var page = dynamoDb.executeStatement(b -> b.statement(statement).limit(limit).nextToken(next));
            found.addAll(page.items());
            token = page.nextToken();
            pages++;
        } while (token != null && pages < 100);
        return found;
    }

    @Test
    void select_ofAGlobalIndex_whoseItemsShareTheirIndexKey_isPagedWithoutLossOrRepeat() {
        String table = rangeTable();
        for (int i = 0; i < 7; i++) {
            String pk = "p" + i;
            dynamoDb.putItem(b -> b.tableName(table).item(Map.of("pk", s(pk), "sk", n("1"), "grp", s("g"), "rank", n("1"))));
        }

        var byPartition = allPages("SELECT pk FROM \"" + table + "\".\"ByGroup\" WHERE grp = 'g'", 2);
        var scanned = allPages("SELECT pk FROM \"" + table + "\".\"ByGroup\"", 3);

        assertThat(byPartition).extracting(i -> i.get("pk").s()).containsExactlyInAnyOrder("p0", "p1", "p2", "p3", "p4", "p5", "p6");
        assertThat(scanned).extracting(i -> i.get("pk").s()).containsExactlyInAnyOrder("p0", "p1", "p2", "p3", "p4", "p5", "p6");
    }

    @Test
    void select_orderedDescending_isPagedWithoutLossOrRepeat() {
        String table = rangeTable();
        for (int i = 1; i <= 5; i++) {
            String sk = String.valueOf(i);
            dynamoDb.putItem(b -> b.tableName(table).item(Map.of("pk", s("a"), "sk", n(sk))));
        }
        dynamoDb.putItem(b -> b.tableName(table).item(Map.of("pk", s("b"), "sk", n("9"))));

        var found = allPages("SELECT sk FROM \"" + table + "\" WHERE pk = 'a' ORDER BY sk DESC", 2);

        assertThat(found).extracting(i -> i.get("sk").n()).containsExactly("5", "4", "3", "2", "1");
    }

    @Test
    void select_byWholeKey_withANumberWrittenOtherwise_findsTheItem() {
        String table = rangeTable();
        dynamoDb.putItem(b -> b.tableName(table).item(Map.of("pk", s("a"), "sk", n("10"), "v", s("x"))));

        var response = execute("SELECT v FROM \"" + table + "\" WHERE pk = 'a' AND sk = 1.0e1");

        assertThat(response.items()).containsExactly(Map.of("v", s("x")));
    }

    @Test
    void numbers_of38Digits_andNestedPaths_roundTrip() {
        String table = hashTable();
        String big = "12345678901234567890123456789012345678";
        execute("INSERT INTO \"" + table + "\" VALUE {'id': 'a', 'n': " + big + ", 'm': {'l': [1, {'x': 'deep'}]}}");

        var response = execute("SELECT n, m.l[1].x FROM \"" + table + "\" WHERE id = 'a'");
        execute("UPDATE \"" + table + "\" SET m.l[0] = m.l[0] + 1 WHERE id = 'a'");
        var updated = execute("SELECT m.l[0] FROM \"" + table + "\" WHERE id = 'a'");

        assertThat(response.items()).containsExactly(Map.of("n", n(big),
                "m", AttributeValue.fromM(Map.of("l", AttributeValue.fromL(List.of(AttributeValue.fromM(Map.of("x", s("deep")))))))));
        assertThat(updated.items()).containsExactly(Map.of("m", AttributeValue.fromM(Map.of("l", AttributeValue.fromL(List.of(n("2")))))));
    }

    @Test
    void insert_withoutTheKey_isRefusedAsPutItemRefusesIt() {
        String table = hashTable();

        expectValidation(() -> execute("INSERT INTO \"" + table + "\" VALUE {'v': 1}"),
                "One or more parameter values were invalid: Missing the key id in the item");
    }

    @Test
    void delete_whoseConditionFails_returnsTheOldItem_whenAsked() {
        String table = hashTable();
        dynamoDb.putItem(b -> b.tableName(table).item(Map.of("id", s("a"), "v", n("1"))));

        ConditionalCheckFailedException failed = expect(() -> dynamoDb.executeStatement(b -> b
                        .statement("DELETE FROM \"" + table + "\" WHERE id = 'a' AND v = 2")
                        .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)),
                ConditionalCheckFailedException.class, "The conditional request failed");

        assertThat(failed.item()).isEqualTo(Map.of("id", s("a"), "v", n("1")));
    }

    @Test
    void executeTransaction_withATokenReusedForAnotherTransaction_isAnIdempotentParameterMismatch() {
        String table = hashTable();
        dynamoDb.executeTransaction(b -> b.clientRequestToken("edges-token-1").transactStatements(
                ParameterizedStatement.builder().statement("INSERT INTO \"" + table + "\" VALUE {'id': 'a'}").build()));

        expect(() -> dynamoDb.executeTransaction(b -> b.clientRequestToken("edges-token-1").transactStatements(
                        ParameterizedStatement.builder().statement("INSERT INTO \"" + table + "\" VALUE {'id': 'b'}").build())),
                IdempotentParameterMismatchException.class, "");
    }

    @Test
    void executeTransaction_largerThan4MB_isRefusedAsTransactWriteItemsIs() {
        String table = hashTable();
        String big = "x".repeat(390_000);
        List<ParameterizedStatement> statements = new ArrayList<>();
        for (int i = 0; i < 11; i++) {
            statements.add(ParameterizedStatement.builder().statement("INSERT INTO \"" + table + "\" VALUE {'id': ?, 'big': ?}")
                    .parameters(s("item-" + i), s(big)).build());
        }

        expectValidation(() -> dynamoDb.executeTransaction(b -> b.transactStatements(statements)),
                "Transaction request cannot be larger than 4 MB");

        assertThat(dynamoDb.scan(b -> b.tableName(table)).count()).isZero();
    }

    /**
     * AWS's naming rules and data types (HowItWorks.NamingRulesDataTypes.html): an attribute name is at least one
     * character long, a set's values are unique, and a value nests at most 32 levels; PutItem refuses an item that
     * breaks one of them, and an INSERT or an UPDATE writing it as PartiQL literals must not store it either.
     */
    @Test
    void literals_breakingDynamoDbsRulesOnNamesSetsAndNesting_areRefusedAsPutItemRefusesThem() {
        String table = hashTable();
        dynamoDb.putItem(b -> b.tableName(table).item(Map.of("id", s("u"))));
        String deep = "[".repeat(33) + "1" + "]".repeat(33);

        for (String statement : List.of(
                "INSERT INTO \"" + table + "\" VALUE {'id': 'a', '': 1}",
                "INSERT INTO \"" + table + "\" VALUE {'id': 'b', 'm': {'': 1}}",
                "INSERT INTO \"" + table + "\" VALUE {'id': 'c', 'ss': <<'x', 'x'>>}",
                "INSERT INTO \"" + table + "\" VALUE {'id': 'd', 'ns': <<1, 1.0>>}",
                "INSERT INTO \"" + table + "\" VALUE {'id': 'e', 'deep': " + deep + "}",
                "UPDATE \"" + table + "\" SET m = {'': 1} WHERE id = 'u'",
                "UPDATE \"" + table + "\" SET ss = <<'x', 'x'>> WHERE id = 'u'")) {
            DynamoDbException error = expect(() -> execute(statement), DynamoDbException.class, "");
            assertThat(error.awsErrorDetails().errorCode()).as(statement).isEqualTo("ValidationException");
        }

        assertThat(dynamoDb.scan(b -> b.tableName(table)).items()).containsExactly(Map.of("id", s("u")));
    }

    /** ql-reference.select.html: {@code [ORDER BY key [DESC|ASC] , ...]}, several keys, each a hash or range key. */
    @Test
    void select_orderedBySeveralKeys_isServed_andAKeyThatIsNoneIsRefused() {
        String table = rangeTable();
        for (int i = 1; i <= 3; i++) {
            String sk = String.valueOf(i);
            dynamoDb.putItem(b -> b.tableName(table).item(Map.of("pk", s("a"), "sk", n(sk), "v", n(sk))));
        }

        var descending = execute("SELECT sk FROM \"" + table + "\" WHERE pk = 'a' ORDER BY pk, sk DESC");
        var ascending = execute("SELECT sk FROM \"" + table + "\" WHERE pk = 'a' ORDER BY sk ASC, pk DESC");

        assertThat(descending.items()).extracting(i -> i.get("sk").n()).containsExactly("3", "2", "1");
        assertThat(ascending.items()).extracting(i -> i.get("sk").n()).containsExactly("1", "2", "3");
        expectValidation(() -> execute("SELECT sk FROM \"" + table + "\" WHERE pk = 'a' ORDER BY sk, v"),
                "Variable reference [v] must be a hash or range key with an equality condition on the hash key to be used in ORDER BY clause.");
    }

    /** ql-operators.html: IN takes at most 50 hash attribute values, or at most 100 non-key attribute values. */
    @Test
    void select_inMoreThan50PartitionKeysOr100Values_isRefused() {
        String table = hashTable();
        dynamoDb.putItem(b -> b.tableName(table).item(Map.of("id", s("k0"), "v", n("0"))));
        String fifty = String.join(", ", java.util.stream.IntStream.range(0, 50).mapToObj(i -> "'k" + i + "'").toList());
        String hundred = String.join(", ", java.util.stream.IntStream.range(0, 100).mapToObj(String::valueOf).toList());

        assertThat(execute("SELECT id FROM \"" + table + "\" WHERE id IN [" + fifty + "]").items()).containsExactly(Map.of("id", s("k0")));
        assertThat(execute("SELECT id FROM \"" + table + "\" WHERE v IN [" + hundred + "]").items()).containsExactly(Map.of("id", s("k0")));
        for (String statement : List.of("SELECT id FROM \"" + table + "\" WHERE id IN [" + fifty + ", 'k50']",
                "SELECT id FROM \"" + table + "\" WHERE v IN [" + hundred + ", 100]")) {
            DynamoDbException error = expect(() -> execute(statement), DynamoDbException.class, "");
            assertThat(error.awsErrorDetails().errorCode()).as(statement).isEqualTo("ValidationException");
        }
    }

    /**
     * A SELECT with an equality on the partition key is a Query (ql-reference.select.html), whose sort key conditions
     * bound the items it reads: Limit (API_ExecuteStatement.html, "the maximum number of items to evaluate") counts
     * only those, as the same Query's Limit does.
     */
    @Test
    void select_ofAPartitionWithASortKeyCondition_andALimit_evaluatesOnlyTheItemsInItsRange() {
        String table = rangeTable();
        for (int i = 1; i <= 10; i++) {
            String sk = String.valueOf(i);
            dynamoDb.putItem(b -> b.tableName(table).item(Map.of("pk", s("a"), "sk", n(sk))));
        }

        var above = dynamoDb.executeStatement(b -> b.statement("SELECT sk FROM \"" + table + "\" WHERE pk = 'a' AND sk > 8").limit(2));
        var between = dynamoDb.executeStatement(b -> b.statement(
                "SELECT sk FROM \"" + table + "\" WHERE pk = 'a' AND sk BETWEEN 4 AND 5 ORDER BY sk DESC").limit(2));
        var query = dynamoDb.query(b -> b.tableName(table).keyConditionExpression("pk = :p AND sk > :s")
                .expressionAttributeValues(Map.of(":p", s("a"), ":s", n("8"))).limit(2));

        assertThat(query.items()).extracting(i -> i.get("sk").n()).containsExactly("9", "10");
        assertThat(above.items()).extracting(i -> i.get("sk").n()).containsExactly("9", "10");
        assertThat(between.items()).extracting(i -> i.get("sk").n()).containsExactly("5", "4");
    }

    /**
     * A statement within ExecuteStatement's 8,192 characters (API_ExecuteStatement.html) that nests thousands of
     * parentheses or lists is answered, as any statement is, with a ValidationException, not a dropped connection.
     */
    @Test
    void statement_nestingThousandsOfLevels_isAValidationException() {
        String table = hashTable();
        dynamoDb.putItem(b -> b.tableName(table).item(Map.of("id", s("a"))));

        for (String statement : List.of(
                "SELECT * FROM \"" + table + "\" WHERE " + "(".repeat(4000) + "id = 'a'" + ")".repeat(4000),
                "INSERT INTO \"" + table + "\" VALUE {'id': 'z', 'l': " + "[".repeat(4000) + "]".repeat(4000) + "}",
                "SELECT * FROM \"" + table + "\" WHERE " + "size(".repeat(1600) + "id" + ")".repeat(1600) + " = 1")) {
            DynamoDbException error = expect(() -> execute(statement), DynamoDbException.class, "");
            assertThat(error.awsErrorDetails().errorCode()).isEqualTo("ValidationException");
        }

        assertThat(execute("SELECT * FROM \"" + table + "\" WHERE " + "(".repeat(30) + "id = 'a'" + ")".repeat(30)).items()).hasSize(1);
    }
}

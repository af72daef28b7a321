package com.multikey.dynamodb.conformance;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchStatementErrorCodeEnum;
import software.amazon.awssdk.services.dynamodb.model.BatchStatementRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchStatementResponse;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.DuplicateItemException;
import software.amazon.awssdk.services.dynamodb.model.ExecuteStatementResponse;
import software.amazon.awssdk.services.dynamodb.model.OperationType;
import software.amazon.awssdk.services.dynamodb.model.ParameterizedStatement;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.ShardIteratorType;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static com.multikey.dynamodb.conformance.Errors.expect;
import static com.multikey.dynamodb.conformance.Errors.expectValidation;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * PartiQL for DynamoDB (ExecuteStatement, BatchExecuteStatement, ExecuteTransaction), written from AWS's developer
 * guide (ql-reference.select.html, ql-reference.insert.html, ql-reference.update.html, ql-reference.delete.html,
 * ql-reference.multiplestatements.batching.html and .transactions.html) and the API reference
 * (API_ExecuteStatement.html, API_BatchExecuteStatement.html, API_BatchStatementError.html, API_ExecuteTransaction.html).
 */
class PartiqlTest extends EngineTestSupport {

    private ExecuteStatementResponse execute(String statement, AttributeValue... parameters) {
        return dynamoDb.executeStatement(b -> {
            b.statement(statement);
            if (parameters.length > 0) {
                b.parameters(parameters);
            }
        });
    }

    private Map<String, AttributeValue> get(String table, String id) {
        var response = dynamoDb.getItem(b -> b.tableName(table).key(Map.of("id", s(id))).consistentRead(true));
        return response.hasItem() ? response.item() : null;
    }

    @Test
    void insert_thenSelectByKey_withParametersAndLiterals() {
        // given
        String table = hashTable();

        // when
        execute("INSERT INTO \"" + table + "\" VALUE {'id': ?, 'n': 12.50, 'ok': true, 'nothing': null, "
                + "'m': {'k': 'v', 'l': [1, 'two']}, 'ss': <<'a', 'b'>>, 'ns': <<1, 2>>, 'it''s': 'quote'}", s("a"));
        var selected = execute("SELECT * FROM \"" + table + "\" WHERE id = 'a'");

        // then
        Map<String, AttributeValue> expected = Map.of("id", s("a"), "n", n("12.5"), "ok", AttributeValue.fromBool(true),
                "nothing", AttributeValue.fromNul(true),
                "m", AttributeValue.fromM(Map.of("k", s("v"), "l", AttributeValue.fromL(List.of(n("1"), s("two"))))),
                "ss", AttributeValue.fromSs(List.of("a", "b")), "ns", AttributeValue.fromNs(List.of("1", "2")), "it's", s("quote"));
        assertThat(selected.items()).containsExactly(expected);
        assertThat(get(table, "a")).isEqualTo(expected);
    }

    @Test
    void insert_whenTheItemExists_isDuplicateItemAndChangesNothing() {
        String table = hashTable();
        execute("INSERT INTO \"" + table + "\" VALUE {'id': 'a', 'v': 1}");

        expect(() -> execute("INSERT INTO \"" + table + "\" VALUE {'id': 'a', 'v': 2}"), DuplicateItemException.class,
                "Duplicate primary key exists in table");

        assertThat(get(table, "a")).isEqualTo(Map.of("id", s("a"), "v", n("1")));
    }

    @Test
    void update_setAndRemove_returningAllNew() {
        String table = hashTable();
        dynamoDb.putItem(b -> b.tableName(table).item(Map.of("id", s("a"), "v", n("1"), "gone", s("x"),
                "l", AttributeValue.fromL(List.of(n("1"))), "m", AttributeValue.fromM(Map.of("k", s("old"))))));

        var response = execute("UPDATE \"" + table + "\" SET v = v + ? SET \"a.b\" = 'dotted', m.k = 'new', l = list_append(l, [2]) "
                + "REMOVE gone WHERE id = 'a' RETURNING ALL NEW *", n("2"));

        Map<String, AttributeValue> expected = Map.of("id", s("a"), "v", n("3"), "a.b", s("dotted"),
                "l", AttributeValue.fromL(List.of(n("1"), n("2"))), "m", AttributeValue.fromM(Map.of("k", s("new"))));
        assertThat(response.items()).containsExactly(expected);
        assertThat(get(table, "a")).isEqualTo(expected);
    }

    @Test
    void update_setAddAndSetDelete_onSets() {
        String table = hashTable();
        dynamoDb.putItem(b -> b.tableName(table).item(Map.of("id", s("a"), "tags", AttributeValue.fromSs(List.of("x", "y")))));

        execute("UPDATE \"" + table + "\" SET tags = set_add(tags, <<'z'>>) WHERE id = 'a'");
        execute("UPDATE \"" + table + "\" SET tags = set_delete(tags, <<'x'>>) WHERE id = 'a'");

        assertThat(get(table, "a").get("tags").ss()).containsExactlyInAnyOrder("y", "z");
    }

    @Test
    void update_whenTheItemIsMissingOrAConditionFails_isConditionalCheckFailed() {
        String table = hashTable();
        dynamoDb.putItem(b -> b.tableName(table).item(Map.of("id", s("a"), "v", n("1"))));

        expect(() -> execute("UPDATE \"" + table + "\" SET v = 5 WHERE id = 'missing'"), ConditionalCheckFailedException.class,
                "The conditional request failed");
        expect(() -> execute("UPDATE \"" + table + "\" SET v = 5 WHERE id = 'a' AND v > 1"), ConditionalCheckFailedException.class,
                "The conditional request failed");
        execute("UPDATE \"" + table + "\" SET v = 5 WHERE id = 'a' AND v = 1");

        assertThat(get(table, "missing")).isNull();
        assertThat(get(table, "a")).isEqualTo(Map.of("id", s("a"), "v", n("5")));
    }

    @Test
    void updateAndDelete_withoutTheWholeKey_areRefused() {
        String table = rangeTable();

        expectValidation(() -> execute("UPDATE \"" + table + "\" SET v = 1 WHERE pk = 'p'"),
                "Where clause does not contain a mandatory equality on all key attributes");
        expectValidation(() -> execute("DELETE FROM \"" + table + "\" WHERE pk = 'p' OR sk = 1"),
                "Where clause does not contain a mandatory equality on all key attributes");
    }

    @Test
    void delete_withACondition_andOfAMissingItem() {
        String table = hashTable();
        dynamoDb.putItem(b -> b.tableName(table).item(Map.of("id", s("a"), "v", n("1"))));

        execute("DELETE FROM \"" + table + "\" WHERE id = 'missing'");
        // ql-reference.delete.html: no item with the key is a SUCCESS with nothing deleted, whatever the rest of the WHERE clause
        execute("DELETE FROM \"" + table + "\" WHERE id = 'missing' AND v = 2");
        expect(() -> execute("DELETE FROM \"" + table + "\" WHERE id = 'a' AND v = 2"), ConditionalCheckFailedException.class,
                "The conditional request failed");
        var deleted = execute("DELETE FROM \"" + table + "\" WHERE id = 'a' AND v = 1 RETURNING ALL OLD *");

        assertThat(deleted.items()).containsExactly(Map.of("id", s("a"), "v", n("1")));
        assertThat(get(table, "a")).isNull();
    }

    @Test
    void select_partitionInOrderOrReversed_withProjectionAndFilter() {
        String table = rangeTable();
        for (int i = 1; i <= 4; i++) {
            String sk = String.valueOf(i);
            dynamoDb.putItem(b -> b.tableName(table).item(Map.of("pk", s("p"), "sk", n(sk), "v", n(sk), "other", s("x"))));
        }
        dynamoDb.putItem(b -> b.tableName(table).item(Map.of("pk", s("q"), "sk", n("1"), "v", n("1"))));

        var ascending = execute("SELECT sk, v FROM \"" + table + "\" WHERE pk = ? AND v >= 2", s("p"));
        var descending = execute("SELECT sk FROM \"" + table + "\" WHERE pk = 'p' ORDER BY sk DESC");

        assertThat(ascending.items()).extracting(i -> i.get("sk").n()).containsExactly("2", "3", "4");
        assertThat(ascending.items()).allSatisfy(i -> assertThat(i).containsOnlyKeys("sk", "v"));
        assertThat(descending.items()).extracting(i -> i.get("sk").n()).containsExactly("4", "3", "2", "1");
    }

    @Test
    void select_ofSeveralPartitions_byInAndOr() {
        // ql-reference.select.html's examples: OrderID = 100 OR OrderID = 200, OrderID IN [100, 300, 234]
        String table = hashTable();
        for (String id : List.of("100", "200", "300", "234", "999")) {
            dynamoDb.putItem(b -> b.tableName(table).item(Map.of("id", s(id))));
        }

        var or = execute("SELECT id FROM \"" + table + "\" WHERE id = '100' OR id = '200'");
        var in = execute("SELECT id FROM \"" + table + "\" WHERE id IN ['100', '300', '234']");

        assertThat(or.items()).extracting(i -> i.get("id").s()).containsExactlyInAnyOrder("100", "200");
        assertThat(in.items()).extracting(i -> i.get("id").s()).containsExactlyInAnyOrder("100", "300", "234");
    }

    @Test
    void update_whoseConditionFails_returnsTheOldItem_whenAsked() {
        String table = hashTable();
        dynamoDb.putItem(b -> b.tableName(table).item(Map.of("id", s("a"), "v", n("1"))));

        var error = expect(() -> dynamoDb.executeStatement(b -> b.statement("UPDATE \"" + table + "\" SET v = 2 WHERE id = 'a' AND v = 0")
                        .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)),
                ConditionalCheckFailedException.class, "The conditional request failed");

        assertThat(error.item()).isEqualTo(Map.of("id", s("a"), "v", n("1")));
    }

    @Test
    void select_orderByWithoutWhere_isRefused() {
        String table = rangeTable();

        expectValidation(() -> execute("SELECT * FROM \"" + table + "\" ORDER BY sk"),
                "Must have WHERE clause in the statement when using ORDER BY clause.");
    }

    @Test
    void select_withoutKey_scansWithFilter_pagedByLimitAndNextToken() {
        String table = hashTable();
        for (int i = 0; i < 10; i++) {
            String id = "item-" + i;
            String v = String.valueOf(i % 2);
            dynamoDb.putItem(b -> b.tableName(table).item(Map.of("id", s(id), "v", n(v))));
        }

        List<String> found = new ArrayList<>();
        String token = null;
        int pages = 0;
        do {
            String next = token;
            var page = dynamoDb.executeStatement(b -> b.statement("SELECT id FROM \"" + table + "\" WHERE v = 1").limit(3).nextToken(next));
            page.items().forEach(i -> found.add(i.get("id").s()));
            token = page.nextToken();
            pages++;
        } while (token != null && pages < 20);

        assertThat(found).containsExactlyInAnyOrder("item-1", "item-3", "item-5", "item-7", "item-9");
        assertThat(pages).isGreaterThanOrEqualTo(4);
    }

    @Test
    void select_ofAGlobalIndex() {
        String table = rangeTable();
        dynamoDb.putItem(b -> b.tableName(table).item(Map.of("pk", s("a"), "sk", n("1"), "grp", s("g"), "rank", n("2"))));
        dynamoDb.putItem(b -> b.tableName(table).item(Map.of("pk", s("b"), "sk", n("1"), "grp", s("g"), "rank", n("1"))));
        dynamoDb.putItem(b -> b.tableName(table).item(Map.of("pk", s("c"), "sk", n("1"), "grp", s("h"), "rank", n("1"))));

        var response = execute("SELECT pk FROM \"" + table + "\".\"ByGroup\" WHERE grp = 'g'");

        assertThat(response.items()).extracting(i -> i.get("pk").s()).containsExactly("b", "a");
    }

    @Test
    void parameters_whenTheirNumberDiffers_areRefused() {
        String table = hashTable();

        expectValidation(() -> execute("SELECT * FROM \"" + table + "\" WHERE id = ?"),
                "Number of parameters in request and statement don't match.");
        expectValidation(() -> execute("SELECT * FROM \"" + table + "\" WHERE id = 'a'", s("extra")),
                "Number of parameters in request and statement don't match.");
    }

    @Test
    void statement_onATableThatDoesNotExist_isResourceNotFound() {
        expect(() -> execute("SELECT * FROM \"" + uniqueName("missing") + "\" WHERE id = 'a'"), ResourceNotFoundException.class,
                "Requested resource not found");
    }

    @Test
    void writes_produceTheStreamRecordsOfTheJsonApisWrites() {
        String table = hashTable();

        execute("INSERT INTO \"" + table + "\" VALUE {'id': 'a', 'v': 1}");
        execute("UPDATE \"" + table + "\" SET v = 2 WHERE id = 'a'");
        execute("UPDATE \"" + table + "\" SET v = 2 WHERE id = 'a'");
        execute("DELETE FROM \"" + table + "\" WHERE id = 'a'");

        String arn = dynamoDb.describeTable(b -> b.tableName(table)).table().latestStreamArn();
        String shard = streams.describeStream(b -> b.streamArn(arn)).streamDescription().shards().get(0).shardId();
        String iterator = streams.getShardIterator(b -> b.streamArn(arn).shardId(shard)
                .shardIteratorType(ShardIteratorType.TRIM_HORIZON)).shardIterator();
        List<Record> records = streams.getRecords(b -> b.shardIterator(iterator)).records();
        assertThat(records).extracting(Record::eventName)
                .containsExactly(OperationType.INSERT, OperationType.MODIFY, OperationType.REMOVE);
        assertThat(records.get(1).dynamodb().oldImage()).isEqualTo(Map.of("id", s("a"), "v", n("1")));
        assertThat(records.get(1).dynamodb().newImage()).isEqualTo(Map.of("id", s("a"), "v", n("2")));
        assertThat(records.get(2).dynamodb().keys()).isEqualTo(Map.of("id", s("a")));
    }

    @EngineOnly("TTL expiry on demand")
    @Test
    void insert_ofAnItemWithAPastTtl_isExpiredAsAnyOther() {
        String table = hashTable();
        dynamoDb.updateTimeToLive(b -> b.tableName(table).timeToLiveSpecification(t -> t.enabled(true).attributeName("expiresAt")));
        long past = clock.instant().getEpochSecond() - 60;

        execute("INSERT INTO \"" + table + "\" VALUE {'id': 'a', 'expiresAt': " + past + "}");
        int expired = engine.expire(table, clock.instant());

        assertThat(expired).isEqualTo(1);
        String arn = dynamoDb.describeTable(b -> b.tableName(table)).table().latestStreamArn();
        String shard = streams.describeStream(b -> b.streamArn(arn)).streamDescription().shards().get(0).shardId();
        String iterator = streams.getShardIterator(b -> b.streamArn(arn).shardId(shard)
                .shardIteratorType(ShardIteratorType.TRIM_HORIZON)).shardIterator();
        List<Record> records = streams.getRecords(b -> b.shardIterator(iterator)).records();
        assertThat(records).extracting(Record::eventName).containsExactly(OperationType.INSERT, OperationType.REMOVE);
        assertThat(records.get(1).userIdentity().principalId()).isEqualTo("dynamodb.amazonaws.com");
    }

    @Test
    void executeStatement_returnsConsumedCapacity_whenAsked() {
        String table = hashTable();

        var response = dynamoDb.executeStatement(b -> b.statement("INSERT INTO \"" + table + "\" VALUE {'id': 'a'}")
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL));

        assertThat(response.consumedCapacity().tableName()).isEqualTo(table);
        assertThat(response.consumedCapacity().capacityUnits()).isEqualTo(1.0);
    }

    @Test
    void batchExecuteStatement_answersEachStatement_withAnErrorOrItsResult() {
        String table = hashTable();
        dynamoDb.putItem(b -> b.tableName(table).item(Map.of("id", s("exists"))));

        var writes = dynamoDb.batchExecuteStatement(b -> b.statements(
                BatchStatementRequest.builder().statement("INSERT INTO \"" + table + "\" VALUE {'id': ?}").parameters(s("new")).build(),
                BatchStatementRequest.builder().statement("INSERT INTO \"" + table + "\" VALUE {'id': 'exists'}").build(),
                BatchStatementRequest.builder().statement("UPDATE \"" + table + "\" SET v = 1 WHERE id = 'exists'").build(),
                BatchStatementRequest.builder().statement("SLECT * FROM \"" + table + "\" WHERE id = 'exists'").build()));
        var reads = dynamoDb.batchExecuteStatement(b -> b.statements(
                BatchStatementRequest.builder().statement("SELECT * FROM \"" + table + "\" WHERE id = 'exists'").build(),
                BatchStatementRequest.builder().statement("SELECT * FROM \"" + table + "\" WHERE id = 'nothing'").build()));

        List<BatchStatementResponse> written = writes.responses();
        assertThat(written).hasSize(4);
        assertThat(written.get(0).error()).isNull();
        assertThat(written.get(1).error().code()).isEqualTo(BatchStatementErrorCodeEnum.DUPLICATE_ITEM);
        assertThat(written.get(2).error()).isNull();
        assertThat(written.get(3).error().code()).isEqualTo(BatchStatementErrorCodeEnum.VALIDATION_ERROR);
        assertThat(written.get(3).error().message()).isEqualTo("Statement wasn't well formed, can't be processed: Expected data manipulation");
        assertThat(written.get(3).tableName()).isNull();
        assertThat(get(table, "new")).isEqualTo(Map.of("id", s("new")));
        assertThat(reads.responses().get(0).item()).isEqualTo(Map.of("id", s("exists"), "v", n("1")));
        assertThat(reads.responses().get(1).hasItem()).isFalse();
        assertThat(reads.responses().get(1).error()).isNull();
    }

    @Test
    void batchExecuteStatement_ofMoreThan25Statements_isRefused() {
        String table = hashTable();
        List<BatchStatementRequest> statements = new ArrayList<>();
        for (int i = 0; i < 26; i++) {
            statements.add(BatchStatementRequest.builder().statement("INSERT INTO \"" + table + "\" VALUE {'id': '" + i + "'}").build());
        }

        var error = expect(() -> dynamoDb.batchExecuteStatement(b -> b.statements(statements)),
                software.amazon.awssdk.services.dynamodb.model.DynamoDbException.class, "Member must have length less than or equal to 25");

        assertThat(error.awsErrorDetails().errorCode()).isEqualTo("ValidationException");
    }

    @Test
    void executeTransaction_thatFailsMidway_writesNothing() {
        String table = hashTable();
        dynamoDb.putItem(b -> b.tableName(table).item(Map.of("id", s("exists"), "v", n("1"))));

        var error = expect(() -> dynamoDb.executeTransaction(b -> b.transactStatements(
                        ParameterizedStatement.builder().statement("INSERT INTO \"" + table + "\" VALUE {'id': ?}").parameters(s("first")).build(),
                        ParameterizedStatement.builder().statement("UPDATE \"" + table + "\" SET v = 2 WHERE id = 'exists' AND v = 5").build(),
                        ParameterizedStatement.builder().statement("UPDATE \"" + table + "\" SET w = 1 WHERE id = 'missing'").build())),
                TransactionCanceledException.class, "Transaction cancelled, please refer cancellation reasons for specific reasons");

        assertThat(error.cancellationReasons()).extracting(r -> r.code()).containsExactly("None", "ConditionalCheckFailed", "ConditionalCheckFailed");
        assertThat(get(table, "first")).isNull();
        assertThat(get(table, "exists")).isEqualTo(Map.of("id", s("exists"), "v", n("1")));
    }

    @Test
    void executeTransaction_existsChecksAnItem_asAConditionCheck() {
        // given: ql-reference.multiplestatements.transactions.html, EXISTS(SELECT ...) beside the writes
        String table = hashTable();
        dynamoDb.putItem(b -> b.tableName(table).item(Map.of("id", s("song"), "title", s("Call Me Today"))));
        ParameterizedStatement insert = ParameterizedStatement.builder().statement("INSERT INTO \"" + table + "\" VALUE {'id': 'added'}").build();

        // when
        var error = expect(() -> dynamoDb.executeTransaction(b -> b.transactStatements(
                        ParameterizedStatement.builder().statement("EXISTS(SELECT * FROM \"" + table + "\" WHERE id = 'song' AND title IS MISSING)").build(),
                        insert)),
                TransactionCanceledException.class, "Transaction cancelled");
        dynamoDb.executeTransaction(b -> b.transactStatements(
                ParameterizedStatement.builder().statement("EXISTS(SELECT * FROM \"" + table + "\" WHERE id = ? AND title = 'Call Me Today')")
                        .parameters(s("song")).build(),
                insert));

        // then
        assertThat(error.cancellationReasons()).extracting(r -> r.code()).containsExactly("ConditionalCheckFailed", "None");
        assertThat(get(table, "added")).isEqualTo(Map.of("id", s("added")));
        assertThat(get(table, "song")).isEqualTo(Map.of("id", s("song"), "title", s("Call Me Today")));
    }

    @Test
    void executeTransaction_writesAllAndReadsByKey() {
        String table = hashTable();
        dynamoDb.putItem(b -> b.tableName(table).item(Map.of("id", s("count"), "n", n("1"))));
        dynamoDb.putItem(b -> b.tableName(table).item(Map.of("id", s("gone"))));

        dynamoDb.executeTransaction(b -> b.clientRequestToken("partiql-token-1").transactStatements(
                ParameterizedStatement.builder().statement("INSERT INTO \"" + table + "\" VALUE {'id': 'added'}").build(),
                ParameterizedStatement.builder().statement("UPDATE \"" + table + "\" SET n = n + 1 WHERE id = 'count'").build(),
                ParameterizedStatement.builder().statement("DELETE FROM \"" + table + "\" WHERE id = 'gone'").build()));
        var read = dynamoDb.executeTransaction(b -> b.transactStatements(
                ParameterizedStatement.builder().statement("SELECT * FROM \"" + table + "\" WHERE id = 'added'").build(),
                ParameterizedStatement.builder().statement("SELECT n FROM \"" + table + "\" WHERE id = ?").parameters(s("count")).build(),
                ParameterizedStatement.builder().statement("SELECT * FROM \"" + table + "\" WHERE id = 'gone'").build()));

        assertThat(read.responses().get(0).item()).isEqualTo(Map.of("id", s("added")));
        assertThat(read.responses().get(1).item()).isEqualTo(Map.of("n", n("2")));
        assertThat(read.responses().get(2).hasItem()).isFalse();
    }

    @Test
    void executeTransaction_ofAWriteWithReturning_isRefused() {
        String table = hashTable();
        dynamoDb.putItem(b -> b.tableName(table).item(Map.of("id", s("a"))));

        expectValidation(() -> dynamoDb.executeTransaction(b -> b.transactStatements(
                        ParameterizedStatement.builder().statement("UPDATE \"" + table + "\" SET v = 1 WHERE id = 'a' RETURNING ALL NEW *").build())),
                "Validation failed in TransactStatements[0]: RETURNING clause is not supported in ExecuteTransaction.");

        assertThat(get(table, "a")).isEqualTo(Map.of("id", s("a")));
    }

    @Test
    void executeTransaction_withTheSameToken_doesNotWriteTwice() {
        String table = hashTable();
        dynamoDb.putItem(b -> b.tableName(table).item(Map.of("id", s("count"), "n", n("1"))));
        ParameterizedStatement increment = ParameterizedStatement.builder()
                .statement("UPDATE \"" + table + "\" SET n = n + 1 WHERE id = 'count'").build();

        dynamoDb.executeTransaction(b -> b.clientRequestToken("partiql-token-2").transactStatements(increment));
        dynamoDb.executeTransaction(b -> b.clientRequestToken("partiql-token-2").transactStatements(increment));

        assertThat(get(table, "count").get("n").n()).isEqualTo("2");
    }
}

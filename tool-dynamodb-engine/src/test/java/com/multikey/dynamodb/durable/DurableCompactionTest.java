package com.multikey.dynamodb.durable;

import com.fasterxml.jackson.databind.JsonNode;
import com.multikey.dynamodb.EngineResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static com.multikey.dynamodb.durable.EngineRequests.ISSUES_TABLE;
import static com.multikey.dynamodb.durable.EngineRequests.call;
import static com.multikey.dynamodb.durable.EngineRequests.flip;
import static com.multikey.dynamodb.durable.EngineRequests.ok;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The log compacted into a snapshot (decision 0033): the snapshot and the log after it answer every read as the whole
 * log did; a compaction cut short at any step leaves a directory that opens to the same state; a damaged snapshot is
 * refused, naming it, and nothing of it is loaded.
 */
class DurableCompactionTest {

    private static final DurableEngine.Compaction ON_DEMAND = DurableEngine.Compaction.NEVER;
    private static final String TABLE = ISSUES_TABLE;

    @TempDir
    Path dir;

    private final DurableEnginePropertiesTest.TestClock clock = new DurableEnginePropertiesTest.TestClock(Instant.parse("2026-06-01T00:00:00Z"));

    @Test
    void compact_thenRestart_answersEveryReadAsTheWholeLogDid() throws IOException {
        // given: tables, an index, items of every type, TTL, tags, a stream disabled and another enabled, a table
        // deleted (its stream still readable), a transaction's token, and the answers of reads over all of it
        List<String> before;
        try (DurableEngine engine = open(ON_DEMAND)) {
            changes(engine);
            before = reads(engine);
            // when
            assertThat(engine.compact()).isTrue();
        }
        assertThat(Files.exists(dir.resolve(DurableEngine.SNAPSHOT_FILE))).isTrue();

        // then: a restart loads the snapshot, replays nothing, and answers as before; changes after it go on
        try (DurableEngine engine = open(ON_DEMAND)) {
            assertThat(engine.startup().replayed()).isZero();
            assertThat(engine.generation()).isEqualTo(1);
            assertThat(reads(engine)).isEqualTo(before);
            ok(engine, "PutItem", "{\"TableName\":\"issues\",\"Item\":{\"id\":{\"S\":\"issue#9\"},\"project\":{\"S\":\"p2\"}}}");
            before = reads(engine);
        }
        try (DurableEngine engine = open(ON_DEMAND)) {
            assertThat(engine.startup().replayed()).isPositive();
            assertThat(reads(engine)).isEqualTo(before);
        }
    }

    @Test
    void handle_pastTheThreshold_compactsAndKeepsTheAnswers() throws IOException {
        List<String> before;
        try (DurableEngine engine = open(new DurableEngine.Compaction(1, false))) {
            changes(engine);
            assertThat(engine.generation()).isGreaterThan(1);
            before = reads(engine);
        }
        try (DurableEngine engine = open(ON_DEMAND)) {
            assertThat(reads(engine)).isEqualTo(before);
        }
    }

    @Test
    void close_withCompactionOnClose_leavesASnapshotAndAnEmptyLog() throws IOException {
        List<String> before;
        try (DurableEngine engine = open(new DurableEngine.Compaction(Long.MAX_VALUE, true))) {
            changes(engine);
            before = reads(engine);
        }
        try (DurableEngine engine = open(ON_DEMAND)) {
            assertThat(engine.startup().replayed()).isZero();
            assertThat(reads(engine)).isEqualTo(before);
        }
    }

    @Test
    void open_afterACompactionStoppedBetweenTheSnapshotAndTheNewLog_loadsTheSnapshotOnly() throws IOException {
        // given: the log as it was before the compaction, beside the snapshot the compaction wrote
        List<String> before;
        Path log = dir.resolve(DurableEngine.LOG_FILE);
        byte[] oldLog;
        try (DurableEngine engine = open(ON_DEMAND)) {
            changes(engine);
            before = reads(engine);
            oldLog = Files.readAllBytes(log);
            engine.compact();
        }
        Files.write(log, oldLog);
        // and what a compaction cut short before its renames leaves
        Files.write(dir.resolve(DurableEngine.SNAPSHOT_FILE + ".new"), new byte[] {1, 2, 3});
        Files.write(dir.resolve(DurableEngine.LOG_FILE + ".new"), new byte[] {4, 5});

        // when / then: the old log's changes are in the snapshot, not applied twice
        try (DurableEngine engine = open(ON_DEMAND)) {
            assertThat(reads(engine)).isEqualTo(before);
            ok(engine, "DeleteItem", "{\"TableName\":\"issues\",\"Key\":{\"id\":{\"S\":\"issue#1\"}}}");
            before = reads(engine);
        }
        assertThat(Files.exists(dir.resolve(DurableEngine.SNAPSHOT_FILE + ".new"))).isFalse();
        try (DurableEngine engine = open(ON_DEMAND)) {
            assertThat(engine.generation()).isEqualTo(1);
            assertThat(reads(engine)).isEqualTo(before);
        }
    }

    @Test
    void open_whenTheSnapshotIsDamagedAnywhere_refusesItNamingIt() throws IOException {
        try (DurableEngine engine = open(ON_DEMAND)) {
            changes(engine);
            engine.compact();
        }
        Path snapshot = dir.resolve(DurableEngine.SNAPSHOT_FILE);
        byte[] whole = Files.readAllBytes(snapshot);
        for (long at : new long[] {0, SnapshotFile.MAGIC.length + 3, SnapshotFile.MAGIC.length + 22, whole.length / 2, whole.length - 1}) {
            Files.write(snapshot, whole);
            flip(snapshot, at);
            assertThatThrownBy(() -> open(ON_DEMAND)).as("a byte flipped at %d", at)
                    .isInstanceOf(CorruptLogException.class).hasMessageContaining(snapshot.toString());
        }
        // a torn snapshot (cut short) is refused too: a rename only ever shows a whole one
        Files.write(snapshot, java.util.Arrays.copyOf(whole, whole.length - 10));
        assertThatThrownBy(() -> open(ON_DEMAND)).isInstanceOf(CorruptLogException.class).hasMessageContaining(snapshot.toString());
        // and without its snapshot, a log that continues one is refused rather than loaded half
        Files.delete(snapshot);
        assertThatThrownBy(() -> open(ON_DEMAND)).isInstanceOf(CorruptLogException.class)
                .hasMessageContaining(snapshot.toString()).hasMessageContaining("no snapshot");
        // the directory was left as it was: the whole snapshot back, it opens
        Files.write(snapshot, whole);
        try (DurableEngine engine = open(ON_DEMAND)) {
            assertThat(engine.generation()).isEqualTo(1);
        }
    }

    /** Changes that leave something of every kind the state holds. */
    private void changes(DurableEngine engine) {
        ok(engine, "CreateTable", TABLE);
        ok(engine, "CreateTable", TABLE.replace("issues", "old").replace("PAY_PER_REQUEST\"", "PROVISIONED\","
                + "\"ProvisionedThroughput\":{\"ReadCapacityUnits\":3,\"WriteCapacityUnits\":4}").replace(
                "\"Projection\":{\"ProjectionType\":\"ALL\"}}", "\"Projection\":{\"ProjectionType\":\"INCLUDE\",\"NonKeyAttributes\":[\"n\"]},"
                        + "\"ProvisionedThroughput\":{\"ReadCapacityUnits\":1,\"WriteCapacityUnits\":2}}"));
        for (int i = 1; i <= 3; i++) {
            ok(engine, "PutItem", "{\"TableName\":\"issues\",\"Item\":{\"id\":{\"S\":\"issue#" + i + "\"},\"project\":{\"S\":\"p1\"},"
                    + "\"n\":{\"N\":\"1." + i + "0\"},\"b\":{\"B\":\"AQID\"},\"ss\":{\"SS\":[\"b\",\"a\"]},\"ns\":{\"NS\":[\"2\",\"10\"]},"
                    + "\"bs\":{\"BS\":[\"AQ==\"]},\"m\":{\"M\":{\"l\":{\"L\":[{\"NULL\":true},{\"BOOL\":false}]}}},\"exp\":{\"N\":\"1780272000\"}}}");
            ok(engine, "PutItem", "{\"TableName\":\"old\",\"Item\":{\"id\":{\"S\":\"o" + i + "\"},\"project\":{\"S\":\"q\"},\"n\":{\"N\":\"" + i + "\"}}}");
        }
        ok(engine, "UpdateItem", "{\"TableName\":\"issues\",\"Key\":{\"id\":{\"S\":\"issue#2\"}},\"UpdateExpression\":\"ADD n :one\","
                + "\"ExpressionAttributeValues\":{\":one\":{\"N\":\"1\"}}}");
        ok(engine, "DeleteItem", "{\"TableName\":\"issues\",\"Key\":{\"id\":{\"S\":\"issue#3\"}}}");
        ok(engine, "UpdateTimeToLive", "{\"TableName\":\"issues\",\"TimeToLiveSpecification\":{\"Enabled\":true,\"AttributeName\":\"exp\"}}");
        ok(engine, "TagResource", "{\"ResourceArn\":\"arn:aws:dynamodb:us-east-1:000000000000:table/issues\",\"Tags\":[{\"Key\":\"team\",\"Value\":\"core\"}]}");
        ok(engine, "TransactWriteItems", "{\"ClientRequestToken\":\"token-1\",\"TransactItems\":[{\"Put\":{\"TableName\":\"issues\","
                + "\"Item\":{\"id\":{\"S\":\"issue#4\"},\"project\":{\"S\":\"p1\"}}}}]}");
        // the stream of "old" closed then a new one opened, then "old" deleted: both streams stay readable
        ok(engine, "UpdateTable", "{\"TableName\":\"old\",\"StreamSpecification\":{\"StreamEnabled\":false}}");
        clock.advance(Duration.ofSeconds(2));
        ok(engine, "UpdateTable", "{\"TableName\":\"old\",\"StreamSpecification\":{\"StreamEnabled\":true,\"StreamViewType\":\"KEYS_ONLY\"}}");
        ok(engine, "PutItem", "{\"TableName\":\"old\",\"Item\":{\"id\":{\"S\":\"o9\"},\"project\":{\"S\":\"q\"}}}");
        ok(engine, "DeleteTable", "{\"TableName\":\"old\"}");
        clock.advance(Duration.ofSeconds(1));
    }

    /** The answers of reads over the whole state, as text. */
    private List<String> reads(DurableEngine engine) {
        List<String> answers = new ArrayList<>();
        answers.add(ok(engine, "ListTables", "{}").toString());
        answers.add(ok(engine, "DescribeTable", "{\"TableName\":\"issues\"}").toString());
        answers.add(ok(engine, "DescribeTimeToLive", "{\"TableName\":\"issues\"}").toString());
        answers.add(ok(engine, "ListTagsOfResource", "{\"ResourceArn\":\"arn:aws:dynamodb:us-east-1:000000000000:table/issues\"}").toString());
        answers.add(ok(engine, "Scan", "{\"TableName\":\"issues\"}").toString());
        answers.add(ok(engine, "Query", "{\"TableName\":\"issues\",\"IndexName\":\"ByProject\",\"KeyConditionExpression\":\"#p = :p\","
                + "\"ExpressionAttributeNames\":{\"#p\":\"project\"},\"ExpressionAttributeValues\":{\":p\":{\"S\":\"p1\"}}}").toString());
        JsonNode streams = call(engine, "DynamoDBStreams_20120810.ListStreams", "{}");
        answers.add(streams.toString());
        for (JsonNode stream : streams.get("Streams")) {
            String arn = stream.get("StreamArn").asText();
            JsonNode description = call(engine, "DynamoDBStreams_20120810.DescribeStream", "{\"StreamArn\":\"" + arn + "\"}");
            answers.add(description.toString());
            String shard = description.get("StreamDescription").get("Shards").get(0).get("ShardId").asText();
            String iterator = call(engine, "DynamoDBStreams_20120810.GetShardIterator", "{\"StreamArn\":\"" + arn + "\",\"ShardId\":\""
                    + shard + "\",\"ShardIteratorType\":\"TRIM_HORIZON\"}").get("ShardIterator").asText();
            answers.add(call(engine, "DynamoDBStreams_20120810.GetRecords", "{\"ShardIterator\":\"" + iterator + "\"}").get("Records").toString());
        }
        // the same transaction again within the token's lifetime is taken, not written twice (no new stream record)
        answers.add(ok(engine, "TransactWriteItems", "{\"ClientRequestToken\":\"token-1\",\"TransactItems\":[{\"Put\":{\"TableName\":\"issues\","
                + "\"Item\":{\"id\":{\"S\":\"issue#4\"},\"project\":{\"S\":\"p1\"}}}}]}").toString());
        // and another with its token is refused
        EngineResponse mismatch = engine.handle("DynamoDB_20120810.TransactWriteItems", ("{\"ClientRequestToken\":\"token-1\","
                + "\"TransactItems\":[{\"Put\":{\"TableName\":\"issues\",\"Item\":{\"id\":{\"S\":\"issue#4\"},\"project\":{\"S\":\"p9\"}}}}]}")
                .getBytes(StandardCharsets.UTF_8));
        assertThat(mismatch.bodyText()).contains("IdempotentParameterMismatchException");
        return answers;
    }

    private DurableEngine open(DurableEngine.Compaction compaction) {
        return DurableEngine.open(dir, clock, "us-east-1", compaction);
    }
}

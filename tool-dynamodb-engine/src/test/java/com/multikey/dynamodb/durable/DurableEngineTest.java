package com.multikey.dynamodb.durable;

import com.fasterxml.jackson.databind.JsonNode;
import com.multikey.dynamodb.EngineResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;

import static com.multikey.dynamodb.durable.EngineRequests.ISSUES_TABLE;
import static com.multikey.dynamodb.durable.EngineRequests.flip;
import static com.multikey.dynamodb.durable.EngineRequests.ok;
import static com.multikey.dynamodb.durable.EngineRequests.streams;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DurableEngineTest {

    private static final String TABLE = ISSUES_TABLE;

    @TempDir
    Path dir;

    private final DurableEnginePropertiesTest.TestClock clock = new DurableEnginePropertiesTest.TestClock(Instant.parse("2026-06-01T00:00:00Z"));

    @Test
    void open_whenRestarted_keepsTablesIndexesAndStreamRecords() throws IOException {
        // given
        JsonNode before;
        String describedBefore;
        String iterator;
        try (DurableEngine engine = open()) {
            ok(engine, "CreateTable", TABLE);
            for (int i = 1; i <= 3; i++) {
                ok(engine, "PutItem", "{\"TableName\":\"issues\",\"Item\":{\"id\":{\"S\":\"issue#" + i + "\"},\"project\":{\"S\":\"p1\"}}}");
            }
            ok(engine, "DeleteItem", "{\"TableName\":\"issues\",\"Key\":{\"id\":{\"S\":\"issue#2\"}}}");
            describedBefore = ok(engine, "DescribeTable", "{\"TableName\":\"issues\"}").get("Table").toString();
            iterator = iterator(engine);
            before = records(engine, iterator);
        }

        // when
        try (DurableEngine engine = open()) {
            // then: the same table (id, stream ARN, index), the same records with their sequence numbers, event ids
            // and shard, and an iterator issued before the restart still reads them
            assertThat(engine.startup().replayed()).isEqualTo(5);
            assertThat(ok(engine, "DescribeTable", "{\"TableName\":\"issues\"}").get("Table").toString()).isEqualTo(describedBefore);
            assertThat(records(engine, iterator)).isEqualTo(before);
            assertThat(before).hasSize(4);
            JsonNode query = ok(engine, "Query", "{\"TableName\":\"issues\",\"IndexName\":\"ByProject\","
                    + "\"KeyConditionExpression\":\"#p = :p\",\"ExpressionAttributeNames\":{\"#p\":\"project\"},"
                    + "\"ExpressionAttributeValues\":{\":p\":{\"S\":\"p1\"}}}");
            assertThat(query.get("Count").asInt()).isEqualTo(2);
        }
    }

    @Test
    void handle_whenRefused_logsNothing() {
        try (DurableEngine engine = open()) {
            long size = engine.logSize();
            EngineResponse response = engine.handle("DynamoDB_20120810.PutItem",
                    "{\"TableName\":\"missing\",\"Item\":{\"id\":{\"S\":\"1\"}}}".getBytes(StandardCharsets.UTF_8));
            assertThat(response.status()).isEqualTo(400);
            ok(engine, "ListTables", "{}");
            assertThat(engine.logSize()).isEqualTo(size);
        }
    }

    @Test
    void open_whenAMiddleRecordIsDamaged_refusesTheFileNamingIt() throws IOException {
        // given: three records; a byte of the second one's payload flipped
        long[] ends = threeRecords();
        Path log = dir.resolve(DurableEngine.LOG_FILE);
        flip(log, ends[0] + WriteAheadLog.HEADER + 5);

        // when / then
        assertThatThrownBy(this::open).isInstanceOf(CorruptLogException.class)
                .hasMessageContaining(log.toString()).hasMessageContaining("at byte " + ends[0]);
        assertThat(Files.size(log)).isEqualTo(ends[2]); // nothing cut off: the file is left for its owner to look at
    }

    @Test
    void open_whenAMiddleRecordsLengthIsDamaged_refusesRatherThanTakingItForATornEnd() throws IOException {
        long[] ends = threeRecords();
        flip(dir.resolve(DurableEngine.LOG_FILE), ends[0] + 1); // the length's second byte: now it runs past the file's end

        assertThatThrownBy(this::open).isInstanceOf(CorruptLogException.class).hasMessageContaining("at byte " + ends[0]);
    }

    @Test
    void open_whenTheLastRecordsChecksumFails_dropsItAsTorn() throws IOException {
        long[] ends = threeRecords();
        flip(dir.resolve(DurableEngine.LOG_FILE), ends[2] - 1);

        try (DurableEngine engine = open()) {
            assertThat(engine.startup().torn()).isTrue();
            assertThat(engine.startup().tornOffset()).isEqualTo(ends[1]);
            assertThat(engine.startup().replayed()).isEqualTo(2);
            assertThat(engine.logSize()).isEqualTo(ends[1]);
        }
    }

    @Test
    void open_whenTheFileEndsInZeros_takesThemForATornEnd() throws IOException {
        long[] ends = threeRecords();
        try (RandomAccessFile file = new RandomAccessFile(dir.resolve(DurableEngine.LOG_FILE).toFile(), "rw")) {
            file.setLength(ends[2] + 100); // a crash after the file grew, before its bytes were written
        }

        try (DurableEngine engine = open()) {
            assertThat(engine.startup().replayed()).isEqualTo(3);
            assertThat(engine.startup().tornBytes()).isEqualTo(100);
        }
    }

    @Test
    void open_whenTheFileIsNotALog_refusesIt() throws IOException {
        Files.writeString(dir.resolve(DurableEngine.LOG_FILE), "{\"tables\":[]}");

        assertThatThrownBy(this::open).isInstanceOf(CorruptLogException.class)
                .hasMessageContaining(dir.resolve(DurableEngine.LOG_FILE).toString());
    }

    @Test
    void open_whenAWholeRecordNoLongerReplays_refusesTheFile() throws IOException {
        // given: a well-framed log whose one change the engine refuses (a put into a table it never created)
        Path file = dir.resolve(DurableEngine.LOG_FILE);
        try (WriteAheadLog log = WriteAheadLog.open(file)) {
            log.sync(log.append(new LogRecord.Request(Instant.parse("2026-06-01T00:00:00Z"), "DynamoDB_20120810.PutItem",
                    "{\"TableName\":\"missing\",\"Item\":{\"id\":{\"S\":\"1\"}}}".getBytes(StandardCharsets.UTF_8))));
        }

        // when / then
        assertThatThrownBy(this::open).isInstanceOf(CorruptLogException.class)
                .hasMessageContaining(file + " cannot be replayed: its change number 1 (DynamoDB_20120810.PutItem) now answers 400");
        assertTheDirectoryIsReleased();
    }

    /** A refused directory is released: another engine may open it once the file is moved away. */
    private void assertTheDirectoryIsReleased() throws IOException {
        Files.move(dir.resolve(DurableEngine.LOG_FILE), dir.resolve("engine.log.refused"));
        open().close();
    }

    @Test
    void open_whenAnotherEngineHasTheDirectory_refuses() {
        try (DurableEngine first = open()) {
            assertThatThrownBy(this::open).isInstanceOf(IllegalStateException.class).hasMessageContaining("in use");
        }
        open().close();
    }

    /** Creates a table and puts two items: three records; returns where each ends. */
    private long[] threeRecords() {
        long[] ends = new long[3];
        try (DurableEngine engine = open()) {
            ok(engine, "CreateTable", TABLE);
            ends[0] = engine.logSize();
            ok(engine, "PutItem", "{\"TableName\":\"issues\",\"Item\":{\"id\":{\"S\":\"issue#1\"}}}");
            ends[1] = engine.logSize();
            ok(engine, "PutItem", "{\"TableName\":\"issues\",\"Item\":{\"id\":{\"S\":\"issue#2\"}}}");
            ends[2] = engine.logSize();
        }
        return ends;
    }

    private DurableEngine open() {
        return DurableEngine.open(dir, clock, "us-east-1");
    }

    private static String iterator(DurableEngine engine) {
        String arn = ok(engine, "DescribeTable", "{\"TableName\":\"issues\"}").get("Table").get("LatestStreamArn").asText();
        String shard = streams(engine, "DescribeStream", "{\"StreamArn\":\"" + arn + "\"}")
                .get("StreamDescription").get("Shards").get(0).get("ShardId").asText();
        return streams(engine, "GetShardIterator", "{\"StreamArn\":\"" + arn + "\",\"ShardId\":\"" + shard
                + "\",\"ShardIteratorType\":\"TRIM_HORIZON\"}").get("ShardIterator").asText();
    }

    private static JsonNode records(DurableEngine engine, String iterator) {
        return streams(engine, "GetRecords", "{\"ShardIterator\":\"" + iterator + "\"}").get("Records");
    }
}

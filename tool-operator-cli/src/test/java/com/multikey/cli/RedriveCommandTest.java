package com.multikey.cli;

import com.multikey.emulator.services.sqs.LocalSqs;
import com.multikey.testkit.LocalTables;
import com.multikey.testkit.LocalTablesExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code redrive} from the command line against the local DynamoDB engine and the local SQS endpoint. */
@ExtendWith(LocalTablesExtension.class)
class RedriveCommandTest {

    private final LocalTables tables;
    private final LocalSqs sqs = LocalSqs.start();
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    RedriveCommandTest(LocalTables tables) {
        this.tables = tables;
        sqs.createQueue("StreamIndexerFailureQueue");
    }

    @AfterEach
    void close() {
        sqs.close();
    }

    private int run(String... args) {
        String[] all = new String[args.length + 4];
        System.arraycopy(args, 0, all, 0, args.length);
        all[args.length] = "--endpoint";
        all[args.length + 1] = tables.local().endpoint().toString();
        all[args.length + 2] = "--sqs-endpoint";
        all[args.length + 3] = sqs.endpoint().toString();
        return OperatorCli.run(all, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @Test
    void redrive_aMessageWhoseRangeIsGone_reportsItAndKeepsIt_untilDropGoneIsPassed() {
        // given: an on-failure record naming a shard the app table's stream does not have
        String streamArn = tables.dynamoDb().describeTable(b -> b.tableName("AppTable")).table().latestStreamArn();
        sqs.send("StreamIndexerFailureQueue", """
                {"requestContext": {"condition": "RetryAttemptsExhausted"}, "version": "1.0",
                 "DDBStreamBatchInfo": {"shardId": "shardId-00000001000000000000-00000000",
                   "startSequenceNumber": "100000000000000000001", "endSequenceNumber": "100000000000000000002",
                   "batchSize": 2, "streamArn": "%s"}}""".formatted(streamArn));

        // when
        int kept = run("redrive", "--queue", "indexer");
        String keptOutput = out.toString(StandardCharsets.UTF_8);
        int dropped = run("redrive", "--queue", "indexer", "--drop-gone");

        // then
        assertThat(kept).isEqualTo(1);
        assertThat(keptOutput).contains("RANGE GONE", "verify --repair", "message kept", "1 left in the queue");
        assertThat(dropped).isEqualTo(1);
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("message deleted (--drop-gone)");
        assertThat(sqs.bodies("StreamIndexerFailureQueue")).isEmpty();
    }

    @Test
    void redriveJson_printsTheFunctionsDocument_withEachMessagesOutcome() throws Exception {
        String streamArn = tables.dynamoDb().describeTable(b -> b.tableName("AppTable")).table().latestStreamArn();
        sqs.send("StreamIndexerFailureQueue", """
                {"requestContext": {"condition": "RetryAttemptsExhausted"}, "version": "1.0",
                 "DDBStreamBatchInfo": {"shardId": "shardId-00000001000000000000-00000000",
                   "startSequenceNumber": "100000000000000000001", "endSequenceNumber": "100000000000000000002",
                   "batchSize": 2, "streamArn": "%s"}}""".formatted(streamArn));

        assertThat(run("redrive", "--queue", "indexer", "--output", "json")).isEqualTo(1);

        com.fasterxml.jackson.databind.JsonNode report = new com.fasterxml.jackson.databind.ObjectMapper()
                .readTree(out.toString(StandardCharsets.UTF_8));
        assertThat(report.path("queue").asText()).isEqualTo("indexer");
        assertThat(report.path("dryRun").asBoolean()).isFalse();
        assertThat(report.path("remaining").asInt()).isEqualTo(1);
        assertThat(report.path("messages")).singleElement().satisfies(message -> {
            assertThat(message.path("outcome").asText()).isEqualTo("range gone");
            assertThat(message.path("advice").asText()).contains("verify --repair");
            assertThat(message.path("dropped").asBoolean()).isFalse();
        });
    }

    @Test
    void redrive_anEmptyQueue_handlesNothing_andSucceeds() {
        assertThat(run("redrive", "--queue", "indexer", "--dry-run")).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("indexer queue: 0 messages handled (dry run), 0 left in the queue");
    }

    @Test
    void redrive_anUnknownQueue_isABadArgument() {
        assertThat(run("redrive", "--queue", "indexr")).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("indexer, router, delete-layer");
    }
}

package com.multikey.indexer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.multikey.common.Backoff;
import com.multikey.common.Deadline;
import com.multikey.common.EmfMetrics;
import com.multikey.common.Sleeper;
import com.multikey.index.definition.DefinitionsYaml;
import com.multikey.index.definition.IndexDefinitions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The indexer's metrics of kept counts (decision 0026): the counter updates its transactions wrote, and the
 * transactions sent again after DynamoDB found a write's assumption wrong (a replay finding its put already there).
 */
class CountedWriteMetricsTest {

    private static final IndexDefinitions DEFINITIONS = DefinitionsYaml.parse("""
            version: 1
            table: {partitionKey: {name: id, type: S}}
            indexes:
              - name: state
                group: project
                values: {attribute: state}
                counts: {total: true, facets: [state], shards: 1}
            """);

    private static IndexerStack stack;

    @BeforeAll
    static void start() {
        stack = new IndexerStack();
        stack.reset();
    }

    @AfterAll
    static void stop() {
        stack.close();
    }

    private static IndexerMetrics.BatchSummary deliver(List<software.amazon.awssdk.services.dynamodb.model.Record> records) {
        String table = stack.config.indexTableName();
        IndexerConfig config = new IndexerConfig(table, "", DEFINITIONS);
        IndexWriter writer = new DynamoDbIndexWriter(stack.dynamoDb, table, new Backoff(Duration.ofMillis(1), Duration.ofMillis(4), new Random(3)),
                Sleeper.SYSTEM, IndexerFixtures.quietLog());
        RecordingMetrics metrics = new RecordingMetrics();
        new StreamIndexer(new BatchPlanner(config), writer, metrics, IndexerFixtures.quietLog())
                .process(StreamRecords.lambdaRecords(records), Deadline.after(Duration.ofMinutes(1)));
        return metrics.last();
    }

    @Test
    void aNewCountedItem_countsItsCounterUpdates_andItsReplay_countsTheRetryAfterTheFlippedCondition() {
        Map<String, AttributeValue> item = Map.of("id", AttributeValue.fromS("i1"), "project", AttributeValue.fromS("p1"),
                "state", AttributeValue.fromS("open"));
        var insert = List.of(StreamRecords.change(1, "i1", null, item));

        // when: the item is new; its index item and member item appear, each counter once
        IndexerMetrics.BatchSummary first = deliver(insert);
        // and: the same record delivered again; its puts find their items there, flipped and sent again, counting nothing
        IndexerMetrics.BatchSummary replay = deliver(insert);

        assertThat(first.counterUpdates()).isEqualTo(2); // the total's counter and state=open's
        assertThat(first.countedRetries()).isZero();
        assertThat(replay.countedRetries()).isEqualTo(1);
        assertThat(replay.counterUpdates()).isZero();
    }

    @Test
    void emfMetrics_publishCounterUpdatesAndCountedRetries() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        IndexerMetrics emf = IndexerMetrics.emf(new EmfMetrics("Multikey", "stream-indexer",
                new PrintStream(out, true, StandardCharsets.UTF_8), Clock.systemUTC()));

        emf.batchProcessed(new IndexerMetrics.BatchSummary(9, 0, 0, 0, 0, 0, 4, 2, 0, 0, 0, 7, 3));

        JsonNode line = new ObjectMapper().readTree(out.toString(StandardCharsets.UTF_8).lines().findFirst().orElseThrow());
        assertThat(line.get("CounterUpdates").asInt()).isEqualTo(7);
        assertThat(line.get("CountedRetries").asInt()).isEqualTo(3);
        assertThat(line.get("_aws").toString()).contains("\"Name\":\"CounterUpdates\"").contains("\"Name\":\"CountedRetries\"");
    }
}

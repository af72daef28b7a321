package com.multikey.redrive.handler;

import com.fasterxml.jackson.databind.JsonNode;
import com.multikey.emulator.services.bus.LocalEventBridge;
import com.multikey.redrive.OnFailureRecord;
import com.multikey.testkit.IssueFixtures;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Redrive of the Kinesis source's failure queues end to end on the local runtime ({@code StreamSource} kinesis: the
 * table's Kinesis streaming destination, the local Kinesis endpoint, the Kinesis event source mappings), through the
 * deployable redrive function from its jar: a batch given up on leaves its {@code KinesisBatchInfo} record in the
 * queue, and redrive reads the range back from the data stream (GetShardIterator, GetRecords on the local endpoint).
 */
class KinesisRedriveIT extends RedriveStack {

    @Override
    Map<String, String> parameters() {
        return Map.of("StreamSource", "kinesis");
    }

    /**
     * Issues 1 to 6 indexed; then, with index writes failing (the index table gone), 1 and 2 updated, 3 deleted, 7
     * created: the indexer gives up on them; the index table back as it was.
     */
    private List<String> failedIndexerBatches() throws InterruptedException {
        restoreIndexTable(failedIndexerBatch());
        List<String> bodies = runtime.sqs().bodies(INDEXER_QUEUE);
        assertThat(bodies).as(String.join("\n", lines)).isNotEmpty()
                .allSatisfy(body -> assertThat(OnFailureRecord.parse(body).source()).isEqualTo(OnFailureRecord.Source.KINESIS));
        return bodies;
    }

    @Test
    void indexerBatchPastItsRetries_isRepairedByRedrive_fromTheDataStreamsRecords_andLaterChangesIndexRight() throws Exception {
        // given
        List<String> bodies = failedIndexerBatches();
        assertThat(verify(false).clean()).as("the index lacks the changes given up on").isFalse();

        // when: a dry run, then the redrive
        JsonNode dryRun = invokeRedriveFunction("{\"queue\": \"indexer\", \"dryRun\": true, \"maxMessages\": 100}");
        boolean cleanAfterDryRun = verify(false).clean();
        JsonNode report = invokeRedriveFunction("{\"queue\": \"indexer\", \"maxMessages\": 100}");

        // then
        assertThat(dryRun.path("messages")).hasSize(bodies.size()).allSatisfy(m -> assertThat(m.path("outcome").asText()).isEqualTo("would redrive"));
        assertThat(cleanAfterDryRun).as("a dry run writes nothing").isFalse();
        assertThat(report.path("messages")).as(report.toString()).hasSize(bodies.size())
                .allSatisfy(m -> assertThat(m.path("outcome").asText()).isEqualTo("redriven"));
        assertThat(report.path("remaining").asInt()).isZero();
        assertThat(runtime.sqs().bodies(INDEXER_QUEUE)).isEmpty();
        assertThat(IssueFixtures.storedIndex(dynamoDb, INDEX)).isEqualTo(expectedIndex());

        // and: the repaired issues' next changes, indexed by the Kinesis indexer from item states the redrive left
        // behind, leave nothing of the repaired images
        put(issue(1, 1, Map.of("size", "s1", "owner", "again")));
        put(issue(2, 2, Map.of("owner", "o2")));
        put(issue(3, 3, Map.of("size", "back")));
        delete(7);
        awaitQuiet();
        assertThat(runtime.sqs().bodies(INDEXER_QUEUE)).isEmpty();
        assertThat(IssueFixtures.storedIndex(dynamoDb, INDEX)).isEqualTo(expectedIndex());
    }

    @Test
    void indexerMessage_whoseRecordsArePastTheStreamsRetention_isReportedGoneAndKept_untilVerifyRepairs() throws Exception {
        // given: the failed batches' records trimmed from the data stream, as its retention period does
        List<String> bodies = failedIndexerBatches();
        assertThat(runtime.kinesis().streams().trimBefore(Instant.now().plusSeconds(1))).isPositive();

        // when
        JsonNode report = invokeRedriveFunction("{\"queue\": \"indexer\", \"maxMessages\": 100}");

        // then: every message reported gone, with what to do, and kept
        assertThat(report.path("messages")).as(report.toString()).hasSize(bodies.size()).allSatisfy(m -> {
            assertThat(m.path("outcome").asText()).isEqualTo("range gone");
            assertThat(m.path("reason").asText()).contains("retention");
            assertThat(m.path("advice").asText()).contains("verify --repair");
            assertThat(m.path("dropped").asBoolean()).isFalse();
        });
        assertThat(report.path("remaining").asInt()).isEqualTo(bodies.size());
        assertThat(runtime.sqs().bodies(INDEXER_QUEUE)).hasSize(bodies.size());

        // and: verify --repair, as advised, makes the index right; the next changes index right after it; the messages
        // go only when asked
        assertThat(verify(true).clean()).isFalse();
        assertThat(verify(false).clean()).isTrue();
        put(issue(1, 1, Map.of("owner", "later")));
        put(issue(7, 7, Map.of("size", "s7", "owner", "o7")));
        awaitQuiet();
        assertThat(IssueFixtures.storedIndex(dynamoDb, INDEX)).isEqualTo(expectedIndex());
        JsonNode dropped = invokeRedriveFunction("{\"queue\": \"indexer\", \"maxMessages\": 100, \"dropGone\": true}");
        assertThat(dropped.path("messages")).allSatisfy(m -> assertThat(m.path("dropped").asBoolean()).isTrue());
        assertThat(runtime.sqs().bodies(INDEXER_QUEUE)).isEmpty();
    }

    @Test
    void routerBatchPastItsRetries_isResentThroughTheRouterAsAKinesisEvent_andItsEventsReachTheBus() throws Exception {
        // given: every PutEvents call refused while issues are written: the router gives up on its batch
        runtime.bus().callFaults((call, request) -> java.util.Optional.of("AccessDeniedException"));
        put(issue(1, 1, Map.of("size", "s1")));
        put(issue(2, 2, Map.of("size", "s2")));
        awaitQuiet();
        List<String> bodies = runtime.sqs().bodies(ROUTER_QUEUE);
        assertThat(bodies).as(String.join("\n", lines)).isNotEmpty()
                .allSatisfy(body -> assertThat(OnFailureRecord.parse(body).source()).isEqualTo(OnFailureRecord.Source.KINESIS));
        int received = runtime.bus().received().size();
        runtime.bus().callFaults(LocalEventBridge.CallFaults.NONE);

        // when
        JsonNode report = invokeRedriveFunction("{\"queue\": \"router\"}");

        // then
        assertThat(report.path("messages")).as(report.toString()).hasSize(bodies.size())
                .allSatisfy(m -> assertThat(m.path("outcome").asText()).isEqualTo("redriven"));
        assertThat(runtime.sqs().bodies(ROUTER_QUEUE)).isEmpty();
        assertThat(runtime.bus().received().subList(received, runtime.bus().received().size()))
                .extracting(r -> r.envelope().path("detail").path("keys").path("id").asText())
                .contains("issue#1", "issue#2");
    }
}

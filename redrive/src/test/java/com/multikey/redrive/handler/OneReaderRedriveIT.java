package com.multikey.redrive.handler;

import com.fasterxml.jackson.databind.JsonNode;
import com.multikey.emulator.services.bus.LocalEventBridge;
import com.multikey.redrive.OnFailureRecord;
import com.multikey.redrive.QueueKind;
import com.multikey.redrive.Redrive;
import com.multikey.testkit.IssueFixtures;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Redrive in the one-reader mode ({@code StreamReaders: one}) on the local runtime: the consumer gives up on a record
 * its index job could not finish and on one its route job could not, both land in the one failure queue
 * (StreamIndexerFailureQueue), and redrive re-runs for each only the job its checkpoint does not mark finished: the
 * first item's index is repaired without its event being sent again, the second's event is sent once more and its index
 * left alone.
 */
class OneReaderRedriveIT extends RedriveStack {

    private static final String QUEUE = INDEXER_QUEUE;

    @Override
    Map<String, String> parameters() {
        return Map.of("StreamReaders", "one");
    }

    /** The issue ids of the events the bus received from the given position on. */
    private List<String> eventsFrom(int position) {
        List<LocalEventBridge.Received> received = runtime.bus().received();
        return received.subList(position, received.size()).stream()
                .map(r -> r.envelope().path("detail").path("keys").path("id").asText()).toList();
    }

    @Test
    void aRecordNotIndexed_andOneNotRouted_redriveRepairsTheFirstsIndex_andSendsOnlyTheSecondsEventAgain() throws Exception {
        // given: issues 1 to 3 indexed and routed
        for (int i = 1; i <= 3; i++) {
            put(issue(i, i, Map.of("size", "s" + i)));
        }
        awaitQuiet();
        // issue 1 changes while index writes fail: its event is sent, its index is not written
        Set<Map<String, AttributeValue>> index = dropIndexTable();
        int beforeIssue1 = runtime.bus().received().size();
        put(issue(1, 1, Map.of("size", "changed", "owner", "o1")));
        awaitQuiet();
        assertThat(eventsFrom(beforeIssue1)).as("issue 1's event, sent while its index failed").contains("issue#1");
        restoreIndexTable(index);
        // issue 2 changes while every PutEvents call is refused: it is indexed, its event is not sent
        runtime.bus().callFaults((call, request) -> Optional.of("AccessDeniedException"));
        put(issue(2, 20, Map.of("size", "s2", "owner", "o2")));
        awaitQuiet();
        runtime.bus().callFaults(LocalEventBridge.CallFaults.NONE);
        List<String> bodies = runtime.sqs().bodies(QUEUE);
        assertThat(bodies).as("both records in the one failure queue").hasSizeGreaterThanOrEqualTo(2)
                .allSatisfy(body -> assertThat(OnFailureRecord.parse(body).condition()).isEqualTo("RetryAttemptsExhausted"));
        assertThat(verify().stale()).as("issue 1's index, not written").isNotEmpty();
        Set<Map<String, AttributeValue>> indexBefore = IssueFixtures.storedIndex(dynamoDb, INDEX);
        int before = runtime.bus().received().size();

        // when: a dry run, then the deployed redrive function, from its jar
        Redrive.Report dryRun = redrives().forQueue(QueueKind.INDEXER).run(true, 10, false);
        Set<Map<String, AttributeValue>> indexAfterDryRun = IssueFixtures.storedIndex(dynamoDb, INDEX);
        int afterDryRun = runtime.bus().received().size();
        JsonNode report = invokeRedriveFunction("{\"queue\": \"indexer\"}");

        // then
        assertThat(dryRun.outcomes()).hasSize(bodies.size()).allMatch(Redrive.Outcome.WouldRedrive.class::isInstance);
        assertThat(indexAfterDryRun).isEqualTo(indexBefore);
        assertThat(afterDryRun).isEqualTo(before);
        assertThat(report.path("messages")).hasSize(bodies.size())
                .allSatisfy(m -> assertThat(m.path("outcome").asText()).as(m.toString()).isEqualTo("redriven"));
        assertThat(runtime.sqs().bodies(QUEUE)).isEmpty();
        assertThat(eventsFrom(before)).as("the event of issue 2 only: issue 1's was sent").containsExactly("issue#2");
        assertThat(verify().clean()).isTrue();
        assertThat(IssueFixtures.storedIndex(dynamoDb, INDEX)).isEqualTo(expectedIndex());
        assertThat(redrives().forQueue(QueueKind.INDEXER).run(false, 10, false).outcomes()).as("nothing left").isEmpty();
    }

    @Test
    void theRouterQueue_withOneReader_isRefused_namingTheIndexerQueue() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> redrives().forQueue(QueueKind.ROUTER))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--queue indexer");
    }
}

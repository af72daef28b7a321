package com.multikey.redrive.handler;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.multikey.index.GridLayoutStore;
import com.multikey.index.IndexItem;
import com.multikey.index.IndexValue;
import com.multikey.index.definition.IndexDefinitions;
import com.multikey.redrive.OnFailureRecord;
import com.multikey.redrive.QueueKind;
import com.multikey.redrive.Redrive;
import com.multikey.redrive.StreamRange;
import com.multikey.redrive.StreamRangeReader;
import com.multikey.reindex.IndexScope;
import com.multikey.reindex.Verifier;
import com.multikey.testkit.IssueFixtures;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Redrive end to end on the local runtime (the functions from their deployable jars, the DynamoDB engine, the
 * local SQS endpoint): a batch fails past its retry limit, its on-failure record lands in the template's
 * failure queue, and redrive acts on it.
 */
class RedriveIT extends RedriveStack {

    private static final String DEAD_LETTERS = "DeleteLayerDeadLetterQueue";

    @Override
    Map<String, String> parameters() {
        return Map.of();
    }

    /** The keys of the items the records in the messages' ranges changed, read back from the stream. */
    private Set<String> issuesNamedBy(List<String> bodies) {
        Set<String> ids = new TreeSet<>();
        StreamRangeReader reader = new StreamRangeReader(streams());
        IndexScope scope = IndexScope.all(IndexDefinitions.packaged());
        for (String body : bodies) {
            if (reader.read(OnFailureRecord.parse(body)) instanceof StreamRange.Found found) {
                found.records().forEach(record -> scope.keyOf(record.dynamodb().keys()).ifPresent(key -> ids.add(key.toString())));
            }
        }
        return ids;
    }

    @Test
    void indexerBatchPastItsRetries_landsInTheFailureQueue_andRedriveRepairsExactlyItsIssues() throws InterruptedException {
        // given: the failed batches' on-failure records in the queue, the index as it was before them
        Set<Map<String, AttributeValue>> before = failedIndexerBatch();
        List<String> bodies = runtime.sqs().bodies(INDEXER_QUEUE);
        assertThat(bodies).isNotEmpty();
        assertThat(bodies).allSatisfy(body -> assertThat(OnFailureRecord.parse(body).condition()).isEqualTo("RetryAttemptsExhausted"));
        assertThat(issuesNamedBy(bodies)).containsExactly("issue#1", "issue#2", "issue#3", "issue#7");
        restoreIndexTable(before);
        // an issue no failed batch names, wrong in the index: redrive must leave it to verify
        IndexItem planted = IndexItem.of("size", new IndexValue.Text("planted"), "issue#5", "project#1", BigDecimal.valueOf(5));
        dynamoDb.putItem(b -> b.tableName(INDEX).item(planted.toItem()));

        // when: a dry run, then the redrive
        Redrive.Report dryRun = redrives().forQueue(QueueKind.INDEXER).run(true, 100, false);
        Set<Map<String, AttributeValue>> afterDryRun = IssueFixtures.storedIndex(dynamoDb, INDEX);
        JsonNode report = invokeRedriveFunction("{\"queue\": \"indexer\", \"maxMessages\": 100}");

        // then
        assertThat(dryRun.outcomes()).hasSize(bodies.size()).allMatch(Redrive.Outcome.WouldRedrive.class::isInstance);
        assertThat(afterDryRun).isEqualTo(union(before.stream().filter(item -> !GridLayoutStore.isControl(item)).map(IndexItem::normalized)
                .collect(java.util.stream.Collectors.toSet()), planted));
        assertThat(report.path("messages")).hasSize(bodies.size()).allMatch(m -> m.path("outcome").asText().equals("redriven"));
        assertThat(report.path("remaining").asInt()).isZero();
        assertThat(runtime.sqs().bodies(INDEXER_QUEUE)).isEmpty();
        Verifier.Report verified = verify();
        assertThat(verified.missingCount()).isZero();
        assertThat(verified.orphanedCount()).isZero();
        assertThat(verified.stale()).containsExactly(new Verifier.Discrepancy("issue#5", planted.key()));
    }

    @Test
    void indexerRedrive_whenTheIssuesChangedAgainMeanwhile_repairsFromTheirCurrentState() throws InterruptedException {
        // given: the failed batches in the queue; the index back; then the same issues change again (indexed by the stream)
        Set<Map<String, AttributeValue>> before = failedIndexerBatch();
        int messages = runtime.sqs().bodies(INDEXER_QUEUE).size();
        restoreIndexTable(before);
        put(issue(1, 11, Map.of("owner", "again")));
        delete(2);
        put(issue(3, 3, Map.of("size", "back")));
        put(issue(7, 7, Map.of("size", "s7", "owner", "o7")));
        awaitQuiet();
        assertThat(verify().clean()).as("the index is wrong before the redrive").isFalse();

        // when
        Redrive.Report report = redrives().forQueue(QueueKind.INDEXER).run(false, 100, false);

        // then
        assertThat(report.outcomes()).hasSize(messages).allMatch(Redrive.Outcome.Redriven.class::isInstance);
        assertThat(runtime.sqs().bodies(INDEXER_QUEUE)).isEmpty();
        assertThat(verify().clean()).isTrue();
        assertThat(IssueFixtures.storedIndex(dynamoDb, INDEX)).isEqualTo(expectedIndex());
    }

    @Test
    void aMessageWhoseRangeIsGone_isReportedAndKept_andDroppedOnlyWhenAsked() {
        // given: an on-failure record naming a shard the stream no longer has
        String streamArn = dynamoDb.describeTable(b -> b.tableName(APP)).table().latestStreamArn();
        String body = """
                {"requestContext": {"condition": "RetryAttemptsExhausted", "approximateInvokeCount": 2},
                 "version": "1.0", "timestamp": "2026-01-01T00:00:00.000Z",
                 "DDBStreamBatchInfo": {"shardId": "shardId-00000001000000000000-00000000", "startSequenceNumber": "100000000000000000001",
                   "endSequenceNumber": "100000000000000000002", "batchSize": 2, "streamArn": "%s"}}""".formatted(streamArn);
        runtime.sqs().send(INDEXER_QUEUE, body);

        // when
        Redrive.Report kept = redrives().forQueue(QueueKind.INDEXER).run(false, 10, false);
        JsonNode keptByTheFunction = invokeRedriveFunction("{\"queue\": \"indexer\"}");

        // then
        assertThat(kept.outcomes()).singleElement().isInstanceOfSatisfying(Redrive.Outcome.RangeGone.class, gone -> {
            assertThat(gone.advice()).contains("verify --repair");
            assertThat(gone.dropped()).isFalse();
        });
        assertThat(kept.remaining()).as("kept and visible again").isEqualTo(1);
        assertThat(keptByTheFunction.path("messages")).singleElement().satisfies(m -> {
            assertThat(m.path("outcome").asText()).isEqualTo("range gone");
            assertThat(m.path("dropped").asBoolean()).isFalse();
        });
        assertThat(keptByTheFunction.path("remaining").asInt()).isEqualTo(1);

        Redrive.Report dropped = redrives().forQueue(QueueKind.INDEXER).run(false, 10, true);
        assertThat(dropped.outcomes()).singleElement().isInstanceOfSatisfying(Redrive.Outcome.RangeGone.class,
                gone -> assertThat(gone.dropped()).isTrue());
        assertThat(runtime.sqs().bodies(INDEXER_QUEUE)).isEmpty();
    }

    @Test
    void routerBatchPastItsRetries_isResentThroughTheRouter_andItsEventsReachTheBus() throws InterruptedException {
        // given: every PutEvents call refused while an issue is written: the router gives up on its batch
        runtime.bus().callFaults((call, request) -> java.util.Optional.of("AccessDeniedException"));
        put(issue(1, 1, Map.of("size", "s1")));
        put(issue(2, 2, Map.of("size", "s2")));
        awaitQuiet();
        assertThat(runtime.sqs().bodies(ROUTER_QUEUE)).isNotEmpty();
        int received = runtime.bus().received().size();
        runtime.bus().callFaults(com.multikey.emulator.services.bus.LocalEventBridge.CallFaults.NONE);

        // when: a dry run; then the deployable function from its jar, its Lambda client invoking the router through
        // the local Lambda API's Invoke
        Redrive.Report dryRun = redrives().forQueue(QueueKind.ROUTER).run(true, 10, false);
        int afterDryRun = runtime.bus().received().size();
        JsonNode byTheFunction = invokeRedriveFunction("{\"queue\": \"router\"}");

        // then
        assertThat(dryRun.outcomes()).isNotEmpty().allMatch(Redrive.Outcome.WouldRedrive.class::isInstance);
        assertThat(afterDryRun).isEqualTo(received);
        assertThat(byTheFunction.path("messages")).hasSize(dryRun.outcomes().size())
                .allSatisfy(m -> assertThat(m.path("outcome").asText()).isEqualTo("redriven"));
        assertThat(runtime.sqs().bodies(ROUTER_QUEUE)).isEmpty();
        assertThat(redrives().forQueue(QueueKind.ROUTER).run(false, 10, false).outcomes()).as("nothing left").isEmpty();
        assertThat(runtime.bus().received().subList(received, runtime.bus().received().size()))
                .extracting(r -> r.envelope().path("detail").path("keys").path("id").asText())
                .contains("issue#1", "issue#2");
    }

    @Test
    void deadLetter_ofADeliveryThatKeptFailing_isReinvokedWithTheStoredEvent_andDeletedAfterwards() throws Exception {
        // given: Lambda's API throttles every call while a layer record expires: delete-layer fails on every attempt
        // of the rule's target, and the bus puts the event on the target's dead-letter queue
        runtime.lambdaApi().throttleCalls(Integer.MAX_VALUE);
        put(Map.of("id", AttributeValue.fromS("layer#us-east-1#requests#12"),
                "arn", AttributeValue.fromS("arn:aws:lambda:us-east-1:123456789012:layer:multikey-requests:12"),
                "expiresAt", AttributeValue.fromN(Long.toString(java.time.Instant.now().getEpochSecond() - 5))));
        awaitQuiet();
        List<String> deadLetters = runtime.sqs().bodies(DEAD_LETTERS);
        assertThat(deadLetters).singleElement().satisfies(body ->
                assertThat(new ObjectMapper().readTree(body).path("detail-type").asText()).isEqualTo("Layer Expired"));
        runtime.lambdaApi().throttleCalls(0);
        long deletesBefore = layerDeletes();

        // when
        Redrive.Report dryRun = redrives().forQueue(QueueKind.DELETE_LAYER).run(true, 10, false);
        long deletesAfterDryRun = layerDeletes();
        Redrive.Report report = redrives().forQueue(QueueKind.DELETE_LAYER).run(false, 10, false);

        // then
        assertThat(dryRun.outcomes()).singleElement().isInstanceOf(Redrive.Outcome.WouldRedrive.class);
        assertThat(deletesAfterDryRun).isEqualTo(deletesBefore);
        assertThat(report.outcomes()).singleElement().isInstanceOf(Redrive.Outcome.Redriven.class);
        assertThat(layerDeletes()).as("the layer version deleted by the re-invoked delete-layer").isEqualTo(deletesBefore + 1);
        assertThat(runtime.sqs().bodies(DEAD_LETTERS)).isEmpty();
    }

    /** DeleteLayerVersion calls the local Lambda API answered with success. */
    private long layerDeletes() {
        return runtime.lambdaApi().calls().stream()
                .filter(call -> call.method().equals("DELETE") && call.path().contains("/layers/multikey-requests/versions/12") && call.status() < 300)
                .count();
    }

    private static Set<Map<String, AttributeValue>> union(Set<Map<String, AttributeValue>> items, IndexItem more) {
        return union(items, more.toItem());
    }

    private static Set<Map<String, AttributeValue>> union(Set<Map<String, AttributeValue>> items, Map<String, AttributeValue> more) {
        Set<Map<String, AttributeValue>> all = new java.util.HashSet<>(items);
        all.add(more);
        return all;
    }
}

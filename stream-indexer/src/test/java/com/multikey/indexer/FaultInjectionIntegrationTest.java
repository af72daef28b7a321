package com.multikey.indexer;

import com.amazonaws.services.lambda.runtime.events.StreamsEventResponse;
import com.multikey.common.Sleeper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.model.Record;

import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/** Throttling and unprocessed items injected in front of the local DynamoDB engine, through the real handler. */
@ExtendWith(IndexerStackExtension.class)
class FaultInjectionIntegrationTest {

    private final IndexerStack stack;
    private final FlakyDynamoDbClient flaky;
    private final AtomicInteger sleeps = new AtomicInteger();
    private final Sleeper countingSleeper = duration -> sleeps.incrementAndGet();

    FaultInjectionIntegrationTest(IndexerStack stack) {
        this.stack = stack;
        this.flaky = new FlakyDynamoDbClient(stack.dynamoDb);
    }

    private List<Record> writeIssues(int count) {
        Random random = new Random(count);
        for (int i = 0; i < count; i++) {
            String id = "issue#" + (1000 + i);
            stack.put(IndexerFixtures.randomIssue(id, random, null));
            stack.put(IndexerFixtures.randomIssue(id, random, null));
        }
        return stack.newRecords();
    }

    @Test
    void throttledWrites_areRetriedWithBackoff_andTheBatchSucceeds() {
        List<Record> records = writeIssues(40);
        flaky.misbehave(FlakyDynamoDbClient.Mode.THROTTLE, 3);

        StreamsEventResponse response = stack.invoke(stack.handler(flaky, Duration.ofMillis(1), countingSleeper), records);

        assertThat(response.getBatchItemFailures()).isEmpty();
        assertThat(sleeps.get()).isEqualTo(3);
        assertThat(stack.indexItems()).isEqualTo(stack.expectedStoredIndex()).isNotEmpty();
    }

    @Test
    void unprocessedItems_areResent_untilAllAreWritten() {
        List<Record> records = writeIssues(40);
        flaky.misbehave(FlakyDynamoDbClient.Mode.HALF_UNPROCESSED, 12);

        StreamsEventResponse response = stack.invoke(stack.handler(flaky, Duration.ofMillis(1), countingSleeper), records);

        assertThat(response.getBatchItemFailures()).isEmpty();
        assertThat(sleeps.get()).isEqualTo(12);
        assertThat(stack.indexItems()).isEqualTo(stack.expectedStoredIndex());
    }

    @Test
    void writesThatKeepFailing_reportTheLowestSequenceNumber_andAReplayFromItConverges() {
        List<Record> records = writeIssues(40);
        // the first two BatchWriteItem calls succeed, then everything is throttled until the deadline passes
        flaky.misbehaveAfter(2, FlakyDynamoDbClient.Mode.THROTTLE, Integer.MAX_VALUE);
        StreamIndexerHandler handler = stack.handler(flaky, Duration.ofMillis(5), Sleeper.SYSTEM);

        StreamsEventResponse response = handler.handleRequest(
                com.multikey.emulator.services.streams.LambdaEvents.dynamodbEvent(records, stack.tail.streamArn()),
                new com.multikey.emulator.functions.LocalContext(IndexerStack.FUNCTION, 1024, 2_500));

        assertThat(response.getBatchItemFailures()).isNotEmpty();
        String lowest = response.getBatchItemFailures().stream().map(StreamsEventResponse.BatchItemFailure::getItemIdentifier)
                .min(java.util.Comparator.comparing(String::length).thenComparing(java.util.Comparator.naturalOrder())).orElseThrow();
        assertThat(stack.indexItems()).isNotEqualTo(stack.expectedStoredIndex());

        // Lambda delivers again from the lowest reported sequence number
        List<Record> replay = records.stream()
                .dropWhile(r -> !r.dynamodb().sequenceNumber().equals(lowest)).toList();
        assertThat(replay).isNotEmpty().hasSizeLessThan(records.size());
        stack.deliver(stack.handler(), replay, 100);

        assertThat(stack.indexItems()).isEqualTo(stack.expectedStoredIndex());
    }
}

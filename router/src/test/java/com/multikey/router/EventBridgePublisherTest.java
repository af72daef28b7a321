package com.multikey.router;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.awscore.AwsRequestOverrideConfiguration;
import software.amazon.awssdk.services.eventbridge.EventBridgeClient;
import software.amazon.awssdk.services.eventbridge.model.PutEventsRequest;
import software.amazon.awssdk.services.eventbridge.model.PutEventsRequestEntry;
import software.amazon.awssdk.services.eventbridge.model.PutEventsResponse;
import software.amazon.awssdk.services.eventbridge.model.PutEventsResultEntry;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** PutEvents' answer read entry by entry, against a client that answers as a test says. */
class EventBridgePublisherTest {

    /** Answers each call with the given result entries, whatever it was sent; records the requests. */
    private static final class AnsweringClient implements EventBridgeClient {
        final List<PutEventsRequest> requests = new ArrayList<>();
        private final List<PutEventsResultEntry> answer;

        AnsweringClient(List<PutEventsResultEntry> answer) {
            this.answer = answer;
        }

        @Override
        public PutEventsResponse putEvents(PutEventsRequest request) {
            requests.add(request);
            return PutEventsResponse.builder().entries(answer).build();
        }

        @Override
        public String serviceName() {
            return "events";
        }

        @Override
        public void close() {
        }
    }

    private static List<PutEventsRequestEntry> entries(int count) {
        List<PutEventsRequestEntry> entries = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            entries.add(PutEventsRequestEntry.builder().source("src").detailType("Issue Created").detail("{\"n\":" + i + "}").build());
        }
        return entries;
    }

    @Test
    void publish_readsEachEntrysResult_andOneWithoutAResultAsFailed() {
        // given: three entries sent, two results back (the second refused)
        AnsweringClient client = new AnsweringClient(List.of(PutEventsResultEntry.builder().eventId("e-0").build(),
                PutEventsResultEntry.builder().errorCode("InternalFailure").errorMessage("try again").build()));
        AwsRequestOverrideConfiguration timeout = AwsRequestOverrideConfiguration.builder().apiCallTimeout(Duration.ofSeconds(2)).build();

        // when
        List<EventPublisher.EntryResult> results = new EventBridgePublisher(client).publish(entries(3), timeout);

        // then
        assertThat(results).containsExactly(EventPublisher.EntryResult.ACCEPTED, new EventPublisher.EntryResult.Failed("InternalFailure"),
                new EventPublisher.EntryResult.Failed("MissingResultEntry"));
        assertThat(client.requests).singleElement().satisfies(request -> {
            assertThat(request.entries()).isEqualTo(entries(3));
            assertThat(request.overrideConfiguration()).contains(timeout);
        });
    }
}

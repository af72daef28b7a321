package com.multikey.router;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.multikey.common.Backoff;
import com.multikey.common.BoundedCalls;
import com.multikey.common.Deadline;
import com.multikey.common.RetryBudget;
import com.multikey.index.definition.IndexDefinitions;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.awscore.AwsRequestOverrideConfiguration;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.services.eventbridge.model.EventBridgeException;
import software.amazon.awssdk.services.eventbridge.model.PutEventsRequestEntry;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.random.RandomGenerator;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The PutEvents calls of a round sent concurrently: they overlap, never beyond the bound, never two events of
 * one item in flight at once, each item's events accepted in stream order across retries, and what fails
 * maps to exactly the events it maps to with one call at a time.
 */
class ConcurrentPutEventsTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int ITEMS = 30;
    private static final int VERSIONS = 5;

    private final ChangeEventFactory factory = new ChangeEventFactory(
            new RouterConfig("bus", "multikey.app-table", RouterFixtures.TABLE_ARN, IndexDefinitions.packaged(), true, RouterConfig.DEFAULT_MAX_ENTRY_BYTES));

    /**
     * A thread-safe PutEvents that records overlap: calls in flight, and per item the events in flight (a
     * second one of the same item is a violation). It holds the first calls until {@code holdFirst} of them are
     * in flight together, and answers each entry as {@link #answer} says for its event id and attempt.
     */
    private static final class OverlapRecordingPublisher implements EventPublisher {
        final AtomicInteger inFlight = new AtomicInteger();
        final AtomicInteger mostInFlight = new AtomicInteger();
        final Map<String, AtomicInteger> inFlightPerItem = new ConcurrentHashMap<>();
        final List<String> violations = Collections.synchronizedList(new ArrayList<>());
        final Map<String, List<String>> acceptedPerItem = new ConcurrentHashMap<>();
        final Map<String, AtomicInteger> attempts = new ConcurrentHashMap<>();
        final CountDownLatch together;
        Answerer answer = (eventId, attempt, withImages) -> null;

        @FunctionalInterface
        interface Answerer {
            /** @return the entry's error code, or null to accept it */
            String answer(String eventId, int attempt, boolean withImages);
        }

        OverlapRecordingPublisher(int holdFirst) {
            this.together = new CountDownLatch(holdFirst);
        }

        @Override
        public List<EntryResult> publish(List<PutEventsRequestEntry> entries, AwsRequestOverrideConfiguration override) {
            if (override.apiCallTimeout().isEmpty()) {
                throw new AssertionError("every call must carry an apiCallTimeout");
            }
            mostInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
            List<JsonNode> details = entries.stream().map(e -> read(e.detail())).toList();
            for (JsonNode detail : details) {
                String item = detail.at("/keys/id").asText();
                if (inFlightPerItem.computeIfAbsent(item, k -> new AtomicInteger()).incrementAndGet() > 1) {
                    violations.add(item);
                }
            }
            try {
                together.countDown();
                if (!together.await(30, TimeUnit.SECONDS)) {
                    throw new AssertionError("the calls were never in flight together");
                }
                List<EntryResult> results = new ArrayList<>();
                for (JsonNode detail : details) {
                    String eventId = detail.at("/eventId").asText();
                    int attempt = attempts.computeIfAbsent(eventId, k -> new AtomicInteger()).getAndIncrement();
                    String code = answer.answer(eventId, attempt, detail.has("newImage"));
                    if (code == null) {
                        acceptedPerItem.computeIfAbsent(detail.at("/keys/id").asText(), k -> Collections.synchronizedList(new ArrayList<>()))
                                .add(eventId);
                        results.add(EntryResult.ACCEPTED);
                    } else {
                        results.add(new EntryResult.Failed(code));
                    }
                }
                return results;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            } finally {
                details.forEach(detail -> inFlightPerItem.get(detail.at("/keys/id").asText()).decrementAndGet());
                inFlight.decrementAndGet();
            }
        }
    }

    private static JsonNode read(String json) {
        try {
            return JSON.readTree(json);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static OrderedEventSender sender(EventPublisher publisher, int concurrency) {
        return new OrderedEventSender(publisher, "bus", RouterConfig.DEFAULT_MAX_ENTRY_BYTES,
                new Backoff(Duration.ofMillis(1), Duration.ofMillis(2), RandomGenerator.of("L64X128MixRandom")),
                wait -> { }, RetryBudget.DEFAULT_MAX_FAILED_ATTEMPTS, new BoundedCalls(concurrency));
    }

    /** {@value #VERSIONS} versions of each of {@value #ITEMS} items, interleaved as a stream would have them. */
    private List<ChangeEvent> events() {
        List<ChangeEvent> events = new ArrayList<>();
        for (int version = 0; version < VERSIONS; version++) {
            for (int item = 0; item < ITEMS; item++) {
                String id = "issue#" + item;
                var before = version == 0 ? null : Records.item(id, "v" + (version - 1));
                events.add(factory.toEvent(RouterFixtures.changeRecord(
                        Records.change(sequence(item, version), id, before, Records.item(id, "v" + version)))));
            }
        }
        return events;
    }

    private static long sequence(int item, int version) {
        return 1000L * version + item;
    }

    private static String eventId(int item, int version) {
        return "event-" + sequence(item, version);
    }

    /**
     * Every fourth event throttled once; every event of issue#7 throttled always; issue#13's version 2 refused
     * (MalformedDetail) with its images and accepted without them.
     */
    private static String scripted(String eventId, int attempt, boolean withImages) {
        long sequence = Long.parseLong(eventId.substring("event-".length()));
        int item = (int) (sequence % 1000);
        int version = (int) (sequence / 1000);
        if (item == 7) {
            return "ThrottlingException";
        }
        if (item == 13 && version == 2 && withImages) {
            return "MalformedDetail";
        }
        return (item + version) % 4 == 0 && attempt == 0 ? "ThrottlingException" : null;
    }

    @Test
    void send_overlapsCalls_neverTwoEventsOfOneItemInFlight_andKeepsEachItemsOrderAcrossRetries() {
        // given
        OverlapRecordingPublisher publisher = new OverlapRecordingPublisher(3);
        publisher.answer = ConcurrentPutEventsTest::scripted;
        List<ChangeEvent> events = events();

        // when
        OrderedEventSender.Outcome outcome = sender(publisher, 3).send(events, Deadline.after(Duration.ofMinutes(1)));

        // then
        assertThat(publisher.violations).isEmpty();
        assertThat(publisher.mostInFlight.get()).isEqualTo(3);
        for (int item = 0; item < ITEMS; item++) {
            if (item == 7) {
                assertThat(publisher.acceptedPerItem.get("issue#7")).isNull();
                continue;
            }
            List<String> inOrder = new ArrayList<>();
            for (int version = 0; version < VERSIONS; version++) {
                inOrder.add(eventId(item, version));
            }
            assertThat(publisher.acceptedPerItem.get("issue#" + item)).as("issue#" + item).containsExactlyElementsOf(inOrder);
        }
        // exactly issue#7's events are unsent; issue#13's version 2 went without images
        assertThat(outcome.unsent()).extracting(ChangeEvent::eventId)
                .containsExactly(eventId(7, 0), eventId(7, 1), eventId(7, 2), eventId(7, 3), eventId(7, 4));
        assertThat(outcome.resentWithoutImages().keySet()).extracting(ChangeEvent::eventId).containsExactly(eventId(13, 2));
        assertThat(outcome.refused()).isEmpty();
    }

    @Test
    void send_concurrentAndSequential_giveTheSameOutcome() {
        List<OrderedEventSender.Outcome> outcomes = new ArrayList<>();
        // a round of 30 items is 3 calls of 10
        for (int concurrency : new int[] {1, 3}) {
            OverlapRecordingPublisher publisher = new OverlapRecordingPublisher(concurrency);
            publisher.answer = ConcurrentPutEventsTest::scripted;
            outcomes.add(sender(publisher, concurrency).send(events(), Deadline.after(Duration.ofMinutes(1))));
            assertThat(publisher.violations).isEmpty();
        }

        OrderedEventSender.Outcome sequential = outcomes.get(0);
        OrderedEventSender.Outcome concurrent = outcomes.get(1);
        assertThat(concurrent.unsent()).isEqualTo(sequential.unsent());
        assertThat(concurrent.refused()).isEqualTo(sequential.refused());
        assertThat(Set.copyOf(concurrent.resentWithoutImages().keySet())).isEqualTo(Set.copyOf(sequential.resentWithoutImages().keySet()));
        assertThat(concurrent.retriedEntries()).isEqualTo(sequential.retriedEntries());
    }

    @Test
    void send_whenACallIsRefusedAsAWhole_isolatesTheOffenderWhileOtherCallsRunConcurrently() {
        // given: any call holding issue#4's first event is refused with ValidationException, with or without images
        List<ChangeEvent> events = events();
        EventPublisher refusing = new EventPublisher() {
            final OverlapRecordingPublisher inner = new OverlapRecordingPublisher(1);

            @Override
            public List<EntryResult> publish(List<PutEventsRequestEntry> entries, AwsRequestOverrideConfiguration override) {
                if (entries.stream().anyMatch(e -> read(e.detail()).at("/eventId").asText().equals(eventId(4, 0)))) {
                    throw (EventBridgeException) EventBridgeException.builder().statusCode(400)
                            .awsErrorDetails(AwsErrorDetails.builder().errorCode("ValidationException").errorMessage("test").build()).build();
                }
                return inner.publish(entries, override);
            }
        };

        // when
        OrderedEventSender.Outcome outcome = sender(refusing, 4).send(events, Deadline.after(Duration.ofMinutes(1)));

        // then: the offender alone is refused (skipped); its item's later events and every other event are sent
        assertThat(outcome.refused().keySet()).extracting(ChangeEvent::eventId).containsExactly(eventId(4, 0));
        assertThat(outcome.unsent()).isEmpty();
    }
}

package com.multikey.router;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.multikey.common.Backoff;
import com.multikey.common.Deadline;
import com.multikey.common.RetryBudget;
import com.multikey.index.definition.IndexDefinitions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.services.eventbridge.model.EventBridgeException;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.random.RandomGenerator;

import static org.assertj.core.api.Assertions.assertThat;

/** The sender against an in-memory PutEvents ({@link RecordingEventPublisher}) that fails calls or entries as each test says. */
class OrderedEventSenderTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private final ChangeEventFactory factory = new ChangeEventFactory(
            new RouterConfig("bus", "multikey.app-table", RouterFixtures.TABLE_ARN, IndexDefinitions.packaged(), true, RouterConfig.DEFAULT_MAX_ENTRY_BYTES));
    private final AtomicLong clock = new AtomicLong();
    private final List<Duration> waits = new ArrayList<>();
    private final RecordingEventPublisher publisher = new RecordingEventPublisher();

    private OrderedEventSender sender() {
        return new OrderedEventSender(publisher, "bus", RouterConfig.DEFAULT_MAX_ENTRY_BYTES,
                new Backoff(Duration.ofMillis(50), Duration.ofSeconds(5), RandomGenerator.of("L64X128MixRandom")),
                waits::add, RetryBudget.DEFAULT_MAX_FAILED_ATTEMPTS);
    }

    private Deadline deadline(Duration budget) {
        return Deadline.after(budget, clock::get);
    }

    private static EventBridgeException callError(int status, String code) {
        return (EventBridgeException) EventBridgeException.builder().statusCode(status)
                .awsErrorDetails(AwsErrorDetails.builder().errorCode(code).errorMessage("test").build()).build();
    }

    /** Versions 0..count-1 of one issue: created, then updated. */
    private List<ChangeEvent> versionsOfOneItem(int count) {
        List<ChangeEvent> events = new ArrayList<>();
        for (int version = 0; version < count; version++) {
            var before = version == 0 ? null : Records.item("issue#a", "v" + (version - 1));
            events.add(factory.toEvent(RouterFixtures.changeRecord(Records.change(version, "issue#a", before, Records.item("issue#a", "v" + version)))));
        }
        return events;
    }

    private List<ChangeEvent> inserts(int count) {
        List<ChangeEvent> events = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            events.add(factory.toEvent(RouterFixtures.changeRecord(Records.change(i, "issue#" + i, null, Records.item("issue#" + i, "n")))));
        }
        return events;
    }

    private List<String> acceptedNames() {
        return publisher.accepted.stream().map(detail -> read(detail).at("/newImage/name").asText()).toList();
    }

    private static JsonNode read(String json) {
        try {
            return JSON.readTree(json);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static List<String> names(int count) {
        List<String> names = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            names.add("v" + i);
        }
        return names;
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11})
    void send_whenTheCallOfAnyOfTwelveEventsOfOneItemIsThrottled_sendsAllTwelveOnceInOrder(int throttled) {
        publisher.behaviour = (call, entries) -> {
            if (call == throttled) {
                throw callError(400, "ThrottlingException");
            }
            return entries.stream().map(e -> Optional.<String>empty()).toList();
        };

        List<ChangeEvent> sent = versionsOfOneItem(12);
        OrderedEventSender.Outcome outcome = sender().send(sent, deadline(Duration.ofSeconds(30)));

        assertThat(outcome.unsent()).isEmpty();
        assertThat(acceptedNames()).containsExactlyElementsOf(names(12));
        assertThat(publisher.calls).hasSize(13).allSatisfy(call -> assertThat(call).hasSize(1));
        assertThat(waits).hasSize(1);
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11})
    void send_whenTheEntryOfAnyOfTwelveEventsOfOneItemIsThrottled_sendsAllTwelveOnceInOrder(int throttled) {
        publisher.behaviour = (call, entries) -> List.of(call == throttled ? Optional.of("ThrottlingException") : Optional.empty());

        List<ChangeEvent> sent = versionsOfOneItem(12);
        OrderedEventSender.Outcome outcome = sender().send(sent, deadline(Duration.ofSeconds(30)));

        assertThat(outcome.unsent()).isEmpty();
        assertThat(acceptedNames()).containsExactlyElementsOf(names(12));
        assertThat(outcome.retriedEntries()).isEqualTo(1);
    }

    @Test
    void send_whenEveryEventOfAnItemIsThrottledOnce_sendsAll_sinceEachAcceptedEventStartsTheCountAgain() {
        // 12 failed attempts, more than the budget of 10, but never two in a row without progress
        publisher.behaviour = (call, entries) -> List.of(call % 2 == 0 ? Optional.of("ThrottlingException") : Optional.empty());

        List<ChangeEvent> sent = versionsOfOneItem(12);
        OrderedEventSender.Outcome outcome = sender().send(sent, deadline(Duration.ofSeconds(30)));

        assertThat(acceptedNames()).containsExactlyElementsOf(names(12));
        assertThat(outcome.unsent()).isEmpty();
        assertThat(waits).hasSize(12);
    }

    @Test
    void send_whenNothingGetsThrough_stopsAfterTheBudgetOfFailedAttemptsInARow() {
        publisher.behaviour = (call, entries) -> entries.stream().map(e -> Optional.of("ThrottlingException")).toList();

        List<ChangeEvent> sent = versionsOfOneItem(3);
        OrderedEventSender.Outcome outcome = sender().send(sent, deadline(Duration.ofSeconds(30)));

        assertThat(acceptedNames()).isEmpty();
        assertThat(outcome.unsent()).containsExactlyElementsOf(at(sent, 0, 1, 2));
        assertThat(waits).hasSize(RetryBudget.DEFAULT_MAX_FAILED_ATTEMPTS);
    }

    @Test
    void send_whenAnEntryIsRefusedPermanently_resendsItOnceWithoutImages_thenSkipsIt() {
        publisher.behaviour = (call, entries) -> entries.stream().map(e -> e.detail().contains("\"issue#1\"")
                ? Optional.of("MalformedDetail") : Optional.<String>empty()).toList();

        List<ChangeEvent> sent = inserts(3);
        OrderedEventSender.Outcome outcome = sender().send(sent, deadline(Duration.ofSeconds(30)));

        assertThat(outcome.unsent()).isEmpty();
        assertThat(outcome.refused()).containsExactly(Map.entry(sent.get(1), "MalformedDetail"));
        assertThat(outcome.resentWithoutImages()).containsExactly(Map.entry(sent.get(1), "MalformedDetail"));
        List<JsonNode> sentForOne = publisher.calls.stream().flatMap(List::stream).filter(e -> e.detail().contains("\"issue#1\""))
                .map(e -> read(e.detail())).toList();
        assertThat(sentForOne).hasSize(2);
        assertThat(sentForOne.get(1).has("newImage")).isFalse();
        assertThat(sentForOne.get(1).get("imagesDropped").asBoolean()).isTrue();
        assertThat(sentForOne.get(1).get("imagesDroppedReason").asText()).isEqualTo("refused");
        assertThat(publisher.accepted).hasSize(2);
        assertThat(waits).isEmpty();
    }

    @Test
    void send_whenAnEntryIsRefusedOnlyWithItsImages_sendsItWithoutThem() {
        publisher.behaviour = (call, entries) -> entries.stream().map(e -> e.detail().contains("\"issue#1\"") && e.detail().contains("newImage")
                ? Optional.of("InvalidArgument") : Optional.<String>empty()).toList();

        List<ChangeEvent> sent = inserts(3);
        OrderedEventSender.Outcome outcome = sender().send(sent, deadline(Duration.ofSeconds(30)));

        assertThat(outcome.unsent()).isEmpty();
        assertThat(outcome.refused()).isEmpty();
        assertThat(outcome.resentWithoutImages()).containsOnlyKeys(sent.get(1));
        assertThat(publisher.accepted).hasSize(3);
    }

    @Test
    void send_whenATransientCodePersists_leavesThatEventAndTheLaterOnesOfItsItemUnsent_andSendsTheRest() {
        List<ChangeEvent> events = new ArrayList<>(inserts(3));
        events.add(factory.toEvent(RouterFixtures.changeRecord(Records.change(3, "issue#1", Records.item("issue#1", "n"), Records.item("issue#1", "m")))));
        events.add(factory.toEvent(RouterFixtures.changeRecord(Records.change(4, "issue#2", Records.item("issue#2", "n"), Records.item("issue#2", "m")))));
        publisher.behaviour = (call, entries) -> entries.stream().map(e -> e.detail().contains("\"issue#1\"")
                ? Optional.of("InternalFailure") : Optional.<String>empty()).toList();

        List<ChangeEvent> sent = events;
        OrderedEventSender.Outcome outcome = sender().send(sent, deadline(Duration.ofSeconds(60)));

        assertThat(outcome.unsent()).containsExactlyElementsOf(at(sent, 1, 3));
        assertThat(outcome.refused()).isEmpty();
        assertThat(publisher.accepted).hasSize(3);
        // the first round got issue#2's events through; from the second on, 10 rounds in a row settled nothing
        assertThat(waits).hasSize(RetryBudget.DEFAULT_MAX_FAILED_ATTEMPTS + 1);
    }

    @Test
    void send_whenACallIsRefusedAsAWholeForOneBadEntry_splitsItUntilTheOffenderIsAlone() {
        publisher.behaviour = (call, entries) -> {
            if (entries.stream().anyMatch(e -> e.detail().contains("\"issue#6\""))) {
                throw callError(400, "ValidationException");
            }
            return entries.stream().map(e -> Optional.<String>empty()).toList();
        };

        List<ChangeEvent> sent = inserts(10);
        OrderedEventSender.Outcome outcome = sender().send(sent, deadline(Duration.ofSeconds(30)));

        assertThat(outcome.unsent()).isEmpty();
        assertThat(outcome.refused()).containsExactly(Map.entry(sent.get(6), "ValidationException"));
        assertThat(publisher.accepted).hasSize(9);
        assertThat(waits).isEmpty();
    }

    @Test
    void send_whenTheSetupIsRefused_reportsEveryEventUnsent_withoutSkippingOrSplitting() {
        publisher.behaviour = (call, entries) -> {
            throw callError(400, "AccessDeniedException");
        };

        List<ChangeEvent> sent = inserts(15);
        OrderedEventSender.Outcome outcome = sender().send(sent, deadline(Duration.ofSeconds(30)));

        assertThat(outcome.unsent()).hasSize(15);
        assertThat(outcome.refused()).isEmpty();
        assertThat(publisher.calls).extracting(List::size).containsExactly(10, 5);
    }

    @Test
    void send_givesEveryCallAnApiCallTimeoutWithinTheDeadline_andStopsWhenNoTimeIsLeft() {
        publisher.behaviour = (call, entries) -> {
            clock.addAndGet(Duration.ofMillis(400).toNanos());
            return entries.stream().map(e -> Optional.of("ThrottlingException")).toList();
        };

        List<ChangeEvent> sent = inserts(3);
        OrderedEventSender.Outcome outcome = sender().send(sent, deadline(Duration.ofSeconds(1)));

        assertThat(outcome.unsent()).containsExactlyElementsOf(at(sent, 0, 1, 2));
        assertThat(publisher.overrides).isNotEmpty().allSatisfy(o -> assertThat(o.apiCallTimeout()).hasValueSatisfying(
                timeout -> assertThat(timeout).isPositive().isLessThanOrEqualTo(Duration.ofSeconds(1))));
        assertThat(publisher.overrides.get(publisher.overrides.size() - 1).apiCallTimeout().orElseThrow()).isLessThan(Duration.ofSeconds(1));
    }

    @Test
    void send_whenPutEventsAnswersForFewerEntriesThanItWasSent_resendsTheUnansweredOnes() {
        // given: the first call is answered for its first entry only
        publisher.behaviour = (call, entries) -> call == 0 ? List.of(Optional.<String>empty())
                : entries.stream().map(e -> Optional.<String>empty()).toList();

        // when
        List<ChangeEvent> sent = inserts(3);
        OrderedEventSender.Outcome outcome = sender().send(sent, deadline(Duration.ofSeconds(30)));

        // then
        assertThat(outcome.unsent()).isEmpty();
        assertThat(outcome.errorCodes()).containsExactly(Map.entry("MissingResultEntry", 2));
        assertThat(outcome.retriedEntries()).isEqualTo(2);
        assertThat(publisher.calls).extracting(List::size).containsExactly(3, 2);
    }

    @Test
    void send_packsEntriesIntoACallWhileTheirSizesTotalLessThanTheRequestLimit() {
        // given: two events, and a request limit exactly their total, then one byte more
        List<ChangeEvent> sent = inserts(2);
        int total = sent.get(0).size() + sent.get(1).size();

        // when
        new OrderedEventSender(publisher, "bus", total, new Backoff(Duration.ofMillis(50), Duration.ofSeconds(5),
                RandomGenerator.of("L64X128MixRandom")), waits::add, RetryBudget.DEFAULT_MAX_FAILED_ATTEMPTS).send(sent, deadline(Duration.ofSeconds(30)));
        new OrderedEventSender(publisher, "bus", total + 1, new Backoff(Duration.ofMillis(50), Duration.ofSeconds(5),
                RandomGenerator.of("L64X128MixRandom")), waits::add, RetryBudget.DEFAULT_MAX_FAILED_ATTEMPTS).send(sent, deadline(Duration.ofSeconds(30)));

        // then: at the limit, a call each; below it, one call
        assertThat(publisher.calls).extracting(List::size).containsExactly(1, 1, 2);
    }

    /** The events at these positions of what was sent. */
    private static List<ChangeEvent> at(List<ChangeEvent> sent, Integer... positions) {
        return java.util.Arrays.stream(positions).map(sent::get).toList();
    }
}

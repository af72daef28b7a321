package com.multikey.router;

import com.multikey.common.Backoff;
import com.multikey.common.BoundedCalls;
import com.multikey.common.Deadline;
import com.multikey.common.RetryBudget;
import com.multikey.common.Sleeper;
import software.amazon.awssdk.awscore.AwsRequestOverrideConfiguration;
import software.amazon.awssdk.core.exception.SdkException;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Sends events in PutEvents calls of at most 10 entries below the request size limit, keeping each item's
 * events in stream order: a call carries at most one event per item, and an item's next event goes only
 * after the previous one was accepted or definitively refused.
 *
 * <p>One retry owner per layer: the SDK retries a throttled or failed call as a whole; this class re-sends
 * what came back failed under one {@link RetryBudget} per batch, which counts the rounds in a row that left
 * an entry to retry and settled nothing (a round that got any event through starts the count again, so
 * an item with many events is never cut short while a fully throttled bus is),
 * and gives every call an {@code apiCallTimeout} within the invocation's remaining time. What an entry's
 * error means is {@link PutEventsErrors}': a permanent refusal sends the event once more without its
 * images, then skips it; a call refused as a whole for a permanent reason is split to isolate the entry
 * responsible.
 *
 * <p>A round packs the next event of every item into calls and sends them concurrently, at most
 * {@link BoundedCalls#maxInFlight()} at a time: each item has one event in the round, in one call, so two
 * events of one item are never in flight at once, and the item's next event waits for the next round. The
 * answers are applied in call order once the round's calls are back, so what becomes of each event does not
 * depend on which call finished first.
 */
public final class OrderedEventSender {

    public static final int MAX_ENTRIES_PER_CALL = PutEventsLimits.MAX_ENTRIES_PER_CALL;

    private final EventPublisher publisher;
    private final String eventBusName;
    private final int maxRequestBytes;
    private final Backoff backoff;
    private final Sleeper sleeper;
    private final int maxFailedAttempts;
    private final BoundedCalls concurrency;

    /** Sends one call at a time. */
    public OrderedEventSender(EventPublisher publisher, String eventBusName, int maxRequestBytes, Backoff backoff,
                              Sleeper sleeper, int maxFailedAttempts) {
        this(publisher, eventBusName, maxRequestBytes, backoff, sleeper, maxFailedAttempts, BoundedCalls.sequential());
    }

    /** Sends up to {@code concurrency.maxInFlight()} calls of a round at a time. */
    public OrderedEventSender(EventPublisher publisher, String eventBusName, int maxRequestBytes, Backoff backoff,
                              Sleeper sleeper, int maxFailedAttempts, BoundedCalls concurrency) {
        this.publisher = publisher;
        this.eventBusName = eventBusName;
        this.maxRequestBytes = maxRequestBytes;
        this.backoff = backoff;
        this.sleeper = sleeper;
        this.maxFailedAttempts = maxFailedAttempts;
        this.concurrency = concurrency;
    }

    /**
     * What became of a batch's events (as they were given, in their order).
     *
     * @param unsent              not accepted in time (transient errors, configuration errors, no time left),
     *                            with every later event of the same item
     * @param refused             refused with a permanent error, also without images where they had some: skipped;
     *                            the value is the last error code
     * @param resentWithoutImages sent again without images after a permanent refusal; the value is that error code
     * @param retriedEntries      entries re-sent after a transient error
     * @param errorCodes          every error code seen, with how often
     */
    public record Outcome(List<ChangeEvent> unsent, Map<ChangeEvent, String> refused, Map<ChangeEvent, String> resentWithoutImages,
                          int retriedEntries, Map<String, Integer> errorCodes) {

        public boolean accepted(ChangeEvent event) {
            return !unsent.contains(event) && !refused.containsKey(event);
        }
    }

    public Outcome send(List<ChangeEvent> events, Deadline deadline) {
        return new Sending(events, new RetryBudget(backoff, sleeper, deadline, maxFailedAttempts)).run();
    }

    /** What one call came back with: an answer per entry, or the failure of the whole call. */
    private sealed interface Answer {
        record Entries(List<EventPublisher.EntryResult> results) implements Answer {
        }

        record CallFailed(SdkException failure) implements Answer {
        }
    }

    /** The state of sending one batch. */
    private final class Sending {
        private final List<ChangeEvent> original;
        private final ChangeEvent[] current;
        private final RetryBudget budget;
        private final Map<String, Deque<Integer>> queues = new LinkedHashMap<>();
        private final Set<Integer> unsent = new TreeSet<>();
        private final Map<Integer, String> refused = new TreeMap<>();
        private final Map<Integer, String> resentWithoutImages = new TreeMap<>();
        private final Map<String, Integer> errorCodes = new TreeMap<>();
        private final List<Integer> transientFailures = new ArrayList<>();
        private int retriedEntries;

        Sending(List<ChangeEvent> events, RetryBudget budget) {
            this.original = List.copyOf(events);
            this.current = events.toArray(new ChangeEvent[0]);
            this.budget = budget;
            for (int i = 0; i < current.length; i++) {
                queues.computeIfAbsent(current[i].itemKey(), k -> new ArrayDeque<>()).add(i);
            }
        }

        Outcome run() {
            rounds:
            while (!queues.isEmpty()) {
                transientFailures.clear();
                int pendingBefore = pending();
                List<Integer> heads = queues.values().stream().map(Deque::peekFirst).sorted().toList();
                List<List<Integer>> calls = calls(heads);
                while (!calls.isEmpty()) {
                    if (!budget.hasTime()) {
                        break rounds;
                    }
                    AwsRequestOverrideConfiguration timeout = budget.callTimeout();
                    List<Answer> answers = concurrency.map(calls, call -> send(call, timeout));
                    List<List<Integer>> halves = new ArrayList<>();
                    for (int c = 0; c < calls.size(); c++) {
                        apply(calls.get(c), answers.get(c), halves);
                    }
                    calls = halves;
                }
                if (pending() < pendingBefore) {
                    budget.progressed();
                }
                if (!transientFailures.isEmpty()) {
                    if (!budget.retryAfterFailure()) {
                        break;
                    }
                    retriedEntries += transientFailures.size();
                }
            }
            queues.values().forEach(unsent::addAll);
            return new Outcome(unsent.stream().map(original::get).toList(), byEvent(refused), byEvent(resentWithoutImages),
                    retriedEntries, errorCodes);
        }

        /** What one call's answer means for its events; a call refused as a whole for a permanent reason adds its halves. */
        private void apply(List<Integer> call, Answer answer, List<List<Integer>> halves) {
            switch (answer) {
                case Answer.Entries entries -> {
                    List<EventPublisher.EntryResult> results = entries.results();
                    for (int i = 0; i < call.size(); i++) {
                        EventPublisher.EntryResult result = i < results.size() ? results.get(i)
                                : new EventPublisher.EntryResult.Failed("MissingResultEntry");
                        switch (result) {
                            case EventPublisher.EntryResult.Accepted accepted -> done(call.get(i));
                            case EventPublisher.EntryResult.Failed failure ->
                                    failed(call.get(i), failure.errorCode(), PutEventsErrors.ofEntry(failure.errorCode()));
                        }
                    }
                }
                case Answer.CallFailed callFailed -> {
                    SdkException e = callFailed.failure();
                    String code = PutEventsErrors.code(e);
                    PutEventsErrors.Kind kind = PutEventsErrors.ofCall(e);
                    if (kind == PutEventsErrors.Kind.PERMANENT && call.size() > 1) {
                        // one bad entry can make AWS refuse the whole call: halve it until the offender is alone
                        errorCodes.merge(code, 1, Integer::sum);
                        halves.add(call.subList(0, call.size() / 2));
                        halves.add(call.subList(call.size() / 2, call.size()));
                    } else {
                        call.forEach(position -> failed(position, code, kind));
                    }
                }
            }
        }

        /** One PutEvents call of the round; runs on a call thread, reading the events only. */
        private Answer send(List<Integer> call, AwsRequestOverrideConfiguration timeout) {
            try {
                return new Answer.Entries(publisher.publish(call.stream().map(p -> current[p].toEntry(eventBusName)).toList(), timeout));
            } catch (SdkException e) {
                return new Answer.CallFailed(e);
            }
        }

        private Map<ChangeEvent, String> byEvent(Map<Integer, String> byPosition) {
            Map<ChangeEvent, String> events = new LinkedHashMap<>();
            byPosition.forEach((position, code) -> events.put(original.get(position), code));
            return events;
        }

        /** Events still to send or to settle. */
        private int pending() {
            return queues.values().stream().mapToInt(Deque::size).sum();
        }

        /** The event was accepted or definitively refused: its item's next event may go. */
        private void done(int position) {
            Deque<Integer> queue = queues.get(current[position].itemKey());
            queue.pollFirst();
            if (queue.isEmpty()) {
                queues.remove(current[position].itemKey());
            }
        }

        private void failed(int position, String code, PutEventsErrors.Kind kind) {
            errorCodes.merge(code, 1, Integer::sum);
            switch (kind) {
                case TRANSIENT -> transientFailures.add(position);
                case PERMANENT -> {
                    Optional<ChangeEvent> withoutImages = current[position].withoutImages();
                    if (withoutImages.isPresent()) {
                        current[position] = withoutImages.get();
                        resentWithoutImages.put(position, code);
                    } else {
                        refused.put(position, code);
                        done(position);
                    }
                }
                case CONFIGURATION -> {
                    // nothing of this item can pass until the setup is fixed; keep its records for the failure queue
                    Deque<Integer> queue = queues.remove(current[position].itemKey());
                    if (queue != null) {
                        unsent.addAll(queue);
                    }
                }
            }
        }

        /** Packs positions into calls of at most 10 entries whose sizes total less than {@code maxRequestBytes}. */
        private List<List<Integer>> calls(List<Integer> positions) {
            List<List<Integer>> calls = new ArrayList<>();
            List<Integer> call = new ArrayList<>();
            int bytes = 0;
            for (int position : positions) {
                int size = current[position].size();
                if (!call.isEmpty() && (call.size() == MAX_ENTRIES_PER_CALL || bytes + size >= maxRequestBytes)) {
                    calls.add(call);
                    call = new ArrayList<>();
                    bytes = 0;
                }
                call.add(position);
                bytes += size;
            }
            if (!call.isEmpty()) {
                calls.add(call);
            }
            return calls;
        }
    }
}

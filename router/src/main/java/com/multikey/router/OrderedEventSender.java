package com.multikey.router;

import com.multikey.common.Backoff;
import com.multikey.common.Deadline;
import com.multikey.common.Sleeper;
import com.multikey.common.StructuredLog;
import software.amazon.awssdk.core.exception.SdkException;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Sends events in PutEvents calls of at most 10 entries within the request size limit, keeping each
 * item's events in stream order: a call carries at most one event per item, and an item's next event
 * goes only after the previous one was accepted. Rejected entries and failed calls are retried with
 * backoff while the deadline and the attempt budget allow; what is still unsent is returned.
 */
public final class OrderedEventSender {

    public static final int MAX_ENTRIES_PER_CALL = 10;
    static final int MAX_ROUNDS = 8;

    private final EventPublisher publisher;
    private final String eventBusName;
    private final int maxRequestBytes;
    private final Backoff backoff;
    private final Sleeper sleeper;
    private final StructuredLog log;

    public OrderedEventSender(EventPublisher publisher, String eventBusName, int maxRequestBytes, Backoff backoff,
                              Sleeper sleeper, StructuredLog log) {
        this.publisher = publisher;
        this.eventBusName = eventBusName;
        this.maxRequestBytes = maxRequestBytes;
        this.backoff = backoff;
        this.sleeper = sleeper;
        this.log = log;
    }

    /** @return the positions (in {@code events}) of the events that were not sent */
    public Set<Integer> send(List<ChangeEvent> events, Deadline deadline) {
        Map<String, Deque<Integer>> queues = new LinkedHashMap<>();
        for (int i = 0; i < events.size(); i++) {
            queues.computeIfAbsent(events.get(i).itemKey(), k -> new ArrayDeque<>()).add(i);
        }
        Map<String, Integer> errors = new LinkedHashMap<>();
        for (int round = 0; !queues.isEmpty(); round++) {
            List<Integer> heads = queues.values().stream().map(Deque::peekFirst).sorted(Comparator.naturalOrder()).toList();
            boolean anyFailed = false;
            for (List<Integer> call : calls(heads, events)) {
                List<Optional<String>> results = publish(call, events);
                for (int i = 0; i < call.size(); i++) {
                    int position = call.get(i);
                    if (results.get(i).isEmpty()) {
                        Deque<Integer> queue = queues.get(events.get(position).itemKey());
                        queue.pollFirst();
                        if (queue.isEmpty()) {
                            queues.remove(events.get(position).itemKey());
                        }
                    } else {
                        anyFailed = true;
                        errors.merge(results.get(i).get(), 1, Integer::sum);
                    }
                }
            }
            if (!anyFailed) {
                continue;
            }
            Duration wait = backoff.delay(round);
            if (round + 1 >= MAX_ROUNDS || !deadline.hasRoomFor(wait) || !sleep(wait)) {
                break;
            }
        }
        Set<Integer> unsent = new LinkedHashSet<>();
        queues.values().forEach(unsent::addAll);
        if (!unsent.isEmpty()) {
            log.warn("events not accepted by EventBridge after retries", Map.of(
                    "eventBusName", eventBusName, "unsentEvents", unsent.size(), "errorCodes", errors));
        }
        return unsent;
    }

    private List<Optional<String>> publish(List<Integer> call, List<ChangeEvent> events) {
        try {
            return publisher.publish(call.stream().map(p -> events.get(p).toEntry(eventBusName)).toList());
        } catch (SdkException e) {
            String code = e.getClass().getSimpleName();
            return call.stream().map(p -> Optional.of(code)).toList();
        }
    }

    /** Packs positions into calls of at most 10 entries and {@code maxRequestBytes}. */
    private List<List<Integer>> calls(List<Integer> positions, List<ChangeEvent> events) {
        List<List<Integer>> calls = new ArrayList<>();
        List<Integer> current = new ArrayList<>();
        int bytes = 0;
        for (int position : positions) {
            int size = events.get(position).size();
            if (!current.isEmpty() && (current.size() == MAX_ENTRIES_PER_CALL || bytes + size > maxRequestBytes)) {
                calls.add(current);
                current = new ArrayList<>();
                bytes = 0;
            }
            current.add(position);
            bytes += size;
        }
        if (!current.isEmpty()) {
            calls.add(current);
        }
        return calls;
    }

    private boolean sleep(Duration wait) {
        try {
            sleeper.sleep(wait);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}

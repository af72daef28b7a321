package com.multikey.emulator.services.streams;

import com.amazonaws.services.lambda.runtime.events.StreamsEventResponse;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.event.ruler.Machine;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * A DynamoDB event source mapping, emulated (with {@code ParallelizationFactor} above 1, one of its batch lanes:
 * see {@link ConcurrentBatches}): records of the table's stream that pass the
 * {@code FilterCriteria} (matched with event-ruler) are delivered in batches of {@code BatchSize}. A partial
 * batch response checkpoints at the lowest failed sequence number and delivers again from there; a
 * handler error retries the batch, halved when {@code BisectBatchOnFunctionError} is on; after
 * {@code MaximumRetryAttempts} the batch goes to the on-failure destination (reported) and delivery goes on.
 */
final class StreamEventSource {

    private final String name;
    private final String streamArn;
    private final Machine filter;
    private final int batchSize;
    private final int maximumRetryAttempts;
    private final boolean bisect;
    private final Function<String, StreamsEventResponse> target;
    private final Consumer<String> out;
    private final OnFailureDestination destination;
    private final List<Record> pending = new ArrayList<>();
    private final List<List<String>> onFailure = new CopyOnWriteArrayList<>();
    private int retries;
    private int attemptSize;

    StreamEventSource(String name, String streamArn, Machine filter, int batchSize, int maximumRetryAttempts, boolean bisect,
                      Function<String, StreamsEventResponse> target, Consumer<String> out, OnFailureDestination destination) {
        this.name = name;
        this.streamArn = streamArn;
        this.filter = filter;
        this.batchSize = batchSize;
        this.maximumRetryAttempts = maximumRetryAttempts;
        this.bisect = bisect;
        this.target = target;
        this.out = out;
        this.destination = destination;
        this.attemptSize = batchSize;
    }

    /** Takes new stream records; those the filter drops never reach the function. */
    void offer(List<Record> records) {
        for (Record record : records) {
            if (filter == null || matches(record)) {
                pending.add(record);
            }
        }
    }

    boolean idle() {
        return pending.isEmpty();
    }

    /** Sequence numbers of the batches given up on, as the on-failure destination would receive them. */
    List<List<String>> onFailure() {
        return List.copyOf(onFailure);
    }

    /** One delivery attempt of the next batch; returns whether anything was delivered. */
    boolean deliverOnce() {
        if (pending.isEmpty()) {
            return false;
        }
        List<Record> batch = List.copyOf(pending.subList(0, Math.min(attemptSize, pending.size())));
        StreamsEventResponse response;
        try {
            response = target.apply(LambdaEvents.dynamodbEventJson(batch, streamArn));
        } catch (RuntimeException e) {
            out.accept(String.format("%s: batch of %d failed: %s", name, batch.size(), e.getMessage()));
            failed(batch, bisect && batch.size() > 1 ? Math.max(1, batch.size() / 2) : batch.size());
            return true;
        }
        Set<String> failures = response == null || response.getBatchItemFailures() == null ? Set.of()
                : response.getBatchItemFailures().stream().map(StreamsEventResponse.BatchItemFailure::getItemIdentifier)
                .collect(Collectors.toSet());
        int firstFailed = -1;
        for (int i = 0; i < batch.size() && firstFailed < 0; i++) {
            if (failures.contains(batch.get(i).dynamodb().sequenceNumber())) {
                firstFailed = i;
            }
        }
        if (firstFailed < 0) {
            out.accept(String.format("%s: batch of %d records delivered", name, batch.size()));
            pending.subList(0, batch.size()).clear();
            retries = 0;
            attemptSize = batchSize;
            return true;
        }
        out.accept(String.format("%s: batch of %d records, %d reported failed; delivering again from sequence number %s",
                name, batch.size(), failures.size(), batch.get(firstFailed).dynamodb().sequenceNumber()));
        pending.subList(0, firstFailed).clear();
        failed(batch.subList(firstFailed, batch.size()), batchSize);
        return true;
    }

    private void failed(List<Record> batch, int nextSize) {
        retries++;
        if (retries > maximumRetryAttempts) {
            List<String> sequenceNumbers = batch.stream().map(r -> r.dynamodb().sequenceNumber()).toList();
            onFailure.add(sequenceNumbers);
            destination.send(List.copyOf(batch), retries);
            out.accept(String.format("%s: retries exhausted; %d records sent to the on-failure destination", name, batch.size()));
            pending.subList(0, batch.size()).clear();
            retries = 0;
            attemptSize = batchSize;
        } else {
            attemptSize = nextSize;
        }
    }

    private boolean matches(Record record) {
        try {
            return !filter.rulesForJSONEvent(LambdaEvents.recordJson(record, streamArn).toString()).isEmpty();
        } catch (Exception e) {
            throw new IllegalStateException(name + ": FilterCriteria could not be evaluated: " + e.getMessage(), e);
        }
    }
}

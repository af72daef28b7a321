package com.multikey.emulator.services.streams;

import com.multikey.emulator.functions.LocalFunction;
import com.multikey.emulator.services.kinesis.KinesisDelivery;
import com.multikey.emulator.services.kinesis.KinesisStreams;
import com.multikey.emulator.services.sqs.LocalSqs;
import com.multikey.emulator.template.SamTemplate;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.TimeToLiveStatus;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * The local stack's polling thread: every 200 ms it reads the stream of each event source mapping and delivers
 * what it read to the mapping's function, and once a second it expires the items whose TTL has passed. It counts
 * the polls in a row that found nothing to do, so that a caller can wait for a quiet stack.
 */
public final class StreamPolling implements AutoCloseable {

    private final DynamoDbClient dynamoDb;
    private final TtlSweeper ttlSweeper;
    private final Set<String> ttlWatched = new HashSet<>();
    private final List<EventSourceMappings.Source> sources = new ArrayList<>();
    private final List<EventSourceMappings.KinesisSource> kinesisSources = new ArrayList<>();
    private KinesisDelivery kinesisDelivery;
    private final BooleanSupplier othersBusy;
    private final Consumer<String> out;
    private ScheduledExecutorService poller;
    private volatile boolean closing;
    private volatile int quietCycles;
    private Instant lastSweep = Instant.EPOCH;

    /** @param othersBusy whether work outside the streams (e.g. the bus's targets) is still running: no poll is quiet then */
    public StreamPolling(DynamoDbClient dynamoDb, Consumer<String> out, BooleanSupplier othersBusy) {
        this.dynamoDb = dynamoDb;
        this.ttlSweeper = new TtlSweeper(dynamoDb, out);
        this.othersBusy = othersBusy;
        this.out = out;
    }

    /** Expires the items of {@code table} whose {@code ttlAttribute} has passed. */
    public void watchTtl(String table, String ttlAttribute) {
        ttlSweeper.watch(table, ttlAttribute);
        ttlWatched.add(table);
    }

    /**
     * Polls the streams the event source mappings of {@code functions} in {@code deployed} read (see
     * {@link EventSourceMappings}); a table they read that is not watched for TTL yet (one the stack did not create)
     * is watched when its TTL is enabled.
     */
    public void bind(SamTemplate deployed, Map<String, String> names, DynamoDbStreamsClient streams, LocalSqs sqs,
                     Map<String, LocalFunction> functions) {
        bind(deployed, names, streams, sqs, functions, null, null);
    }

    /**
     * As {@link #bind(SamTemplate, Map, DynamoDbStreamsClient, LocalSqs, Map)}, with the local Kinesis streams the
     * Kinesis event sources read, and the DynamoDB engine's delivery into them, flushed before each poll.
     */
    public void bind(SamTemplate deployed, Map<String, String> names, DynamoDbStreamsClient streams, LocalSqs sqs,
                     Map<String, LocalFunction> functions, KinesisStreams kinesis, KinesisDelivery delivery) {
        this.kinesisDelivery = delivery;
        EventSourceMappings mappings = new EventSourceMappings(deployed, names, dynamoDb, streams, out, sqs, kinesis);
        functions.forEach((function, target) -> sources.addAll(mappings.bind(function, target)));
        sources.addAll(mappings.bindResources(functions));
        kinesisSources.addAll(mappings.kinesisSources());
        for (EventSourceMappings.Source source : sources) {
            if (ttlWatched.add(source.table())) {
                watchExistingTtl(source.table());
            }
        }
    }

    /** A table the stack reads but did not create: its TTL, when enabled, is honoured like a template table's. */
    private void watchExistingTtl(String table) {
        var ttl = dynamoDb.describeTimeToLive(b -> b.tableName(table)).timeToLiveDescription();
        if (ttl != null && ttl.attributeName() != null && ttl.timeToLiveStatus() == TimeToLiveStatus.ENABLED) {
            ttlSweeper.watch(table, ttl.attributeName());
        }
    }

    /** A stream reader the stack deployed: the function (logical id) an event source mapping delivers to, and what it reads. */
    public record Reader(String function, String streamArn, String startingPosition, int batchSize) {
    }

    /** The event source mappings bound, one per function event, in template order. */
    public List<Reader> readers() {
        List<Reader> readers = new ArrayList<>(sources.stream()
                .map(s -> new Reader(s.function(), s.tail().streamArn(), s.startingPosition(), s.batchSize())).toList());
        kinesisSources.forEach(k -> readers.add(new Reader(k.function(), k.eventSourceArn(), k.startingPosition(), k.batchSize())));
        return List.copyOf(readers);
    }

    /** Starts polling the streams (every 200 ms) and expiring items whose TTL has passed (every second). */
    public void start() {
        poller = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "local-streams");
            thread.setDaemon(true);
            return thread;
        });
        poller.scheduleWithFixedDelay(this::pollOnce, 0, 200, TimeUnit.MILLISECONDS);
    }

    /** Starts counting quiet polls again from none. */
    public void resetQuietPolls() {
        quietCycles = 0;
    }

    /** The polls in a row, since the last reset, that found nothing to read, deliver or expire. */
    public int quietPolls() {
        return quietCycles;
    }

    /** The on-failure destinations' contents, by mapping ({@code <table>#<index>}). */
    public Map<String, List<List<String>>> onFailure() {
        Map<String, List<List<String>>> failures = new LinkedHashMap<>();
        for (int i = 0; i < sources.size(); i++) {
            failures.put(sources.get(i).table() + "#" + i, sources.get(i).mapping().onFailure());
        }
        for (int i = 0; i < kinesisSources.size(); i++) {
            failures.put(kinesisSources.get(i).mapping().stream().name() + "#kinesis" + i, kinesisSources.get(i).mapping().onFailure());
        }
        return failures;
    }

    /** Makes the mappings that deliver to {@code function} inject {@code faults} (see {@link InvocationFaults}). */
    public void invocationFaults(String function, InvocationFaults faults) {
        sources.stream().filter(s -> s.function().equals(function)).forEach(s -> s.faults().set(faults));
        kinesisSources.stream().filter(s -> s.function().equals(function)).forEach(s -> s.faults().set(faults));
    }

    private synchronized void pollOnce() {
        try {
            boolean busy = false;
            if (Duration.between(lastSweep, Instant.now()).toMillis() >= 1000) {
                busy |= ttlSweeper.sweep() > 0;
                lastSweep = Instant.now();
            }
            for (EventSourceMappings.Source source : sources) {
                List<Record> records = source.tail().poll().stream().map(r -> ttlSweeper.withTtlIdentity(source.table(), r)).toList();
                source.mapping().offer(records);
                busy |= !records.isEmpty();
                for (int step = 0; step < 50 && !source.mapping().idle(); step++) {
                    busy |= source.mapping().deliverOnce();
                }
            }
            if (kinesisDelivery != null) {
                busy |= kinesisDelivery.flush();
            }
            for (EventSourceMappings.KinesisSource source : kinesisSources) {
                busy |= source.mapping().poll();
                for (int step = 0; step < 50 && !source.mapping().idle(); step++) {
                    busy |= source.mapping().deliverOnce();
                }
            }
            quietCycles = busy || othersBusy.getAsBoolean() ? 0 : quietCycles + 1;
        } catch (RuntimeException e) {
            quietCycles = 0;
            if (Thread.currentThread().isInterrupted() || closing) {
                // close() stops the poller mid-call: that is shutting down, not a failure
                return;
            }
            out.accept("stream polling failed: " + e.getMessage());
        }
    }

    @Override
    public void close() {
        closing = true;
        if (poller != null) {
            poller.shutdownNow();
        }
        sources.forEach(source -> source.mapping().close());
    }
}

package com.multikey.emulator.services.streams;

import com.multikey.common.CanonicalNumbers;
import com.multikey.emulator.template.TemplateException;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.Record;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.IntFunction;

/**
 * A DynamoDB event source mapping with its {@code ParallelizationFactor}: up to that many batches of one shard
 * delivered at once, as Lambda does ("When you increase the number of concurrent batches per shard, Lambda still
 * ensures in-order processing at the item (partition and sort key) level", Lambda developer guide, "Using AWS
 * Lambda with Amazon DynamoDB").
 *
 * <p>Each record goes to one of {@code factor} batch lanes chosen, as Lambda chooses it, by a hash of its partition
 * key's value alone (MD5 of its type and its text, a number in DynamoDB's canonical spelling), so every record of one
 * partition key, and so of one item, is in one lane, in stream order, however a request spelled a number key (a local
 * stream passes a request's spelling on in MODIFY records' keys: {@code 1E+2} where the INSERT said {@code 100}). Each lane is a
 * {@link StreamEventSource}: its own batches, partial batch responses checkpointed at its lowest failed
 * sequence number, retries, bisect and on-failure destination; one lane failing never holds the others back.
 * One delivery step delivers the next batch of every lane that has records, the lanes on threads of their own
 * at the same time. Locally the concurrent batches share the function's one handler instance (Lambda gives each
 * an execution environment of its own), so they also prove the handler safe to share.
 *
 * <p>The emulated stream is one shard: the local stream reader returns one shard's records in order.
 */
final class ConcurrentBatches implements AutoCloseable {

    /**
     * Lambda's range for {@code ParallelizationFactor} (CreateEventSourceMapping, Lambda API reference: "Valid
     * Range: Minimum value of 1. Maximum value of 10.").
     */
    static final int MIN_PARALLELIZATION_FACTOR = 1;
    static final int MAX_PARALLELIZATION_FACTOR = 10;

    private final String name;
    private final String partitionKey;
    private final List<StreamEventSource> lanes;
    private final ExecutorService threads;

    /**
     * @param partitionKey the name of the table's partition key attribute
     * @param lane         builds lane {@code i} (0-based); every lane with the same settings, delivering to the same function
     * @throws TemplateException when {@code factor} is outside Lambda's range
     */
    ConcurrentBatches(String name, int factor, String partitionKey, IntFunction<StreamEventSource> lane) {
        if (factor < MIN_PARALLELIZATION_FACTOR || factor > MAX_PARALLELIZATION_FACTOR) {
            throw new TemplateException(name + ": ParallelizationFactor must be from " + MIN_PARALLELIZATION_FACTOR + " to "
                    + MAX_PARALLELIZATION_FACTOR + " (Lambda's range), got " + factor);
        }
        this.name = name;
        this.partitionKey = partitionKey;
        List<StreamEventSource> built = new ArrayList<>();
        for (int i = 0; i < factor; i++) {
            built.add(lane.apply(i));
        }
        this.lanes = List.copyOf(built);
        this.threads = factor == 1 ? null : Executors.newFixedThreadPool(factor, runnable -> {
            Thread thread = new Thread(runnable, name + "-batches");
            thread.setDaemon(true);
            return thread;
        });
    }

    int parallelizationFactor() {
        return lanes.size();
    }

    /** Takes new stream records, each to the lane of its item. */
    void offer(List<Record> records) {
        List<List<Record>> byLane = new ArrayList<>();
        lanes.forEach(l -> byLane.add(new ArrayList<>()));
        for (Record record : records) {
            byLane.get(laneOf(record.dynamodb().keys(), partitionKey, lanes.size())).add(record);
        }
        for (int i = 0; i < lanes.size(); i++) {
            if (!byLane.get(i).isEmpty()) {
                lanes.get(i).offer(byLane.get(i));
            }
        }
    }

    boolean idle() {
        return lanes.stream().allMatch(StreamEventSource::idle);
    }

    /** What each lane gave up on, as the on-failure destination received it, lane by lane. */
    List<List<String>> onFailure() {
        List<List<String>> failures = new ArrayList<>();
        lanes.forEach(l -> failures.addAll(l.onFailure()));
        return List.copyOf(failures);
    }

    /** One delivery attempt of the next batch of every lane that has records, all at once; whether any was delivered. */
    boolean deliverOnce() {
        List<StreamEventSource> ready = lanes.stream().filter(l -> !l.idle()).toList();
        if (threads == null || ready.size() <= 1) {
            boolean delivered = false;
            for (StreamEventSource lane : ready) {
                delivered |= lane.deliverOnce();
            }
            return delivered;
        }
        List<Future<Boolean>> deliveries = ready.stream().map(lane -> threads.submit(lane::deliverOnce)).toList();
        boolean delivered = false;
        RuntimeException failure = null;
        for (Future<Boolean> delivery : deliveries) {
            try {
                delivered |= delivery.get();
            } catch (ExecutionException e) {
                if (failure == null) {
                    failure = e.getCause() instanceof RuntimeException runtime ? runtime
                            : new IllegalStateException(name + ": delivery failed", e.getCause());
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                deliveries.forEach(d -> d.cancel(true));
                throw new IllegalStateException(name + ": interrupted while batches were in flight", e);
            }
        }
        if (failure != null) {
            throw failure;
        }
        return delivered;
    }

    /** The lane of a record: a hash of its partition key's value, a number canonical, so all records of a partition key share one lane. */
    static int laneOf(Map<String, AttributeValue> keys, String partitionKey, int lanes) {
        if (lanes == 1) {
            return 0;
        }
        AttributeValue value = keys.get(partitionKey);
        if (value == null) {
            throw new IllegalStateException("a stream record's keys lack the partition key " + partitionKey);
        }
        String hashed = switch (value.type()) {
            case S -> "S" + value.s();
            case N -> "N" + CanonicalNumbers.canonical(value.n());
            case B -> "B" + Base64.getEncoder().encodeToString(value.b().asByteArray());
            default -> throw new IllegalStateException("a partition key is S, N or B, found " + value.type());
        };
        try {
            byte[] digest = MessageDigest.getInstance("MD5").digest(hashed.getBytes(StandardCharsets.UTF_8));
            return Math.floorMod(ByteBuffer.wrap(digest).getInt(), lanes);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("MD5 is a required JDK algorithm", e);
        }
    }

    @Override
    public void close() {
        if (threads != null) {
            threads.shutdownNow();
        }
    }
}

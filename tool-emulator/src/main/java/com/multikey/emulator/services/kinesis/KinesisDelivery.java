package com.multikey.emulator.services.kinesis;

import com.multikey.dynamodb.kinesis.KinesisSink;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The DynamoDB engine's Kinesis streaming destinations writing into the local streams (as PutRecord does), through
 * the {@link KinesisFaults} in force: duplicates put twice, and with a reorder window the changes held until that many
 * are, then put in a random order (so a record lands less than the window from its change's place), what is held
 * also put, in a random order, by {@link #flush()}, which the stream polling calls before each poll. Thread-safe.
 */
public final class KinesisDelivery implements KinesisSink {

    private record Pending(KinesisStreams.Stream stream, String partitionKey, byte[] data) {
    }

    private final KinesisStreams streams;
    private final List<Pending> held = new ArrayList<>();
    private KinesisFaults faults = KinesisFaults.NONE;
    private Random random = new Random(0);
    private long duplicates;

    public KinesisDelivery(KinesisStreams streams) {
        this.streams = streams;
    }

    /** The faults from now on; what is held is put first. */
    public synchronized void faults(KinesisFaults faults) {
        flush();
        this.faults = faults;
        this.random = new Random(faults.seed());
    }

    /** How many changes were put twice so far. */
    public synchronized long duplicates() {
        return duplicates;
    }

    @Override
    public boolean exists(String streamArn) {
        return streams.find(streamArn).isPresent();
    }

    @Override
    public synchronized void put(String streamArn, String partitionKey, byte[] data) {
        KinesisStreams.Stream stream = streams.find(streamArn)
                .orElseThrow(() -> new IllegalStateException("the Kinesis stream " + streamArn + " does not exist"));
        Pending pending = new Pending(stream, partitionKey, data);
        if (!faults.any()) {
            write(pending);
            return;
        }
        held.add(pending);
        if (faults.duplicateFraction() > 0 && random.nextDouble() < faults.duplicateFraction()) {
            held.add(pending);
            duplicates++;
        }
        if (held.size() >= Math.max(1, faults.reorderWindow())) {
            flush();
        }
    }

    /** Puts what is held, in a random order; whether anything was held. */
    public synchronized boolean flush() {
        boolean any = !held.isEmpty();
        while (!held.isEmpty()) {
            write(held.remove(random.nextInt(held.size())));
        }
        return any;
    }

    private void write(Pending pending) {
        streams.put(pending.stream(), pending.partitionKey(), pending.data(), new KinesisStreams.Shard[1]);
    }
}

package com.multikey.emulator.services.streams;

import com.multikey.emulator.services.kinesis.KinesisStreams;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * A Kinesis event source mapping: each shard of the stream read from its starting position ({@code TRIM_HORIZON} or
 * {@code LATEST}) and in order, its records handed to the shard's {@code ParallelizationFactor} lanes by partition key
 * (so one partition key's records stay in one lane, in shard order, as Lambda keeps them), each lane a
 * {@link KinesisEventSource}. Shards are delivered one after another on the polling thread.
 */
final class KinesisMapping {

    private final KinesisStreams streams;
    private final KinesisStreams.Stream stream;
    private final Map<String, Integer> positions = new HashMap<>();
    private final Map<String, List<KinesisEventSource>> lanes = new HashMap<>();

    /** @param lane builds the lane of a shard id and lane number */
    KinesisMapping(KinesisStreams streams, KinesisStreams.Stream stream, String startingPosition, int factor,
                   BiFunction<String, Integer, KinesisEventSource> lane) {
        this.streams = streams;
        this.stream = stream;
        for (KinesisStreams.Shard shard : stream.shards()) {
            positions.put(shard.id(), streams.startIndex(shard, "LATEST".equals(startingPosition) ? "LATEST" : "TRIM_HORIZON", null, null));
            List<KinesisEventSource> shardLanes = new ArrayList<>();
            for (int i = 0; i < factor; i++) {
                shardLanes.add(lane.apply(shard.id(), i));
            }
            lanes.put(shard.id(), shardLanes);
        }
    }

    KinesisStreams.Stream stream() {
        return stream;
    }

    /** Reads what each shard has gained since the last poll; whether anything was read. */
    boolean poll() {
        boolean read = false;
        for (KinesisStreams.Shard shard : stream.shards()) {
            int position = positions.get(shard.id());
            KinesisStreams.Page page = streams.read(stream, shard, new KinesisStreams.Iterator(stream.name(), shard.id(), position), 10_000);
            positions.put(shard.id(), page.next().index());
            List<KinesisEventSource> shardLanes = lanes.get(shard.id());
            for (KinesisStreams.Record record : page.records()) {
                shardLanes.get(laneOf(record.partitionKey(), shardLanes.size())).offer(List.of(record));
                read = true;
            }
        }
        return read;
    }

    static int laneOf(String partitionKey, int lanes) {
        return lanes == 1 ? 0 : new BigInteger(1, partitionKey.getBytes(java.nio.charset.StandardCharsets.UTF_8))
                .mod(BigInteger.valueOf(lanes)).intValue();
    }

    boolean idle() {
        return lanes.values().stream().flatMap(List::stream).allMatch(KinesisEventSource::idle);
    }

    /** One delivery attempt of the next batch of every lane that has records; whether any was delivered. */
    boolean deliverOnce() {
        boolean delivered = false;
        for (List<KinesisEventSource> shardLanes : lanes.values()) {
            for (KinesisEventSource lane : shardLanes) {
                delivered |= lane.deliverOnce();
            }
        }
        return delivered;
    }

    List<List<String>> onFailure() {
        List<List<String>> failures = new ArrayList<>();
        lanes.values().forEach(shardLanes -> shardLanes.forEach(l -> failures.addAll(l.onFailure())));
        return failures;
    }
}

package com.multikey.emulator.services.kinesis;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * The local Kinesis data streams, in memory: each stream's shards split the 128-bit hash key range evenly, a record
 * goes to the shard whose range holds the MD5 of its partition key (as Kinesis maps partition keys to shards), and
 * each shard keeps its records in the order they were put, numbered by one increasing sequence. Records are kept while
 * the stack runs, until {@link #trimBefore(Instant)} trims them as a stream's retention period does (tests of what
 * happens to records past it). Thread-safe.
 */
public final class KinesisStreams {

    /**
     * The local account: the one the template's ARNs name as the emulator resolves them (TemplateEnvironment.LOCAL_ACCOUNT),
     * so that a stream's ARN is the same in DescribeStream, in the table's destination and in the event source mappings.
     */
    static final String ACCOUNT = "123456789012";
    private static final BigInteger MAX_HASH_KEY = BigInteger.TWO.pow(128).subtract(BigInteger.ONE);
    private static final BigInteger FIRST_SEQUENCE = new BigInteger("49590000000000000000000000000000000000000000000000000000");

    private final Map<String, Stream> streams = new ConcurrentSkipListMap<>();
    private final Clock clock;
    private final String region;
    private long sequence;

    public KinesisStreams(Clock clock, String region) {
        this.clock = clock;
        this.region = region;
    }

    /** One record of a shard. */
    public record Record(String sequenceNumber, String partitionKey, byte[] data, Instant arrival) {
    }

    /**
     * A shard: its id, its hash key range, its records. Positions (what an iterator holds) count every record the shard
     * ever had, so trimming its oldest records moves no iterator.
     */
    public static final class Shard {
        private final String id;
        private final BigInteger startingHashKey;
        private final BigInteger endingHashKey;
        private final String startingSequenceNumber;
        private final List<Record> records = new ArrayList<>();
        private int trimmed;

        Shard(String id, BigInteger startingHashKey, BigInteger endingHashKey, String startingSequenceNumber) {
            this.id = id;
            this.startingHashKey = startingHashKey;
            this.endingHashKey = endingHashKey;
            this.startingSequenceNumber = startingSequenceNumber;
        }

        public String id() {
            return id;
        }

        public BigInteger startingHashKey() {
            return startingHashKey;
        }

        public BigInteger endingHashKey() {
            return endingHashKey;
        }

        public String startingSequenceNumber() {
            return startingSequenceNumber;
        }

        /** The position after the shard's last record. */
        synchronized int size() {
            return trimmed + records.size();
        }

        /** The position of the shard's oldest record still kept (the trim horizon). */
        synchronized int horizon() {
            return trimmed;
        }

        /** Up to {@code limit} records from a position; a position in what was trimmed reads from the trim horizon. */
        synchronized List<Record> from(int index, int limit) {
            int from = Math.min(Math.max(index, trimmed) - trimmed, records.size());
            return List.copyOf(records.subList(from, Math.min(records.size(), from + limit)));
        }

        /** The position reading from which {@link #from(int, int)} starts at {@code index}. */
        synchronized int readFrom(int index) {
            return Math.min(Math.max(index, trimmed), size());
        }

        /**
         * The position of the first record at or after this sequence number (at {@code inclusive}) or after it; a trimmed
         * record's is the trim horizon's.
         */
        synchronized int indexOf(BigInteger sequence, boolean inclusive) {
            for (int i = 0; i < records.size(); i++) {
                int compared = new BigInteger(records.get(i).sequenceNumber()).compareTo(sequence);
                if (compared > 0 || inclusive && compared == 0) {
                    return trimmed + i;
                }
            }
            return size();
        }

        synchronized int indexAt(Instant timestamp) {
            for (int i = 0; i < records.size(); i++) {
                if (!records.get(i).arrival().isBefore(timestamp)) {
                    return trimmed + i;
                }
            }
            return size();
        }

        synchronized void add(Record record) {
            records.add(record);
        }

        /** Drops the records that arrived before {@code cutoff}; how many. */
        synchronized int trimBefore(Instant cutoff) {
            int count = 0;
            while (!records.isEmpty() && records.get(0).arrival().isBefore(cutoff)) {
                records.remove(0);
                trimmed++;
                count++;
            }
            return count;
        }
    }

    /** A data stream: its name, ARN, creation time and shards. */
    public record Stream(String name, String arn, Instant created, List<Shard> shards) {
    }

    /** Creates a stream of {@code shardCount} shards; false if one of that name exists. */
    public synchronized boolean create(String name, int shardCount) {
        if (streams.containsKey(name)) {
            return false;
        }
        List<Shard> shards = new ArrayList<>();
        BigInteger width = MAX_HASH_KEY.add(BigInteger.ONE).divide(BigInteger.valueOf(shardCount));
        for (int i = 0; i < shardCount; i++) {
            BigInteger start = width.multiply(BigInteger.valueOf(i));
            BigInteger end = i == shardCount - 1 ? MAX_HASH_KEY : start.add(width).subtract(BigInteger.ONE);
            shards.add(new Shard(String.format("shardId-%012d", i), start, end, FIRST_SEQUENCE.add(BigInteger.valueOf(sequence)).toString()));
        }
        streams.put(name, new Stream(name, arn(name), clock.instant(), List.copyOf(shards)));
        return true;
    }

    public String arn(String name) {
        return "arn:aws:kinesis:" + region + ":" + ACCOUNT + ":stream/" + name;
    }

    public List<Stream> list() {
        return List.copyOf(streams.values());
    }

    /** A stream by name, ARN, or the ARN of one of its consumers (enhanced fan-out: the consumer reads the stream). */
    public Optional<Stream> find(String nameOrArn) {
        if (nameOrArn == null) {
            return Optional.empty();
        }
        String name = nameOrArn;
        int at = nameOrArn.indexOf(":stream/");
        if (nameOrArn.startsWith("arn:") && at >= 0) {
            name = nameOrArn.substring(at + ":stream/".length());
            int slash = name.indexOf('/');
            name = slash < 0 ? name : name.substring(0, slash);
        }
        return Optional.ofNullable(streams.get(name));
    }

    /** PutRecord: the record in the shard of its partition key; answers that shard and the record's sequence number. */
    public synchronized Record put(Stream stream, String partitionKey, byte[] data, Shard[] shardOut) {
        Shard shard = shardOf(stream, partitionKey);
        sequence++;
        Record record = new Record(FIRST_SEQUENCE.add(BigInteger.valueOf(sequence)).toString(), partitionKey, data.clone(), clock.instant());
        shard.add(record);
        shardOut[0] = shard;
        return record;
    }

    static Shard shardOf(Stream stream, String partitionKey) {
        BigInteger hash = hashKey(partitionKey);
        for (Shard shard : stream.shards()) {
            if (hash.compareTo(shard.startingHashKey()) >= 0 && hash.compareTo(shard.endingHashKey()) <= 0) {
                return shard;
            }
        }
        throw new IllegalStateException("no shard holds hash key " + hash);
    }

    /** The MD5 of the partition key as an unsigned 128-bit integer, as Kinesis maps a partition key to a hash key. */
    static BigInteger hashKey(String partitionKey) {
        try {
            return new BigInteger(1, MessageDigest.getInstance("MD5").digest(partitionKey.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("MD5 is a required JDK algorithm", e);
        }
    }

    /** A shard iterator: where the next GetRecords reads (an index into the shard), opaque to clients. */
    public record Iterator(String stream, String shardId, int index) {
        public String encode() {
            return Base64.getUrlEncoder().withoutPadding().encodeToString((stream + "\n" + shardId + "\n" + index).getBytes(StandardCharsets.UTF_8));
        }

        public static Optional<Iterator> decode(String text) {
            try {
                String[] parts = new String(Base64.getUrlDecoder().decode(text), StandardCharsets.UTF_8).split("\n");
                return parts.length == 3 ? Optional.of(new Iterator(parts[0], parts[1], Integer.parseInt(parts[2]))) : Optional.empty();
            } catch (IllegalArgumentException e) {
                return Optional.empty();
            }
        }
    }

    public Optional<Shard> shard(Stream stream, String shardId) {
        return stream.shards().stream().filter(s -> s.id().equals(shardId)).findFirst();
    }

    /** The records at an iterator, up to {@code limit}, and the iterator after them. */
    public record Page(List<Record> records, Iterator next, long millisBehindLatest) {
    }

    public Page read(Stream stream, Shard shard, Iterator iterator, int limit) {
        List<Record> records = shard.from(iterator.index(), limit);
        int next = shard.readFrom(iterator.index()) + records.size();
        List<Record> rest = shard.from(next, 1);
        long behind = rest.isEmpty() ? 0 : Math.max(0, clock.instant().toEpochMilli() - rest.get(0).arrival().toEpochMilli());
        return new Page(records, new Iterator(stream.name(), shard.id(), next), behind);
    }

    /**
     * Trims every shard's records that arrived before {@code cutoff}, as a stream's retention period does (the records
     * older than it); how many records were trimmed. An iterator, a sequence number or a timestamp before what is kept
     * then reads from the oldest record kept (the trim horizon).
     */
    public int trimBefore(Instant cutoff) {
        int count = 0;
        for (Stream stream : list()) {
            for (Shard shard : stream.shards()) {
                count += shard.trimBefore(cutoff);
            }
        }
        return count;
    }

    /** Where an iterator of each type starts. */
    public int startIndex(Shard shard, String type, String sequenceNumber, Instant timestamp) {
        return switch (type) {
            case "TRIM_HORIZON" -> shard.horizon();
            case "LATEST" -> shard.size();
            case "AT_SEQUENCE_NUMBER" -> shard.indexOf(new BigInteger(sequenceNumber), true);
            case "AFTER_SEQUENCE_NUMBER" -> shard.indexOf(new BigInteger(sequenceNumber), false);
            case "AT_TIMESTAMP" -> shard.indexAt(timestamp);
            default -> throw new IllegalArgumentException("ShardIteratorType " + type + " is not one of TRIM_HORIZON, LATEST, "
                    + "AT_SEQUENCE_NUMBER, AFTER_SEQUENCE_NUMBER, AT_TIMESTAMP");
        };
    }
}

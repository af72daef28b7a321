package com.multikey.dynamodb.stream;

import com.multikey.dynamodb.value.Value;
import com.multikey.dynamodb.value.Values;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * One table stream with its single shard: the records written while it was enabled, kept 24 hours as on AWS.
 * Thread-safe: the table's writers append while pollers read.
 */
public final class StreamLog {

    /** How long AWS keeps stream records. */
    public static final Duration RETENTION = Duration.ofHours(24);

    private final String arn;
    private final String label;
    private final String tableName;
    private final List<KeyAttribute> keySchema;
    private final ViewType viewType;
    private final Instant created;
    private final String shardId;
    private final SequenceNumbers sequences;
    private final long startingSequence;
    private final long salt;
    private final List<StreamRecord> records = new ArrayList<>();
    private Instant disabledAt;
    private long endingSequence = -1;

    public enum ViewType { KEYS_ONLY, NEW_IMAGE, OLD_IMAGE, NEW_AND_OLD_IMAGES }

    /**
     * One attribute of the table's key as DescribeStream names it ({@code keyType} HASH or RANGE): the stream keeps
     * its own copy, as it outlives its table, and so depends on no table type.
     */
    public record KeyAttribute(String attributeName, String keyType) {
    }

    public StreamLog(String arn, String label, String tableName, List<KeyAttribute> keySchema, ViewType viewType,
                     Instant created, SequenceNumbers sequences) {
        this(arn, label, tableName, keySchema, viewType, created, sequences, sequences.current() + 1);
    }

    private StreamLog(String arn, String label, String tableName, List<KeyAttribute> keySchema, ViewType viewType,
                      Instant created, SequenceNumbers sequences, long startingSequence) {
        this.arn = arn;
        this.label = label;
        this.tableName = tableName;
        this.keySchema = List.copyOf(keySchema);
        this.viewType = viewType;
        this.created = created;
        this.sequences = sequences;
        this.startingSequence = startingSequence;
        // drawn from the ARN (which names the table and the stream's creation to the millisecond), not at random: a
        // stream rebuilt from a data directory's log gets the shard id and event ids its readers already know
        ByteBuffer digest = ByteBuffer.wrap(sha256(arn));
        this.salt = digest.getLong();
        this.shardId = "shardId-" + String.format("%020d", created.toEpochMilli()) + "-"
                + HexFormat.of().toHexDigits(digest.getInt());
    }

    /** A stream as a snapshot of the engine's state kept it: its records, whether and when it was closed, what was trimmed. */
    public static StreamLog restore(String arn, String label, String tableName, List<KeyAttribute> keySchema, ViewType viewType,
                                    Instant created, SequenceNumbers sequences, long startingSequence, Instant disabledAt,
                                    long endingSequence, long trimmedUpTo, List<StreamRecord> records) {
        StreamLog stream = new StreamLog(arn, label, tableName, keySchema, viewType, created, sequences, startingSequence);
        stream.disabledAt = disabledAt;
        stream.endingSequence = endingSequence;
        stream.trimmedUpTo = trimmedUpTo;
        stream.records.addAll(records);
        return stream;
    }

    /** The records kept now, oldest first (for a snapshot of the engine's state). */
    public synchronized List<StreamRecord> records() {
        return List.copyOf(records);
    }

    /** The sequence number of the last record trimmed, 0 when none was (for a snapshot of the engine's state). */
    public synchronized long trimmedUpTo() {
        return trimmedUpTo;
    }

    public String arn() {
        return arn;
    }

    public String label() {
        return label;
    }

    public String tableName() {
        return tableName;
    }

    public List<KeyAttribute> keySchema() {
        return keySchema;
    }

    public ViewType viewType() {
        return viewType;
    }

    public Instant created() {
        return created;
    }

    public String shardId() {
        return shardId;
    }

    public long startingSequence() {
        return startingSequence;
    }

    public synchronized boolean enabled() {
        return disabledAt == null;
    }

    public synchronized Instant disabledAt() {
        return disabledAt;
    }

    /** The last sequence number of the closed shard; -1 while the stream is enabled. */
    public synchronized long endingSequence() {
        return endingSequence;
    }

    /** Closes the shard: no more records; readers reach its end. */
    public synchronized void disable(Instant now) {
        if (disabledAt == null) {
            disabledAt = now;
            endingSequence = records.isEmpty() ? startingSequence : records.get(records.size() - 1).sequence();
        }
    }

    /** Appends a change (the caller has checked that it changes something). */
    public synchronized void append(StreamRecord.EventName eventName, Map<String, Value> keys, Map<String, Value> oldImage,
                                    Map<String, Value> newImage, boolean byTimeToLive, Instant now) {
        if (disabledAt != null) {
            return;
        }
        trim(now);
        long size = Values.itemSize(keys);
        if (oldImage != null && (viewType == ViewType.OLD_IMAGE || viewType == ViewType.NEW_AND_OLD_IMAGES)) {
            size += Values.itemSize(oldImage);
        }
        if (newImage != null && (viewType == ViewType.NEW_IMAGE || viewType == ViewType.NEW_AND_OLD_IMAGES)) {
            size += Values.itemSize(newImage);
        }
        records.add(new StreamRecord(eventName, sequences.next(), now.toEpochMilli(), Map.copyOf(keys), oldImage, newImage,
                byTimeToLive, size));
    }

    /** A record's eventID: 32 hex digits, unique across the engine's streams (this stream's salt, then the sequence). */
    public String eventId(StreamRecord record) {
        return HexFormat.of().toHexDigits(salt) + HexFormat.of().toHexDigits(record.sequence());
    }

    /** Up to {@code limit} records with a sequence number above {@code after}, oldest first. */
    public synchronized List<StreamRecord> after(long after, int limit, Instant now) {
        trim(now);
        int from = firstAbove(after);
        return List.copyOf(records.subList(from, Math.min(records.size(), from + limit)));
    }

    /** The sequence number of the newest record, or the one just before the shard's first when it has none. */
    public synchronized long latest() {
        return records.isEmpty() ? Math.max(startingSequence - 1, trimmedUpTo) : records.get(records.size() - 1).sequence();
    }

    /**
     * The sequence numbers below this one were trimmed (or never in this shard): the shard's starting sequence
     * number until a record is trimmed. The first record's number can be above it (other streams draw from the
     * same sequence), and the starting number DescribeStream gives must still be readable.
     */
    public synchronized long oldestAvailable(Instant now) {
        trim(now);
        return Math.max(startingSequence, trimmedUpTo + 1);
    }

    public synchronized boolean contains(long sequence) {
        int index = firstAbove(sequence - 1);
        return index < records.size() && records.get(index).sequence() == sequence;
    }

    private long trimmedUpTo;

    private void trim(Instant now) {
        Instant cutoff = now.minus(RETENTION);
        int drop = 0;
        while (drop < records.size() && records.get(drop).createdMillis() < cutoff.toEpochMilli()) {
            drop++;
        }
        if (drop > 0) {
            trimmedUpTo = records.get(drop - 1).sequence();
            records.subList(0, drop).clear();
        }
    }

    private int firstAbove(long sequence) {
        int low = 0;
        int high = records.size();
        while (low < high) {
            int mid = (low + high) >>> 1;
            if (records.get(mid).sequence() <= sequence) {
                low = mid + 1;
            } else {
                high = mid;
            }
        }
        return low;
    }

    private static byte[] sha256(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }
}

package com.multikey.indexer;

import com.multikey.common.ChangeRecord;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * Which of two changes of one item is the newer, when records may come twice and out of order (Kinesis Data Streams
 * for DynamoDB). A record's version is its {@code ApproximateCreationDateTime} in microseconds; at equal versions
 * (two writes of one item within one microsecond, or a millisecond-precision destination) a record follows the indexed
 * state only when it continues it: its old image is the image the index holds (a duplicate of the indexed record never
 * does: a write that changes nothing makes no record).
 */
public final class ChangeOrder {

    private ChangeOrder() {
    }

    /** The record's version: its creation time in microseconds since the epoch, when it has one. */
    public static Optional<Long> version(ChangeRecord record) {
        return record.approximateCreationTime().map(ChangeOrder::micros);
    }

    static long micros(Instant time) {
        return Math.addExact(Math.multiplyExact(time.getEpochSecond(), 1_000_000L), time.getNano() / 1_000L);
    }

    /**
     * Whether the record is newer than the state (none: every record is).
     *
     * @param version the record's {@link #version(ChangeRecord)}
     */
    public static boolean follows(ChangeRecord record, long version, ItemState state) {
        if (state == null || version > state.version()) {
            return true;
        }
        if (version < state.version() || Objects.equals(record.eventId(), state.eventId())) {
            return false;
        }
        return Objects.equals(record.oldImage().orElse(null), state.image());
    }
}

package com.multikey.redrive;

import java.util.List;

/** A range of a Kinesis data stream's shard read back: its records, or why they can no longer be read. */
sealed interface KinesisRange {

    /** The records of the range, in shard order. */
    record Found(List<KinesisShards.Record> records) implements KinesisRange {
        public Found {
            records = List.copyOf(records);
        }
    }

    /** The range, or its first records, are no longer in the stream (past its retention, or the stream or shard is gone). */
    record Gone(String reason) implements KinesisRange {
    }
}

package com.multikey.redrive;

import software.amazon.awssdk.services.dynamodb.model.Record;

import java.util.List;

/** A range of a stream shard read back: its records, or why they can no longer be read. */
public sealed interface StreamRange {

    /** The records of the range still in the stream, in stream order. */
    record Found(List<Record> records) implements StreamRange {
        public Found {
            records = List.copyOf(records);
        }
    }

    /** The range is no longer in the stream (trimmed after 24 hours, or the stream or shard is gone). */
    record Gone(String reason) implements StreamRange {
    }
}

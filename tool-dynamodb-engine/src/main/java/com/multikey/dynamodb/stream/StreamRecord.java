package com.multikey.dynamodb.stream;

import com.multikey.dynamodb.value.Value;

import java.time.Instant;
import java.util.Map;

/**
 * One change as the stream keeps it: both images are kept whatever the stream's view type, which decides
 * only what GetRecords shows. {@code oldImage} is null for an INSERT, {@code newImage} for a REMOVE. The
 * event id is not stored but derived by the stream from the sequence number ({@link StreamLog#eventId}), and
 * the time is kept as epoch milliseconds: a local stack holds millions of these.
 */
public record StreamRecord(EventName eventName, long sequence, long createdMillis,
                           Map<String, Value> keys, Map<String, Value> oldImage, Map<String, Value> newImage,
                           boolean byTimeToLive, long sizeBytes) {

    public enum EventName { INSERT, MODIFY, REMOVE }

    public Instant created() {
        return Instant.ofEpochMilli(createdMillis);
    }
}

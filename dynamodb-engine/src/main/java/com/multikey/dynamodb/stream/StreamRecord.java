package com.multikey.dynamodb.stream;

import com.multikey.dynamodb.value.Value;

import java.time.Instant;
import java.util.Map;

/**
 * One change as the stream keeps it: both images are kept whatever the stream's view type, which decides
 * only what GetRecords shows. {@code oldImage} is null for an INSERT, {@code newImage} for a REMOVE.
 */
public record StreamRecord(String eventId, EventName eventName, long sequence, Instant created,
                           Map<String, Value> keys, Map<String, Value> oldImage, Map<String, Value> newImage,
                           boolean byTimeToLive, long sizeBytes) {

    public enum EventName { INSERT, MODIFY, REMOVE }
}

package com.multikey.dynamodb.stream;

import com.multikey.dynamodb.value.Value;

import java.time.Instant;
import java.util.Map;

/** A destination of a table's changes besides its DynamoDB stream (a Kinesis streaming destination). */
public interface ChangeDestination {

    /** Whether it takes changes now. */
    boolean active();

    /**
     * One change of the table (made under its lock, in order): {@code oldImage} null for an INSERT, {@code newImage}
     * null for a REMOVE.
     */
    void changed(StreamRecord.EventName eventName, Map<String, Value> keys, Map<String, Value> oldImage,
                 Map<String, Value> newImage, boolean byTimeToLive, Instant now);
}

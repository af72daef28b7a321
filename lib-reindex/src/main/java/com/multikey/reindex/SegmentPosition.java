package com.multikey.reindex;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.Map;

/**
 * Where one scan segment of a reindex job is: the phase (a backfill scans the app table only; a verify scans
 * the app table, then the index table) and the key to continue after (empty: from the phase's start). The key
 * is a scan's {@code LastEvaluatedKey}, kept with its attribute types (S, N or B).
 */
public record SegmentPosition(Phase phase, Map<String, AttributeValue> startKey) {

    /** What a segment scans next. */
    public enum Phase { APP, INDEX, DONE }

    public static final SegmentPosition START = new SegmentPosition(Phase.APP, Map.of());
    public static final SegmentPosition DONE = new SegmentPosition(Phase.DONE, Map.of());

    public SegmentPosition {
        startKey = Map.copyOf(startKey);
    }

    public boolean done() {
        return phase == Phase.DONE;
    }
}

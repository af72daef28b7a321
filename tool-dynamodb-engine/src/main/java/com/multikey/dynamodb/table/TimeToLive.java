package com.multikey.dynamodb.table;

/** A table's time-to-live setting: the attribute holding epoch seconds, when enabled. */
public record TimeToLive(boolean enabled, String attributeName) {

    public static final TimeToLive DISABLED = new TimeToLive(false, null);
}

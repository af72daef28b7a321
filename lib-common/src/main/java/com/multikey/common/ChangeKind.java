package com.multikey.common;

/** What a stream record says happened to an item. */
public enum ChangeKind {
    INSERT, MODIFY, REMOVE;

    /** @throws MalformedRecordException when the name is not one DynamoDB Streams uses */
    public static ChangeKind fromEventName(String eventName) {
        if (eventName != null) {
            for (ChangeKind kind : values()) {
                if (kind.name().equals(eventName)) {
                    return kind;
                }
            }
        }
        throw new MalformedRecordException("unknown eventName " + (eventName == null ? "(missing)" : "'" + eventName + "'"));
    }
}

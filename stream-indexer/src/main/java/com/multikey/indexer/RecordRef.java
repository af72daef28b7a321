package com.multikey.indexer;

import java.util.Optional;

/** What identifies a stream record in logs and batch item failures. */
public record RecordRef(String eventId, Optional<String> sequenceNumber) {

    public static final RecordRef UNKNOWN = new RecordRef("(unknown)", Optional.empty());
}

package com.multikey.dynamodb.durable;

import java.nio.file.Path;

/**
 * A data directory's log the engine refuses to load: a record before the last one is damaged (its checksum or length
 * does not hold), or is not one the engine wrote. Nothing of the file is loaded; the message names the file and the
 * byte offset of the record.
 */
public final class CorruptLogException extends RuntimeException {

    private final Path file;
    private final long offset;

    public CorruptLogException(Path file, long offset, String reason) {
        super(file + " is damaged at byte " + offset + ": " + reason + "; the engine loads none of it (restore the file from a "
                + "copy, or move it away to start with no tables)");
        this.file = file;
        this.offset = offset;
    }

    public Path file() {
        return file;
    }

    public long offset() {
        return offset;
    }
}

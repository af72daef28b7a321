package com.multikey.dynamodb.durable;

import java.nio.file.Path;

/**
 * A data directory's log the engine refuses to load: a record before the last one is damaged (its checksum or length
 * does not hold), or is not one the engine wrote, or a change does not replay. Nothing of the file is loaded; the
 * message names the file and, for a damaged record, its byte offset.
 */
public final class CorruptLogException extends RuntimeException {

    private static final String ADVICE = "; the engine loads none of it (restore the file from a copy, or move it away to start with no tables)";

    private final Path file;
    private final long offset;

    /** A damaged record at this offset. */
    public CorruptLogException(Path file, long offset, String reason) {
        super(file + " is damaged at byte " + offset + ": " + reason + ADVICE);
        this.file = file;
        this.offset = offset;
    }

    /** A log whose records are whole but do not replay: a change the engine now answers otherwise. */
    public CorruptLogException(Path file, String reason) {
        super(file + " cannot be replayed: " + reason + ADVICE);
        this.file = file;
        this.offset = -1;
    }

    public Path file() {
        return file;
    }

    /** The damaged record's offset in bytes; -1 when the records are whole but one does not replay. */
    public long offset() {
        return offset;
    }
}

package com.multikey.common;

/** A stream record that can never be processed as it is; the message names the reason, never image content. */
public class MalformedRecordException extends RuntimeException {

    public MalformedRecordException(String reason) {
        super(reason);
    }

    public MalformedRecordException(String reason, Throwable cause) {
        super(reason, cause);
    }
}

package com.multikey.index;

/** A value that can never get an index key (out of DynamoDB's number range, a key over 1024 bytes, ...). */
public class UnindexableValueException extends RuntimeException {

    public UnindexableValueException(String reason) {
        super(reason);
    }
}

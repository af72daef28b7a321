package com.multikey.common;

/** The whole batch failed and must be delivered again: Lambda retries it (and bisects it, as configured). */
public class BatchFailedException extends RuntimeException {

    public BatchFailedException(String message) {
        super(message);
    }
}

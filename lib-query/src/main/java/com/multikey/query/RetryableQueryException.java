package com.multikey.query;

/**
 * A page that could not be read within its time budget: DynamoDB kept handing keys back unprocessed, or
 * a call ran out of time. Nothing is wrong with the request; the same request may succeed later.
 */
public class RetryableQueryException extends RuntimeException {

    public RetryableQueryException(String message) {
        super(message);
    }

    public RetryableQueryException(String message, Throwable cause) {
        super(message, cause);
    }
}

package com.multikey.indexer;

/** Index writes failed in a way a partial batch response cannot express; the whole batch is retried. */
public class IndexWriteException extends RuntimeException {

    public IndexWriteException(String message) {
        super(message);
    }
}

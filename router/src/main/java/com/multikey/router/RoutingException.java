package com.multikey.router;

/** Routing failed in a way a partial batch response cannot express; the whole batch is retried. */
public class RoutingException extends RuntimeException {

    public RoutingException(String message) {
        super(message);
    }
}

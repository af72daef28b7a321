package com.multikey.query;

/** A query that cannot be answered as asked: unknown attribute, malformed or foreign cursor. */
public class QueryException extends IllegalArgumentException {

    public QueryException(String message) {
        super(message);
    }
}

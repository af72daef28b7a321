package com.multikey.query;

/**
 * A query that cannot be answered as asked: an unknown index or attribute, a group or entry that does not fit the index,
 * a predicate that cannot be evaluated, a malformed or foreign cursor. {@link #subject()} says which part of the request
 * is at fault, so that a command line or an HTTP problem names it without reading the message.
 */
public class QueryException extends IllegalArgumentException {

    /** The part of a request a refusal is about. */
    public enum Subject {
        /** the index named */
        INDEX,
        /** the group's values (the grid's project) */
        GROUP,
        /** the map entry (the grid's field) */
        ENTRY,
        /** the request for the items lacking the field */
        MISSING,
        /** a predicate ({@link InvalidPredicateException} says which) */
        PREDICATE,
        /** the cursor */
        CURSOR,
        /** the request as a whole */
        REQUEST
    }

    private final Subject subject;

    public QueryException(String message) {
        this(Subject.REQUEST, message);
    }

    public QueryException(Subject subject, String message) {
        super(message);
        this.subject = java.util.Objects.requireNonNull(subject, "subject");
    }

    public Subject subject() {
        return subject;
    }
}

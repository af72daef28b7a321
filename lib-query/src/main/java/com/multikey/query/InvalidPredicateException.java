package com.multikey.query;

/**
 * A predicate that cannot be evaluated: it does not parse, names a field the index cannot have, holds a value not of
 * its type, makes with another range on its field a range no value is in (inverted, or bounds of two types), or is one
 * too many. Names the predicate by its place in the request (from 0), so that a command line or an HTTP problem response
 * can point at it.
 */
public final class InvalidPredicateException extends QueryException {

    private final int position;

    public InvalidPredicateException(int position, String message) {
        super(Subject.PREDICATE, "predicate " + position + " " + message);
        this.position = position;
    }

    /** The predicate's place among the request's predicates, from 0. */
    public int position() {
        return position;
    }
}

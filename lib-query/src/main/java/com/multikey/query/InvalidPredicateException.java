package com.multikey.query;

/**
 * A predicate that cannot be evaluated: it does not parse, names a field the index cannot have, holds a value not of
 * its type, makes with another range on its field a range no value is in (inverted, or bounds of two types), or is one
 * too many. Names the predicate by its place in the request (from 0), so that a command line or an HTTP problem response
 * can point at it.
 */
public final class InvalidPredicateException extends QueryException {

    private final int position;
    private final int offset;

    public InvalidPredicateException(int position, String message) {
        super(Subject.PREDICATE, "predicate " + position + " " + message);
        this.position = position;
        this.offset = -1;
    }

    /**
     * A refusal of one token of an expression's text ({@link ExpressionText}): the message names the {@code where} by its
     * position and the token by its character offset in that text.
     */
    public InvalidPredicateException(int position, int offset, String message) {
        super(Subject.PREDICATE, "predicate " + position + " at character " + offset + ": " + message);
        this.position = position;
        this.offset = offset;
    }

    /** The character offset (from 0) of the offending token in the {@code where}'s text; -1 when the refusal names none. */
    public int offset() {
        return offset;
    }

    /** The predicate's place among the request's predicates, from 0. */
    public int position() {
        return position;
    }
}

package com.multikey.index.definition;

/**
 * An index definitions file that cannot work: the message names the index, the attribute and what to change.
 * Thrown before anything runs (at build time and at a function's cold start).
 */
public class DefinitionException extends RuntimeException {

    public DefinitionException(String message) {
        super(message);
    }

    public DefinitionException(String message, Throwable cause) {
        super(message, cause);
    }
}

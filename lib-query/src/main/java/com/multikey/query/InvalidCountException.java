package com.multikey.query;

/** A count request the library refuses, naming the parameter at fault ({@code field}, {@code top}, {@code budget}). */
public final class InvalidCountException extends IllegalArgumentException {

    private final String parameter;

    public InvalidCountException(String parameter, String message) {
        super(parameter + ": " + message);
        this.parameter = parameter;
    }

    /** The parameter at fault, as the HTTP API and the CLI name it. */
    public String parameter() {
        return parameter;
    }
}

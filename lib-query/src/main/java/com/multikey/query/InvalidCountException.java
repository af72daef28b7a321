package com.multikey.query;

/** A count request the library refuses, naming the parameter at fault ({@code field}, {@code top}, {@code budget}). */
public final class InvalidCountException extends IllegalArgumentException {

    private final String parameter;
    private final String detail;

    public InvalidCountException(String parameter, String message) {
        super(parameter + ": " + message);
        this.parameter = parameter;
        this.detail = message;
    }

    /** What is wrong, without the parameter's name. */
    public String detail() {
        return detail;
    }

    /** The parameter at fault, as the HTTP API and the CLI name it. */
    public String parameter() {
        return parameter;
    }
}

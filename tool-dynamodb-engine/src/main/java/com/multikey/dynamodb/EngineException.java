package com.multikey.dynamodb;

/**
 * An error the engine answers as DynamoDB does: the error type (the {@code __type} suffix the SDKs map to an
 * exception class), the HTTP status and the message.
 */
public class EngineException extends RuntimeException {

    private final String type;
    private final int status;

    public EngineException(String type, int status, String message) {
        super(message);
        this.type = type;
        this.status = status;
    }

    /** The error type without its namespace, e.g. {@code ValidationException}. */
    public String type() {
        return type;
    }

    public int status() {
        return status;
    }

    public static EngineException validation(String message) {
        return new EngineException("ValidationException", 400, message);
    }

    public static EngineException resourceNotFound(String message) {
        return new EngineException("ResourceNotFoundException", 400, message);
    }

    public static EngineException resourceInUse(String message) {
        return new EngineException("ResourceInUseException", 400, message);
    }
}

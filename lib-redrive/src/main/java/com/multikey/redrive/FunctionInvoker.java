package com.multikey.redrive;

/** Invokes a function synchronously with a JSON event and answers its JSON result. */
@FunctionalInterface
public interface FunctionInvoker {

    /**
     * @throws FunctionFailedException when the function failed (threw, timed out, or was not found)
     */
    String invoke(String functionName, String eventJson);

    /** The function did not handle the event. */
    final class FunctionFailedException extends RuntimeException {
        public FunctionFailedException(String message) {
            super(message);
        }
    }
}

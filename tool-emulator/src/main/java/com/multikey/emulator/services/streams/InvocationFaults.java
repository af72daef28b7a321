package com.multikey.emulator.services.streams;

import java.util.List;

/**
 * Function errors injected by the local event source mappings after an invocation, as Lambda sees a function
 * that failed (or timed out) after it did its work; decided from the batch's sequence numbers. Local only, for
 * fault-injection tests.
 */
@FunctionalInterface
public interface InvocationFaults {

    /** Whether the delivery of a batch with these records (in order) ends in a function error. */
    boolean failAfterInvoke(List<String> sequenceNumbers);

    InvocationFaults NONE = sequenceNumbers -> false;
}

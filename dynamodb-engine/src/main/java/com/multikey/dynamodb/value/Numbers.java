package com.multikey.dynamodb.value;

import java.math.BigDecimal;

/**
 * DynamoDB's numbers: at most 38 significant digits, magnitude 1E-130 to 9.99...E+125 (or zero), held
 * normalized (no trailing zeros) and written canonically, as DynamoDB returns them.
 */
public final class Numbers {

    private Numbers() {
    }

    /**
     * Parses a number as the wire protocol gives it; a {@link com.multikey.dynamodb.EngineException} of type
     * ValidationException with DynamoDB's message when it is not a number or out of range or precision.
     */
    public static BigDecimal parse(String text) {
        throw new UnsupportedOperationException("TODO");
    }

    /** The canonical text: plain notation, no trailing zeros, "0" for zero (as DynamoDB returns numbers). */
    public static String format(BigDecimal number) {
        throw new UnsupportedOperationException("TODO");
    }
}

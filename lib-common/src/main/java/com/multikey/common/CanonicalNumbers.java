package com.multikey.common;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * DynamoDB numbers in the one spelling DynamoDB itself returns them: plain notation, no leading or trailing
 * zeros, {@code 0} for zero ({@code 1E+2}, {@code 100.0} and {@code 1.00e2} are all {@code 100}). A request may
 * spell a number any way, and a local stream may pass that spelling on (DynamoDB Local does, in MODIFY records'
 * keys); what tells records of one item apart, or shows a key to a reader, must not depend on it.
 */
public final class CanonicalNumbers {

    private CanonicalNumbers() {
    }

    /** @throws MalformedRecordException when the text is not a number (DynamoDB never sends one) */
    public static String canonical(String number) {
        BigDecimal value = PlainJson.decimal(number);
        return value.signum() == 0 ? "0" : value.stripTrailingZeros().toPlainString();
    }

    /** The value with every number in it (a number, a number set's, a list's or a map's) canonical; other values as they are. */
    public static AttributeValue canonical(AttributeValue value) {
        return switch (value.type()) {
            case N -> AttributeValue.fromN(canonical(value.n()));
            case NS -> AttributeValue.fromNs(value.ns().stream().map(CanonicalNumbers::canonical).toList());
            case L -> AttributeValue.fromL(value.l().stream().map(CanonicalNumbers::canonical).toList());
            case M -> AttributeValue.fromM(canonical(value.m()));
            default -> value;
        };
    }

    /** The item (or key) with every number canonical, attributes in the same order. */
    public static Map<String, AttributeValue> canonical(Map<String, AttributeValue> item) {
        Map<String, AttributeValue> canonical = new LinkedHashMap<>();
        item.forEach((name, value) -> canonical.put(name, canonical(value)));
        return canonical;
    }
}

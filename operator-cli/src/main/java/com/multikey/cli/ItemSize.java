package com.multikey.cli;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * An item's size as DynamoDB bills it: attribute names and values in UTF-8, numbers about one byte per two digits
 * plus one, 1 byte for a boolean or null, 3 bytes of overhead for each list or map and 1 for each of their elements
 * ("Item sizes and formats", DynamoDB Developer Guide).
 */
final class ItemSize {

    private ItemSize() {
    }

    static long bytes(Map<String, AttributeValue> item) {
        long size = 0;
        for (Map.Entry<String, AttributeValue> attribute : item.entrySet()) {
            size += utf8(attribute.getKey()) + bytes(attribute.getValue());
        }
        return size;
    }

    static long bytes(AttributeValue value) {
        return switch (value.type()) {
            case S -> utf8(value.s());
            case N -> number(value.n());
            case B -> value.b().asByteArrayUnsafe().length;
            case BOOL, NUL -> 1;
            case SS -> value.ss().stream().mapToLong(ItemSize::utf8).sum();
            case NS -> value.ns().stream().mapToLong(ItemSize::number).sum();
            case BS -> value.bs().stream().mapToLong(b -> b.asByteArrayUnsafe().length).sum();
            case L -> 3 + value.l().stream().mapToLong(v -> 1 + bytes(v)).sum();
            case M -> 3 + value.m().entrySet().stream().mapToLong(e -> 1 + utf8(e.getKey()) + bytes(e.getValue())).sum();
            case UNKNOWN_TO_SDK_VERSION -> 0;
        };
    }

    private static long utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8).length;
    }

    private static long number(String n) {
        try {
            String digits = new BigDecimal(n).stripTrailingZeros().unscaledValue().abs().toString();
            return (digits.length() + 1) / 2 + 1;
        } catch (NumberFormatException e) {
            return n.length();
        }
    }
}

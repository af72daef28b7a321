package com.multikey.query;

import com.multikey.common.CanonicalNumbers;
import com.multikey.index.SortKeyCodec;
import com.multikey.index.UnindexableValueException;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.math.BigDecimal;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A group value as a caller writes it in text (the read API's {@code group}, the operator CLI's {@code --group}): one
 * spelling per type a group attribute can have, named by DynamoDB's type names.
 *
 * <ul>
 *   <li>{@code S:<text>}: text, exactly what follows ({@code S:S:x} is the text {@code S:x});</li>
 *   <li>{@code N:<number>}: a number ({@code N:42}, {@code N:-1.5E+3});</li>
 *   <li>{@code BOOL:true}, {@code BOOL:false}: a boolean;</li>
 *   <li>{@code B:<base64>}: binary, in base64 (standard or URL-safe alphabet);</li>
 *   <li>anything else: text, as it is ({@code project#1}); text that begins with {@code S:}, {@code N:}, {@code BOOL:}
 *       or {@code B:} is written with {@code S:} before it.</li>
 * </ul>
 */
public final class GroupValue {

    private GroupValue() {
    }

    /**
     * The value a text names.
     *
     * @throws IllegalArgumentException when a type prefix is not followed by a value of its type (the message says what
     *                                  was expected, never echoing more than the prefix)
     */
    public static AttributeValue parse(String text) {
        if (text.startsWith("S:")) {
            return AttributeValue.fromS(text.substring(2));
        }
        if (text.startsWith("N:")) {
            BigDecimal number;
            try {
                number = new BigDecimal(text.substring(2));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("N: is followed by a number, e.g. N:42; for text that begins with N: write S:N:…");
            }
            try {
                SortKeyCodec.encodeNumber(number);
            } catch (ArithmeticException | UnindexableValueException e) {
                throw new IllegalArgumentException("N: is followed by a number a DynamoDB number can hold (38 significant digits, "
                        + "1E-130 to 9.99…E+125 and their negatives, or 0)");
            }
            return AttributeValue.fromN(number.toString());
        }
        if (text.startsWith("BOOL:")) {
            return switch (text.substring(5)) {
                case "true" -> AttributeValue.fromBool(true);
                case "false" -> AttributeValue.fromBool(false);
                default -> throw new IllegalArgumentException("BOOL: is followed by true or false; for text that begins with BOOL: write S:BOOL:…");
            };
        }
        if (text.startsWith("B:")) {
            String base64 = text.substring(2);
            try {
                Base64.Decoder decoder = base64.indexOf('-') >= 0 || base64.indexOf('_') >= 0 ? Base64.getUrlDecoder() : Base64.getDecoder();
                return AttributeValue.fromB(SdkBytes.fromByteArray(decoder.decode(base64)));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("B: is followed by base64 (in a URL, + / = as %2B %2F %3D, or the URL-safe alphabet); "
                        + "for text that begins with B: write S:B:…");
            }
        }
        return AttributeValue.fromS(text);
    }

    /**
     * The groups, each once, in the order first named: two groups are one when their values are, however spelled (equal
     * numbers, {@code N:100} and {@code N:1E+2}, are one value); a group keeps its first spelling.
     */
    public static List<List<AttributeValue>> distinct(List<List<AttributeValue>> groups) {
        Map<List<String>, List<AttributeValue>> byValues = new LinkedHashMap<>();
        for (List<AttributeValue> group : groups) {
            byValues.putIfAbsent(group.stream().map(GroupValue::format).toList(), group);
        }
        return List.copyOf(byValues.values());
    }

    /**
     * The spelling {@link #parse} reads back as this value: {@code N:} and the number's canonical form, {@code BOOL:},
     * {@code B:} and base64, text as it is, or after {@code S:} when it begins with a type prefix.
     */
    public static String format(AttributeValue value) {
        if (value.n() != null) {
            return "N:" + CanonicalNumbers.canonical(value.n());
        }
        if (value.bool() != null) {
            return "BOOL:" + value.bool();
        }
        if (value.b() != null) {
            return "B:" + Base64.getEncoder().encodeToString(value.b().asByteArrayUnsafe());
        }
        String text = value.s() == null ? "" : value.s();
        return text.startsWith("S:") || text.startsWith("N:") || text.startsWith("BOOL:") || text.startsWith("B:") ? "S:" + text : text;
    }
}

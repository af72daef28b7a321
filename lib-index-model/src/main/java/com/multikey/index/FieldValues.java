package com.multikey.index;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.ArrayList;
import java.util.List;

/** The indexable values an attribute holds: none, one, or one per element of a list or set. */
public final class FieldValues {

    private FieldValues() {
    }

    /**
     * Strings, numbers and booleans give themselves, {@code NULL} gives none, a string or number set and a list of
     * scalars give their elements.
     *
     * @throws UnindexableValueException for other types (a map, binary, a nested list) and numbers out of range
     */
    public static List<IndexValue> of(AttributeValue attribute) {
        return switch (attribute.type()) {
            case S, N, BOOL -> List.of(scalar(attribute));
            case NUL -> List.of();
            case SS -> attribute.ss().stream().<IndexValue>map(IndexValue.Text::new).toList();
            case NS -> attribute.ns().stream().map(FieldValues::number).toList();
            case L -> {
                List<IndexValue> values = new ArrayList<>();
                for (AttributeValue element : attribute.l()) {
                    switch (element.type()) {
                        case S, N, BOOL -> values.add(scalar(element));
                        case NUL -> { }
                        default -> throw new UnindexableValueException(
                                "list element of unsupported type " + element.type());
                    }
                }
                yield values;
            }
            default -> throw new UnindexableValueException("value of unsupported type " + attribute.type());
        };
    }

    static IndexValue scalar(AttributeValue attribute) {
        return switch (attribute.type()) {
            case S -> new IndexValue.Text(attribute.s());
            case N -> number(attribute.n());
            case BOOL -> new IndexValue.Bool(attribute.bool());
            default -> throw new IllegalArgumentException("not a scalar: " + attribute.type());
        };
    }

    private static IndexValue number(String text) {
        try {
            IndexValue.Num number = IndexValue.Num.parse(text);
            SortKeyCodec.encodeNumber(number.value());
            return number;
        } catch (NumberFormatException e) {
            throw new UnindexableValueException("number that does not parse");
        }
    }
}

package com.multikey.query;

import com.multikey.index.IndexValue;
import com.multikey.index.SortKeyCodec;
import com.multikey.index.UnindexableValueException;

import java.math.BigDecimal;
import java.util.Optional;

/**
 * A filter as a caller gives it in text (command-line options, HTTP query parameters): a value type and at most one
 * of equals, begins-with or range bounds. Each refusal names the parameter at fault, so that a command line or an
 * HTTP problem response can point at it.
 *
 * @param type       {@code auto} (a number when the text is one, else text), {@code number}, {@code text} or {@code bool}
 * @param equals     the value the field equals
 * @param beginsWith the prefix of a string value
 * @param lt         upper bound, exclusive
 * @param le         upper bound, inclusive
 * @param gt         lower bound, exclusive
 * @param ge         lower bound, inclusive
 */
public record FilterParameters(String type, String equals, String beginsWith, String lt, String le, String gt, String ge) {

    /**
     * A page parameter that cannot be used as given ({@link PageParameters}, the filter's here, the budget's in
     * {@link PageRequest} and {@link ReadBudget}), typed by the {@link PageParameters.Parameter} at fault.
     */
    public static final class InvalidParameterException extends QueryException {
        private final PageParameters.Parameter kind;
        private final String detail;

        public InvalidParameterException(PageParameters.Parameter kind, String detail) {
            super(kind.apiName() + ": " + detail);
            this.kind = java.util.Objects.requireNonNull(kind, "kind");
            this.detail = detail;
        }

        /** The parameter at fault, by the read API's name of it ({@code beginsWith}, {@code budget}). */
        public String parameter() {
            return kind.apiName();
        }

        /** The parameter at fault. */
        public PageParameters.Parameter kind() {
            return kind;
        }

        /** What is wrong, without the parameter's name. */
        public String detail() {
            return detail;
        }
    }

    /**
     * The filter, or none when no filter parameter is given.
     *
     * @throws InvalidParameterException naming the parameter: an unknown type, a value not of the type, two kinds of
     *                                   filter at once, two lower or two upper bounds, bounds of two types, a lower
     *                                   bound above the upper one
     */
    public Optional<Filter> filter() {
        String kind = type == null ? "auto" : type;
        if (!kind.matches("auto|number|text|bool")) {
            throw new InvalidParameterException(PageParameters.Parameter.TYPE, "must be auto, number, text or bool, got '" + kind + "'");
        }
        boolean range = lt != null || le != null || gt != null || ge != null;
        if (equals != null && (beginsWith != null || range)) {
            throw new InvalidParameterException(PageParameters.Parameter.EQUALS, "give one of equals, beginsWith, or range bounds (lt/le/gt/ge)");
        }
        if (beginsWith != null && range) {
            throw new InvalidParameterException(PageParameters.Parameter.BEGINS_WITH, "give one of equals, beginsWith, or range bounds (lt/le/gt/ge)");
        }
        if (equals != null) {
            return Optional.of(new Filter.Equals(value(PageParameters.Parameter.EQUALS, equals, kind)));
        }
        if (beginsWith != null) {
            if (!kind.equals("auto") && !kind.equals("text")) {
                throw new InvalidParameterException(PageParameters.Parameter.TYPE, "beginsWith matches text values: the type must be text or auto");
            }
            return Optional.of(new Filter.BeginsWith(beginsWith));
        }
        if (lt != null && le != null) {
            throw new InvalidParameterException(PageParameters.Parameter.LE, "give at most one upper bound (lt or le)");
        }
        if (gt != null && ge != null) {
            throw new InvalidParameterException(PageParameters.Parameter.GE, "give at most one lower bound (gt or ge)");
        }
        if (!range) {
            return Optional.empty();
        }
        PageParameters.Parameter lowName = gt != null ? PageParameters.Parameter.GT : PageParameters.Parameter.GE;
        PageParameters.Parameter highName = lt != null ? PageParameters.Parameter.LT : PageParameters.Parameter.LE;
        IndexValue low = gt != null ? value(PageParameters.Parameter.GT, gt, kind) : ge != null ? value(PageParameters.Parameter.GE, ge, kind) : null;
        IndexValue high = lt != null ? value(PageParameters.Parameter.LT, lt, kind) : le != null ? value(PageParameters.Parameter.LE, le, kind) : null;
        if (low != null && high != null) {
            if (low.getClass() != high.getClass()) {
                throw new InvalidParameterException(highName, "the bounds must be of one type (" + lowName.apiName() + " is "
                        + typeName(low) + ", " + highName + " is " + typeName(high) + "): set type");
            }
            if (compare(low, high) > 0) {
                throw new InvalidParameterException(lowName, "the lower bound is above the upper bound (" + highName.apiName() + ")");
            }
        }
        return Optional.of(new Filter.Range(low, ge != null, high, le != null));
    }

    private static IndexValue value(PageParameters.Parameter parameter, String text, String kind) {
        return switch (kind) {
            case "number" -> number(parameter, text).orElseThrow(() ->
                    new InvalidParameterException(parameter, "not a number a DynamoDB number can hold"));
            case "text" -> new IndexValue.Text(text);
            case "bool" -> switch (text) {
                case "true" -> new IndexValue.Bool(true);
                case "false" -> new IndexValue.Bool(false);
                default -> throw new InvalidParameterException(parameter, "a bool is true or false");
            };
            default -> number(parameter, text).<IndexValue>map(n -> n).orElseGet(() -> new IndexValue.Text(text));
        };
    }

    private static Optional<IndexValue.Num> number(PageParameters.Parameter parameter, String text) {
        if (!text.matches("[+-]?([0-9]+([.][0-9]*)?|[.][0-9]+)([eE][+-]?[0-9]+)?")) {
            return Optional.empty();
        }
        try {
            BigDecimal number = new BigDecimal(text);
            SortKeyCodec.encodeNumber(number);
            return Optional.of(new IndexValue.Num(number));
        } catch (ArithmeticException | IllegalArgumentException | UnindexableValueException e) {
            throw new InvalidParameterException(parameter, "not a number a DynamoDB number can hold");
        }
    }

    private static String typeName(IndexValue value) {
        return switch (value) {
            case IndexValue.Num n -> "number";
            case IndexValue.Text t -> "text";
            case IndexValue.Bool b -> "bool";
        };
    }

    private static int compare(IndexValue low, IndexValue high) {
        return switch (low) {
            case IndexValue.Num n -> n.value().compareTo(((IndexValue.Num) high).value());
            case IndexValue.Text t -> java.util.Arrays.compare(t.value().codePoints().toArray(),
                    ((IndexValue.Text) high).value().codePoints().toArray());
            case IndexValue.Bool b -> Boolean.compare(b.value(), ((IndexValue.Bool) high).value());
        };
    }
}

package com.multikey.query;

import com.multikey.index.IndexValue;
import com.multikey.index.SortKeyCodec;
import com.multikey.index.UnindexableValueException;
import com.multikey.index.Words;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Predicates as callers write them (the read API's {@code where}, the operator CLI's {@code --where}), one per text:
 *
 * <pre>
 *   status = open            severity &gt;= 3           title beginsWith "Fix "
 *   status != closed         severity &lt; 5            assignee present
 *   status in (open, triage) @details.team = core     priority missing
 *   title has "timeout"      title has prefix "time"
 * </pre>
 *
 * A field is an entry name, or {@code @} and an attribute path; a name holding spaces or operator characters is written
 * in double quotes. A value is typed as the read API's {@code type=auto}: a number when it reads as one, else text;
 * {@code "..."} is always text; {@code N:}, {@code S:} and {@code BOOL:} before a value give its type
 * ({@code BOOL:true}, {@code S:42}), as in a group value. In quotes, {@code \"} and {@code \\} stand for {@code "}
 * and {@code \}.
 */
public final class PredicateText {

    /** The most predicates one request may have. */
    public static final int MAX_PREDICATES = 8;
    /** The most values one {@code in} list may have. */
    public static final int MAX_IN_VALUES = 100;

    private static final String FIELD = "(\"(?:[^\"\\\\]|\\\\.)*\"|[^\\s=!<>\"]+)";
    private static final Pattern SYMBOL = Pattern.compile("\\s*" + FIELD + "\\s*(=|!=|<=|>=|<|>)\\s*(.*?)\\s*", Pattern.DOTALL);
    private static final Pattern WORD = Pattern.compile("\\s*" + FIELD + "\\s+(in|beginsWith|present|missing|has\\s+prefix|has)(?:\\s+(.*?))?\\s*",
            Pattern.DOTALL);
    private static final Pattern NUMBER = Pattern.compile("[+-]?([0-9]+([.][0-9]*)?|[.][0-9]+)([eE][+-]?[0-9]+)?");

    private PredicateText() {
    }

    /**
     * The predicate a text writes.
     *
     * @param position its place among the request's predicates (from 0), for the error
     * @throws InvalidPredicateException naming the predicate and what is wrong
     */
    public static Predicate parse(String text, int position) {
        if (text == null || text.isBlank()) {
            throw new InvalidPredicateException(position, "is empty; write a field, an operator and a value, e.g. 'status = open'");
        }
        Matcher word = WORD.matcher(text);
        if (word.matches()) {
            String field = field(word.group(1), position);
            String rest = word.group(3) == null ? "" : word.group(3);
            return switch (word.group(2)) {
                case "present", "missing" -> {
                    if (!rest.isEmpty()) {
                        throw new InvalidPredicateException(position, word.group(2) + " takes no value");
                    }
                    yield word.group(2).equals("present") ? new Predicate.Present(field) : new Predicate.Missing(field);
                }
                case "beginsWith" -> {
                    IndexValue prefix = value(rest, position);
                    if (!(prefix instanceof IndexValue.Text t) || t.value().isEmpty() && !rest.startsWith("\"") && !rest.startsWith("S:")) {
                        throw new InvalidPredicateException(position, "beginsWith takes text, e.g. title beginsWith \"Fix\"");
                    }
                    yield new Predicate.BeginsWith(field, t.value());
                }
                case "in" -> new Predicate.In(field, list(rest, position));
                default -> word(field, word.group(2).equals("has") ? "has" : "has prefix", rest, position);
            };
        }
        Matcher symbol = SYMBOL.matcher(text);
        if (!symbol.matches()) {
            throw new InvalidPredicateException(position, "is not a predicate: write a field, an operator (=, !=, <, <=, >, >=, in, "
                    + "beginsWith, has, has prefix, present, missing) and a value, e.g. 'severity >= 3'");
        }
        String field = field(symbol.group(1), position);
        IndexValue value = value(symbol.group(3), position);
        Predicate predicate = switch (symbol.group(2)) {
            case "=" -> new Predicate.Equals(field, value);
            case "!=" -> new Predicate.NotEquals(field, value);
            case "<" -> new Predicate.Range(field, null, false, value, false);
            case "<=" -> new Predicate.Range(field, null, false, value, true);
            case ">" -> new Predicate.Range(field, value, false, null, false);
            default -> new Predicate.Range(field, value, true, null, false);
        };
        return predicate;
    }

    /**
     * The text {@link #parse} reads back as this predicate; a range with both bounds (which a text writes as two
     * predicates) as {@code severity >= 3 and < 5}; {@code and} and {@code or} of expressions in parentheses, {@code not}
     * before its operand, as {@link ExpressionText} reads them.
     */
    public static String format(Expression expression) {
        return switch (expression) {
            case Predicate.Equals p -> formatField(p.field()) + " = " + formatValue(p.value());
            case Predicate.NotEquals p -> formatField(p.field()) + " != " + formatValue(p.value());
            case Predicate.In p -> formatField(p.field()) + " in ("
                    + String.join(", ", p.values().stream().map(PredicateText::formatValue).toList()) + ")";
            case Predicate.BeginsWith p -> formatField(p.field()) + " beginsWith " + quote(p.prefix());
            case Predicate.Has p -> formatField(p.field()) + " has " + quote(p.word());
            case Predicate.HasPrefix p -> formatField(p.field()) + " has prefix " + quote(p.prefix());
            case Predicate.Present p -> formatField(p.field()) + " present";
            case Predicate.Missing p -> formatField(p.field()) + " missing";
            case Predicate.Range p when p.low() != null && p.high() != null -> formatField(p.field()) + (p.lowInclusive() ? " >= " : " > ")
                    + formatValue(p.low()) + " and " + (p.highInclusive() ? "<= " : "< ") + formatValue(p.high());
            case Predicate.Range p when p.low() != null -> formatField(p.field()) + (p.lowInclusive() ? " >= " : " > ") + formatValue(p.low());
            case Predicate.Range p -> formatField(p.field()) + (p.highInclusive() ? " <= " : " < ") + formatValue(p.high());
            case Expression.And and -> "(" + String.join(" and ", and.operands().stream().map(PredicateText::format).toList()) + ")";
            case Expression.Or or -> "(" + String.join(" or ", or.operands().stream().map(PredicateText::format).toList()) + ")";
            case Expression.Not not -> "not " + format(not.operand());
        };
    }

    /**
     * Checks a request's predicates together: at most {@value #MAX_PREDICATES}, and no field whose range bounds leave no
     * value: an inverted range (e.g. {@code severity >= 5} with {@code severity < 3}), or bounds of two types
     * ({@code severity >= 3} with {@code severity < "m"}: a range stays within its bound's type, and no value is of both).
     * Fields are compared as written.
     *
     * @throws InvalidPredicateException naming the first predicate at fault
     */
    public static void validate(List<Predicate> predicates) {
        validate(predicates, java.util.function.Function.identity());
    }

    /**
     * As {@link #validate(List)}, two predicates on one field when {@code field} gives their fields one name (a field and its
     * {@code @} spelling, as the index read knows them).
     */
    static void validate(List<Predicate> predicates, java.util.function.Function<String, String> field) {
        if (predicates.size() > MAX_PREDICATES) {
            throw new InvalidPredicateException(MAX_PREDICATES, "too many predicates: at most " + MAX_PREDICATES + " in one request, got "
                    + predicates.size());
        }
        for (int i = 0; i < predicates.size(); i++) {
            if (predicates.get(i) instanceof Predicate.Range range) {
                if (range.isEmpty()) {
                    throw new InvalidPredicateException(i, "is an inverted range: its lower bound is above its upper bound");
                }
                for (int j = 0; j < i; j++) {
                    if (predicates.get(j) instanceof Predicate.Range earlier
                            && field.apply(earlier.field()).equals(field.apply(range.field()))) {
                        if (type(earlier) != type(range)) {
                            throw new InvalidPredicateException(i, "with predicate " + j + " on " + range.field()
                                    + " makes a range of two types (" + typeName(earlier) + " and " + typeName(range)
                                    + "): a range stays within its bound's type, so no value is within both");
                        }
                        if (inverted(earlier, range)) {
                            throw new InvalidPredicateException(i, "with predicate " + j + " on " + range.field()
                                    + " is an inverted range: no value is within both");
                        }
                    }
                }
            }
            if (predicates.get(i) instanceof Predicate.In in && in.values().size() > MAX_IN_VALUES) {
                throw new InvalidPredicateException(i, "in lists at most " + MAX_IN_VALUES + " values, got " + in.values().size());
            }
        }
    }

    /** Whether two ranges on one field, of one type, leave no value between their tighter bounds. */
    private static boolean inverted(Predicate.Range a, Predicate.Range b) {
        if (type(a) != type(b)) {
            return false;
        }
        Predicate.Range low = tighter(a, b, true);
        Predicate.Range high = tighter(a, b, false);
        if (low == null || high == null) {
            return false;
        }
        return new Predicate.Range(a.field(), low.low(), low.lowInclusive(), high.high(), high.highInclusive()).isEmpty();
    }

    private static Class<?> type(Predicate.Range range) {
        return (range.low() != null ? range.low() : range.high()).getClass();
    }

    private static String typeName(Predicate.Range range) {
        return switch (range.low() != null ? range.low() : range.high()) {
            case IndexValue.Num n -> "a number";
            case IndexValue.Text t -> "a text";
            case IndexValue.Bool b -> "a boolean";
        };
    }

    /** Of two ranges, the one whose lower (or upper) bound admits fewer values; null when neither has that bound. */
    private static Predicate.Range tighter(Predicate.Range a, Predicate.Range b, boolean lower) {
        IndexValue boundA = lower ? a.low() : a.high();
        IndexValue boundB = lower ? b.low() : b.high();
        if (boundA == null || boundB == null) {
            return boundA != null ? a : boundB != null ? b : null;
        }
        int c = Predicate.Values.compare(boundA, boundB);
        if (c == 0) {
            boolean inclusiveA = lower ? a.lowInclusive() : a.highInclusive();
            return inclusiveA ? b : a;
        }
        return (c > 0) == lower ? a : b;
    }

    /**
     * {@code has "word"} or {@code has prefix "wor"}: one word of a text, cut and lower-cased by the words index's rule
     * ({@link Words}); a text of several words, or of none, is refused.
     */
    private static Predicate word(String field, String operator, String rest, int position) {
        String text = rest.startsWith("\"") ? unquote(rest, position) : rest.startsWith("S:") ? rest.substring(2) : rest;
        String word = Words.single(text).orElseThrow(() -> new InvalidPredicateException(position, operator
                + " takes one word (letters, digits and marks, at most " + Words.MAX_WORD_LENGTH + "; case does not matter): "
                + "write one predicate per word, e.g. title " + operator + " \"" + (operator.equals("has") ? "timeout" : "time") + "\""));
        return operator.equals("has") ? new Predicate.Has(field, word) : new Predicate.HasPrefix(field, word);
    }

    private static String field(String text, int position) {
        String field = text.startsWith("\"") ? unquote(text, position) : text;
        if (field.isEmpty() || field.equals("@")) {
            throw new InvalidPredicateException(position, "names no field");
        }
        if (field.startsWith("@") && (field.contains("..") || field.endsWith(".") || field.startsWith("@."))) {
            throw new InvalidPredicateException(position, "the attribute path '" + field.substring(1) + "' has an empty name between dots");
        }
        return field;
    }

    private static List<IndexValue> list(String text, int position) {
        String body = text.strip();
        if (!body.startsWith("(") || !body.endsWith(")")) {
            throw new InvalidPredicateException(position, "in takes a list in parentheses, e.g. status in (open, triage)");
        }
        body = body.substring(1, body.length() - 1);
        List<IndexValue> values = new ArrayList<>();
        int i = 0;
        while (i <= body.length()) {
            int end = i;
            boolean quoted = false;
            while (end < body.length() && (quoted || body.charAt(end) != ',')) {
                char c = body.charAt(end);
                if (c == '\\' && quoted) {
                    end++;
                } else if (c == '"') {
                    quoted = !quoted;
                }
                end++;
            }
            if (quoted) {
                throw new InvalidPredicateException(position, "has a quote that does not close");
            }
            String item = body.substring(i, Math.min(end, body.length())).strip();
            if (item.isEmpty()) {
                throw new InvalidPredicateException(position, "has an empty value in its in list");
            }
            values.add(value(item, position));
            if (values.size() > MAX_IN_VALUES) {
                throw new InvalidPredicateException(position, "in lists at most " + MAX_IN_VALUES + " values");
            }
            i = end + 1;
        }
        return values;
    }

    private static IndexValue value(String text, int position) {
        if (text.isEmpty()) {
            throw new InvalidPredicateException(position, "has no value");
        }
        if (text.startsWith("\"")) {
            return new IndexValue.Text(unquote(text, position));
        }
        if (text.startsWith("S:")) {
            return new IndexValue.Text(text.substring(2));
        }
        if (text.startsWith("N:")) {
            return number(text.substring(2), position)
                    .orElseThrow(() -> new InvalidPredicateException(position, "N: is followed by a number, e.g. N:42"));
        }
        if (text.startsWith("BOOL:")) {
            return switch (text.substring(5)) {
                case "true" -> new IndexValue.Bool(true);
                case "false" -> new IndexValue.Bool(false);
                default -> throw new InvalidPredicateException(position, "BOOL: is followed by true or false");
            };
        }
        if (text.startsWith("B:")) {
            throw new InvalidPredicateException(position, "binary values are not indexed: compare numbers, text or booleans");
        }
        return number(text, position).<IndexValue>map(n -> n).orElseGet(() -> new IndexValue.Text(text));
    }

    private static java.util.Optional<IndexValue.Num> number(String text, int position) {
        if (!NUMBER.matcher(text).matches()) {
            return java.util.Optional.empty();
        }
        try {
            BigDecimal number = new BigDecimal(text);
            SortKeyCodec.encodeNumber(number);
            return java.util.Optional.of(new IndexValue.Num(number));
        } catch (ArithmeticException | IllegalArgumentException | UnindexableValueException e) {
            throw new InvalidPredicateException(position, "has a number no DynamoDB number can hold (38 significant digits, "
                    + "1E-130 to 9.99…E+125 and their negatives, or 0)");
        }
    }

    private static String unquote(String text, int position) {
        if (text.length() < 2 || !text.endsWith("\"")) {
            throw new InvalidPredicateException(position, closes(text) ? "has text after a closing quote" : "has a quote that does not close");
        }
        StringBuilder out = new StringBuilder();
        for (int i = 1; i < text.length() - 1; i++) {
            char c = text.charAt(i);
            if (c == '\\') {
                if (i + 1 >= text.length() - 1) {
                    throw new InvalidPredicateException(position, "has a \\ at the end of a quoted text");
                }
                out.append(text.charAt(++i));
            } else if (c == '"') {
                throw new InvalidPredicateException(position, "has text after a closing quote");
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    /** Whether the quote a text begins with closes: an unescaped quote after it. */
    private static boolean closes(String text) {
        for (int i = 1; i < text.length(); i++) {
            if (text.charAt(i) == '\\') {
                i++;
            } else if (text.charAt(i) == '"') {
                return true;
            }
        }
        return false;
    }

    private static String formatField(String field) {
        // parentheses quoted too: a where's grammar (ExpressionText) groups with them; and an operator's word, which after a
        // not would make the not a field's name (not in (a, b))
        return field.matches("[^\\s=!<>\"()]+") && !field.matches("(?i)in|beginsWith|present|missing|has") ? field : quote(field);
    }

    private static String formatValue(IndexValue value) {
        return switch (value) {
            case IndexValue.Num n -> n.value().toString();
            case IndexValue.Bool b -> "BOOL:" + b.value();
            case IndexValue.Text t -> NUMBER.matcher(t.value()).matches() || t.value().startsWith("S:") || t.value().startsWith("N:")
                    || t.value().startsWith("BOOL:") || t.value().startsWith("B:") || !t.value().matches("[^\\s,()\"\\\\]+")
                    || t.value().matches("(?i)and|or|not") // a where's keywords (ExpressionText)
                    ? quote(t.value()) : t.value();
        };
    }

    private static String quote(String text) {
        return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }
}

package com.multikey.query;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Expressions as callers write them (the read API's {@code where}, the operator CLI's {@code --where}, the library's
 * {@link PageParameters}): predicates ({@link PredicateText}) combined with {@code and}, {@code or}, {@code not} and
 * parentheses.
 *
 * <pre>
 *   expression := or
 *   or         := and { "or" and }
 *   and        := unary { "and" unary }
 *   unary      := "not" unary | "(" expression ")" | predicate
 * </pre>
 *
 * {@code not} binds tightest, then {@code and}, then {@code or}; keywords are whole words in any case ({@code OR},
 * {@code Not}). A predicate runs to the next {@code and} or {@code or} outside quotes and its own parentheses (an
 * {@code in} list's), or to a {@code )} that closes a group; its text is read by {@link PredicateText#parse} alone, so
 * a text of one predicate reads as it always did. A value or field holding a keyword as a word, or beginning with
 * {@code (}, is written in double quotes ({@code title = "salt and pepper"}). {@code not} before a field is the keyword
 * unless what follows it is an operator ({@code not = 1} is a predicate on a field named {@code not}).
 *
 * <p>Limits, over one request: at most {@value PredicateText#MAX_PREDICATES} predicates in all its {@code where}s, and at
 * most {@value #MAX_DEPTH} levels of nesting (each {@code (} and each {@code not} opens one). A refusal is an
 * {@link InvalidPredicateException} naming the {@code where} by its position and the offending token by its character
 * offset in that text (from 0, in Unicode code points: a character outside the Basic Multilingual Plane counts one).
 */
public final class ExpressionText {

    /** The most levels of nesting in one text: each {@code (} and each {@code not} opens one. */
    public static final int MAX_DEPTH = 4;

    private static final Pattern OPERATOR = Pattern.compile("(?:=|!=|<|>|(?i:in|beginsWith|present|missing|has)(?:\\s|\\(|$)).*",
            Pattern.DOTALL);

    private final String text;
    private final int position;
    private final int[] leaves;
    private int at;

    private ExpressionText(String text, int position, int[] leaves) {
        this.text = text;
        this.position = position;
        this.leaves = leaves;
    }

    /**
     * The expression one text writes: a predicate when it holds no {@code and}, {@code or}, {@code not} or group.
     *
     * @param position its place among the request's {@code where}s (from 0), for the error
     * @throws InvalidPredicateException naming the position and the offending token's offset
     */
    public static Expression parse(String text, int position) {
        return parse(text, position, new int[] {0});
    }

    /**
     * The expressions of a request's {@code where}s, in order, their predicates at most {@value PredicateText#MAX_PREDICATES}
     * in all.
     *
     * @throws InvalidPredicateException naming the first {@code where} at fault and the offending token's offset
     */
    public static List<Expression> parseAll(List<String> texts) {
        int[] leaves = {0};
        List<Expression> expressions = new ArrayList<>();
        for (int i = 0; i < texts.size(); i++) {
            expressions.add(parse(texts.get(i), i, leaves));
        }
        if (!expressions.stream().allMatch(e -> e instanceof Predicate)) {
            // predicates alone are counted as a request's predicates are (PredicateText.validate); with expressions, here
            int count = 0;
            for (int i = 0; i < expressions.size(); i++) {
                count += leaves(expressions.get(i));
                if (count > PredicateText.MAX_PREDICATES) {
                    throw new InvalidPredicateException(i, 0, "holds one predicate too many: at most " + PredicateText.MAX_PREDICATES
                            + " in one request, got " + expressions.stream().mapToInt(ExpressionText::leaves).sum());
                }
            }
        }
        return expressions;
    }

    private static Expression parse(String text, int position, int[] leaves) {
        if (text == null || text.isBlank()) {
            // as a predicate's text: the leaf parser's refusal
            return leaf(text, position);
        }
        ExpressionText parser = new ExpressionText(text, position, leaves);
        Expression expression = parser.or(0);
        parser.skipSpace();
        if (parser.at < text.length()) {
            throw parser.refuse(parser.at, text.charAt(parser.at) == ')' ? "has a ')' that closes no '('"
                    : "has '" + parser.word() + "' where and, or or the end was expected");
        }
        return expression;
    }

    /** A predicate's text, read by the one leaf parser. */
    static Predicate leaf(String text, int position) {
        return PredicateText.parse(text, position);
    }

    private Expression or(int depth) {
        List<Expression> operands = new ArrayList<>();
        operands.add(and(depth));
        while (keyword("or")) {
            at += 2;
            operands.add(and(depth));
        }
        return operands.size() == 1 ? operands.get(0) : new Expression.Or(operands);
    }

    private Expression and(int depth) {
        List<Expression> operands = new ArrayList<>();
        operands.add(unary(depth));
        while (keyword("and")) {
            at += 3;
            operands.add(unary(depth));
        }
        return operands.size() == 1 ? operands.get(0) : new Expression.And(operands);
    }

    private Expression unary(int depth) {
        skipSpace();
        if (at >= text.length()) {
            throw refuse(at, "ends where a predicate, 'not' or '(' was expected");
        }
        int start = at;
        if (keyword("not") && !OPERATOR.matcher(text.substring(at + 3).stripLeading()).matches()) {
            requireDepth(depth + 1, start, "not");
            at += 3;
            return new Expression.Not(unary(depth + 1));
        }
        if (text.charAt(at) == '(') {
            requireDepth(depth + 1, start, "(");
            at++;
            Expression inner = or(depth + 1);
            skipSpace();
            if (at >= text.length() || text.charAt(at) != ')') {
                throw refuse(start, "has a '(' that does not close");
            }
            at++;
            return inner;
        }
        if (text.charAt(at) == ')') {
            throw refuse(at, "has a ')' where a predicate was expected");
        }
        return predicate();
    }

    /** The predicate from here: to the next and/or outside quotes and its own parentheses, or a ')' closing a group. */
    private Predicate predicate() {
        int start = at;
        int open = 0;
        boolean quoted = false;
        while (at < text.length()) {
            char c = text.charAt(at);
            if (quoted) {
                if (c == '\\') {
                    at++;
                } else if (c == '"') {
                    quoted = false;
                }
            } else if (c == '"') {
                quoted = true;
            } else if (c == '(') {
                open++;
            } else if (c == ')') {
                if (open == 0) {
                    break;
                }
                open--;
            } else if (open == 0 && at > start && Character.isWhitespace(text.charAt(at - 1)) && (keyword("and") || keyword("or"))) {
                break;
            }
            at++;
        }
        at = Math.min(at, text.length());
        String leaf = text.substring(start, at);
        boolean alone = leaf.strip().equals(text.strip());
        // a request of one-predicate texts is counted as it always was ({@link PredicateText#validate})
        if (++leaves[0] > PredicateText.MAX_PREDICATES && !alone) {
            throw refuse(start, "is one predicate too many: at most " + PredicateText.MAX_PREDICATES + " in one request");
        }
        try {
            // the spaces around it are the grammar's (any Unicode space, as between keywords), no part of its value
            return leaf(alone ? leaf : leaf.strip(), position);
        } catch (InvalidPredicateException e) {
            if (alone) {
                // a text of one predicate is refused as it always was
                throw e;
            }
            String prefix = "predicate " + position + " ";
            String what = e.getMessage().startsWith(prefix) ? e.getMessage().substring(prefix.length()) : e.getMessage();
            throw refuse(start + (leaf.length() - leaf.stripLeading().length()), "'" + leaf.strip() + "' " + what);
        }
    }

    private void requireDepth(int depth, int offset, String token) {
        if (depth > MAX_DEPTH) {
            throw refuse(offset, "nests deeper than " + MAX_DEPTH + " levels at '" + token + "' (each '(' and each 'not' opens one)");
        }
    }

    /** Whether a keyword stands here, after any space, as a whole word; moves past the space. */
    private boolean keyword(String word) {
        int from = at;
        while (from < text.length() && Character.isWhitespace(text.charAt(from))) {
            from++;
        }
        int end = from + word.length();
        if (end > text.length() || !text.substring(from, end).toLowerCase(Locale.ROOT).equals(word)) {
            return false;
        }
        if (end < text.length() && !Character.isWhitespace(text.charAt(end)) && text.charAt(end) != '(') {
            return false;
        }
        at = from;
        return true;
    }

    private void skipSpace() {
        while (at < text.length() && Character.isWhitespace(text.charAt(at))) {
            at++;
        }
    }

    private String word() {
        int end = at;
        while (end < text.length() && !Character.isWhitespace(text.charAt(end))) {
            end++;
        }
        return text.substring(at, end);
    }

    /** A refusal of the token at this index of the text, named by its offset in characters (code points, as callers count). */
    private InvalidPredicateException refuse(int offset, String what) {
        return new InvalidPredicateException(position, text.codePointCount(0, Math.min(offset, text.length())), what);
    }

    /** The text {@link #parse} reads back as this expression ({@link PredicateText#format}, which it reads). */
    public static String format(Expression expression) {
        return switch (expression) {
            case Predicate.Range p when p.low() != null && p.high() != null -> format(new Expression.And(List.of(
                    new Predicate.Range(p.field(), p.low(), p.lowInclusive(), null, false),
                    new Predicate.Range(p.field(), null, false, p.high(), p.highInclusive()))));
            case Predicate p -> PredicateText.format(p);
            case Expression.And and -> "(" + String.join(" and ", and.operands().stream().map(ExpressionText::format).toList()) + ")";
            case Expression.Or or -> "(" + String.join(" or ", or.operands().stream().map(ExpressionText::format).toList()) + ")";
            case Expression.Not not -> "not " + format(not.operand());
        };
    }

    /**
     * Checks a request's {@code where}s together: a request of predicates alone as {@link PredicateText#validate} does; with
     * expressions, at most {@value PredicateText#MAX_PREDICATES} predicates in all (the {@code where} holding one too many
     * named), and the one-predicate {@code where}s' ranges checked together, each named by its position.
     *
     * @param field the one name of a field however spelled, as the index read knows it
     */
    static void validate(List<Expression> where, java.util.function.Function<String, String> field) {
        if (where.stream().allMatch(e -> e instanceof Predicate)) {
            PredicateText.validate(where.stream().map(e -> (Predicate) e).toList(), field);
            return;
        }
        int count = 0;
        for (int i = 0; i < where.size(); i++) {
            count += leaves(where.get(i));
            if (count > PredicateText.MAX_PREDICATES) {
                throw new InvalidPredicateException(i, 0, "holds one predicate too many: at most " + PredicateText.MAX_PREDICATES
                        + " in one request, got " + where.stream().mapToInt(ExpressionText::leaves).sum());
            }
        }
        // the predicates' checks by position: an expression stands in as a predicate no other shares a field with
        List<Predicate> byPosition = new ArrayList<>();
        for (int i = 0; i < where.size(); i++) {
            byPosition.add(where.get(i) instanceof Predicate p ? p : new Predicate.Present("\u0000where " + i));
        }
        PredicateText.validate(byPosition, name -> name.startsWith("\u0000") ? name : field.apply(name));
    }

    /** How many predicates an expression holds. */
    static int leaves(Expression expression) {
        return switch (expression) {
            case Predicate p -> 1;
            case Expression.And and -> and.operands().stream().mapToInt(ExpressionText::leaves).sum();
            case Expression.Or or -> or.operands().stream().mapToInt(ExpressionText::leaves).sum();
            case Expression.Not not -> leaves(not.operand());
        };
    }

    /** Its predicates, in the order written. */
    static List<Predicate> predicates(Expression expression) {
        List<Predicate> all = new ArrayList<>();
        collect(expression, all);
        return all;
    }

    private static void collect(Expression expression, List<Predicate> into) {
        switch (expression) {
            case Predicate p -> into.add(p);
            case Expression.And and -> and.operands().forEach(o -> collect(o, into));
            case Expression.Or or -> or.operands().forEach(o -> collect(o, into));
            case Expression.Not not -> collect(not.operand(), into);
        }
    }
}

package com.multikey.dynamodb.expression;

import com.multikey.dynamodb.EngineException;
import com.multikey.dynamodb.value.Value;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One expression being parsed: its tokens and a cursor over them, the request's attribute names and values
 * (recording which were used), and DynamoDB's error messages, all prefixed "Invalid &lt;kind&gt;: ".
 */
final class Source {

    /** AWS "Service, account, and table quotas" (Expression parameters): an expression string is at most 4 KB. */
    static final int MAX_EXPRESSION_BYTES = 4096;
    /** AWS quotas (Expression parameters): at most 300 operators or functions in an expression. */
    static final int MAX_OPERATORS = 300;

    /** Words before a parenthesis that opens a group rather than a function's arguments or IN's list. */
    private static final Set<String> LOGICAL = Set.of("AND", "OR", "NOT", "BETWEEN");

    private final String kind;
    private final String text;
    private final List<Token> tokens;
    private final Map<String, String> names;
    private final Map<String, Value> values;
    private final Set<String> usedNames = new LinkedHashSet<>();
    private final Set<String> usedValues = new LinkedHashSet<>();
    private final Set<String> nestedAccessNames = new LinkedHashSet<>();
    private final Set<String> topLevelNames = new LinkedHashSet<>();
    /**
     * The first error of each later stage, in the order DynamoDB reports them: redundant parentheses, then a
     * syntax error anywhere in the expression (both thrown at once); then what its parser finds (an unknown or
     * misplaced function, a list index out of range); then a reserved word; then a repeated update section;
     * then what its validator finds (an undefined placeholder, a wrong operand type or count, a path too deep...). Within a stage the
     * first in the text wins. Observed in DynamoDB's answers collected by dynalite's and dynamodb-conformance's
     * test suites.
     */
    private final EngineException[] deferred = new EngineException[Stage.values().length];

    /** The stages of DynamoDB's checks after the syntax, in the order their errors are reported. */
    enum Stage { PARSE, RESERVED, SECTIONS, VALIDATION }

    private int position;
    private int operators;

    Source(String kind, String text, Map<String, String> names, Map<String, Value> values) {
        this.kind = kind;
        this.text = text == null ? "" : text;
        this.names = names == null ? Map.of() : names;
        this.values = values == null ? Map.of() : values;
        if (this.text.isBlank()) {
            throw invalid("The expression can not be empty;");
        }
        int size = this.text.getBytes(StandardCharsets.UTF_8).length;
        if (size > MAX_EXPRESSION_BYTES) {
            throw invalid("Expression size has exceeded the maximum allowed size; expression size: " + size);
        }
        this.tokens = Lexer.tokenize(this.text);
        refuseRedundantParentheses();
    }

    /**
     * DynamoDB refuses a pair of parentheses that only wraps another pair, "((a = :v))" or "a > ((b))", and
     * reports it ahead of any syntax error ("(((b.c)).d)" is redundant, not a syntax error): so it is found on
     * the tokens, before parsing. A function's own parentheses around one parenthesized argument do not count
     * ("f((:v))"); unbalanced parentheses are left to the parser's syntax error.
     */
    private void refuseRedundantParentheses() {
        int[] match = new int[tokens.size()];
        java.util.ArrayDeque<Integer> open = new java.util.ArrayDeque<>();
        for (int i = 0; i < tokens.size(); i++) {
            Token.Kind kind = tokens.get(i).kind();
            if (kind == Token.Kind.LPAREN) {
                open.push(i);
            } else if (kind == Token.Kind.RPAREN) {
                if (open.isEmpty()) {
                    return;
                }
                int start = open.pop();
                match[start] = i;
            }
        }
        if (!open.isEmpty()) {
            return;
        }
        for (int i = 0; i + 1 < tokens.size(); i++) {
            boolean call = i > 0 && tokens.get(i - 1).kind() == Token.Kind.WORD && !LOGICAL.contains(tokens.get(i - 1).text().toUpperCase());
            if (tokens.get(i).kind() == Token.Kind.LPAREN && tokens.get(i + 1).kind() == Token.Kind.LPAREN
                    && !call && match[i] == match[i + 1] + 1) {
                throw invalid("The expression has redundant parentheses;");
            }
        }
    }

    String kind() {
        return kind;
    }

    Token peek() {
        return tokens.get(position);
    }

    Token peek(int ahead) {
        return tokens.get(Math.min(position + ahead, tokens.size() - 1));
    }

    Token next() {
        Token t = tokens.get(position);
        if (t.kind() != Token.Kind.EOF) {
            position++;
        }
        return t;
    }

    boolean accept(Token.Kind kind) {
        if (peek().kind() == kind) {
            next();
            return true;
        }
        return false;
    }

    boolean acceptWord(String keyword) {
        if (peek().isWord(keyword)) {
            next();
            return true;
        }
        return false;
    }

    Token expect(Token.Kind kind) {
        Token t = peek();
        if (t.kind() != kind) {
            throw syntax(t);
        }
        return next();
    }

    void expectEnd() {
        expect(Token.Kind.EOF);
        if (operators > MAX_OPERATORS) {
            fail("The expression contains too many operators; operator count: " + operators);
        }
        for (EngineException e : deferred) {
            if (e != null) {
                throw e;
            }
        }
    }

    /** The name a {@code #name} stands for; an undefined one is reported after the syntax check. */
    String name(Token ref) {
        usedNames.add(ref.text());
        String name = names.get(ref.text());
        if (name == null) {
            fail("An expression attribute name used in the document path is not defined; attribute name: " + ref.text());
            return ref.text();
        }
        return name;
    }

    /** The value a {@code :value} stands for; an undefined one is reported after the syntax check. */
    Value value(Token ref) {
        usedValues.add(ref.text());
        Value value = values.get(ref.text());
        if (value == null) {
            fail("An expression attribute value used in expression is not defined; attribute value: " + ref.text());
            return new Value.Null();
        }
        return value;
    }

    /** Whether the request defines this value placeholder (type checks wait for the undefined report). */
    boolean defined(Operand.Literal literal) {
        return values.containsKey(literal.ref());
    }

    /** Counts one operator or function toward the expression's limit. */
    void countOperator() {
        operators++;
    }

    /** Notes a validation error, reported when the whole expression has parsed (see {@link #expectEnd}). */
    void fail(String detail) {
        fail(Stage.VALIDATION, detail);
    }

    void fail(Stage stage, String detail) {
        if (deferred[stage.ordinal()] == null) {
            deferred[stage.ordinal()] = invalid(detail);
        }
    }

    Set<String> usedNames() {
        return Set.copyOf(usedNames);
    }

    Set<String> usedValues() {
        return Set.copyOf(usedValues);
    }

    /** Notes the top-level attribute a document path starts with (see {@link Parsed#topLevelNames}). */
    void pathHead(String name) {
        topLevelNames.add(name);
    }

    Set<String> topLevelNames() {
        return Set.copyOf(topLevelNames);
    }

    /** Notes a top-level attribute reached through a nested path (see {@link Parsed#nestedAccessNames}). */
    void nestedAccess(String name) {
        nestedAccessNames.add(name);
    }

    Set<String> nestedAccessNames() {
        return Set.copyOf(nestedAccessNames);
    }

    /**
     * DynamoDB's syntax error: the offending token, and "near" it the text from the token before through the
     * token after (as in its well-known {@code token: "-", near: "system-id"}).
     */
    EngineException syntax(Token bad) {
        int index = tokens.indexOf(bad);
        int from = index > 0 ? tokens.get(index - 1).start() : bad.start();
        int to = bad.kind() == Token.Kind.EOF ? (index > 0 ? tokens.get(index - 1).end() : 0)
                : index + 1 < tokens.size() ? tokens.get(index + 1).end() : bad.end();
        return invalid("Syntax error; token: \"" + bad.shown() + "\", near: \"" + text.substring(from, Math.max(from, to)) + "\"");
    }

    EngineException invalid(String detail) {
        return EngineException.validation("Invalid " + kind + ": " + detail);
    }
}

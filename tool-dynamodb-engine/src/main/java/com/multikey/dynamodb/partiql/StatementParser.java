package com.multikey.dynamodb.partiql;

import com.multikey.dynamodb.EngineException;
import com.multikey.dynamodb.value.Numbers;
import com.multikey.dynamodb.value.Value;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Reads one PartiQL for DynamoDB statement. A statement it cannot read is refused as DynamoDB refuses one, with a
 * ValidationException "Statement wasn't well formed, can't be processed: ..." that names what was found and where
 * (line and column, from 1).
 */
public final class StatementParser {

    static final String NOT_WELL_FORMED = "Statement wasn't well formed, can't be processed: ";

    private static final Set<String> KEYWORDS = Set.of("SELECT", "FROM", "WHERE", "ORDER", "BY", "ASC", "DESC", "INSERT",
            "INTO", "VALUE", "UPDATE", "SET", "REMOVE", "RETURNING", "DELETE", "AND", "OR", "NOT", "BETWEEN", "IN", "IS",
            "MISSING", "NULL", "TRUE", "FALSE");

    private enum Kind { WORD, QUOTED, STRING, NUMBER, SYMBOL, END }

    private record Token(Kind kind, String text, int line, int column) {
        String where() {
            return " at line " + line + ", column " + column;
        }

        boolean keyword(String word) {
            return kind == Kind.WORD && text.equalsIgnoreCase(word);
        }

        boolean symbol(String symbol) {
            return kind == Kind.SYMBOL && text.equals(symbol);
        }

        String shown() {
            return switch (kind) {
                case END -> "end of statement";
                case STRING -> "'" + text + "'";
                case QUOTED -> "\"" + text + "\"";
                default -> "'" + text + "'";
            };
        }
    }

    /**
     * How deep parentheses, tuples, lists, sets and NOTs may nest: far more than a value's 32 levels or what a
     * condition of DynamoDB's 4 KB expressions can hold, far less than what would exhaust a thread's stack.
     */
    static final int MAX_DEPTH = 256;

    private final List<Token> tokens;
    private int position;
    private int parameters;
    private int depth;

    private StatementParser(String text) {
        this.tokens = tokenize(text);
    }

    /** Reads the statement; a ValidationException when it is not one of the statements PartiQL for DynamoDB serves. */
    public static Statement parse(String text) {
        StatementParser parser = new StatementParser(text);
        Statement statement = parser.statement();
        parser.accept(";");
        if (parser.peek().kind() != Kind.END) {
            throw parser.unexpected(parser.peek());
        }
        return statement;
    }

    private Statement statement() {
        Token first = peek();
        if (first.keyword("SELECT")) {
            return select();
        }
        if (first.keyword("INSERT")) {
            return insert();
        }
        if (first.keyword("UPDATE")) {
            return update();
        }
        if (first.keyword("DELETE")) {
            return delete();
        }
        if (first.keyword("EXISTS") && tokens.get(position + 1).symbol("(")) {
            position += 2;
            Token at = peek();
            if (!at.keyword("SELECT")) {
                throw error("expected SELECT but found " + at.shown() + at.where());
            }
            Statement.Select select = select();
            expect(")");
            return new Statement.Exists(select);
        }
        // DynamoDB's own words for a statement that is none of these, without a position
        throw error("Expected data manipulation");
    }

    private Statement.Select select() {
        expectKeyword("SELECT");
        List<Expr.Path> projection = new ArrayList<>();
        if (!accept("*")) {
            do {
                projection.add(path());
            } while (accept(","));
        }
        expectKeyword("FROM");
        String table = name("a table name");
        Optional<String> index = Optional.empty();
        if (accept(".")) {
            index = Optional.of(name("an index name"));
        }
        Optional<Expr> where = Optional.empty();
        if (acceptKeyword("WHERE")) {
            where = Optional.of(expression());
        }
        Optional<Statement.OrderBy> orderBy = Optional.empty();
        if (acceptKeyword("ORDER")) {
            expectKeyword("BY");
            List<Statement.OrderBy> keys = new ArrayList<>();
            do {
                Expr.Path key = path();
                boolean descending = acceptKeyword("DESC");
                if (!descending) {
                    acceptKeyword("ASC");
                }
                keys.add(new Statement.OrderBy(key, descending));
            } while (accept(","));
            Statement.OrderBy first = keys.get(0);
            orderBy = Optional.of(new Statement.OrderBy(first.key(), first.descending(), keys.subList(1, keys.size())));
        }
        return new Statement.Select(projection, table, index, where, orderBy, parameters);
    }

    private Statement.Insert insert() {
        expectKeyword("INSERT");
        expectKeyword("INTO");
        String table = name("a table name");
        expectKeyword("VALUE");
        Token at = peek();
        Expr item = primary();
        if (!(item instanceof Expr.Tuple) && !(item instanceof Expr.Parameter)) {
            throw error("INSERT's VALUE must be a tuple {'attribute': value, ...}" + at.where());
        }
        return new Statement.Insert(table, item, parameters);
    }

    private Statement.Update update() {
        expectKeyword("UPDATE");
        String table = name("a table name");
        List<Statement.Clause> clauses = new ArrayList<>();
        while (true) {
            if (acceptKeyword("SET")) {
                do {
                    Expr.Path path = path();
                    expect("=");
                    clauses.add(new Statement.Clause.Set(path, additive()));
                } while (accept(","));
            } else if (acceptKeyword("REMOVE")) {
                do {
                    clauses.add(new Statement.Clause.Remove(path()));
                } while (accept(","));
            } else {
                break;
            }
        }
        if (clauses.isEmpty()) {
            throw error("expected SET or REMOVE but found " + peek().shown() + peek().where());
        }
        expectKeyword("WHERE");
        Expr where = expression();
        Statement.Returning returning = returning(false);
        return new Statement.Update(table, clauses, where, returning, parameters);
    }

    private Statement.Delete delete() {
        expectKeyword("DELETE");
        expectKeyword("FROM");
        String table = name("a table name");
        expectKeyword("WHERE");
        Expr where = expression();
        Statement.Returning returning = returning(true);
        return new Statement.Delete(table, where, returning, parameters);
    }

    private Statement.Returning returning(boolean onlyAllOld) {
        if (!acceptKeyword("RETURNING")) {
            return Statement.Returning.NONE;
        }
        Token at = peek();
        boolean all = acceptKeyword("ALL");
        if (!all && !acceptKeyword("MODIFIED")) {
            throw error("expected ALL or MODIFIED but found " + at.shown() + at.where());
        }
        Token when = peek();
        boolean old = acceptKeyword("OLD");
        if (!old && !acceptKeyword("NEW")) {
            throw error("expected OLD or NEW but found " + when.shown() + when.where());
        }
        expect("*");
        if (onlyAllOld && !(all && old)) {
            throw error("a DELETE can only return ALL OLD *" + at.where());
        }
        return all ? (old ? Statement.Returning.ALL_OLD : Statement.Returning.ALL_NEW)
                : (old ? Statement.Returning.MODIFIED_OLD : Statement.Returning.MODIFIED_NEW);
    }

    private Expr expression() {
        Expr left = conjunction();
        while (acceptKeyword("OR")) {
            left = new Expr.Or(left, conjunction());
        }
        return left;
    }

    private Expr conjunction() {
        Expr left = negation();
        while (acceptKeyword("AND")) {
            left = new Expr.And(left, negation());
        }
        return left;
    }

    private Expr negation() {
        Token at = peek();
        if (acceptKeyword("NOT")) {
            enter(at);
            try {
                return new Expr.Not(negation());
            } finally {
                depth--;
            }
        }
        return predicate();
    }

    /** One level deeper (a NOT, or an opening bracket at {@code at}); refused beyond {@link #MAX_DEPTH}. */
    private void enter(Token at) {
        if (++depth > MAX_DEPTH) {
            throw error("nested more than " + MAX_DEPTH + " levels deep" + at.where());
        }
    }

    private Expr predicate() {
        Expr left = additive();
        Token next = peek();
        for (String operator : List.of("=", "<>", "!=", "<", "<=", ">", ">=")) {
            if (next.symbol(operator)) {
                position++;
                return new Expr.Comparison(operator.equals("!=") ? "<>" : operator, left, additive());
            }
        }
        if (acceptKeyword("IS")) {
            boolean negated = acceptKeyword("NOT");
            Token what = peek();
            if (acceptKeyword("MISSING")) {
                return new Expr.Is(left, true, negated);
            }
            if (acceptKeyword("NULL")) {
                return new Expr.Is(left, false, negated);
            }
            throw error("expected MISSING or NULL but found " + what.shown() + what.where());
        }
        boolean negated = acceptKeyword("NOT");
        if (acceptKeyword("BETWEEN")) {
            Expr low = additive();
            expectKeyword("AND");
            Expr between = new Expr.Between(left, low, additive());
            return negated ? new Expr.Not(between) : between;
        }
        if (acceptKeyword("IN")) {
            List<Expr> candidates = new ArrayList<>();
            String close = accept("[") ? "]" : null;
            if (close == null) {
                expect("(");
                close = ")";
            }
            do {
                candidates.add(additive());
            } while (accept(","));
            expect(close);
            Expr in = new Expr.In(left, candidates);
            return negated ? new Expr.Not(in) : in;
        }
        if (negated) {
            throw error("expected BETWEEN or IN but found " + peek().shown() + peek().where());
        }
        return left;
    }

    private Expr additive() {
        Expr left = primary();
        while (peek().symbol("+") || peek().symbol("-")) {
            String operator = next().text();
            left = new Expr.Arithmetic(operator, left, primary());
        }
        return left;
    }

    private Expr primary() {
        Token token = peek();
        boolean opens = token.symbol("(") || token.symbol("[") || token.symbol("{") || token.symbol("<<")
                || token.kind() == Kind.WORD && tokens.get(position + 1).symbol("("); // a function's call
        if (!opens) {
            return primaryAt(token);
        }
        enter(token);
        try {
            return primaryAt(token);
        } finally {
            depth--;
        }
    }

    private Expr primaryAt(Token token) {
        switch (token.kind()) {
            case STRING -> {
                position++;
                return new Expr.Literal(new Value.S(token.text()));
            }
            case NUMBER -> {
                position++;
                return number(token, token.text());
            }
            case QUOTED -> {
                return path();
            }
            case WORD -> {
                if (token.keyword("TRUE") || token.keyword("FALSE")) {
                    position++;
                    return new Expr.Literal(new Value.Bool(token.keyword("TRUE")));
                }
                if (token.keyword("NULL")) {
                    position++;
                    return new Expr.Literal(new Value.Null());
                }
                if (tokens.get(position + 1).symbol("(") && !KEYWORDS.contains(token.text().toUpperCase(Locale.ROOT))) {
                    position += 2;
                    List<Expr> arguments = new ArrayList<>();
                    if (!accept(")")) {
                        do {
                            arguments.add(additive());
                        } while (accept(","));
                        expect(")");
                    }
                    return new Expr.Call(token.text().toLowerCase(Locale.ROOT), arguments);
                }
                return path();
            }
            case SYMBOL -> {
                if (accept("?")) {
                    return new Expr.Parameter(parameters++);
                }
                if (accept("(")) {
                    Expr inner = expression();
                    expect(")");
                    return inner;
                }
                if (token.symbol("-") && tokens.get(position + 1).kind() == Kind.NUMBER) {
                    position++;
                    Token number = next();
                    return number(number, "-" + number.text());
                }
                if (accept("{")) {
                    List<Expr.Entry> entries = new ArrayList<>();
                    if (!accept("}")) {
                        do {
                            Token key = next();
                            if (key.kind() != Kind.STRING) {
                                throw error("expected a 'quoted' attribute name but found " + key.shown() + key.where());
                            }
                            expect(":");
                            entries.add(new Expr.Entry(key.text(), additive()));
                        } while (accept(","));
                        expect("}");
                    }
                    return new Expr.Tuple(entries);
                }
                if (accept("[")) {
                    List<Expr> elements = new ArrayList<>();
                    if (!accept("]")) {
                        do {
                            elements.add(additive());
                        } while (accept(","));
                        expect("]");
                    }
                    return new Expr.ListOf(elements);
                }
                if (accept("<<")) {
                    List<Expr> elements = new ArrayList<>();
                    if (!accept(">>")) {
                        do {
                            elements.add(additive());
                        } while (accept(","));
                        expect(">>");
                    }
                    return new Expr.Bag(elements);
                }
                throw unexpected(token);
            }
            default -> throw unexpected(token);
        }
    }

    private Expr number(Token token, String text) {
        try {
            return new Expr.Literal(new Value.N(Numbers.parse(text)));
        } catch (EngineException e) {
            throw error("invalid number " + token.shown() + token.where());
        }
    }

    private Expr.Path path() {
        List<Expr.Step> steps = new ArrayList<>();
        steps.add(new Expr.Step.Name(name("an attribute name")));
        while (true) {
            if (peek().symbol(".") && (tokens.get(position + 1).kind() == Kind.WORD || tokens.get(position + 1).kind() == Kind.QUOTED)) {
                position++;
                steps.add(new Expr.Step.Name(name("an attribute name")));
            } else if (accept("[")) {
                Token index = next();
                if (index.kind() == Kind.STRING) {
                    steps.add(new Expr.Step.Name(index.text()));
                } else if (index.kind() == Kind.NUMBER && index.text().matches("[0-9]+")) {
                    steps.add(new Expr.Step.Index(Integer.parseInt(index.text())));
                } else {
                    throw error("expected a list index but found " + index.shown() + index.where());
                }
                expect("]");
            } else {
                return new Expr.Path(steps);
            }
        }
    }

    /** A table, index or attribute name: a word that is not a keyword, or any "quoted" text. */
    private String name(String what) {
        Token token = next();
        if (token.kind() == Kind.QUOTED || token.kind() == Kind.WORD && !KEYWORDS.contains(token.text().toUpperCase(Locale.ROOT))) {
            return token.text();
        }
        throw error("expected " + what + " but found " + token.shown() + token.where());
    }

    private Token peek() {
        return tokens.get(position);
    }

    private Token next() {
        Token token = tokens.get(position);
        if (token.kind() != Kind.END) {
            position++;
        }
        return token;
    }

    private boolean accept(String symbol) {
        if (peek().symbol(symbol)) {
            position++;
            return true;
        }
        return false;
    }

    private boolean acceptKeyword(String word) {
        if (peek().keyword(word)) {
            position++;
            return true;
        }
        return false;
    }

    private void expect(String symbol) {
        if (!accept(symbol)) {
            throw error("expected '" + symbol + "' but found " + peek().shown() + peek().where());
        }
    }

    private void expectKeyword(String word) {
        if (!acceptKeyword(word)) {
            throw error("expected " + word + " but found " + peek().shown() + peek().where());
        }
    }

    private EngineException unexpected(Token token) {
        return error("unexpected " + token.shown() + token.where());
    }

    private static EngineException error(String detail) {
        return EngineException.validation(NOT_WELL_FORMED + detail);
    }

    private static List<Token> tokenize(String text) {
        List<Token> tokens = new ArrayList<>();
        int line = 1;
        int lineStart = 0;
        int i = 0;
        while (i < text.length()) {
            char c = text.charAt(i);
            int column = i - lineStart + 1;
            if (c == '\n') {
                line++;
                lineStart = i + 1;
                i++;
            } else if (Character.isWhitespace(c)) {
                i++;
            } else if (c == '\'' || c == '"') {
                StringBuilder value = new StringBuilder();
                int j = i + 1;
                while (true) {
                    if (j >= text.length()) {
                        throw error("unterminated " + (c == '\'' ? "string" : "quoted name") + " at line " + line + ", column " + column);
                    }
                    char d = text.charAt(j);
                    if (d == c) {
                        if (j + 1 < text.length() && text.charAt(j + 1) == c) {
                            value.append(c); // a quote is written twice inside quotes
                            j += 2;
                            continue;
                        }
                        break;
                    }
                    value.append(d);
                    j++;
                }
                tokens.add(new Token(c == '\'' ? Kind.STRING : Kind.QUOTED, value.toString(), line, column));
                i = j + 1;
            } else if (Character.isDigit(c)) {
                int j = i;
                while (j < text.length() && (Character.isDigit(text.charAt(j)) || text.charAt(j) == '.')) {
                    j++;
                }
                if (j < text.length() && (text.charAt(j) == 'e' || text.charAt(j) == 'E')) {
                    int k = j + 1;
                    if (k < text.length() && (text.charAt(k) == '+' || text.charAt(k) == '-')) {
                        k++;
                    }
                    if (k < text.length() && Character.isDigit(text.charAt(k))) {
                        j = k;
                        while (j < text.length() && Character.isDigit(text.charAt(j))) {
                            j++;
                        }
                    }
                }
                tokens.add(new Token(Kind.NUMBER, text.substring(i, j), line, column));
                i = j;
            } else if (Character.isLetter(c) || c == '_') {
                int j = i;
                while (j < text.length() && (Character.isLetterOrDigit(text.charAt(j)) || text.charAt(j) == '_')) {
                    j++;
                }
                tokens.add(new Token(Kind.WORD, text.substring(i, j), line, column));
                i = j;
            } else {
                String two = i + 1 < text.length() ? text.substring(i, i + 2) : "";
                if (Set.of("<=", ">=", "<>", "!=", "<<", ">>").contains(two)) {
                    tokens.add(new Token(Kind.SYMBOL, two, line, column));
                    i += 2;
                } else if ("=<>*,.()[]{}:?+-;".indexOf(c) >= 0) {
                    tokens.add(new Token(Kind.SYMBOL, String.valueOf(c), line, column));
                    i++;
                } else {
                    throw error("unexpected character '" + c + "' at line " + line + ", column " + column);
                }
            }
        }
        tokens.add(new Token(Kind.END, "", line, text.length() - lineStart + 1));
        return tokens;
    }
}

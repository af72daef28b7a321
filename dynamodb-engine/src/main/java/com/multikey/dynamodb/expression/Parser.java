package com.multikey.dynamodb.expression;

import com.multikey.dynamodb.value.Value;
import com.multikey.dynamodb.value.Values;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

/**
 * Recursive descent over DynamoDB's expression grammar (AWS "Comparison operator and function reference"):
 * document paths, operands, functions and conditions with precedence OR &lt; AND &lt; NOT &lt; comparisons.
 * Checks what DynamoDB checks while parsing: reserved words, path depth, the operand types of literal
 * values, the number of IN operands, functions used where they are not allowed.
 */
final class Parser {

    /** AWS quotas (Expression parameters): a document path nests at most 32 levels. */
    static final int MAX_PATH_DEPTH = 32;
    /** AWS "Comparison operator and function reference": IN takes up to 100 values. */
    static final int MAX_IN_OPERANDS = 100;

    private static final Set<String> CONDITION_FUNCTIONS =
            Set.of("attribute_exists", "attribute_not_exists", "attribute_type", "begins_with", "contains");
    private static final Set<String> UPDATE_FUNCTIONS = Set.of("if_not_exists", "list_append");
    /** Keywords of the grammar: where a path is expected they are a syntax error, not a reserved name. */
    private static final Set<String> GRAMMAR_WORDS = Set.of("AND", "OR", "NOT", "BETWEEN", "IN");
    private static final Set<String> TYPE_NAMES = Set.of("S", "SS", "N", "NS", "B", "BS", "BOOL", "NULL", "L", "M");

    /** Stands for an operand that already failed a semantic check, so that parsing can go on. */
    private static final Operand PLACEHOLDER = new Operand.Literal("", new Value.Null());
    private static final Path PLACEHOLDER_PATH = new Path(List.of(new Path.Name("")));

    private final Source source;
    /** The conditions that were written in parentheses (by identity), to find redundant ones. */
    private final Set<Condition> parenthesized = Collections.newSetFromMap(new IdentityHashMap<>());
    /** Whether operands may use the update functions (SET's right-hand side) instead of size. */
    private final boolean update;

    Parser(Source source, boolean update) {
        this.source = source;
        this.update = update;
    }

    // ---- document paths

    Path path() {
        List<Path.Element> elements = new ArrayList<>();
        elements.add(new Path.Name(pathName(source.next())));
        while (true) {
            if (source.accept(Token.Kind.DOT)) {
                elements.add(new Path.Name(pathName(source.next())));
            } else if (source.accept(Token.Kind.LBRACKET)) {
                Token index = source.expect(Token.Kind.INDEX);
                source.expect(Token.Kind.RBRACKET);
                elements.add(new Path.Index(index(index)));
            } else {
                break;
            }
        }
        if (elements.size() > MAX_PATH_DEPTH) {
            source.fail("The document path has too many nesting levels; nesting levels: " + elements.size());
        }
        return new Path(elements);
    }

    private String pathName(Token t) {
        if (t.kind() == Token.Kind.NAME_REF) {
            return source.name(t);
        }
        if (t.kind() != Token.Kind.WORD || GRAMMAR_WORDS.contains(t.text().toUpperCase())) {
            throw source.syntax(t);
        }
        if (ReservedWords.contains(t.text())) {
            source.fail("Attribute name is a reserved keyword; reserved keyword: " + t.text());
        }
        return t.text();
    }

    private int index(Token t) {
        try {
            return Integer.parseInt(t.text());
        } catch (NumberFormatException e) {
            throw source.syntax(t);
        }
    }

    // ---- operands

    Operand operand() {
        Token t = source.peek();
        if (t.kind() == Token.Kind.VALUE_REF) {
            source.next();
            return new Operand.Literal(t.text(), source.value(t));
        }
        if (t.kind() == Token.Kind.WORD && source.peek(1).kind() == Token.Kind.LPAREN) {
            return functionOperand();
        }
        if (t.kind() == Token.Kind.WORD || t.kind() == Token.Kind.NAME_REF) {
            return new Operand.PathOperand(path());
        }
        throw source.syntax(t);
    }

    private Operand functionOperand() {
        String name = source.next().text();
        source.countOperator();
        if (update && UPDATE_FUNCTIONS.contains(name)) {
            List<Operand> args = arguments(name, 2);
            return name.equals("if_not_exists")
                    ? new Operand.IfNotExists(pathOf(args.get(0), name), args.get(1))
                    : new Operand.ListAppend(listOperand(args.get(0)), listOperand(args.get(1)));
        }
        if (!update && name.equals("size")) {
            return new Operand.Size(pathOf(arguments(name, 1).get(0), name));
        }
        source.fail(unusable(name));
        arguments(name, -1);
        return PLACEHOLDER;
    }

    /** A known function in a place it cannot go, or no function DynamoDB has. */
    private String unusable(String name) {
        if (update && (CONDITION_FUNCTIONS.contains(name) || name.equals("size"))) {
            return ("The function is not allowed in an update expression; function: " + name);
        }
        if (!update && UPDATE_FUNCTIONS.contains(name)) {
            return ("The function is not allowed in a condition expression; function: " + name);
        }
        if (CONDITION_FUNCTIONS.contains(name)) {
            return ("The function is not allowed to be used this way in an expression; function: " + name);
        }
        return "Invalid function name; function: " + name;
    }

    private List<Operand> arguments(String function, int count) {
        source.expect(Token.Kind.LPAREN);
        List<Operand> args = new ArrayList<>();
        if (source.peek().kind() != Token.Kind.RPAREN) {
            do {
                args.add(operand());
            } while (source.accept(Token.Kind.COMMA));
        }
        source.expect(Token.Kind.RPAREN);
        if (count >= 0 && args.size() != count) {
            source.fail("Incorrect number of operands for operator or function; operator or function: "
                    + function + ", number of operands: " + args.size());
        }
        while (args.size() < count) {
            args.add(PLACEHOLDER); // so that the parse goes on to find any syntax error
        }
        return args;
    }

    private Path pathOf(Operand operand, String function) {
        if (operand instanceof Operand.PathOperand(Path path)) {
            return path;
        }
        if (operand != PLACEHOLDER) {
            source.fail("Operator or function requires a document path; operator or function: " + function);
        }
        return PLACEHOLDER_PATH;
    }

    private Operand listOperand(Operand operand) {
        requireType(operand, "list_append", Set.of("L"));
        return operand;
    }

    /** A literal value must have one of these types for this operator or function. */
    void requireType(Operand operand, String operator, Set<String> types) {
        if (operand instanceof Operand.Literal literal && source.defined(literal)
                && !types.contains(literal.value().type())) {
            source.fail("Incorrect operand type for operator or function; operator or function: "
                    + operator + ", operand type: " + literal.value().type());
        }
    }

    // ---- conditions

    Condition condition() {
        Condition left = and();
        while (source.acceptWord("OR")) {
            source.countOperator();
            left = new Condition.Or(left, and());
        }
        return left;
    }

    private Condition and() {
        Condition left = not();
        while (source.acceptWord("AND")) {
            source.countOperator();
            left = new Condition.And(left, not());
        }
        return left;
    }

    private Condition not() {
        if (source.acceptWord("NOT")) {
            source.countOperator();
            return new Condition.Not(not());
        }
        return primary();
    }

    private Condition primary() {
        if (source.accept(Token.Kind.LPAREN)) {
            Condition inner = condition();
            source.expect(Token.Kind.RPAREN);
            // DynamoDB refuses a group that only wraps another group: "((a = :v))".
            if (parenthesized.contains(inner)) {
                source.fail("The expression has redundant parentheses;");
            }
            parenthesized.add(inner);
            return inner;
        }
        Token t = source.peek();
        if (t.kind() == Token.Kind.WORD && source.peek(1).kind() == Token.Kind.LPAREN
                && CONDITION_FUNCTIONS.contains(t.text())) {
            return functionCondition();
        }
        Operand left = operand();
        Token op = source.peek();
        Condition.Comparator comparator = comparator(op);
        if (comparator != null) {
            source.next();
            source.countOperator();
            Operand right = operand();
            if (comparator != Condition.Comparator.EQ && comparator != Condition.Comparator.NE) {
                requireKeyType(left, comparator.symbol);
                requireKeyType(right, comparator.symbol);
            }
            distinct(comparator.symbol, left, List.of(right));
            return new Condition.Compare(comparator, left, right);
        }
        if (source.acceptWord("BETWEEN")) {
            source.countOperator();
            Operand low = operand();
            if (!source.acceptWord("AND")) {
                throw source.syntax(source.peek());
            }
            Operand high = operand();
            for (Operand o : List.of(left, low, high)) {
                requireKeyType(o, "BETWEEN");
            }
            distinct("BETWEEN", left, List.of(low, high));
            checkBounds(low, high);
            return new Condition.Between(left, low, high);
        }
        if (source.acceptWord("IN")) {
            source.countOperator();
            source.expect(Token.Kind.LPAREN);
            List<Operand> candidates = new ArrayList<>();
            do {
                candidates.add(operand());
            } while (source.accept(Token.Kind.COMMA));
            source.expect(Token.Kind.RPAREN);
            if (candidates.size() > MAX_IN_OPERANDS) {
                source.fail("The IN operator is provided with too many operands; number of operands: " + candidates.size());
            }
            distinct("IN", left, candidates);
            return new Condition.In(left, candidates);
        }
        if (left instanceof Operand.Size s) {
            source.fail("The function is not allowed to be used this way in an expression; function: size");
            return new Condition.AttributeExists(s.path()); // the parse goes on to find any syntax error
        }
        if (left == PLACEHOLDER) {
            return new Condition.AttributeExists(PLACEHOLDER_PATH); // a function already refused, standing alone
        }
        throw source.syntax(op);
    }

    private Condition functionCondition() {
        String name = source.next().text();
        source.countOperator();
        return switch (name) {
            case "attribute_exists" -> new Condition.AttributeExists(pathOf(arguments(name, 1).get(0), name));
            case "attribute_not_exists" -> new Condition.AttributeNotExists(pathOf(arguments(name, 1).get(0), name));
            case "attribute_type" -> {
                List<Operand> args = arguments(name, 2);
                Path path = pathOf(args.get(0), name);
                requireType(args.get(1), name, Set.of("S"));
                if (!(args.get(1) instanceof Operand.Literal type)) {
                    source.fail("Operator or function requires an expression attribute value; operator or function: " + name);
                    yield new Condition.AttributeExists(path);
                }
                String typeName = type.value() instanceof Value.S(String s) ? s : "";
                if (source.defined(type) && type.value() instanceof Value.S && !TYPE_NAMES.contains(typeName)) {
                    source.fail("Invalid attribute type name found; type: " + typeName
                            + ", valid types: {B,NULL,SS,BOOL,L,BS,N,NS,S,M}");
                }
                yield new Condition.AttributeType(path, type);
            }
            case "begins_with" -> {
                List<Operand> args = arguments(name, 2);
                requireType(args.get(0), name, Set.of("S", "B"));
                requireType(args.get(1), name, Set.of("S", "B"));
                distinct(name, args.get(0), List.of(args.get(1)));
                yield new Condition.BeginsWith(args.get(0), args.get(1));
            }
            case "contains" -> {
                List<Operand> args = arguments(name, 2);
                distinct(name, args.get(0), List.of(args.get(1)));
                yield new Condition.Contains(args.get(0), args.get(1));
            }
            default -> throw new IllegalStateException(name);
        };
    }

    private static Condition.Comparator comparator(Token t) {
        return switch (t.kind()) {
            case EQ -> Condition.Comparator.EQ;
            case NE -> Condition.Comparator.NE;
            case LT -> Condition.Comparator.LT;
            case LE -> Condition.Comparator.LE;
            case GT -> Condition.Comparator.GT;
            case GE -> Condition.Comparator.GE;
            default -> null;
        };
    }

    /** Ordering operators take only strings, numbers and binaries. */
    private void requireKeyType(Operand operand, String operator) {
        requireType(operand, operator, Set.of("S", "N", "B"));
    }

    /** DynamoDB refuses an operator whose first operand is repeated among the others ({@code a = a}). */
    private void distinct(String operator, Operand first, List<Operand> others) {
        if (others.contains(first)) {
            source.fail("The first operand must be distinct from the remaining operands for this operator or function; operator: "
                    + operator + ", first operand: " + describe(first));
        }
    }

    private static String describe(Operand operand) {
        return switch (operand) {
            case Operand.PathOperand p -> p.path().toString();
            case Operand.Literal l -> l.ref();
            default -> operand.toString();
        };
    }

    /** BETWEEN's literal bounds of one type must not be reversed. */
    private void checkBounds(Operand low, Operand high) {
        if (low instanceof Operand.Literal l && high instanceof Operand.Literal h
                && Values.comparable(l.value(), h.value()) && Values.compareKeys(l.value(), h.value()) > 0) {
            source.fail("The BETWEEN operator requires upper bound to be greater than or equal to lower bound; "
                    + "lower bound operand: AttributeValue: " + shortForm(l.value())
                    + ", upper bound operand: AttributeValue: " + shortForm(h.value()));
        }
    }

    /** A value as DynamoDB's messages show it: {@code {N:5}}, {@code {S:abc}}. */
    static String shortForm(Value value) {
        return switch (value) {
            case Value.S s -> "{S:" + s.value() + "}";
            case Value.N n -> "{N:" + com.multikey.dynamodb.value.Numbers.format(n.value()) + "}";
            case Value.B b -> "{B:" + b.value() + "}";
            default -> "{" + value.type() + ":" + value + "}";
        };
    }
}

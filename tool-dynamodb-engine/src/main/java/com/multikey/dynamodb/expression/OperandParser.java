package com.multikey.dynamodb.expression;

import com.multikey.dynamodb.value.Value;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Recursive descent over the operands of DynamoDB's expression grammar (AWS "Comparison operator and function
 * reference", "Update expressions"): document paths, expression attribute names and values, and functions in
 * operand position (size; if_not_exists and list_append in updates). Checks what DynamoDB checks while
 * parsing them: reserved words, path depth, the operand types of literal values, functions used where they
 * are not allowed.
 */
final class OperandParser {

    /** AWS quotas (Expression parameters): a document path nests at most 32 levels. */
    static final int MAX_PATH_DEPTH = 32;
    static final Set<String> CONDITION_FUNCTIONS =
            Set.of("attribute_exists", "attribute_not_exists", "attribute_type", "begins_with", "contains");
    private static final Set<String> UPDATE_FUNCTIONS = Set.of("if_not_exists", "list_append");
    /** What size() measures (AWS "Comparison operator and function reference", size). */
    private static final Set<String> SIZED_TYPES = Set.of("S", "B", "SS", "NS", "BS", "L", "M");
    /** Keywords of the grammar: where a path is expected they are a syntax error, not a reserved name. */
    private static final Set<String> GRAMMAR_WORDS = Set.of("AND", "OR", "NOT", "BETWEEN", "IN");
    /** In an update the section keywords are grammar too ("SET a = set" is a syntax error in DynamoDB). */
    private static final Set<String> UPDATE_GRAMMAR_WORDS = Set.of("AND", "OR", "NOT", "BETWEEN", "IN", "SET", "REMOVE", "ADD", "DELETE");

    /** Stands for an operand that already failed a semantic check, so that parsing can go on. */
    static final Operand PLACEHOLDER = new Operand.Literal("", new Value.Null());
    static final Path PLACEHOLDER_PATH = new Path(List.of(new Path.Name("")));

    private final Source source;
    /** Whether operands may use the update functions (SET's right-hand side) instead of size. */
    private final boolean update;

    OperandParser(Source source, boolean update) {
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
        String head = ((Path.Name) elements.get(0)).name();
        source.pathHead(head);
        if (elements.size() > 1) {
            source.nestedAccess(head);
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
        if (t.kind() != Token.Kind.WORD || (update ? UPDATE_GRAMMAR_WORDS : GRAMMAR_WORDS).contains(t.text().toUpperCase())) {
            throw source.syntax(t);
        }
        if (ReservedWords.contains(t.text())) {
            source.fail(Source.Stage.RESERVED, "Attribute name is a reserved keyword; reserved keyword: " + t.text());
        }
        return t.text();
    }

    /** A list index; one too large for any list is DynamoDB's "not within the allowable range". */
    private int index(Token t) {
        try {
            return Integer.parseInt(t.text());
        } catch (NumberFormatException e) {
            source.fail(Source.Stage.PARSE, "List index is not within the allowable range; index: " + t.text());
            return Integer.MAX_VALUE;
        }
    }

    // ---- operands

    Operand operand() {
        Token t = source.peek();
        if (source.accept(Token.Kind.LPAREN)) {
            Operand inner = operand(); // "(a)", "(:v)": DynamoDB's grammar parenthesizes operands
            source.expect(Token.Kind.RPAREN);
            return inner;
        }
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
            Operand argument = arguments(name, 1).get(0);
            requireType(argument, name, SIZED_TYPES);
            return new Operand.Size(argument);
        }
        source.fail(Source.Stage.PARSE, unusable(name));
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

    List<Operand> arguments(String function, int count) {
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

    Path pathOf(Operand operand, String function) {
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

    /**
     * An operand whose type is known before any item is read (a value, or a function's result: size is a
     * number) must have one of these types for this operator or function.
     */
    void requireType(Operand operand, String operator, Set<String> types) {
        String type = staticType(operand);
        if (type != null && !types.contains(type)) {
            source.fail("Incorrect operand type for operator or function; operator or function: "
                    + operator + ", operand type: " + type);
        }
    }

    /** The type an operand has whatever the item, or null when it depends on the item (or is undefined). */
    private String staticType(Operand operand) {
        return switch (operand) {
            case Operand.Literal literal -> source.defined(literal) ? literal.value().type() : null;
            case Operand.Size ignored -> "N";
            case Operand.Arithmetic ignored -> "N";
            case Operand.ListAppend ignored -> "L";
            default -> null;
        };
    }
}

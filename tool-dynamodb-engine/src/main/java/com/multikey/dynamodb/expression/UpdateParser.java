package com.multikey.dynamodb.expression;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Parses an update expression (AWS "Using update expressions in DynamoDB"): clauses SET, REMOVE, ADD and
 * DELETE in any order, each at most once, each a comma-separated list of actions.
 */
final class UpdateParser {

    private static final Set<String> CLAUSES = Set.of("SET", "REMOVE", "ADD", "DELETE");
    /** ADD takes numbers and sets; DELETE takes sets (AWS "Update expressions", ADD and DELETE). */
    private static final Set<String> ADD_TYPES = Set.of("N", "SS", "NS", "BS");
    private static final Set<String> DELETE_TYPES = Set.of("SS", "NS", "BS");

    private final Source source;
    private final OperandParser parser;

    UpdateParser(Source source) {
        this.source = source;
        this.parser = new OperandParser(source, true);
    }

    List<UpdateAction> parse() {
        List<UpdateAction> actions = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        do {
            Token t = source.next();
            String clause = t.text().toUpperCase(Locale.ROOT);
            if (t.kind() != Token.Kind.WORD || !CLAUSES.contains(clause)) {
                throw source.syntax(t);
            }
            if (!seen.add(clause)) {
                source.fail(Source.Stage.SECTIONS, "The \"" + clause + "\" section can only be used once in an update expression;");
            }
            do {
                actions.add(action(clause));
            } while (source.accept(Token.Kind.COMMA));
        } while (source.peek().kind() != Token.Kind.EOF);
        source.expectEnd();
        Overlaps.check(source, actions.stream().map(UpdateAction::path).toList());
        return actions;
    }

    private UpdateAction action(String clause) {
        Path path = parser.path();
        return switch (clause) {
            case "SET" -> {
                source.expect(Token.Kind.EQ);
                yield new UpdateAction.Set(path, setValue());
            }
            case "REMOVE" -> new UpdateAction.Remove(path);
            case "ADD" -> new UpdateAction.Add(path, literal("ADD", ADD_TYPES, "ALLOWED_FOR_ADD_OPERAND"));
            case "DELETE" -> new UpdateAction.Delete(path, literal("DELETE", DELETE_TYPES, "ALLOWED_FOR_DELETE_OPERAND"));
            default -> throw new IllegalStateException(clause);
        };
    }

    /**
     * SET's right-hand side: an operand, or two joined by + or - (numbers only); any of them may be written in
     * parentheses ({@code SET c = (c - :v)} is DynamoDB's own documented form).
     */
    private Operand setValue() {
        Operand left = setOperand();
        boolean plus = source.peek().kind() == Token.Kind.PLUS;
        if (plus || source.peek().kind() == Token.Kind.MINUS) {
            source.next();
            source.countOperator();
            Operand right = setOperand();
            String operator = plus ? "+" : "-";
            parser.requireType(left, operator, Set.of("N"));
            parser.requireType(right, operator, Set.of("N"));
            return new Operand.Arithmetic(left, plus, right);
        }
        return left;
    }

    private Operand setOperand() {
        if (source.accept(Token.Kind.LPAREN)) {
            Operand inner = setValue();
            source.expect(Token.Kind.RPAREN);
            return inner;
        }
        return parser.operand();
    }

    /** ADD's and DELETE's operand: an expression attribute value of an allowed type. */
    private Operand.Literal literal(String clause, Set<String> types, String typeSet) {
        Token t = source.peek();
        if (t.kind() != Token.Kind.VALUE_REF) {
            throw source.syntax(t);
        }
        Operand.Literal literal = (Operand.Literal) parser.operand();
        if (source.defined(literal) && !types.contains(literal.value().type())) {
            source.fail("Incorrect operand type for operator or function; operator: " + clause
                    + ", operand type: " + longTypeName(literal.value().type()) + ", typeSet: " + typeSet);
        }
        return literal;
    }

    /** The type names DynamoDB's ADD/DELETE messages use. */
    private static String longTypeName(String type) {
        return switch (type) {
            case "S" -> "STRING";
            case "N" -> "NUMBER";
            case "B" -> "BINARY";
            case "BOOL" -> "BOOLEAN";
            case "NULL" -> "NULL";
            case "L" -> "LIST";
            case "M" -> "MAP";
            case "SS" -> "STRING_SET";
            case "NS" -> "NUMBER_SET";
            default -> "BINARY_SET";
        };
    }
}

package com.multikey.dynamodb.expression;

import com.multikey.dynamodb.value.Numbers;
import com.multikey.dynamodb.value.Value;
import com.multikey.dynamodb.value.Values;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static com.multikey.dynamodb.expression.OperandParser.CONDITION_FUNCTIONS;
import static com.multikey.dynamodb.expression.OperandParser.PLACEHOLDER;
import static com.multikey.dynamodb.expression.OperandParser.PLACEHOLDER_PATH;

/**
 * Recursive descent over DynamoDB's conditions (AWS "Comparison operator and function reference"): OR below
 * AND below NOT below the comparisons, BETWEEN, IN, the condition functions and parentheses. Checks what
 * DynamoDB checks while parsing: literal operand types, distinct operands, BETWEEN's literal bounds, IN's 100
 * operands, functions out of place.
 */
final class ConditionParser {

    /** AWS "Comparison operator and function reference": IN takes up to 100 values. */
    static final int MAX_IN_OPERANDS = 100;
    private static final Set<String> TYPE_NAMES = Set.of("S", "SS", "N", "NS", "B", "BS", "BOOL", "NULL", "L", "M");

    private final Source source;
    private final OperandParser operands;

    ConditionParser(Source source) {
        this.source = source;
        this.operands = new OperandParser(source, false);
    }


    Condition condition() {
        return (Condition) content(false);
    }

    /**
     * What a pair of parentheses (or the whole expression) holds: a condition, or, when {@code allowBare}, an
     * operand standing alone, as in "(a) BETWEEN (:lo) AND (:hi)" (DynamoDB's grammar parenthesizes operands too).
     */
    private Object content(boolean allowBare) {
        Object first = unary(allowBare);
        if (first instanceof Operand) {
            return first;
        }
        Condition left = andRest((Condition) first);
        while (source.acceptWord("OR")) {
            source.countOperator();
            left = new Condition.Or(left, and());
        }
        return left;
    }

    private Condition and() {
        return andRest(not());
    }

    private Condition andRest(Condition first) {
        Condition left = first;
        while (source.acceptWord("AND")) {
            source.countOperator();
            left = new Condition.And(left, not());
        }
        return left;
    }

    private Condition not() {
        return (Condition) unary(false);
    }

    private Object unary(boolean allowBare) {
        if (source.acceptWord("NOT")) {
            source.countOperator();
            return new Condition.Not(not());
        }
        return primary(allowBare);
    }

    private Object primary(boolean allowBare) {
        if (source.accept(Token.Kind.LPAREN)) {
            Object inner = content(true);
            source.expect(Token.Kind.RPAREN);
            if (inner instanceof Condition condition) {
                return condition;
            }
            return bareOrComparison((Operand) inner, allowBare);
        }
        Token t = source.peek();
        if (t.kind() == Token.Kind.WORD && source.peek(1).kind() == Token.Kind.LPAREN
                && CONDITION_FUNCTIONS.contains(t.text())) {
            Condition function = functionCondition();
            if (startsComparison(source.peek())) {
                // "attribute_exists(a) > :b": a condition function where an operand belongs
                source.fail(Source.Stage.PARSE, "The function is not allowed to be used this way in an expression; function: " + t.text());
                return comparison(PLACEHOLDER);
            }
            return function;
        }
        return bareOrComparison(operands.operand(), allowBare);
    }

    private Object bareOrComparison(Operand operand, boolean allowBare) {
        if (allowBare && source.peek().kind() == Token.Kind.RPAREN) {
            return operand;
        }
        return comparison(operand);
    }

    private boolean startsComparison(Token t) {
        return comparator(t) != null || t.isWord("BETWEEN") || t.isWord("IN");
    }

    /** The rest of a comparison, BETWEEN or IN after its first operand. */
    private Condition comparison(Operand left) {
        Token op = source.peek();
        Condition.Comparator comparator = comparator(op);
        if (comparator != null) {
            source.next();
            source.countOperator();
            Operand right = operands.operand();
            if (comparator != Condition.Comparator.EQ && comparator != Condition.Comparator.NE) {
                requireKeyType(left, comparator.symbol);
                requireKeyType(right, comparator.symbol);
            }
            distinct(comparator.symbol, left, List.of(right));
            return new Condition.Compare(comparator, left, right);
        }
        if (source.acceptWord("BETWEEN")) {
            source.countOperator();
            Operand low = operands.operand();
            if (!source.acceptWord("AND")) {
                throw source.syntax(source.peek());
            }
            Operand high = operands.operand();
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
                candidates.add(operands.operand());
            } while (source.accept(Token.Kind.COMMA));
            source.expect(Token.Kind.RPAREN);
            if (candidates.size() > MAX_IN_OPERANDS) {
                source.fail("The IN operator is provided with too many operands; number of operands: " + candidates.size());
            }
            distinct("IN", left, candidates);
            return new Condition.In(left, candidates);
        }
        if (left instanceof Operand.Size) {
            source.fail(Source.Stage.PARSE, "The function is not allowed to be used this way in an expression; function: size");
            return new Condition.AttributeExists(PLACEHOLDER_PATH); // the parse goes on to find any syntax error
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
            case "attribute_exists" -> new Condition.AttributeExists(operands.pathOf(operands.arguments(name, 1).get(0), name));
            case "attribute_not_exists" -> new Condition.AttributeNotExists(operands.pathOf(operands.arguments(name, 1).get(0), name));
            case "attribute_type" -> {
                List<Operand> args = operands.arguments(name, 2);
                Path path = operands.pathOf(args.get(0), name);
                distinct(name, args.get(0), List.of(args.get(1)));
                operands.requireType(args.get(1), name, Set.of("S"));
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
                List<Operand> args = operands.arguments(name, 2);
                operands.requireType(args.get(0), name, Set.of("S", "B"));
                operands.requireType(args.get(1), name, Set.of("S", "B"));
                distinct(name, args.get(0), List.of(args.get(1)));
                yield new Condition.BeginsWith(args.get(0), args.get(1));
            }
            case "contains" -> {
                List<Operand> args = operands.arguments(name, 2);
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
        operands.requireType(operand, operator, Set.of("S", "N", "B"));
    }

    /**
     * DynamoDB refuses an operator whose first operand, a path, is repeated among the others ({@code a = #a}
     * with #a standing for a); a value may be repeated ({@code :a > :a} is accepted).
     */
    private void distinct(String operator, Operand first, List<Operand> others) {
        if (first instanceof Operand.PathOperand && others.contains(first)) {
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

    /** BETWEEN's literal bounds must be of one type, and not reversed. */
    private void checkBounds(Operand low, Operand high) {
        if (!(low instanceof Operand.Literal l && high instanceof Operand.Literal h) || !source.defined(l) || !source.defined(h)) {
            return;
        }
        String operands = "lower bound operand: AttributeValue: " + shortForm(l.value())
                + ", upper bound operand: AttributeValue: " + shortForm(h.value());
        if (!l.value().type().equals(h.value().type())) {
            source.fail("The BETWEEN operator requires same data type for lower and upper bounds; " + operands);
        } else if (Values.comparable(l.value(), h.value()) && Values.compareKeys(l.value(), h.value()) > 0) {
            source.fail("The BETWEEN operator requires upper bound to be greater than or equal to lower bound; " + operands);
        }
    }

    /** A value as DynamoDB's messages show it: {@code {N:5}}, {@code {S:abc}}. */
    static String shortForm(Value value) {
        return switch (value) {
            case Value.S s -> "{S:" + s.value() + "}";
            case Value.N n -> "{N:" + Numbers.format(n.value()) + "}";
            case Value.B b -> "{B:" + b.value() + "}";
            default -> "{" + value.type() + ":" + value + "}";
        };
    }
}

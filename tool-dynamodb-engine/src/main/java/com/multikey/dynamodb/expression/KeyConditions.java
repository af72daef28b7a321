package com.multikey.dynamodb.expression;

import com.multikey.dynamodb.EngineException;
import com.multikey.dynamodb.value.Value;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Reads a parsed KeyConditionExpression as DynamoDB allows it (AWS "Query operations in DynamoDB", Key
 * condition expressions): {@code pk = :v}, optionally AND one condition on the sort key (=, <, <=, >, >=,
 * BETWEEN, begins_with), in either order.
 */
final class KeyConditions {

    private KeyConditions() {
    }

    static KeyCondition read(Source source, Condition condition, String partitionKey, String sortKey) {
        List<Condition> parts = new ArrayList<>();
        flatten(source, condition, parts);
        List<String> attributes = parts.stream().map(KeyConditions::attribute).toList();
        if (attributes.stream().distinct().count() < attributes.size()) {
            throw source.invalid("KeyConditionExpressions must only contain one condition per key");
        }
        int keys = sortKey == null ? 1 : 2;
        if (parts.size() > keys) {
            throw EngineException.validation("The number of query conditions (" + parts.size()
                    + ") exceeds the number of key attributes defined in the schema (" + keys + ")");
        }
        Value partition = null;
        SortCondition sort = null;
        for (int i = 0; i < parts.size(); i++) {
            Condition part = parts.get(i);
            String attribute = attributes.get(i);
            if (attribute.equals(partitionKey)) {
                if (!(part instanceof Condition.Compare c) || c.comparator() != Condition.Comparator.EQ) {
                    throw EngineException.validation("Query key condition not supported");
                }
                partition = literal(c.left()) != null ? literal(c.left()) : literal(c.right());
            } else if (attribute.equals(sortKey)) {
                sort = sortCondition(part);
            } else {
                // A condition on another attribute: DynamoDB names the key element it expected instead.
                throw EngineException.validation("Query condition missed key schema element: "
                        + (sortKey == null || !attributes.contains(partitionKey) ? partitionKey : sortKey));
            }
        }
        if (partition == null) {
            throw EngineException.validation("Query condition missed key schema element: " + partitionKey);
        }
        return new KeyCondition(partition, Optional.ofNullable(sort), source.usedNames(), source.usedValues());
    }

    /**
     * The checks DynamoDB makes of a key condition before it looks up the table, so without its key schema, in its
     * order: each condition, depth first, for an operator a key condition cannot use, BETWEEN or begins_with without
     * the attribute first, then its operands left to right (two attribute names, a nested attribute, a function
     * such as size), no attribute at all, a second condition on one attribute; then 1 or 2 conditions in all.
     */
    static void checkShape(Source source, Condition condition) {
        Set<String> attributes = new HashSet<>();
        checkShape(source, condition, attributes);
        if (attributes.size() > 2) {
            throw EngineException.validation("Conditions can be of length 1 or 2 only");
        }
    }

    private static void checkShape(Source source, Condition condition, Set<String> attributes) {
        List<Operand> operands = switch (condition) {
            case Condition.And and -> {
                checkShape(source, and.left(), attributes);
                checkShape(source, and.right(), attributes);
                yield null;
            }
            case Condition.Or ignored -> throw invalidOperator("OR");
            case Condition.Not ignored -> throw invalidOperator("NOT");
            case Condition.In ignored -> throw invalidOperator("IN");
            case Condition.AttributeExists ignored -> throw invalidOperator("attribute_exists");
            case Condition.AttributeNotExists ignored -> throw invalidOperator("attribute_not_exists");
            case Condition.AttributeType ignored -> throw invalidOperator("attribute_type");
            case Condition.Contains ignored -> throw invalidOperator("contains");
            case Condition.Compare c when c.comparator() == Condition.Comparator.NE -> throw invalidOperator("<>");
            case Condition.Compare c -> List.of(c.left(), c.right());
            case Condition.Between b -> {
                requireAttributeFirst(b.operand(), "BETWEEN");
                yield List.of(b.operand(), b.low(), b.high());
            }
            case Condition.BeginsWith b -> {
                requireAttributeFirst(b.operand(), "begins_with");
                yield List.of(b.operand(), b.prefix());
            }
        };
        if (operands == null) {
            return;
        }
        String attribute = null;
        for (Operand operand : operands) {
            switch (operand) {
                case Operand.PathOperand p -> {
                    if (attribute != null) {
                        throw EngineException.validation("Invalid condition in KeyConditionExpression: Multiple attribute names used in one condition");
                    }
                    if (p.path().size() != 1) {
                        throw source.invalid("KeyConditionExpressions cannot have conditions on nested attributes");
                    }
                    attribute = p.path().first();
                }
                case Operand.Literal ignored -> {
                }
                default -> throw source.invalid("KeyConditionExpressions cannot contain nested operations");
            }
        }
        if (attribute == null) {
            throw EngineException.validation("Invalid condition in KeyConditionExpression: No key attribute specified");
        }
        if (!attributes.add(attribute)) {
            throw source.invalid("KeyConditionExpressions must only contain one condition per key");
        }
    }

    private static void requireAttributeFirst(Operand operand, String operator) {
        if (!(operand instanceof Operand.PathOperand)) {
            throw EngineException.validation("Invalid condition in KeyConditionExpression: " + operator
                    + " operator must have the key attribute as its first operand");
        }
    }

    /** The conditions joined by AND; any other logical operator is refused. */
    private static void flatten(Source source, Condition condition, List<Condition> parts) {
        switch (condition) {
            case Condition.And and -> {
                flatten(source, and.left(), parts);
                flatten(source, and.right(), parts);
            }
            case Condition.Or ignored -> throw invalidOperator("OR");
            case Condition.Not ignored -> throw invalidOperator("NOT");
            case Condition.In ignored -> throw invalidOperator("IN");
            case Condition.Compare c when c.comparator() == Condition.Comparator.NE ->
                    throw invalidOperator("<>");
            case Condition.AttributeExists ignored -> throw invalidOperator("attribute_exists");
            case Condition.AttributeNotExists ignored -> throw invalidOperator("attribute_not_exists");
            case Condition.AttributeType ignored -> throw invalidOperator("attribute_type");
            case Condition.Contains ignored -> throw invalidOperator("contains");
            default -> parts.add(condition);
        }
    }

    /** DynamoDB words this one without the "Invalid KeyConditionExpression: " prefix. */
    private static EngineException invalidOperator(String operator) {
        return EngineException.validation("Invalid operator used in KeyConditionExpression: " + operator);
    }

    /** The key attribute a part is on: a top-level name compared with values only. */
    private static String attribute(Condition part) {
        List<Operand> operands = switch (part) {
            case Condition.Compare c -> List.of(c.left(), c.right());
            case Condition.Between b -> List.of(b.operand(), b.low(), b.high());
            case Condition.BeginsWith b -> List.of(b.operand(), b.prefix());
            default -> throw new IllegalStateException(part.toString());
        };
        List<Path> paths = operands.stream()
                .filter(o -> !(o instanceof Operand.Literal))
                .map(o -> o instanceof Operand.PathOperand p ? p.path() : null)
                .toList();
        if (paths.size() != 1 || paths.get(0) == null) {
            throw EngineException.validation("Query key condition not supported");
        }
        if (paths.get(0).size() != 1) {
            throw EngineException.validation("Invalid KeyConditionExpression: KeyConditionExpressions cannot have conditions on nested attributes");
        }
        boolean pathFirst = operands.get(0) instanceof Operand.PathOperand;
        if (!pathFirst && !(part instanceof Condition.Compare)) {
            throw EngineException.validation("Query key condition not supported");
        }
        return paths.get(0).first();
    }

    private static Value literal(Operand operand) {
        return operand instanceof Operand.Literal l ? l.value() : null;
    }

    private static SortCondition sortCondition(Condition part) {
        return switch (part) {
            case Condition.Compare c -> {
                boolean pathFirst = c.left() instanceof Operand.PathOperand;
                Value v = pathFirst ? literal(c.right()) : literal(c.left());
                // ":v < sk" reads as "sk > :v".
                Condition.Comparator op = pathFirst ? c.comparator() : mirrored(c.comparator());
                yield switch (op) {
                    case EQ -> new SortCondition.Equal(v);
                    case LT -> new SortCondition.LessThan(v);
                    case LE -> new SortCondition.LessOrEqual(v);
                    case GT -> new SortCondition.GreaterThan(v);
                    case GE -> new SortCondition.GreaterOrEqual(v);
                    case NE -> throw new IllegalStateException();
                };
            }
            case Condition.Between b -> new SortCondition.Between(literal(b.low()), literal(b.high()));
            case Condition.BeginsWith b -> new SortCondition.BeginsWith(literal(b.prefix()));
            default -> throw new IllegalStateException(part.toString());
        };
    }

    private static Condition.Comparator mirrored(Condition.Comparator c) {
        return switch (c) {
            case LT -> Condition.Comparator.GT;
            case LE -> Condition.Comparator.GE;
            case GT -> Condition.Comparator.LT;
            case GE -> Condition.Comparator.LE;
            default -> c;
        };
    }
}

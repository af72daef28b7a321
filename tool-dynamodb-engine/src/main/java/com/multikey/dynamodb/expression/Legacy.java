package com.multikey.dynamodb.expression;

import com.multikey.dynamodb.EngineException;
import com.multikey.dynamodb.value.Value;
import com.multikey.dynamodb.value.Values;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * DynamoDB's legacy conditional parameters (AWS "Legacy DynamoDB conditional parameters") translated to the
 * expression model, so that they are evaluated by the same code as the expressions: a QueryFilter, ScanFilter or
 * Expected becomes a condition on top-level attributes joined by AND (or OR, ConditionalOperator), AttributesToGet a
 * projection of top-level attributes, KeyConditions a key condition. The checks and messages are those of
 * "Writing conditions with legacy parameters": each operator's argument count and argument types.
 */
public final class Legacy {

    /** The operators, in the order DynamoDB lists them in its enum constraint message. */
    public enum ComparisonOperator {
        IN, NULL, BETWEEN, LT, NOT_CONTAINS, EQ, GT, NOT_NULL, NE, LE, BEGINS_WITH, GE, CONTAINS
    }

    /** One attribute's condition: {@code attribute OPERATOR values}. */
    public record Comparison(String attribute, ComparisonOperator operator, List<Value> values) {
        public Comparison {
            values = List.copyOf(values);
        }
    }

    private static final String INVALID = "One or more parameter values were invalid: ";
    private static final Set<String> SCALARS = Set.of("S", "N", "B");
    private static final Set<String> SCALARS_AND_SETS = Set.of("S", "N", "B", "SS", "NS", "BS");

    private Legacy() {
    }

    /**
     * Checks an operator's arguments as DynamoDB does: NULL and NOT_NULL take none, IN one or more, BETWEEN two,
     * the others one; all of one type, a type the operator accepts (EQ and NE: S, N, B or a set of them; BEGINS_WITH:
     * S or B; the others: S, N or B); BETWEEN's lower bound not above its upper bound.
     */
    public static void check(ComparisonOperator operator, List<Value> values) {
        int count = values.size();
        boolean countOk = switch (operator) {
            case NULL, NOT_NULL -> count == 0;
            case IN -> count >= 1;
            case BETWEEN -> count == 2;
            case EQ, NE, LE, LT, GE, GT, CONTAINS, NOT_CONTAINS, BEGINS_WITH -> count == 1;
        };
        if (!countOk) {
            throw EngineException.validation(INVALID + "Invalid number of argument(s) for the " + operator + " ComparisonOperator");
        }
        if (count == 0) {
            return;
        }
        String type = values.get(0).type();
        if (values.stream().anyMatch(v -> !v.type().equals(type))) {
            throw EngineException.validation(INVALID + "AttributeValues inside AttributeValueList must be of same type");
        }
        Set<String> allowed = switch (operator) {
            case EQ, NE -> SCALARS_AND_SETS;
            case BEGINS_WITH -> Set.of("S", "B");
            case NULL, NOT_NULL -> Set.of();
            case IN, BETWEEN, LE, LT, GE, GT, CONTAINS, NOT_CONTAINS -> SCALARS;
        };
        if (!allowed.contains(type)) {
            throw EngineException.validation(INVALID + "ComparisonOperator " + operator + " is not valid for " + type + " AttributeValue type");
        }
        if (operator == ComparisonOperator.BETWEEN && Values.compareKeys(values.get(0), values.get(1)) > 0) {
            throw EngineException.validation("The BETWEEN condition was provided a range where the lower bound is greater than the upper bound");
        }
    }

    /**
     * The comparisons joined by AND, or by OR when {@code or}; nothing to compare is a condition every item
     * satisfies. Each comparison is on a top-level attribute, as the expression with the same meaning would be
     * ({@code a = :v}, {@code attribute_exists(a)}, {@code NOT contains(a, :v)}, {@code a BETWEEN :l AND :h}...).
     */
    public static ConditionExpression conditions(List<Comparison> comparisons, boolean or) {
        Condition joined = null;
        Set<String> attributes = new LinkedHashSet<>();
        for (Comparison comparison : comparisons) {
            Condition condition = condition(comparison);
            attributes.add(comparison.attribute());
            joined = joined == null ? condition : or ? new Condition.Or(joined, condition) : new Condition.And(joined, condition);
        }
        if (joined == null) {
            return new Always();
        }
        return new ParsedCondition(joined, Set.of(), Set.of(), Set.of(), Set.copyOf(attributes));
    }

    private static Condition condition(Comparison comparison) {
        Path path = new Path(List.of(new Path.Name(comparison.attribute())));
        Operand attribute = new Operand.PathOperand(path);
        List<Operand> values = new ArrayList<>();
        for (int i = 0; i < comparison.values().size(); i++) {
            values.add(new Operand.Literal("AttributeValueList[" + i + "]", comparison.values().get(i)));
        }
        return switch (comparison.operator()) {
            case EQ -> new Condition.Compare(Condition.Comparator.EQ, attribute, values.get(0));
            case NE -> new Condition.Compare(Condition.Comparator.NE, attribute, values.get(0));
            case LT -> new Condition.Compare(Condition.Comparator.LT, attribute, values.get(0));
            case LE -> new Condition.Compare(Condition.Comparator.LE, attribute, values.get(0));
            case GT -> new Condition.Compare(Condition.Comparator.GT, attribute, values.get(0));
            case GE -> new Condition.Compare(Condition.Comparator.GE, attribute, values.get(0));
            case NOT_NULL -> new Condition.AttributeExists(path);
            case NULL -> new Condition.AttributeNotExists(path);
            case CONTAINS -> new Condition.Contains(attribute, values.get(0));
            case NOT_CONTAINS -> new Condition.Not(new Condition.Contains(attribute, values.get(0)));
            case BEGINS_WITH -> new Condition.BeginsWith(attribute, values.get(0));
            case IN -> new Condition.In(attribute, values);
            case BETWEEN -> new Condition.Between(attribute, values.get(0), values.get(1));
        };
    }

    /** The condition of an empty QueryFilter, ScanFilter or Expected: every item (and no item) satisfies it. */
    private record Always() implements ConditionExpression {
        @Override
        public boolean test(Map<String, Value> item) {
            return true;
        }

        @Override
        public Set<String> usedNames() {
            return Set.of();
        }

        @Override
        public Set<String> usedValues() {
            return Set.of();
        }
    }

    /** AttributesToGet: these top-level attributes of an item (duplicates are the caller's to refuse). */
    public static ProjectionExpression attributesToGet(List<String> names) {
        List<Path> paths = names.stream().map(name -> new Path(List.of(new Path.Name(name)))).toList();
        return new ParsedProjection(paths, Set.of(), Set.of(), Set.of(), Set.copyOf(names));
    }

    /**
     * KeyConditions read against the key schema of the table or index queried ({@code sortKey} null when it has
     * none), with DynamoDB's checks in its order, key attribute by key attribute (partition key first): a condition
     * on every key attribute the schema needs, an indexable operator (not NULL, NOT_NULL, NE, CONTAINS,
     * NOT_CONTAINS, IN), values of the key's type, equality on the partition key.
     */
    public static KeyCondition keyConditions(Map<String, Comparison> conditions, String partitionKey, String partitionType,
                                             String sortKey, String sortType) {
        Value partition = null;
        Optional<SortCondition> sort = Optional.empty();
        for (int i = 0; i < (sortKey == null ? 1 : 2); i++) {
            boolean isPartition = i == 0;
            String name = isPartition ? partitionKey : sortKey;
            String type = isPartition ? partitionType : sortType;
            if (isPartition && sortKey == null && conditions.size() > 1) {
                throw EngineException.validation("Query key condition not supported");
            }
            Comparison comparison = conditions.get(name);
            if (comparison == null) {
                if (isPartition || conditions.size() > 1) {
                    throw EngineException.validation("Query condition missed key schema element: " + name);
                }
                continue;
            }
            switch (comparison.operator()) {
                case NULL, NOT_NULL, NE, CONTAINS, NOT_CONTAINS, IN ->
                        throw EngineException.validation("Attempted conditional constraint is not an indexable operation");
                default -> {
                }
            }
            if (comparison.values().stream().anyMatch(v -> !v.type().equals(type))) {
                throw EngineException.validation(INVALID + "Condition parameter type does not match schema type");
            }
            if (isPartition && comparison.operator() != ComparisonOperator.EQ) {
                throw EngineException.validation("Query key condition not supported");
            }
            if (isPartition) {
                partition = comparison.values().get(0);
            } else {
                sort = Optional.of(sortCondition(comparison));
            }
        }
        return new KeyCondition(partition, sort, Set.of(), Set.of());
    }

    private static SortCondition sortCondition(Comparison comparison) {
        List<Value> values = comparison.values();
        return switch (comparison.operator()) {
            case EQ -> new SortCondition.Equal(values.get(0));
            case LT -> new SortCondition.LessThan(values.get(0));
            case LE -> new SortCondition.LessOrEqual(values.get(0));
            case GT -> new SortCondition.GreaterThan(values.get(0));
            case GE -> new SortCondition.GreaterOrEqual(values.get(0));
            case BETWEEN -> new SortCondition.Between(values.get(0), values.get(1));
            case BEGINS_WITH -> new SortCondition.BeginsWith(values.get(0));
            case NULL, NOT_NULL, NE, CONTAINS, NOT_CONTAINS, IN -> throw new IllegalStateException(comparison.toString());
        };
    }
}

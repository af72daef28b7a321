package com.multikey.dynamodb.partiql;

import com.multikey.dynamodb.EngineException;
import com.multikey.dynamodb.value.Bytes;
import com.multikey.dynamodb.value.Value;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A statement's parts in DynamoDB's expression language, so that PartiQL is evaluated by the same evaluator as the
 * JSON operations' expressions: every attribute name becomes a {@code #n} placeholder and every value (a literal, a
 * parameter, a tuple...) a {@code :v} placeholder, collected in {@link #names()} and {@link #values()}.
 */
public final class Translation {

    /** The deepest nesting level of a value: 32 (AWS "Service, account, and table quotas", Attributes). */
    private static final int MAX_NESTING = 32;

    private final List<Value> parameters;
    private final Map<String, String> names = new LinkedHashMap<>();
    private final Map<String, Value> values = new LinkedHashMap<>();

    public Translation(List<Value> parameters) {
        this.parameters = List.copyOf(parameters);
    }

    public Map<String, String> names() {
        return names;
    }

    public Map<String, Value> values() {
        return values;
    }

    /** A WHERE clause (or a part of it) as a condition expression. */
    public String condition(Expr expr) {
        return switch (expr) {
            case Expr.And and -> "(" + condition(and.left()) + ") AND (" + condition(and.right()) + ")";
            case Expr.Or or -> "(" + condition(or.left()) + ") OR (" + condition(or.right()) + ")";
            case Expr.Not not -> "NOT (" + condition(not.operand()) + ")";
            case Expr.Comparison c -> operand(c.left()) + " " + c.operator() + " " + operand(c.right());
            case Expr.Between b -> operand(b.operand()) + " BETWEEN " + operand(b.low()) + " AND " + operand(b.high());
            case Expr.In in -> {
                List<String> candidates = new ArrayList<>();
                in.candidates().forEach(candidate -> candidates.add(operand(candidate)));
                yield operand(in.operand()) + " IN (" + String.join(", ", candidates) + ")";
            }
            case Expr.Is is -> {
                String path = path(requirePath(is.operand(), "IS"));
                String test = is.missing() ? "attribute_not_exists(" + path + ")" : "attribute_type(" + path + ", " + value(new Value.S("NULL")) + ")";
                yield is.negated() ? "NOT " + test : test;
            }
            case Expr.Call call -> switch (call.name()) {
                case "begins_with", "contains", "attribute_type" -> call.name() + "(" + arguments(call, 2) + ")";
                case "exists", "attribute_exists" -> "attribute_exists(" + arguments(call, 1) + ")";
                case "missing", "attribute_not_exists" -> "attribute_not_exists(" + arguments(call, 1) + ")";
                default -> throw unsupported("function " + call.name() + " as a condition");
            };
            case Expr.Path path -> throw unsupported("a path alone as a condition");
            case Expr.Literal literal -> throw unsupported("a value alone as a condition");
            case Expr.Parameter parameter -> throw unsupported("a value alone as a condition");
            case Expr.Tuple tuple -> throw unsupported("a tuple as a condition");
            case Expr.ListOf list -> throw unsupported("a list as a condition");
            case Expr.Bag bag -> throw unsupported("a set as a condition");
            case Expr.Arithmetic arithmetic -> throw unsupported("arithmetic as a condition");
        };
    }

    /** An UPDATE's SET and REMOVE clauses as an update expression. */
    public String update(List<Statement.Clause> clauses) {
        List<String> set = new ArrayList<>();
        List<String> add = new ArrayList<>();
        List<String> delete = new ArrayList<>();
        List<String> remove = new ArrayList<>();
        for (Statement.Clause clause : clauses) {
            switch (clause) {
                case Statement.Clause.Remove r -> remove.add(path(r.path()));
                case Statement.Clause.Set s -> {
                    if (s.value() instanceof Expr.Call call && (call.name().equals("set_add") || call.name().equals("set_delete"))) {
                        if (call.arguments().size() != 2) {
                            throw unsupported(call.name() + " with " + call.arguments().size() + " arguments");
                        }
                        (call.name().equals("set_add") ? add : delete).add(path(s.path()) + " " + value(constant(call.arguments().get(1))));
                    } else {
                        set.add(path(s.path()) + " = " + setValue(s.value()));
                    }
                }
            }
        }
        StringBuilder text = new StringBuilder();
        appendSection(text, "SET", set);
        appendSection(text, "ADD", add);
        appendSection(text, "DELETE", delete);
        appendSection(text, "REMOVE", remove);
        return text.toString();
    }

    /** A SELECT's projection list as a projection expression. */
    public String projection(List<Expr.Path> paths) {
        List<String> texts = new ArrayList<>();
        paths.forEach(p -> texts.add(path(p)));
        return String.join(", ", texts);
    }

    /** An INSERT's VALUE as an item. */
    public Map<String, Value> item(Expr expr) {
        if (constant(expr) instanceof Value.M map) {
            return map.entries();
        }
        throw EngineException.validation("Unsupported operation: INSERT's VALUE must be a map of attributes");
    }

    /**
     * The value of a constant expression: a literal, a parameter, or a tuple, list or set of those; held to the rules
     * the JSON operations' values are held to (AWS's naming rules and data types): no empty attribute name, no value
     * twice in a set, at most 32 levels of nesting.
     */
    public Value constant(Expr expr) {
        Value value = build(expr);
        checkNesting(value, 1);
        return value;
    }

    private Value build(Expr expr) {
        return switch (expr) {
            case Expr.Literal literal -> literal.value();
            case Expr.Parameter parameter -> parameters.get(parameter.index());
            case Expr.Tuple tuple -> {
                Map<String, Value> entries = new LinkedHashMap<>();
                for (Expr.Entry entry : tuple.entries()) {
                    if (entry.key().isEmpty()) {
                        throw EngineException.validation("Empty attribute name");
                    }
                    if (entries.put(entry.key(), build(entry.value())) != null) {
                        throw EngineException.validation("Duplicate attribute name in a tuple: " + entry.key());
                    }
                }
                yield new Value.M(entries);
            }
            case Expr.ListOf list -> {
                List<Value> elements = new ArrayList<>();
                list.elements().forEach(e -> elements.add(build(e)));
                yield new Value.L(elements);
            }
            case Expr.Bag bag -> set(bag);
            default -> throw unsupported("an expression where a value is expected");
        };
    }

    /**
     * The attributes a WHERE clause sets equal to a value by its top-level conjuncts ({@code a = 1 AND b = 'x'}): the
     * key a statement names.
     */
    public Map<String, Value> equalities(Optional<Expr> where) {
        Map<String, Value> equalities = new LinkedHashMap<>();
        where.ifPresent(w -> collectEqualities(w, equalities));
        return equalities;
    }

    /** The WHERE clause without its top-level equalities on {@code attributes}; empty when nothing else is left. */
    public static Optional<Expr> without(Expr where, java.util.Set<String> attributes) {
        if (where instanceof Expr.And and) {
            Optional<Expr> left = without(and.left(), attributes);
            Optional<Expr> right = without(and.right(), attributes);
            if (left.isEmpty()) {
                return right;
            }
            return right.isEmpty() ? left : Optional.of(new Expr.And(left.get(), right.get()));
        }
        if (where instanceof Expr.Comparison c && c.operator().equals("=")) {
            if (c.left() instanceof Expr.Path p && p.topLevel() && attributes.contains(p.attribute()) && isConstant(c.right())
                    || c.right() instanceof Expr.Path q && q.topLevel() && attributes.contains(q.attribute()) && isConstant(c.left())) {
                return Optional.empty();
            }
        }
        return Optional.of(where);
    }

    private void collectEqualities(Expr expr, Map<String, Value> equalities) {
        if (expr instanceof Expr.And and) {
            collectEqualities(and.left(), equalities);
            collectEqualities(and.right(), equalities);
        } else if (expr instanceof Expr.Comparison c && c.operator().equals("=")) {
            if (c.left() instanceof Expr.Path p && p.topLevel() && isConstant(c.right())) {
                equalities.putIfAbsent(p.attribute(), constant(c.right()));
            } else if (c.right() instanceof Expr.Path p && p.topLevel() && isConstant(c.left())) {
                equalities.putIfAbsent(p.attribute(), constant(c.left()));
            }
        }
    }

    private static boolean isConstant(Expr expr) {
        return switch (expr) {
            case Expr.Literal l -> true;
            case Expr.Parameter p -> true;
            case Expr.Tuple t -> t.entries().stream().allMatch(e -> isConstant(e.value()));
            case Expr.ListOf l -> l.elements().stream().allMatch(Translation::isConstant);
            case Expr.Bag b -> b.elements().stream().allMatch(Translation::isConstant);
            default -> false;
        };
    }

    private String setValue(Expr expr) {
        return switch (expr) {
            case Expr.Arithmetic a -> operand(a.left()) + " " + a.operator() + " " + operand(a.right());
            case Expr.Call call -> switch (call.name()) {
                case "list_append", "if_not_exists" -> call.name() + "(" + arguments(call, 2) + ")";
                default -> throw unsupported("function " + call.name() + " in SET");
            };
            default -> operand(expr);
        };
    }

    private String operand(Expr expr) {
        return switch (expr) {
            case Expr.Path path -> path(path);
            case Expr.Call call when call.name().equals("size") -> "size(" + arguments(call, 1) + ")";
            case Expr.Call call -> throw unsupported("function " + call.name() + " as a value");
            default -> value(constant(expr));
        };
    }

    private String arguments(Expr.Call call, int count) {
        if (call.arguments().size() != count) {
            throw unsupported("function " + call.name() + " with " + call.arguments().size() + " arguments");
        }
        List<String> texts = new ArrayList<>();
        call.arguments().forEach(argument -> texts.add(operand(argument)));
        return String.join(", ", texts);
    }

    private String path(Expr.Path path) {
        StringBuilder text = new StringBuilder();
        for (Expr.Step step : path.steps()) {
            switch (step) {
                case Expr.Step.Name name -> {
                    if (!text.isEmpty()) {
                        text.append('.');
                    }
                    text.append(name(name.name()));
                }
                case Expr.Step.Index index -> text.append('[').append(index.index()).append(']');
            }
        }
        return text.toString();
    }

    /** The placeholder of a top-level attribute, for a condition the caller writes around the statement's own. */
    public String attribute(String name) {
        return name(name);
    }

    private String name(String attribute) {
        for (Map.Entry<String, String> entry : names.entrySet()) {
            if (entry.getValue().equals(attribute)) {
                return entry.getKey();
            }
        }
        String placeholder = "#n" + names.size();
        names.put(placeholder, attribute);
        return placeholder;
    }

    private String value(Value value) {
        String placeholder = ":v" + values.size();
        values.put(placeholder, value);
        return placeholder;
    }

    private static Expr.Path requirePath(Expr expr, String operator) {
        if (expr instanceof Expr.Path path) {
            return path;
        }
        throw unsupported(operator + " on something else than a path");
    }

    /** The deepest level a value nests to, as the JSON operations count it (an attribute is at level 1). */
    private static void checkNesting(Value value, int level) {
        if (level > MAX_NESTING) {
            throw EngineException.validation("Nesting Levels have exceeded supported limits: "
                    + "Attributes in the item have nested levels beyond supported limit");
        }
        switch (value) {
            case Value.L list -> list.values().forEach(v -> checkNesting(v, level + 1));
            case Value.M map -> map.entries().values().forEach(v -> checkNesting(v, level + 1));
            default -> {
            }
        }
    }

    private Value set(Expr.Bag bag) {
        List<Value> elements = new ArrayList<>();
        bag.elements().forEach(e -> elements.add(build(e)));
        if (elements.isEmpty()) {
            throw EngineException.validation("One or more parameter values were invalid: An empty set is not allowed");
        }
        if (new java.util.HashSet<>(elements).size() != elements.size()) {
            // numbers compare after normalization (Value.N): 1 and 1.0 are the same value
            throw EngineException.validation("One or more parameter values were invalid: Input collection contains duplicates");
        }
        if (elements.stream().allMatch(Value.S.class::isInstance)) {
            LinkedHashSet<String> strings = new LinkedHashSet<>();
            elements.forEach(e -> strings.add(((Value.S) e).value()));
            return new Value.SS(strings);
        }
        if (elements.stream().allMatch(Value.N.class::isInstance)) {
            LinkedHashSet<BigDecimal> numbers = new LinkedHashSet<>();
            elements.forEach(e -> numbers.add(((Value.N) e).value()));
            return new Value.NS(numbers);
        }
        if (elements.stream().allMatch(Value.B.class::isInstance)) {
            LinkedHashSet<Bytes> bytes = new LinkedHashSet<>();
            elements.forEach(e -> bytes.add(((Value.B) e).value()));
            return new Value.BS(bytes);
        }
        throw EngineException.validation("Unsupported operation: a set holds only strings, only numbers or only binaries");
    }

    private static void appendSection(StringBuilder text, String keyword, List<String> actions) {
        if (!actions.isEmpty()) {
            if (!text.isEmpty()) {
                text.append(' ');
            }
            text.append(keyword).append(' ').append(String.join(", ", actions));
        }
    }

    private static EngineException unsupported(String what) {
        return EngineException.validation("Unsupported operation: " + what + " is not supported");
    }
}

package com.multikey.emulator.template;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A template's {@code Conditions} and {@code Rules} evaluated as CloudFormation evaluates them when a stack is
 * created: over the parameters' values (their {@code Default}, which {@link SamTemplate#withParameterOverrides}
 * replaces) and the pseudo parameters' local values. Condition functions: {@code Fn::Equals}, {@code Fn::Not},
 * {@code Fn::And}, {@code Fn::Or}, {@code Condition}; values compared as strings: literals, {@code Ref} to a
 * parameter or pseudo parameter, {@code Fn::Sub} over those.
 */
final class TemplateConditions {

    private final SamTemplate template;
    private final Map<String, Boolean> values = new HashMap<>();
    private final Set<String> evaluating = new LinkedHashSet<>();

    private TemplateConditions(SamTemplate template) {
        this.template = template;
    }

    /** Every condition of the template by name, in template order. */
    static Map<String, Boolean> evaluate(SamTemplate template) {
        TemplateConditions conditions = new TemplateConditions(template);
        Map<String, Boolean> evaluated = new LinkedHashMap<>();
        for (String name : conditions.declared().keySet()) {
            evaluated.put(name, conditions.condition(name, "Conditions." + name));
        }
        return evaluated;
    }

    /**
     * Checks the template's {@code Rules}: each rule whose {@code RuleCondition} holds (or that has none) must have
     * every {@code Assert} true.
     *
     * @throws TemplateException naming the rule and its {@code AssertDescription} when an assertion fails
     */
    static void checkRules(SamTemplate template) {
        if (!(template.root().get("Rules") instanceof Map<?, ?> rules)) {
            return;
        }
        TemplateConditions conditions = new TemplateConditions(template);
        rules.forEach((name, value) -> {
            Map<String, Object> rule = SamTemplate.map(value, "Rules." + name);
            String where = "Rules." + name;
            if (rule.containsKey("RuleCondition") && !conditions.truth(rule.get("RuleCondition"), where + ".RuleCondition")) {
                return;
            }
            if (!(rule.get("Assertions") instanceof List<?> assertions)) {
                throw new TemplateException(where + ": a rule needs a list of Assertions");
            }
            for (Object assertion : assertions) {
                Map<String, Object> assertMap = SamTemplate.map(assertion, where + ".Assertions");
                if (!conditions.truth(assertMap.get("Assert"), where + ".Assert")) {
                    Object description = assertMap.get("AssertDescription");
                    throw new TemplateException("template rule " + name + " failed"
                            + (description == null ? "" : ": " + description));
                }
            }
        });
    }

    private Map<String, Object> declared() {
        Object conditions = template.root().get("Conditions");
        return conditions == null ? Map.of() : SamTemplate.map(conditions, "Conditions");
    }

    private boolean condition(String name, String where) {
        Boolean known = values.get(name);
        if (known != null) {
            return known;
        }
        if (!declared().containsKey(name)) {
            throw new TemplateException(where + ": the template has no condition " + name);
        }
        if (!evaluating.add(name)) {
            throw new TemplateException(where + ": conditions refer to each other in a cycle: " + String.join(" -> ", evaluating) + " -> " + name);
        }
        boolean value = truth(declared().get(name), "Conditions." + name);
        evaluating.remove(name);
        values.put(name, value);
        return value;
    }

    private boolean truth(Object expression, String where) {
        if (!(expression instanceof Map<?, ?> map) || map.size() != 1) {
            throw new TemplateException(where + ": a condition is one of Fn::Equals, Fn::Not, Fn::And, Fn::Or or Condition, not " + expression);
        }
        Map.Entry<?, ?> function = map.entrySet().iterator().next();
        Object argument = function.getValue();
        return switch (String.valueOf(function.getKey())) {
            case "Condition" -> condition(String.valueOf(argument), where);
            case "Fn::Equals" -> {
                List<?> operands = operands(argument, 2, 2, "Fn::Equals", where);
                yield value(operands.get(0), where).equals(value(operands.get(1), where));
            }
            case "Fn::Not" -> !truth(operands(argument, 1, 1, "Fn::Not", where).get(0), where);
            case "Fn::And" -> operands(argument, 2, 10, "Fn::And", where).stream().allMatch(c -> truth(c, where));
            case "Fn::Or" -> operands(argument, 2, 10, "Fn::Or", where).stream().anyMatch(c -> truth(c, where));
            default -> throw new TemplateException(where + ": " + function.getKey() + " is not evaluated locally (Fn::Equals, Fn::Not, "
                    + "Fn::And, Fn::Or, Condition are)");
        };
    }

    private static List<?> operands(Object argument, int min, int max, String function, String where) {
        if (!(argument instanceof List<?> list) || list.size() < min || list.size() > max) {
            throw new TemplateException(where + ": " + function + " takes a list of " + (min == max ? min : min + " to " + max) + " operands");
        }
        return list;
    }

    /** A value compared by {@code Fn::Equals}: a literal, a parameter's value or a pseudo parameter's, or a Sub over them. */
    private String value(Object operand, String where) {
        if (operand instanceof String || operand instanceof Number || operand instanceof Boolean) {
            return String.valueOf(operand);
        }
        if (operand instanceof Map<?, ?> map && map.size() == 1) {
            if (map.get("Ref") instanceof String ref) {
                return parameter(ref, where);
            }
            if (map.get("Fn::Sub") instanceof String text) {
                return TemplateEnvironment.substitute(text, variable -> parameter(variable, where));
            }
        }
        throw new TemplateException(where + ": cannot evaluate " + operand + " in a condition locally (a literal, Ref to a parameter or "
                + "pseudo parameter, or Fn::Sub over them)");
    }

    private String parameter(String name, String where) {
        if (TemplateEnvironment.PSEUDO_PARAMETERS.containsKey(name)) {
            return TemplateEnvironment.PSEUDO_PARAMETERS.get(name);
        }
        if (!(template.parameters().get(name) instanceof Map<?, ?> parameter)) {
            throw new TemplateException(where + ": Ref " + name + " names no parameter (a condition can only read parameters)");
        }
        if (!parameter.containsKey("Default")) {
            throw new TemplateException(where + ": parameter " + name + " has no value (no Default and no override)");
        }
        return String.valueOf(parameter.get("Default"));
    }
}

package com.multikey.emulator.template;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Parameter values given as {@code sam deploy --parameter-overrides} gives them, checked as CloudFormation checks them
 * against the parameter's {@code AllowedValues}, {@code MinValue}, {@code MaxValue} and {@code AllowedPattern}.
 */
final class ParameterOverrides {

    private ParameterOverrides() {
    }

    /**
     * {@code declaredParameters} (the template's {@code Parameters}) with each override as its parameter's {@code Default}.
     *
     * @throws TemplateException when a parameter does not exist or a value breaks its constraints
     */
    static Map<String, Object> apply(Map<String, Object> declaredParameters, Map<String, String> overrides) {
        Map<String, Object> parameters = new LinkedHashMap<>(declaredParameters);
        overrides.forEach((name, value) -> {
            if (!(parameters.get(name) instanceof Map<?, ?> declared)) {
                throw new TemplateException("parameter override " + name + ": the template has no such parameter");
            }
            if (declared.get("AllowedValues") instanceof List<?> allowed && allowed.stream().map(String::valueOf).noneMatch(value::equals)) {
                throw new TemplateException("parameter override " + name + "=" + value + ": not one of " + allowed);
            }
            if (declared.get("MinValue") instanceof Number || declared.get("MaxValue") instanceof Number) {
                double number;
                try {
                    number = Double.parseDouble(value);
                } catch (NumberFormatException e) {
                    throw new TemplateException("parameter override " + name + "=" + value + ": not a number");
                }
                if (declared.get("MinValue") instanceof Number min && number < min.doubleValue()
                        || declared.get("MaxValue") instanceof Number max && number > max.doubleValue()) {
                    throw new TemplateException("parameter override " + name + "=" + value + ": outside "
                            + declared.get("MinValue") + ".." + declared.get("MaxValue"));
                }
            }
            if (declared.get("AllowedPattern") instanceof String pattern && !value.matches(pattern)) {
                throw new TemplateException("parameter override " + name + "=" + value + ": does not match " + pattern);
            }
            Map<String, Object> changed = new LinkedHashMap<>();
            declared.forEach((k, v) -> changed.put((String) k, v));
            changed.put("Default", value);
            parameters.put(name, changed);
        });
        return parameters;
    }
}

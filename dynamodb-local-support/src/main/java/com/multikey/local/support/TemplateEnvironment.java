package com.multikey.local.support;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A function's environment variables as {@code template.yaml} sets them (Globals, then the function's
 * own), with {@code !Ref} to a table resolved to its local table name and to a parameter resolved to
 * its default.
 */
public final class TemplateEnvironment {

    private TemplateEnvironment() {
    }

    public static Map<String, String> of(SamTemplate template, String functionLogicalId, Map<String, String> localNames) {
        Map<String, String> env = new LinkedHashMap<>();
        Object globals = template.root().get("Globals");
        if (globals instanceof Map<?, ?> g && g.get("Function") instanceof Map<?, ?> function) {
            addVariables(env, function, template, localNames, "Globals.Function");
        }
        addVariables(env, template.properties(functionLogicalId), template, localNames, functionLogicalId);
        return env;
    }

    private static void addVariables(Map<String, String> env, Map<?, ?> functionProperties, SamTemplate template,
                                     Map<String, String> localNames, String where) {
        if (!(functionProperties.get("Environment") instanceof Map<?, ?> environment)
                || !(environment.get("Variables") instanceof Map<?, ?> variables)) {
            return;
        }
        variables.forEach((name, value) -> env.put((String) name, resolve(value, template, localNames, where + "." + name)));
    }

    /** A scalar, or {@code {Ref: X}} to a resource with a local name or to a parameter with a default. */
    public static String resolve(Object value, SamTemplate template, Map<String, String> localNames, String where) {
        if (value instanceof String || value instanceof Number || value instanceof Boolean) {
            return String.valueOf(value);
        }
        if (value instanceof Map<?, ?> map && map.size() == 1 && map.get("Ref") instanceof String ref) {
            if (localNames.containsKey(ref)) {
                return localNames.get(ref);
            }
            Object parameter = template.parameters().get(ref);
            if (parameter instanceof Map<?, ?> p && p.containsKey("Default")) {
                return String.valueOf(p.get("Default"));
            }
            throw new IllegalArgumentException(where + ": !Ref " + ref + " names no local resource and no parameter with a default");
        }
        throw new IllegalArgumentException(where + ": cannot resolve " + describe(value) + " locally");
    }

    private static String describe(Object value) {
        if (value instanceof Map<?, ?> map && !map.isEmpty()) {
            return "intrinsic " + map.keySet().iterator().next();
        }
        return value instanceof List<?> ? "a list" : String.valueOf(value);
    }
}

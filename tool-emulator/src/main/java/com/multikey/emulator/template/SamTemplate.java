package com.multikey.emulator.template;


import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A SAM/CloudFormation template as plain maps and lists, its intrinsic functions in their long form whichever form the
 * file uses ({@link TemplateYaml} reads it): its sections and resources, and the template as a deploy sees it, with
 * parameter overrides ({@link ParameterOverrides}) and its conditions evaluated and applied.
 */
public final class SamTemplate {

    /** The value of {@code !Ref AWS::NoValue}: where a branch of {@code Fn::If} chooses it, the property is left out. */
    public static final Map<String, Object> NO_VALUE = Map.of("Ref", "AWS::NoValue");

    private final Path path;
    private final Map<String, Object> root;
    private Map<String, Boolean> conditions;

    private SamTemplate(Path path, Map<String, Object> root) {
        this.path = path;
        this.root = root;
    }

    public static SamTemplate load(Path path) {
        // absolute: the function jars are found beside the template, also when it was named by its file name alone
        return new SamTemplate(path.toAbsolutePath(), TemplateYaml.read(path));
    }

    /** The repository's {@code template.yaml}, found from the working directory up. */
    public static SamTemplate ofRepository() {
        return load(findUp("template.yaml"));
    }

    /** A file or folder of that name in the working directory or the nearest folder above it that has one. */
    public static Path findUp(String fileName) {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path candidate = dir.resolve(fileName);
            if (Files.exists(candidate)) {
                return candidate;
            }
        }
        throw new IllegalStateException(fileName + " not found in the working directory or above it");
    }

    public Path path() {
        return path;
    }

    public Map<String, Object> root() {
        return root;
    }

    public Map<String, Object> resources() {
        return map(root.get("Resources"), "Resources");
    }

    public Map<String, Object> parameters() {
        return root.containsKey("Parameters") ? map(root.get("Parameters"), "Parameters") : Map.of();
    }

    /**
     * This template with parameter values given as {@code sam deploy --parameter-overrides} gives them: each
     * replaces the parameter's {@code Default}, checked against its {@code AllowedValues}, {@code MinValue} and
     * {@code MaxValue} as CloudFormation checks them.
     *
     * @throws TemplateException when a parameter does not exist or a value breaks its constraints
     */
    public SamTemplate withParameterOverrides(Map<String, String> overrides) {
        Map<String, Object> parameters = ParameterOverrides.apply(parameters(), overrides);
        Map<String, Object> newRoot = new LinkedHashMap<>(root);
        newRoot.put("Parameters", parameters);
        SamTemplate overridden = new SamTemplate(path, newRoot);
        overridden.checkRules();
        return overridden;
    }

    /**
     * Checks the template's {@code Rules} over its parameter values, as CloudFormation does before it creates or
     * updates a stack.
     *
     * @throws TemplateException naming the rule and its {@code AssertDescription} when one fails
     */
    public void checkRules() {
        TemplateConditions.checkRules(this);
    }

    /** The template's {@code Conditions}, each evaluated over the parameter values, by name. */
    public synchronized Map<String, Boolean> conditions() {
        if (conditions == null) {
            conditions = java.util.Collections.unmodifiableMap(TemplateConditions.evaluate(this));
        }
        return conditions;
    }

    /**
     * @throws TemplateException when the template has no such condition
     */
    public boolean condition(String name) {
        Boolean value = conditions().get(name);
        if (value == null) {
            throw new TemplateException("the template has no condition " + name + " (conditions: " + conditions().keySet() + ")");
        }
        return value;
    }

    /** Whether a deploy creates the resource: it has no {@code Condition}, or its condition is true. */
    public boolean isCreated(String logicalId) {
        Object condition = resource(logicalId).get("Condition");
        return condition == null || condition(String.valueOf(condition));
    }

    /** The logical ids of the resources of one type a deploy creates (see {@link #isCreated}), in template order. */
    public List<String> createdResourcesOfType(String type) {
        return resourcesOfType(type).stream().filter(this::isCreated).toList();
    }

    /**
     * The branch {@code Fn::If} chooses: its second element when its condition (the first) is true, else its third.
     *
     * @throws TemplateException when the argument is not {@code [condition, then, else]} or names no condition
     */
    public Object branch(Object ifArgument, String where) {
        if (!(ifArgument instanceof List<?> parts) || parts.size() != 3 || !(parts.get(0) instanceof String condition)) {
            throw new TemplateException(where + ": Fn::If takes [condition name, value if true, value if false]");
        }
        if (!conditions().containsKey(condition)) {
            throw new TemplateException(where + ": Fn::If names no condition of the template: " + condition);
        }
        return condition(condition) ? parts.get(1) : parts.get(2);
    }

    /**
     * {@code node} as the stack has it once deployed: every {@code Fn::If} replaced by the branch it chooses, and every
     * property or list element that is {@code !Ref AWS::NoValue} left out ({@code null} when {@code node} itself is).
     * Other intrinsic functions stay as they are.
     */
    public Object applyConditions(Object node, String where) {
        if (node instanceof Map<?, ?> map) {
            if (NO_VALUE.equals(map)) {
                return null;
            }
            if (map.size() == 1 && map.containsKey("Fn::If")) {
                return applyConditions(branch(map.get("Fn::If"), where), where);
            }
            Map<String, Object> out = new LinkedHashMap<>();
            map.forEach((key, value) -> {
                Object applied = applyConditions(value, where + "." + key);
                if (applied != null) {
                    out.put((String) key, applied);
                }
            });
            return out;
        }
        if (node instanceof List<?> list) {
            List<Object> out = new java.util.ArrayList<>();
            for (Object element : list) {
                Object applied = applyConditions(element, where);
                if (applied != null) {
                    out.add(applied);
                }
            }
            return out;
        }
        return node;
    }

    /**
     * This template as a deploy with its parameter values creates it: only the resources and outputs whose
     * {@code Condition} holds (the {@code Condition} key itself dropped), with {@link #applyConditions} applied to
     * them and to {@code Globals}. Parameters and conditions stay, so {@code Ref} and the rest resolve as before.
     */
    public SamTemplate deployed() {
        Map<String, Object> newRoot = new LinkedHashMap<>(root);
        newRoot.put("Resources", created(resources(), "Resources"));
        if (root.get("Outputs") instanceof Map<?, ?> outputs) {
            newRoot.put("Outputs", created(map(outputs, "Outputs"), "Outputs"));
        }
        if (root.containsKey("Globals")) {
            newRoot.put("Globals", applyConditions(root.get("Globals"), "Globals"));
        }
        return new SamTemplate(path, newRoot);
    }

    private Map<String, Object> created(Map<String, Object> section, String name) {
        Map<String, Object> out = new LinkedHashMap<>();
        section.forEach((logicalId, value) -> {
            Map<String, Object> entry = new LinkedHashMap<>(map(value, name + "." + logicalId));
            Object condition = entry.remove("Condition");
            if (condition == null || condition(String.valueOf(condition))) {
                out.put(logicalId, applyConditions(entry, name + "." + logicalId));
            }
        });
        return out;
    }

    public Map<String, Object> resource(String logicalId) {
        Object resource = resources().get(logicalId);
        if (resource == null) {
            throw new IllegalArgumentException("template has no resource " + logicalId);
        }
        return map(resource, logicalId);
    }

    public String typeOf(String logicalId) {
        return (String) resource(logicalId).get("Type");
    }

    public Map<String, Object> properties(String logicalId) {
        return map(resource(logicalId).getOrDefault("Properties", Map.of()), logicalId + ".Properties");
    }

    /** The logical ids of resources of one type, in template order. */
    public List<String> resourcesOfType(String type) {
        return resources().entrySet().stream()
                .filter(e -> type.equals(map(e.getValue(), e.getKey()).get("Type")))
                .map(Map.Entry::getKey)
                .toList();
    }

    @SuppressWarnings("unchecked")
    public static Map<String, Object> map(Object value, String what) {
        if (!(value instanceof Map<?, ?>)) {
            throw new IllegalArgumentException(what + " is not a mapping");
        }
        return (Map<String, Object>) value;
    }
}

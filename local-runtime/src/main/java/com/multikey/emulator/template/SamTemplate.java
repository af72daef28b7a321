package com.multikey.emulator.template;

import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.AbstractConstruct;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A SAM/CloudFormation template read as plain maps and lists. The short intrinsic-function tags
 * ({@code !Ref}, {@code !GetAtt}, {@code !Sub}, ...) become their long form ({@code {"Ref": ...}},
 * {@code {"Fn::GetAtt": [...]}}), so code reads one shape whichever the template uses.
 */
public final class SamTemplate {

    private static final List<String> FUNCTIONS = List.of("Base64", "Cidr", "FindInMap", "GetAtt", "GetAZs",
            "ImportValue", "Join", "Select", "Split", "Sub", "Transform", "And", "Equals", "If", "Not", "Or",
            "ToJsonString", "Length");

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
        try {
            String text = Files.readString(path);
            Object parsed = new Yaml(new IntrinsicConstructor()).load(text);
            if (!(parsed instanceof Map<?, ?> map)) {
                throw new IllegalArgumentException(path + " is not a YAML mapping");
            }
            @SuppressWarnings("unchecked")
            Map<String, Object> root = (Map<String, Object>) map;
            // absolute: the function jars are found beside the template, also when it was named by its file name alone
            return new SamTemplate(path.toAbsolutePath(), root);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + path, e);
        }
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
        Map<String, Object> parameters = new LinkedHashMap<>(parameters());
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

    /** Reads {@code !Ref x} as {@code {Ref: x}} and {@code !Fn x} as {@code {Fn::Fn: x}}. */
    private static final class IntrinsicConstructor extends SafeConstructor {

        IntrinsicConstructor() {
            super(new LoaderOptions());
            yamlConstructors.put(new Tag("!Ref"), new Intrinsic("Ref"));
            // a condition named inside a condition function: its long form is {"Condition": name}, without Fn::
            yamlConstructors.put(new Tag("!Condition"), new Intrinsic("Condition"));
            for (String function : FUNCTIONS) {
                yamlConstructors.put(new Tag("!" + function), new Intrinsic("Fn::" + function));
            }
        }

        private final class Intrinsic extends AbstractConstruct {
            private final String name;

            Intrinsic(String name) {
                this.name = name;
            }

            @Override
            public Object construct(Node node) {
                Object value;
                if (node instanceof ScalarNode scalar) {
                    String text = scalar.getValue();
                    value = name.equals("Fn::GetAtt") ? Arrays.asList(text.split("\\.", 2)) : text;
                } else if (node instanceof SequenceNode sequence) {
                    value = constructSequence(sequence);
                } else {
                    value = constructMapping((MappingNode) node);
                }
                Map<String, Object> intrinsic = new LinkedHashMap<>();
                intrinsic.put(name, value);
                return intrinsic;
            }
        }
    }
}

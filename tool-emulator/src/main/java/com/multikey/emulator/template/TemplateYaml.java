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
 * Reads a template's YAML into plain maps and lists. The short intrinsic-function tags ({@code !Ref},
 * {@code !GetAtt}, {@code !Sub}, ...) become their long form ({@code {"Ref": ...}}, {@code {"Fn::GetAtt": [...]}}),
 * so code reads one shape whichever the template uses.
 */
final class TemplateYaml {

    private static final List<String> FUNCTIONS = List.of("Base64", "Cidr", "FindInMap", "GetAtt", "GetAZs",
            "ImportValue", "Join", "Select", "Split", "Sub", "Transform", "And", "Equals", "If", "Not", "Or",
            "ToJsonString", "Length");

    private TemplateYaml() {
    }

    /** The template's root mapping. */
    static Map<String, Object> read(Path path) {
        try {
            String text = Files.readString(path);
            Object parsed = new Yaml(new IntrinsicConstructor()).load(text);
            if (!(parsed instanceof Map<?, ?> map)) {
                throw new IllegalArgumentException(path + " is not a YAML mapping");
            }
            @SuppressWarnings("unchecked")
            Map<String, Object> root = (Map<String, Object>) map;
            return root;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + path, e);
        }
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

package com.multikey.templatechecks;

import com.multikey.emulator.template.SamTemplate;

import java.util.List;
import java.util.Map;
import java.util.Objects;

import static com.multikey.emulator.template.SamTemplate.map;
import static org.assertj.core.api.Assertions.assertThat;

/** The template's stream event source mappings ({@code AWS::Lambda::EventSourceMapping}), read as a deploy makes them. */
final class StreamMappings {

    static final String TYPE = "AWS::Lambda::EventSourceMapping";

    private StreamMappings() {
    }

    /** The logical ids of the mappings {@code deployed} creates that invoke {@code function}. */
    static List<String> invoking(SamTemplate deployed, String function) {
        return deployed.resourcesOfType(TYPE).stream()
                .filter(mapping -> function.equals(functionOf(deployed.properties(mapping))))
                .toList();
    }

    /** The properties of the one mapping {@code deployed} creates for {@code function} (a stack has one a function). */
    static Map<String, Object> of(SamTemplate deployed, String function) {
        List<String> mappings = invoking(deployed, function);
        assertThat(mappings).as("the event source mappings of %s", function).hasSize(1);
        return deployed.properties(mappings.get(0));
    }

    /** The function a mapping's {@code FunctionName} names: {@code !Ref <function>.Alias}, the alias SAM publishes. */
    static String functionOf(Map<String, Object> mapping) {
        Object ref = map(mapping.get("FunctionName"), "FunctionName").get("Ref");
        String name = Objects.requireNonNull((String) ref, "FunctionName is a !Ref");
        return name.endsWith(".Alias") ? name.substring(0, name.length() - ".Alias".length()) : name;
    }
}

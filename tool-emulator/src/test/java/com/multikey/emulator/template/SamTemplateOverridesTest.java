package com.multikey.emulator.template;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SamTemplateOverridesTest {

    private final SamTemplate template = SamTemplate.ofRepository();

    @Test
    void withParameterOverrides_replacesTheDefault_whereARefResolvesIt() {
        SamTemplate overridden = template.withParameterOverrides(Map.of("StreamIndexerParallelizationFactor", "7"));

        Object property = overridden.properties("StreamIndexerFunctionAppTableStream").get("ParallelizationFactor");
        assertThat(TemplateEnvironment.resolve(property, overridden, Map.of(), "test")).isEqualTo("7");
        assertThat(TemplateEnvironment.resolve(property, template, Map.of(), "test")).isEqualTo("2");
    }

    @Test
    void withParameterOverrides_checksTheParametersConstraints() {
        assertThatThrownBy(() -> template.withParameterOverrides(Map.of("RouterParallelizationFactor", "11")))
                .isInstanceOf(TemplateException.class).hasMessageContaining("outside 1..10");
        assertThatThrownBy(() -> template.withParameterOverrides(Map.of("RouterParallelizationFactor", "two")))
                .isInstanceOf(TemplateException.class).hasMessageContaining("not a number");
        assertThatThrownBy(() -> template.withParameterOverrides(Map.of("IncludeImagesInEvents", "maybe")))
                .isInstanceOf(TemplateException.class).hasMessageContaining("not one of");
        assertThatThrownBy(() -> template.withParameterOverrides(Map.of("NoSuchParameter", "1")))
                .isInstanceOf(TemplateException.class).hasMessageContaining("no such parameter");
    }
}
